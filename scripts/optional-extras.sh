#!/usr/bin/env bash
# Optional interop tools used by the differential/cross-tool tests. Each is tried on
# its own; one that cannot install here leaves its tests skipped with that reason.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
for extra in ${TILELAYOUT_OPTIONAL:-}; do
    stamp=".venv/.optional-$extra-$(sha1sum pyproject.toml | cut -c1-12)"
    [ -f "$stamp" ] && continue
    echo "[setup] optional extra: $extra" >&2
    if .venv/bin/python -m pip install -q -e ".[$extra]" >&2; then
        touch "$stamp"
    else
        echo "[setup] warning: optional extra '$extra' did not install; its tests will skip" >&2
    fi
done
exit 0
