"""Grammar-constrained generation speed: llama-cpp-python's stock sampler vs the greedy fast path.

Usage::

    .venv/bin/python benchmarks/grammar_sampling.py [--model qwen2.5-coder-1.5b] [--runs 2]
        [--tokens 300] [--out benchmarks/results/grammar_sampling.json]

One ``llama_cpp.Llama`` (2 threads), the Interrogator's NLI draft schema
(:class:`clauselens.reports.model.NLIReportDraft`) as the JSON-schema grammar, a real CUAD
contract slice as the passages, greedy decoding, ``--tokens`` generated tokens. Per run:
the same request with the stock sampler chain, then with
:func:`clauselens.llm.greedy_grammar.install` (the KV cache is cleared before each request, so
both evaluate the prompt the same way), and unconstrained generation for reference.
``gen_tok_s = completion_tokens / (wall_s - prompt_only_s)`` where ``prompt_only_s`` is the
same prompt with ``max_tokens=1``. Records whether both samplers produced identical text.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

from llama_cpp import Llama

from clauselens.config import Settings
from clauselens.llm import ensure_model
from clauselens.llm.greedy_grammar import install
from clauselens.reports.model import NLIReportDraft

CUAD_TXT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cuad" / "full_contract_txt"
CONTRACT = "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--tokens", type=int, default=300)
    ap.add_argument("--prompt-chars", type=int, default=3000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/grammar_sampling.json"))
    a = ap.parse_args()
    path = ensure_model(a.model, Settings().models_dir)
    llm = Llama(model_path=str(path), n_ctx=4096, n_threads=2, verbose=False)
    text = (CUAD_TXT / CONTRACT).read_text(encoding="utf-8", errors="replace")
    schema = NLIReportDraft.model_json_schema()
    runs = []
    for i in range(a.runs):
        passage = text[i * a.prompt_chars:(i + 1) * a.prompt_chars]
        msgs = [{"role": "system", "content": "You are a careful contract lawyer. Answer as JSON."},
                {"role": "user", "content": f"Contract passages:\n{passage}\n\nHypothesis: the distributor may sell "
                                            "competing products. Write the report as JSON with a label."}]

        def call(max_tokens: int, constrained: bool, msgs: list[dict] = msgs) -> tuple[str, int, float]:
            llm.reset()
            kw = {"response_format": {"type": "json_object", "schema": schema}} if constrained else {}
            t0 = time.perf_counter()
            o = llm.create_chat_completion(msgs, max_tokens=max_tokens, temperature=0.0, seed=0, **kw)
            return o["choices"][0]["message"]["content"], o["usage"]["completion_tokens"], time.perf_counter() - t0

        prompt_s = call(1, False)[2]
        free = call(a.tokens, False)
        stock_llm_sampler = llm._init_sampler
        stock = call(a.tokens, True)
        install(llm)
        fast = call(a.tokens, True)
        llm._init_sampler = stock_llm_sampler  # next run starts from the stock chain again
        del llm._clauselens_greedy_grammar

        def rate(r: tuple[str, int, float], prompt_s: float = prompt_s) -> float:
            return round(r[1] / max(1e-9, r[2] - prompt_s), 2)
        runs.append({"prompt_tokens": len(llm.tokenize(json.dumps(msgs).encode())), "prompt_only_s": round(prompt_s, 2),
                     "unconstrained": {"tokens": free[1], "wall_s": round(free[2], 2), "gen_tok_s": rate(free)},
                     "stock_grammar": {"tokens": stock[1], "wall_s": round(stock[2], 2), "gen_tok_s": rate(stock)},
                     "fast_grammar": {"tokens": fast[1], "wall_s": round(fast[2], 2), "gen_tok_s": rate(fast)},
                     "identical_text": stock[0] == fast[0]})
        print(json.dumps(runs[-1]), flush=True)
    med = {k: statistics.median(r[k]["gen_tok_s"] for r in runs) for k in ("unconstrained", "stock_grammar", "fast_grammar")}
    out = {"benchmark": "grammar_sampling", "model": a.model, "threads": 2, "tokens": a.tokens,
           "command": "python benchmarks/grammar_sampling.py " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in vars(a).items()),
           "machine": {"platform": platform.platform(), "python": platform.python_version()},
           "versions": {"llama-cpp-python": version("llama-cpp-python")},
           "date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "median_gen_tok_s": med, "all_identical": all(r["identical_text"] for r in runs), "runs": runs}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(med), "identical:", out["all_identical"])


if __name__ == "__main__":
    main()
