#!/usr/bin/env bash
# Run the benchmark. With no arguments: every project task with the reference-solution agent
# on two workers, writing results/ and the HTML report results/report.html.
# With arguments, they are passed to pytest instead (e.g. tasks/ --agent noop -m "calc and easy").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
if [ $# -eq 0 ]; then
    set -- tasks/ --agent oracle -n 2
fi
exec .venv/bin/python -m pytest "$@" --html=results/report.html --self-contained-html
