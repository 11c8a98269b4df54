#!/usr/bin/env bash
# Create .venv and install tilelayout with the extras named in $TILELAYOUT_EXTRAS
# (comma-separated). Re-runs are cheap: a stamp records what was installed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
extras="${TILELAYOUT_EXTRAS:-}"
if [ ! -x .venv/bin/python ]; then
    echo "[setup] creating virtual environment in .venv" >&2
    "$python" -m venv .venv
fi
stamp=".venv/.tilelayout-$(cat pyproject.toml | sha1sum | cut -c1-12)-${extras//,/_}"
if [ ! -f "$stamp" ]; then
    echo "[setup] installing tilelayout${extras:+[$extras]}" >&2
    .venv/bin/python -m pip install -q --upgrade pip >&2 || true
    .venv/bin/python -m pip install -q -e ".${extras:+[$extras]}" >&2
    touch "$stamp"
fi
