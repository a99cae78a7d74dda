#!/usr/bin/env bash
# Run the project's test suite: fast unit tests in parallel, then the end-to-end tests in real
# containers (which also run every task with the oracle and noop agents). Extra arguments go to
# both pytest runs (e.g. -x, -k name).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
.venv/bin/python -m pytest tests/ -m "not e2e" -n 2 -q "$@"
.venv/bin/python -m pytest tests/ -m e2e -q -rs "$@"
