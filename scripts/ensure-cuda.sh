#!/usr/bin/env bash
# NVIDIA's CUDA compiler from Python packages, for the PTX proof tests (tests/ptx/):
# nvcc + ptxas (nvidia-cuda-nvcc, with its nvvm / crt / runtime dependencies), the CUDA
# C++ headers nvcc's <cuda_fp16.h> needs (nvidia-cuda-cccl: <nv/target>), and nvdisasm /
# cuobjdump for SASS counts -- the `cuda` extra of pyproject.toml. No GPU is needed: the
# tests compile to PTX / cubin only. The packages are installed into the virtual
# environment ($TILELAYOUT_VENV, default .venv) without reinstalling tilelayout itself.
# One that cannot install here leaves the tests that compile CUDA skipped, with that
# reason (TILELAYOUT_STRICT=1 turns the skip into a failure).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${TILELAYOUT_VENV:-.venv}"
py="$venv/bin/python"
stamp="$venv/.cuda-$(sha1sum pyproject.toml | cut -c1-12)"
[ -f "$stamp" ] && exit 0
reqs="$("$py" - <<'PY'
import tomllib
with open("pyproject.toml", "rb") as f:
    print(" ".join(tomllib.load(f)["project"]["optional-dependencies"]["cuda"]))
PY
)" || { echo "[setup] warning: no 'cuda' extra in pyproject.toml" >&2; exit 0; }
echo "[setup] CUDA toolchain packages: $reqs" >&2
# shellcheck disable=SC2086  # one requirement per word
if "$py" -m pip install -q $reqs >&2 && "$py" -c "import sys; sys.path.insert(0, '.'); \
from tests.ptx.toolchain import tools; t = tools(); \
sys.exit(0 if t.nvcc and t.ptxas else 1)"; then
    touch "$stamp"
else
    echo "[setup] warning: the CUDA toolchain did not install; the tests that compile CUDA will skip" >&2
fi
exit 0
