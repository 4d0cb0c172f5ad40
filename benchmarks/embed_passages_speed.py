"""Embedding one agreement's library passages with MiniLM on this CPU: the levers of issue #42's
"add one agreement <= 2 s", measured rather than assumed.

The passages (``library_passages`` + ``embed_text``, as ``Library.add`` embeds them) of ``--files``
CUAD TXT agreements (the add-one file of ``benchmarks/library_scale_replay.py`` first) are embedded
by all-MiniLM-L6-v2 (sentence-transformers, which already sorts a call's texts by length before
batching) in one process, each variant ``--rounds`` times, rounds interleaved:

* ``batch_size`` 4 / 8 / 16 / 32 (32 was clauselens' default; smaller batches pad less), one call
  per agreement (an add), and 8 / 32 with every agreement's passages in one call (``bulk_``: a
  library built at once, where sorting by length leaves little padding);
* torch threads 1 and 2 (the machine has 2 cores; the product uses torch's default);
* torch dynamic int8 quantisation of the Linear layers (``torch.ao.quantization.quantize_dynamic``,
  per-tensor and per-channel weights), scored by the cosine of its vectors to the float32 model's
  (a library's stored vectors are the float32 model's: a quantised encoder would need the library
  to record it and its vectors re-embedded).

Reported: median wall and process-CPU seconds per variant, passages and word pieces (truncated at
the model's 256), and for int8 the min / mean cosine to float32.

    flock /tmp/clauselens-heavy.lock nice -n 5 .venv/bin/python -m benchmarks.embed_passages_speed
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

REPO = Path(__file__).resolve().parents[1]
CUAD_TXT = REPO.parent / "shared" / "data" / "cuad" / "full_contract_txt"
OUT = REPO / "benchmarks" / "results" / "embed_passages_speed.json"
FIRST = "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT.txt"


def passages_of(files: Sequence[Path]) -> list[list[str]]:
    from clauselens.library.passages import embed_text, library_passages
    from clauselens.parsing.store import parse_file

    return [[embed_text(c) for c in library_passages(parse_file(f))] for f in files]


def run(files: Sequence[Path], rounds: int) -> dict:
    import torch

    from clauselens.retrieval.embedders import load_embedder

    texts = passages_of(files)
    emb = load_embedder("minilm")
    model = emb.model  # type: ignore[attr-defined]
    pieces = [sum(min(len(x), model.max_seq_length) for x in model.tokenizer(t)["input_ids"]) for t in texts]
    torch.set_num_threads(1)
    ref = [emb.embed_passages(t) for t in texts]
    quant = {
        "int8_per_tensor": torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8),
        "int8_per_channel": torch.ao.quantization.quantize_dynamic(
            model, {torch.nn.Linear: torch.ao.quantization.per_channel_dynamic_qconfig}, dtype=torch.qint8),
    }
    variants: list[tuple[str, int, int, Any]] = [(f"bs{b}_t1", b, 1, model) for b in (4, 8, 16, 32)]
    variants += [(f"bulk_bs{b}_t1", b, 1, model) for b in (8, 32)]
    variants += [("bs32_t2", 32, 2, model), ("bs8_t2", 8, 2, model)]
    variants += [(f"{k}_bs32_t1", 32, 1, m) for k, m in quant.items()]
    times: dict[str, dict[str, list[float]]] = {v[0]: {"wall": [], "cpu": []} for v in variants}
    cos: dict[str, list[float]] = {}
    for r in range(rounds):
        for name, bs, threads, m in (variants if r % 2 == 0 else variants[::-1]):
            torch.set_num_threads(threads)
            emb.model, emb.batch_size = m, bs  # type: ignore[attr-defined]
            w, c = time.perf_counter(), time.process_time()
            if name.startswith("bulk_"):
                flat = emb.embed_passages([x for t in texts for x in t])
                vecs = np.split(flat, np.cumsum([len(t) for t in texts])[:-1])
            else:
                vecs = [emb.embed_passages(t) for t in texts]
            times[name]["wall"].append(time.perf_counter() - w)
            times[name]["cpu"].append(time.process_time() - c)
            if r == 0:
                cos[name] = np.concatenate([(a * b).sum(axis=1) for a, b in zip(vecs, ref)]).tolist()
    emb.model, emb.batch_size = model, 32  # type: ignore[attr-defined]
    return {"files": [f.name for f in files], "passages": [len(t) for t in texts], "word_pieces": pieces, "rounds": rounds,
            "variants": {k: {"median_wall_s": round(statistics.median(v["wall"]), 3),
                             "median_cpu_s": round(statistics.median(v["cpu"]), 3),
                             "cosine_to_float32_min": round(min(cos[k]), 4), "cosine_to_float32_mean": round(float(np.mean(cos[k])), 4)}
                         for k, v in times.items()}}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=6, help="CUAD TXT agreements (the add-one file first)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    sized = [p for p in sorted(CUAD_TXT.rglob("*.txt")) if 20_000 < p.stat().st_size < 60_000 and p.name != FIRST]
    files = [*[p for p in CUAD_TXT.rglob(FIRST)], *sized][:a.files]
    res = run(files, a.rounds)
    res.update({"benchmark": "embed_passages_speed", "issue": 42, "method": __doc__.split("\n\n")[1:4],
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "load_1min_after": round(os.getloadavg()[0], 2),
                "command": " ".join(["python", "-m", "benchmarks.embed_passages_speed", *(argv if argv is not None else sys.argv[1:])]),
                "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                                    capture_output=True, text=True).stdout.strip()})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res["variants"], indent=1))


if __name__ == "__main__":
    main()
