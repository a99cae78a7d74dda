#!/usr/bin/env bash
# Run the project's test suite: the static checks (tox: ruff, mypy over the core, the import
# contracts, the strict documentation build), fast unit tests in parallel (the command of
# `tox -e unit`, run from .venv), the end-to-end tests in real containers, then the tasks' own validation (for every task the
# reference solution scores 1, no near miss of its result does, doing nothing and the wrong
# solution score 0, and two resets look the same) of the tasks whose inputs changed since
# validation-state.json, plus one task per image family: tasks/, then the Spider2-V sample and the
# InfiAgent-DABench dev set beside the checkout (../shared, or $SPIDER2V_SHARED). A task whose environment or setup fails on the busy machine (a
# service not ready in time) starts over once on a fresh one (--retries 1); a score is never retried.
# The full validation is `pytest tasks/ --validate -n 2` (docs/validation/index.md). Extra
# arguments go to the first two pytest runs (e.g. -x, -k name).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --tests
.venv/bin/tox -e lint,type,imports,docs
.venv/bin/python -m pytest tests/ -m "not e2e" -n 2 -q "$@"
.venv/bin/python -m pytest tests/ -m e2e -q -rs --durations=15 "$@"
.venv/bin/python -m pytest tasks/ --validate-changed -n 2 --retries 1 -q -rfE --durations=20
shared="${SPIDER2V_SHARED:-../shared}"
# validate_shared WHAT PATH [ARGS]: --validate-changed the shared input at PATH; without it a run
# under CI fails (a skip would hide that its tasks were never checked), any other run says so and
# goes on. The sample runs with --cloud emulate: its account tasks that an emulator can serve are
# validated against it (tasks without an account run as ever).
validate_shared() {
    if [ -d "$2" ]; then
        .venv/bin/python -m pytest "$2" "${@:3}" --validate-changed -n 2 --retries 1 -q -rfE --durations=20
    elif [[ "$(echo "${CI:-}" | tr '[:upper:]' '[:lower:]')" =~ ^(|0|false)$ ]]; then
        echo "test.sh: no $1 at $2 (set SPIDER2V_SHARED); its validation is skipped"
    else
        echo "test.sh: no $1 at $2 (set SPIDER2V_SHARED)" >&2
        exit 1
    fi
}
validate_shared "Spider2-V sample" "$shared/spider2v-sample/evaluation_examples/examples" --cloud emulate
validate_shared "InfiAgent-DABench dev set" "$shared/infiagent-dabench"
