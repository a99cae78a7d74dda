#!/bin/sh
# Forward the loopback's registry port to the lab's registry, then run the engine. The engine's
# API listens on the lab network too (tcp 2375, no TLS: the lab network is this machine's own).
set -eu
socat TCP-LISTEN:5001,bind=127.0.0.1,fork,reuseaddr "TCP:${LAB_REGISTRY:-spider2v-lab-registry:5000}" &
exec dockerd --host unix:///var/run/docker.sock --host tcp://0.0.0.0:2375 "$@"
