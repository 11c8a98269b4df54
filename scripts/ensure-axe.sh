#!/usr/bin/env bash
# The browser tests' accessibility check uses axe-core (Deque's maintained checker), from the
# npm registry, installed into .cache/axe (not committed). A no-op when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/axe
if [ -f "$dest/node_modules/axe-core/axe.min.js" ]; then exit 0; fi
if ! command -v npm >/dev/null; then
  echo "[setup] npm is missing: installing Debian's npm" >&2
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >&2
fi
echo "[setup] installing axe-core into $dest" >&2
mkdir -p "$dest"
npm install --prefix "$dest" --no-audit --no-fund --silent axe-core@4.10 >&2
