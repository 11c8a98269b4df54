#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; install it when it is missing (needs root).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[setup] installing Debian's chromium" >&2
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >&2
