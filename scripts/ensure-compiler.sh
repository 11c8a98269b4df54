#!/usr/bin/env bash
# The code-generation tests compile generated C / C++ / CUDA-as-C++ with the system
# compiler; install Debian's build-essential when cc or g++ is missing (needs root).
set -euo pipefail
if command -v cc >/dev/null && command -v g++ >/dev/null; then exit 0; fi
echo "[setup] installing build-essential (C and C++ compilers)" >&2
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq build-essential >&2
