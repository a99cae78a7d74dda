#!/usr/bin/env bash
# scripts/swarm-lab.sh up|down|env: a Docker Swarm of three nodes on this one machine, to run and
# test `--provider swarm` where no cluster exists.
#
# Each node is a container running Docker's engine (Docker-in-Docker, from Debian's docker.io on
# the project's base image); beside them runs an image registry (Debian's docker-registry). All sit
# on a network the script creates (`spider2v-lab`); nothing else is reached. The nodes cannot run
# `--privileged` here (CAP_SYS_RESOURCE is missing from this machine's bounding set), so they get
# every capability but that one, no seccomp or AppArmor profile, the host's cgroups, and storage of
# their own (reference: ../shared/reference/environment-notes.md).
#
#   up     build the node and registry images, start the registry and the nodes, form the Swarm,
#          and print the run's options (as `env` does)
#   env    the options that point a run at the lab: SPIDER2V_SWARM_MANAGER (node1's engine API),
#          SPIDER2V_SWARM_REGISTRY (the registry, 127.0.0.1:5001 on the host and on every node),
#          SPIDER2V_SWARM_NODE_ENGINE (each node's engine API, where the harness reads its evidence)
#   down   remove every container, volume and network of the lab
#
# SPIDER2V_LAB_NODES (default 3) sets the number of nodes. The base image comes from
# `spider2v-build` (any recipe builds it first).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lab=spider2v-lab
nodes="${SPIDER2V_LAB_NODES:-3}"
registry_port=5001
base=spider2v/base:bookworm
# What Docker-in-Docker needs here, in place of --privileged (see above).
node_options=(--cap-add ALL --cap-drop SYS_RESOURCE --security-opt seccomp=unconfined
              --security-opt apparmor=unconfined --security-opt systempaths=unconfined
              --cgroupns host -v /sys/fs/cgroup:/sys/fs/cgroup:rw)

address() {  # the lab-network address of container $1
    docker inspect -f "{{(index .NetworkSettings.Networks \"$lab\").IPAddress}}" "$1"
}

print_env() {
    echo "SPIDER2V_SWARM_MANAGER=tcp://$(address "$lab-node1"):2375"
    echo "SPIDER2V_SWARM_REGISTRY=127.0.0.1:$registry_port"
    echo "SPIDER2V_SWARM_NODE_ENGINE=tcp://{address}:2375"
}

wait_for() {  # wait_for SECONDS COMMAND...: until the command succeeds
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        if ((SECONDS > deadline)); then echo "swarm-lab: timed out waiting for: $*" >&2; return 1; fi
        sleep 1
    done
}

up() {
    if ! docker image inspect "$base" >/dev/null 2>&1; then
        echo "swarm-lab: no $base image; build one first (.venv/bin/spider2v-build analysis)" >&2
        exit 1
    fi
    docker build -q --network host --build-arg "BASE=$base" -t "$lab/node" -f "$here/swarm-lab/node.Dockerfile" "$here/swarm-lab" >/dev/null
    docker build -q --network host --build-arg "BASE=$base" -t "$lab/registry" -f "$here/swarm-lab/registry.Dockerfile" "$here/swarm-lab" >/dev/null
    docker network inspect "$lab" >/dev/null 2>&1 || docker network create --label "$lab=1" "$lab" >/dev/null
    if ! docker container inspect "$lab-registry" >/dev/null 2>&1; then
        docker volume create --label "$lab=1" "$lab-registry" >/dev/null
        docker run -d --name "$lab-registry" --network "$lab" --label "$lab=1" --restart unless-stopped \
            -p "127.0.0.1:$registry_port:5000" -v "$lab-registry:/var/lib/docker-registry" "$lab/registry" >/dev/null
    fi
    for n in $(seq 1 "$nodes"); do
        docker container inspect "$lab-node$n" >/dev/null 2>&1 && continue
        docker volume create --label "$lab=1" "$lab-node$n" >/dev/null
        docker run -d --name "$lab-node$n" --hostname "node$n" --network "$lab" --label "$lab=1" \
            "${node_options[@]}" -v "$lab-node$n:/var/lib/docker" "$lab/node" >/dev/null
    done
    for n in $(seq 1 "$nodes"); do wait_for 60 docker exec "$lab-node$n" docker info; done
    wait_for 30 curl -sf "http://127.0.0.1:$registry_port/v2/"
    local manager; manager="$(address "$lab-node1")"
    if [ "$(docker exec "$lab-node1" docker info -f '{{.Swarm.LocalNodeState}}')" != active ]; then
        docker exec "$lab-node1" docker swarm init --advertise-addr "$manager" >/dev/null
    fi
    local token; token="$(docker exec "$lab-node1" docker swarm join-token -q worker)"
    for n in $(seq 2 "$nodes"); do
        if [ "$(docker exec "$lab-node$n" docker info -f '{{.Swarm.LocalNodeState}}')" != active ]; then
            docker exec "$lab-node$n" docker swarm join --token "$token" "$manager:2377" >/dev/null
        fi
    done
    wait_for 60 sh -c "[ \"\$(docker exec $lab-node1 docker node ls -q --filter role=worker | wc -l)\" -ge $((nodes - 1)) ]"
    docker exec "$lab-node1" docker node ls >&2
    print_env
}

down() {
    local containers volumes
    containers="$(docker ps -aq --filter "label=$lab=1")"
    [ -z "$containers" ] || docker rm -f -v $containers >/dev/null
    volumes="$(docker volume ls -q --filter "label=$lab=1")"
    [ -z "$volumes" ] || docker volume rm $volumes >/dev/null
    docker network inspect "$lab" >/dev/null 2>&1 && docker network rm "$lab" >/dev/null
    echo "swarm-lab: down" >&2
}

case "${1:-}" in
    up) up ;;
    down) down ;;
    env) print_env ;;
    *) echo "usage: $0 up|down|env" >&2; exit 2 ;;
esac
