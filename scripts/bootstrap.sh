#!/usr/bin/env bash
# Prepare this machine for the benchmark: Docker engine (started if none runs), debootstrap,
# a virtualenv with the project installed (with the test, dev and accounts extras: pytest-xdist, tox, the cloud clients), and
# the environment images (reused when unchanged). With --tests, also Chromium, the browser the
# end-to-end tests open reports in.
# Safe to run again: each step only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
if [ "${1:-}" = "--tests" ]; then
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
    echo "bootstrap: starting dockerd"
    $SUDO sh -c 'nohup dockerd >/var/log/spider2v-dockerd.log 2>&1 &'
    for _ in $(seq 120); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
    docker info >/dev/null 2>&1 || { echo "bootstrap: dockerd did not start; see /var/log/spider2v-dockerd.log" >&2; exit 1; }
fi

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e ".[dev,accounts]"
# Cache bytecode now: the project's modules, and pytest's assertion-rewritten plugins (anyio,
# pytest-html, xdist, ...), which only a pytest run writing bytecode caches. Where
# PYTHONDONTWRITEBYTECODE is set no run ever would, and every pytest start and xdist worker
# would compile them again (0.3 s of a 1 s collection).
.venv/bin/python -m compileall -q pytest_spider2v >/dev/null
env -u PYTHONDONTWRITEBYTECODE .venv/bin/pytest --help >/dev/null

.venv/bin/spider2v-build
