# The lab's image registry: Debian's docker-registry package (the Distribution registry), without
# authentication, for the lab network only.
ARG BASE=spider2v/base:bookworm
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker-registry \
 && rm -rf /var/lib/apt/lists/*
COPY registry.yml /etc/docker/registry/lab.yml
EXPOSE 5000
CMD ["docker-registry", "serve", "/etc/docker/registry/lab.yml"]
