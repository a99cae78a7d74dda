#!/usr/bin/env bash
# Run the project's test suite: the static checks (tox: ruff, mypy over the core, the import
# contracts), fast unit tests in parallel (the command of `tox -e unit`, run from .venv), the
# end-to-end tests in real containers, then the task suite's own validation (`pytest tasks/
# --validate -n 2`: for every task the reference solution scores 1, doing nothing and the wrong
# solution score 0, and two resets look the same). Extra arguments go to the first two pytest
# runs (e.g. -x, -k name).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
.venv/bin/tox -e lint,type,imports
.venv/bin/python -m pytest tests/ -m "not e2e" -n 2 -q "$@"
.venv/bin/python -m pytest tests/ -m e2e -q -rs --durations=15 "$@"
.venv/bin/python -m pytest tasks/ --validate -n 2 -q -rfE --durations=20
