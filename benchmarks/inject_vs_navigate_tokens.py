"""Token footprint of inject / navembed / navindex on the whole question set, without generation.

Companion of ``benchmarks/inject_vs_navigate.py`` for a CPU too contended to run the LLM
on every question (issue #4). Everything here is exact and deterministic: the prompts each
mode would send are built with the same code the modes use and counted with the model's
own tokenizer (Qwen2.5, via ``ChatLlamaCppInProcess.get_num_tokens``; chat-template tokens,
a few per message, are not included).

* inject: system prompt + whole corpus + question (answering context = the corpus);
* navembed: MiniLM cosine top-40 -> keep 10 (no reranker), then the S3 prompt over those
  passages; also whether a kept passage contains the gold evidence (correct clause fetched);
* navindex: the S1 scan prompt (indices + question) is exact; S1's picks need the LLM, so
  the S3 answering context is computed for an *oracle* scan that picks exactly the nodes
  holding the gold evidence (then S2's one-hop fetch as usual) — a lower bound on what a
  real scan fetches, labelled as such. Absent-answer controls have no gold nodes and are
  left out of the navindex-oracle figures.

    nice -n 10 .venv/bin/python -m benchmarks.inject_vs_navigate_tokens
"""

from __future__ import annotations

import json
import platform
import sys
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import typer

from benchmarks.inject_vs_navigate import PAPER, QUESTIONS, RESULTS, SHARED_DATA, fetched_correct, norm, rate
from clauselens.config import ModelSettings, Settings
from clauselens.llm import get_chat_model
from clauselens.parsing import load_document
from clauselens.retrieval.embedders import get_embedder
from clauselens.retrieval.ledger import PriceCard, caching_crossover
from clauselens.retrieval.navigate import prompts as P
from clauselens.retrieval.navigate.answer import provisions_block
from clauselens.retrieval.navigate.fetch import fetch
from clauselens.retrieval.navigate.index import NavCorpus
from clauselens.retrieval.navigate.inject import InjectRetriever, corpus_block, inject_messages
from clauselens.retrieval.navigate.navembed import CANDIDATES, KEEP, NavEmbedRetriever
from clauselens.retrieval.navigate.scan import plan_scan_batches, scan_messages

app = typer.Typer(add_completion=False)


def gold_picks(corpus: NavCorpus, evidence: list[str]) -> list[tuple[str, str]]:
    """Nodes whose own text holds an evidence string; else the smallest node whose whole
    span holds it."""
    picks: list[tuple[str, str]] = []
    for e in evidence:
        ne = norm(e)
        hit = [(d, n) for d, full in corpus.full.items() for n, t in full.items() if ne in norm(t)]
        if not hit:
            spans = [(d, n.id, n.span.end - n.span.start) for d, doc in corpus.docs.items() for n in doc.nodes[1:]
                     if ne in norm(doc.text[n.span.start:n.span.end])]
            hit = [(d, n) for d, n, _ in sorted(spans, key=lambda x: x[2])[:1]]
        for h in hit[:1]:
            if h not in picks:
                picks.append(h)
    return picks


@app.command()
def main(
    questions: Path = typer.Option(QUESTIONS, help="questions JSON"),
    model: str = typer.Option("qwen2.5-coder-1.5b", help="model whose tokenizer counts"),
    embedder: str = typer.Option("minilm", help="navembed embedder"),
    out: Path = typer.Option(RESULTS / "inject_vs_navigate.tokens.json", help="output JSON"),
) -> None:
    """Count every mode's prompt tokens for every question and write the totals and ratios."""
    spec = json.loads(questions.read_text(encoding="utf-8"))
    settings = Settings()
    chat = get_chat_model(ModelSettings(model=model, n_ctx=8192, n_threads=1), settings.models_dir)
    tok = chat.get_num_tokens
    emb = get_embedder(embedder, settings.cache_dir)
    per_q = []
    for set_name, info in spec["sets"].items():
        qs = [q for q in spec["questions"] if q["set"] == set_name]
        if not qs:
            continue
        docs = [load_document(SHARED_DATA / p) for p in info["documents"]]
        inj = InjectRetriever(chat)
        inj.index(docs)
        corpus = NavCorpus.build(docs)
        (indices,) = plan_scan_batches(corpus, 10**9, tok)  # one batch: what fits is checked below
        ne = NavEmbedRetriever(emb)
        ne.index(docs)
        corpus_ctx = tok(corpus_block(inj.passages))
        for q in qs:
            qq = q["question"]
            inject_in = sum(tok(m.content) for m in inject_messages(inj.passages, qq))
            scan_in = sum(tok(m.content) for m in scan_messages(indices, qq))
            res = ne.search(qq, k=KEEP)
            ne_block = provisions_block(res.passages)
            ne_in = tok(P.ANSWER_SYSTEM) + tok(P.ANSWER_USER.format(provisions=ne_block, question=qq))
            row = {"qid": q["id"], "set": set_name, "absent": bool(q.get("absent")),
                   "inject": {"input": inject_in, "cacheable": inject_in - tok(f"Question: {qq}"), "context": corpus_ctx},
                   "navembed": {"input": ne_in, "context": tok(ne_block),
                                "fetched_correct": fetched_correct(q, [p.model_dump() for p in res.passages])},
                   "navindex_scan": {"input": scan_in, "cacheable": tok(scan_messages(indices, "")[0].content) + tok(indices),
                                     "fits_window": scan_in + 400 <= 8192}}
            if not q.get("absent"):
                picks = gold_picks(corpus, q["evidence"])
                ps = fetch(corpus, picks)
                block = provisions_block(ps)
                row["navindex_oracle"] = {"picks": [list(p) for p in picks], "hops": len(ps) - len(picks),
                                          "context": tok(block),
                                          "answer_input": tok(P.ANSWER_SYSTEM) + tok(P.ANSWER_USER.format(provisions=block, question=qq))}
            per_q.append(row)
            print(q["id"], row["inject"]["input"], row["navembed"]["input"], row["navindex_scan"]["input"],
                  row.get("navindex_oracle", {}).get("context"), flush=True)

    def tot(rows, path):
        a, b = path
        return sum(r[a][b] for r in rows if a in r)

    ans = [r for r in per_q if not r["absent"]]
    inject_in, ne_in = tot(per_q, ("inject", "input")), tot(per_q, ("navembed", "input"))
    # navindex totals over answerable questions only (oracle context); inject over the same questions for its ratio.
    inj_ans_in, inj_ans_ctx = tot(ans, ("inject", "input")), tot(ans, ("inject", "context"))
    nav_in = tot(ans, ("navindex_scan", "input")) + tot(ans, ("navindex_oracle", "answer_input"))
    nav_ctx = tot(ans, ("navindex_oracle", "context"))
    fc = [r["navembed"]["fetched_correct"] for r in ans]
    price = PriceCard()
    per_query_R = (nav_in - tot(ans, ("navindex_scan", "cacheable"))) / max(len(ans), 1)
    summary = {
        "benchmark": "inject_vs_navigate token footprint (no generation; issue #4)",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "nice -n 10 .venv/bin/python -m benchmarks.inject_vs_navigate_tokens " + " ".join(sys.argv[1:]),
        "versions": {"python": platform.python_version(), "clauselens": version("clauselens"),
                     "llama_cpp_python": version("llama-cpp-python"), "sentence_transformers": version("sentence-transformers")},
        "tokenizer": model, "navembed": {"embedder": embedder, "candidates": CANDIDATES, "keep": KEEP, "reranker": "none"},
        "sample": {"questions_file": str(questions.name), "n_questions": len(per_q), "n_answerable": len(ans),
                   "sets": {k: v["documents"] for k, v in spec["sets"].items() if any(q["set"] == k for q in spec["questions"])}},
        "totals": {
            "inject": {"input_tokens": inject_in, "answering_context_tokens": tot(per_q, ("inject", "context"))},
            "navembed": {"input_tokens": ne_in, "answering_context_tokens": tot(per_q, ("navembed", "context")),
                         "correct_clause_fetched": rate(sum(bool(x) for x in fc), len(fc))},
            "navindex_oracle_answerable_only": {"input_tokens": nav_in, "answering_context_tokens": nav_ctx,
                                                "inject_input_same_questions": inj_ans_in,
                                                "inject_context_same_questions": inj_ans_ctx},
        },
        "ratios_vs_inject": {
            "navembed_input": round(inject_in / ne_in, 2),
            "navembed_answering_context": round(tot(per_q, ("inject", "context")) / tot(per_q, ("navembed", "context")), 2),
            "navindex_oracle_input": round(inj_ans_in / nav_in, 2),
            "navindex_oracle_answering_context": round(inj_ans_ctx / nav_ctx, 2),
        },
        "paper": PAPER,
        "caching_crossover": {"navindex_uncached_tokens_per_query_R": round(per_query_R, 1),
                              "corpus_tokens_C_star": round(caching_crossover(per_query_R, price), 1)},
        "per_question": per_q,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(json.dumps({k: summary[k] for k in ("totals", "ratios_vs_inject", "caching_crossover")}, indent=1))


if __name__ == "__main__":
    app()
