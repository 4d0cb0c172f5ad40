"""How MiniLM runs on this CPU: PyTorch against ONNX Runtime (fp32, graph-optimised, int8) and
bfloat16, side by side in one process (issue #42: "add one agreement <= 2 s", where MiniLM
embedding was 2.2 s of 3.1 s).

The passages (``library_passages`` + ``embed_text``, as ``Library.add`` embeds them) of ``--files``
CUAD TXT agreements (the add-one file of ``benchmarks/library_scale_replay.py`` first, as
``benchmarks/embed_passages_speed.py`` picks them) are embedded one agreement per call (an add) by
all-MiniLM-L6-v2 through sentence-transformers (which sorts a call's texts by length before
batching), each variant ``--rounds`` times, rounds interleaved (odd rounds in reverse order):

* ``torch_bs8_t1``: PyTorch float32, batch 8, one thread -- the product before this change
  (the reference of every ratio and cosine);
* ``onnx_bs{1,4,8}_t1``: sentence-transformers' ONNX backend (ONNX Runtime, CPU provider,
  one intra-op thread) over ``model.onnx`` exported locally from the provisioned weights
  (:func:`clauselens.retrieval.embedders.onnx_model_dir`; ONNX Runtime applies its own graph
  optimisations when the session is created);
* ``onnx_O2_bs4_t1``: optimum's O2 offline graph optimisation (fused attention, LayerNorm, GELU);
* ``onnx_int8_bs4_t1``: optimum's dynamic int8 quantisation for AVX-512 VNNI
  (``export_dynamic_quantized_onnx_model(model, "avx512_vnni")``; a per-channel configuration
  gave the same graph and vectors, so it is not listed);
* ``torch_bf16_bs8_t1``: PyTorch under ``torch.autocast("cpu", torch.bfloat16)`` (the CPU has
  AVX512-BF16).

Two threads were left out: the machine's two vCPUs are shared by five people's jobs, and a first
run (load 8) gave two threads more CPU and no shorter wall time.

Reported per variant: median wall and process-CPU seconds of the whole set; the CPU ratio to the
reference per (agreement, round) pair, mean with a 95 % t-interval (n = files x rounds); and the
vectors against the reference's: cosine min / mean, largest absolute difference per dimension,
and the mean share of each passage's 10 nearest other passages (by cosine, among all the
agreements' passages) that the reference also has in its 10 nearest (``nn10_overlap``, a
retrieval-order proxy).

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m benchmarks.embed_runtime
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from benchmarks.embed_passages_speed import CUAD_TXT, FIRST, passages_of

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "embed_runtime.json"
CACHE = Path("~/.cache/clauselens/bench/embed_runtime").expanduser()
REFERENCE = "torch_bs8_t1"


def models(cache: Path, only: Sequence[str] = ()) -> dict[str, tuple[Any, int, int, Callable[[], Any]]]:
    """``name -> (SentenceTransformer, batch size, threads, context factory)`` (``only``: these and
    the reference); exports on first use."""
    import onnxruntime as ort
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.backend import export_dynamic_quantized_onnx_model, export_optimized_onnx_model

    from clauselens.retrieval.embedders import _minilm_path, onnx_model_dir

    src = _minilm_path()
    onnx_dir = onnx_model_dir(src, cache, "minilm")

    def ort_model(file_name: str, threads: int) -> Any:
        so = ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
        return SentenceTransformer(str(onnx_dir), device="cpu", backend="onnx", model_kwargs={
            "file_name": file_name, "provider": "CPUExecutionProvider", "session_options": so})

    exports = {"model_O2.onnx": lambda m: export_optimized_onnx_model(m, "O2", str(onnx_dir)),
               "model_qint8_avx512_vnni.onnx": lambda m: export_dynamic_quantized_onnx_model(m, "avx512_vnni", str(onnx_dir))}
    base = ort_model("model.onnx", 1)
    for fname, export in exports.items():
        if not (onnx_dir / "onnx" / fname).exists():
            export(base)
    import torch

    torch_model = SentenceTransformer(str(src), device="cpu")
    none = contextlib.nullcontext
    out: dict[str, tuple[Any, int, int, Callable[[], Any]]] = {REFERENCE: (torch_model, 8, 1, none)}
    out.update({f"onnx_bs{b}_t1": (base, b, 1, none) for b in (1, 4, 8)})
    out["onnx_O2_bs4_t1"] = (ort_model("model_O2.onnx", 1), 4, 1, none)
    out["onnx_int8_bs4_t1"] = (ort_model("model_qint8_avx512_vnni.onnx", 1), 4, 1, none)
    out["torch_bf16_bs8_t1"] = (torch_model, 8, 1, lambda: torch.autocast("cpu", dtype=torch.bfloat16))
    return {k: v for k, v in out.items() if not only or k in only or k == REFERENCE}


def _encode(model: Any, texts: list[str], bs: int) -> np.ndarray:
    v = model.encode(texts, batch_size=bs, convert_to_tensor=True, normalize_embeddings=True, show_progress_bar=False)
    v = v.float().cpu().numpy()
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


def nn_overlap(a: np.ndarray, b: np.ndarray, k: int = 10) -> float:
    """Mean share of each row's ``k`` nearest other rows (cosine) under ``a`` also nearest under ``b``."""
    def top(x: np.ndarray) -> np.ndarray:
        s = x @ x.T
        np.fill_diagonal(s, -np.inf)
        return np.argsort(-s, axis=1)[:, :k]
    ta, tb = top(a), top(b)
    return float(np.mean([len(set(p) & set(q)) / k for p, q in zip(ta.tolist(), tb.tolist())]))


def mean_ci(xs: Sequence[float]) -> dict:
    """Mean with a 95 % t-interval."""
    from scipy.stats import t

    m = float(np.mean(xs))
    h = float(t.ppf(0.975, len(xs) - 1) * np.std(xs, ddof=1) / len(xs) ** 0.5) if len(xs) > 1 else 0.0
    return {"mean": round(m, 4), "ci95": [round(m - h, 4), round(m + h, 4)], "n": len(xs)}


def run(files: Sequence[Path], rounds: int, cache: Path, only: Sequence[str] = ()) -> dict:
    import torch

    texts = passages_of(files)
    variants = models(cache, only)
    cpu: dict[str, list[list[float]]] = {k: [] for k in variants}  # [round][file]
    wall: dict[str, list[float]] = {k: [] for k in variants}
    vecs: dict[str, np.ndarray] = {}
    names = list(variants)
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            model, bs, threads, ctx = variants[name]
            torch.set_num_threads(threads)
            per_file, got = [], []
            w = time.perf_counter()
            for t in texts:
                c = time.process_time()
                with ctx():
                    got.append(_encode(model, t, bs))
                per_file.append(time.process_time() - c)
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(per_file)
            if r == 0:
                vecs[name] = np.vstack(got)
        print(f"[embed_runtime] round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    ref = vecs[REFERENCE]
    out = {}
    for name in names:
        cos = (vecs[name] * ref).sum(axis=1)
        ratios = [c / rc for rr, rref in zip(cpu[name], cpu[REFERENCE]) for c, rc in zip(rr, rref)]
        out[name] = {"median_wall_s": round(statistics.median(wall[name]), 3),
                     "median_cpu_s": round(statistics.median(sum(x) for x in cpu[name]), 3),
                     "cpu_ratio_to_reference": mean_ci(ratios),
                     "cosine_to_reference_min": round(float(cos.min()), 6), "cosine_to_reference_mean": round(float(cos.mean()), 6),
                     "max_abs_diff": float(f"{np.abs(vecs[name] - ref).max():.3g}"),
                     "nn10_overlap": round(nn_overlap(vecs[name], ref), 4)}
    return {"files": [f.name for f in files], "passages": [len(t) for t in texts], "rounds": rounds,
            "reference": REFERENCE, "variants": out}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=6, help="CUAD TXT agreements (the add-one file first)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", type=Path, default=CACHE, help="where the exported ONNX graphs are kept")
    ap.add_argument("--only", nargs="*", default=(), help="these variants (and the reference) only")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    sized = [p for p in sorted(CUAD_TXT.rglob("*.txt")) if 20_000 < p.stat().st_size < 60_000 and p.name != FIRST]
    files = [*CUAD_TXT.rglob(FIRST), *sized][:a.files]
    load0 = os.getloadavg()[0]
    res = run(files, a.rounds, a.cache, a.only)
    from importlib.metadata import version

    res.update({"benchmark": "embed_runtime", "issue": 42, "method": __doc__.split("\n\n")[1:4],
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "load_1min_before": round(load0, 2), "load_1min_after": round(os.getloadavg()[0], 2),
                "versions": {p: version(p) for p in ("torch", "sentence-transformers", "onnxruntime", "optimum-onnx")},
                "command": " ".join(["python", "-m", "benchmarks.embed_runtime", *(argv if argv is not None else sys.argv[1:])]),
                "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                                    capture_output=True, text=True).stdout.strip()})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res["variants"], indent=1))


if __name__ == "__main__":
    main()
