"""Tokens/s of the bundled GGUF models on this machine (prompt reading and generation).

Usage::

    nice -n 10 .venv/bin/python benchmarks/llm_speed.py [--models qwen2.5-coder-0.5b qwen2.5-coder-1.5b]
        [--runs 3] [--threads 2] [--out benchmarks/results/llm_speed.json]

For each model and run, through the public interface (``ensure_model``, ``get_chat_model``, the
chat model's ``usage_metadata``):

* prompt speed: the first ~``--prompt-chars`` characters of a real CUAD contract (a different
  contract slice per run, so llama.cpp's prefix cache cannot skip work) with ``max_tokens=1``;
  ``prompt_tok_s = prompt_tokens / wall_s``;
* generation speed: a short prompt asking for a long answer with ``max_tokens=--gen-tokens``;
  ``gen_tok_s = completion_tokens / (wall_s - prompt_tokens / prompt_tok_s)``.

The first call of each model (file load) is timed separately as ``load_s``. Results (command,
versions, sample, date, per-run numbers, medians) are written as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

from langchain_core.messages import HumanMessage, SystemMessage

from clauselens.config import ModelSettings, Settings
from clauselens.llm import ensure_model, get_chat_model

CUAD_TXT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cuad" / "full_contract_txt"
CONTRACT = "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", nargs="+", default=["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--prompt-chars", type=int, default=3000)
    ap.add_argument("--gen-tokens", type=int, default=96)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "llm_speed.json")
    args = ap.parse_args(argv)

    text = (CUAD_TXT / CONTRACT).read_text(encoding="utf-8")
    settings = Settings()
    results = []
    load_before = os.getloadavg()
    for name in args.models:
        t0 = time.perf_counter()
        path = ensure_model(name, settings.models_dir)
        assemble_s = time.perf_counter() - t0
        ms = ModelSettings(model=str(path), n_ctx=4096, n_threads=args.threads, max_tokens=1)
        model = get_chat_model(ms, settings.models_dir)
        t0 = time.perf_counter()
        model.invoke([HumanMessage(content="Hi")])
        load_s = time.perf_counter() - t0
        gen_model = model.model_copy(update={"max_tokens": args.gen_tokens})
        runs = []
        for r in range(args.runs):
            start = (r * 7919) % max(1, len(text) - args.prompt_chars)
            chunk = text[start : start + args.prompt_chars]
            msgs = [SystemMessage(content=f"Run {r}. You summarise contracts."), HumanMessage(content=chunk + "\n\nOne-word topic?")]
            t0 = time.perf_counter()
            out = model.invoke(msgs)
            p_wall = time.perf_counter() - t0
            p_tok = out.usage_metadata["input_tokens"]
            prompt_tok_s = p_tok / p_wall
            gmsgs = [HumanMessage(content=f"({r}) Write a long numbered list of typical clauses in a distribution agreement, one sentence each.")]
            t0 = time.perf_counter()
            g = gen_model.invoke(gmsgs)
            g_wall = time.perf_counter() - t0
            gu = g.usage_metadata
            gen_tok_s = gu["output_tokens"] / max(1e-6, g_wall - gu["input_tokens"] / prompt_tok_s)
            runs.append({
                "prompt_tokens": p_tok, "prompt_wall_s": round(p_wall, 3), "prompt_tok_s": round(prompt_tok_s, 1),
                "gen_prompt_tokens": gu["input_tokens"], "gen_tokens": gu["output_tokens"],
                "gen_wall_s": round(g_wall, 3), "gen_tok_s": round(gen_tok_s, 1),
            })
            print(f"{name} run {r}: prompt {p_tok} tok {prompt_tok_s:.1f} tok/s; "
                  f"gen {gu['output_tokens']} tok {gen_tok_s:.1f} tok/s", file=sys.stderr)
        results.append({
            "model": name, "file": path.name, "assemble_or_verify_s": round(assemble_s, 2), "load_s": round(load_s, 2),
            "median_prompt_tok_s": round(statistics.median(x["prompt_tok_s"] for x in runs), 1),
            "median_gen_tok_s": round(statistics.median(x["gen_tok_s"] for x in runs), 2),
            "runs": runs,
        })
    report = {
        "benchmark": "llm_speed",
        "command": " ".join([os.path.relpath(sys.executable), *sys.argv]),
        "date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "threads": args.threads,
                    "cpus": os.cpu_count(), "loadavg_1_5_15_before": [round(x, 2) for x in load_before],
                    "loadavg_1_5_15_after": [round(x, 2) for x in os.getloadavg()],
                    "note": "VM shared with other engineers' jobs; a load average above the CPU count slows llama.cpp a lot"},
        "versions": {"llama-cpp-python": version("llama-cpp-python"), "langchain-core": version("langchain-core"),
                     "clauselens": version("clauselens")},
        "sample": {"contract": f"cuad/full_contract_txt/{CONTRACT}", "prompt_chars": args.prompt_chars,
                   "gen_max_tokens": args.gen_tokens, "runs": args.runs, "n_ctx": 4096, "temperature": 0.0},
        "results": results,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps({r["model"]: {"prompt_tok_s": r["median_prompt_tok_s"], "gen_tok_s": r["median_gen_tok_s"]} for r in results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
