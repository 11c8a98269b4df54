#!/usr/bin/env bash
# The main job: set up .venv and start the explorer on its built-in presets.
# Without --port it starts at $TILELAYOUT_PORT (default 8000) and moves on to the next free
# port when that one is taken (after 20 busy ports the system picks one); the explorer prints
# the URL it serves. TILELAYOUT_PYTHON names an interpreter that already has tilelayout
# installed (then .venv is not set up).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ -n "${TILELAYOUT_PYTHON:-}" ]; then
    python="$TILELAYOUT_PYTHON"
else
    bash scripts/bootstrap.sh
    python=.venv/bin/python
fi
host=127.0.0.1
port=
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
        --port) port="${args[i+1]:-}" ;;
        --port=*) port="${args[i]#--port=}" ;;
        --host) host="${args[i+1]:-}" ;;
        --host=*) host="${args[i]#--host=}" ;;
    esac
done
if [ -z "$port" ]; then
    first="${TILELAYOUT_PORT:-8000}"
    port="$("$python" - "$host" "$first" <<'PY'
import socket
import sys

host, first = sys.argv[1], int(sys.argv[2])
for port in range(first, min(first + 20, 65536)):
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind(address)
    except OSError:
        continue
    print(port)
    break
else:
    print(0)
PY
)"
    if [ "$port" != "$first" ]; then
        echo "[explore] port $first is taken; serving on ${port/#0/a free port} instead" >&2
    fi
    args+=(--port "$port")
fi
exec "$python" -m tilelayout serve "${args[@]}"
