#!/usr/bin/env bash
# The whole test suite from a fresh clone: sets up .venv, Chromium, a C/C++ compiler, the
# optional interop tools and NVIDIA's CUDA compiler (scripts/ensure-cuda.sh), runs ruff and
# pytest (unit, property, CLI, browser, interop tests).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
TILELAYOUT_EXTRAS=test,docs,widget bash scripts/bootstrap.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-compiler.sh
bash scripts/ensure-axe.sh
TILELAYOUT_OPTIONAL="${TILELAYOUT_OPTIONAL-tvm jax cute cute-dsl triton}" bash scripts/optional-extras.sh
bash scripts/ensure-cuda.sh
echo "[test] ruff" >&2
.venv/bin/ruff check src tests benchmarks
# two workers (the CI machine has two cores), each test file on one worker so a file's
# fixtures (a browser, a server, Triton's child) start once; TILELAYOUT_TEST_WORKERS=0
# runs everything in this process
workers="${TILELAYOUT_TEST_WORKERS-2}"
echo "[test] pytest ($workers workers)" >&2
if [ "$workers" = "0" ]; then
  TILELAYOUT_STRICT=1 exec .venv/bin/python -m pytest -q "$@"
fi
TILELAYOUT_STRICT=1 exec .venv/bin/python -m pytest -q -n "$workers" --dist loadfile "$@"
