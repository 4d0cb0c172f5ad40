"""The guard against llama.cpp's Intel AMX kernels, which segfaulted on this project's VM."""

from __future__ import annotations

import llama_cpp
import pytest

from clauselens.errors import ModelUnavailableError
from clauselens.llm import llamacpp_chat
from clauselens.llm.llamacpp_chat import _cpu_flags, amx_risk, shared_llama

AMX_BUILD = "CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 | OPENMP = 1 | REPACK = 1 | "
SAFE_BUILD = "CPU : SSE3 = 1 | AVX2 = 1 | AVX512 = 1 | AVX512_BF16 = 1 | OPENMP = 1 | REPACK = 1 | "
SPR_FLAGS = " fpu avx2 avx512f avx512_vnni amx_bf16 amx_tile amx_int8"


def test_amx_risk_needs_both_the_build_and_the_cpu() -> None:
    assert amx_risk(AMX_BUILD, SPR_FLAGS)
    assert not amx_risk(SAFE_BUILD, SPR_FLAGS)
    assert not amx_risk(AMX_BUILD, " fpu avx2 avx512f")
    assert not amx_risk(AMX_BUILD, " fpu avx2 amx_int8x")  # whole flags only


def test_the_installed_build_does_not_run_amx_kernels_on_this_cpu() -> None:
    # scripts/setup.sh builds llama-cpp-python with -mno-amx-*; before that, every model call on
    # a Sapphire-Rapids-class machine died in ggml_backend_amx_mul_mat
    assert not amx_risk(llama_cpp.llama_print_system_info().decode(errors="replace"), _cpu_flags())


def test_a_risky_build_is_refused_with_the_rebuild_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llama_cpp, "llama_print_system_info", lambda: AMX_BUILD.encode())
    monkeypatch.setattr(llamacpp_chat, "_cpu_flags", lambda: SPR_FLAGS)
    with pytest.raises(ModelUnavailableError, match="AMX.*-mno-amx-int8.*ALLOW_AMX"):
        shared_llama("/nonexistent/model.gguf", 512, 1)
    # allowed: the check is skipped and loading proceeds (here to the missing-file error)
    with pytest.raises(ModelUnavailableError, match="cannot load model file"):
        shared_llama("/nonexistent/model.gguf", 512, 1, allow_amx=True)
