# A lab node: Docker's engine from Debian's packages (docker.io) on the project's base image, run
# as a container (Docker-in-Docker) by scripts/swarm-lab.sh. The lab's registry is reached as
# 127.0.0.1:5001 on every node, as on the host, so an image has one name everywhere; Docker trusts
# a registry on the loopback without TLS. procps: the engine answers `docker top` (the process
# table the harness reads as evidence) by running the node's own `ps`, as on any real host.
ARG BASE=spider2v/base:bookworm
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker.io iptables procps socat ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY node-entrypoint.sh /usr/local/bin/node-entrypoint
RUN chmod 0755 /usr/local/bin/node-entrypoint
VOLUME /var/lib/docker
ENTRYPOINT ["node-entrypoint"]
