#!/usr/bin/env bash
# The main job: set up .venv and start the explorer on its built-in presets.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh
exec .venv/bin/tilelayout serve "$@"
