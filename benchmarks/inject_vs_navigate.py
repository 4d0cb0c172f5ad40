"""Inject or navigate? inject vs navembed vs navindex on a real transaction set (issue #4).

Reproduces the measurements of the "Inject or Navigate?" study on CPU with the bundled
Qwen2.5-Coder-1.5B (8,192-token window): per mode, input tokens attended (cacheable prefix
vs the rest), answering-context tokens, output tokens, LLM calls, wall time and dollar
cost (study's price card), correct-clause-fetched rate, key-fact substring check and a
pairwise LLM judge (each navigating mode against inject, run in both orders; a win counts
only when both orders agree, otherwise a tie), all with 95% Clopper–Pearson intervals.

Data: ``benchmarks/data/transaction_set/questions.json`` (documents read in place under
``../shared/data``). Resumable: every finished stage of every question is appended to
``--rows`` (JSONL) and skipped on a re-run. Stages run grouped by mode so that llama.cpp's
KV-prefix reuse serves the static prefix (corpus, indices) between consecutive calls.

    nice -n 10 .venv/bin/python benchmarks/inject_vs_navigate.py            # full run
    .venv/bin/python benchmarks/inject_vs_navigate.py --limit 2 --no-judge  # smoke test
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path
from typing import Literal, Optional

import typer
from pydantic import BaseModel
from scipy.stats import beta

from clauselens.config import ModelSettings, Settings
from clauselens.errors import ContextOverflowError
from clauselens.llm import get_chat_model, invoke_structured
from clauselens.parsing import load_document
from clauselens.retrieval.embedders import get_embedder
from clauselens.retrieval.ledger import CallUsage, Ledger, LedgerEntry, PriceCard, caching_crossover
from clauselens.retrieval.navigate.answer import answer_from_passages, is_refusal
from clauselens.retrieval.navigate.inject import InjectRetriever, answer_inject
from clauselens.retrieval.navigate.navembed import CANDIDATES, KEEP, NavEmbedRetriever
from clauselens.retrieval.navigate.navindex import NavIndexRetriever
from clauselens.retrieval.navigate.prompts import JUDGE_SYSTEM, JUDGE_USER, REFUSAL
from clauselens.retrieval.types import Passage

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
QUESTIONS = REPO / "benchmarks" / "data" / "transaction_set" / "questions.json"
RESULTS = REPO / "benchmarks" / "results"
PAPER = {"navembed_input_ratio": 17.3, "navindex_answer_context_ratio": 56.0, "navindex_input_ratio": 1.61}
MODES = ("inject", "navindex", "navembed")

app = typer.Typer(add_completion=False)


class Verdict(BaseModel):
    """Judge output."""

    winner: Literal["A", "B", "tie"]


def clopper_pearson(k: int, n: int, alpha: float = 0.05) -> list[float]:
    """Exact binomial CI (Clopper & Pearson 1934) via the beta distribution; [None, None] if n=0."""
    if n == 0:
        return [None, None]
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return [round(lo, 4), round(hi, 4)]


def rate(k: int, n: int) -> dict:
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None, "ci95": clopper_pearson(k, n)}


def readme_table(summary: dict) -> str:
    """Markdown table of our ratios and rates next to the study's headline numbers."""
    m, r = summary["modes"], summary["ratios_vs_inject"]

    def pct(x: dict) -> str:
        if not x.get("n"):
            return "–"
        lo, hi = x["ci95"]
        return f"{x['k']}/{x['n']} ({100 * lo:.0f}–{100 * hi:.0f}%)"

    def judge(mode: str) -> str:
        j = m[mode].get("judge_vs_inject")
        return f"{j['wins']}/{j['ties']}/{j['losses']}" if j and j["n"] else "not run"

    rows = ["| mode | input tokens (total) | × fewer than inject | answering context | × smaller than inject | "
            "paper | cost no cache / warm cache (USD) | correct clause fetched | key facts | judge vs inject W/T/L |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    paper = {"inject": "–", "navembed": "17.3× fewer input tokens",
             "navindex": "~56× smaller answering context; 1.61× fewer input tokens in total"}
    for mode in MODES:
        x = m[mode]
        rr = r.get(mode, {})
        rows.append(
            f"| {mode} | {x['input_tokens']:,} | {rr.get('input_tokens_inject_over_mode', 1.0 if mode == 'inject' else '–')}× | "
            f"{x['answering_context_tokens']:,} | {rr.get('answering_context_inject_over_mode', 1.0 if mode == 'inject' else '–')}× | "
            f"{paper[mode]} | {x['cost_usd']['none']:.4f} / {x['cost_usd']['warm']:.4f} | "
            f"{pct(x['correct_clause_fetched']) if mode != 'inject' else 'all (whole corpus)'} | {pct(x['key_facts'])} | "
            f"{judge(mode) if mode != 'inject' else '–'} |")
    return "\n".join(rows)


def norm(s: str) -> str:
    return " ".join(s.split()).lower()


def key_facts_ok(q: dict, answer: str) -> bool:
    """Absent-answer control: the refusal. Otherwise every key-fact group has a variant in the answer."""
    if q.get("absent"):
        return is_refusal(answer)
    a = norm(answer)
    return not is_refusal(answer) and all(any(norm(v) in a for v in group) for group in q["key_facts"])


def fetched_correct(q: dict, passages: list[dict]) -> bool | None:
    """True if a passage contains one of the evidence strings (None for controls)."""
    if q.get("absent") or not q["evidence"]:
        return None
    texts = [norm(p["text"]) for p in passages]
    return any(norm(e) in t for e in q["evidence"] for t in texts)


def load_rows(path: Path) -> dict[tuple[str, str], dict]:
    rows: dict[tuple[str, str], dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                rows[(r["qid"], r["stage"])] = r
    return rows


def entry_row(entry: LedgerEntry) -> dict:
    return {"calls": [c.model_dump() for c in entry.calls], "answering_context_tokens": entry.answering_context_tokens,
            "invented_ids": entry.invented_ids, "wall_s": round(entry.wall_s, 3)}


@app.command()
def main(
    questions: Path = typer.Option(QUESTIONS, help="questions JSON"),
    model: str = typer.Option("qwen2.5-coder-1.5b", help="bundled model name or .gguf path"),
    n_ctx: int = typer.Option(8192, help="context window (tokens)"),
    max_tokens: int = typer.Option(200, help="generation cap per call (tokens)"),
    n_threads: int = typer.Option(1, help="llama.cpp threads (1 wastes least on a shared, oversubscribed CPU)"),
    embedder: str = typer.Option("minilm", help="navembed embedder"),
    limit: Optional[int] = typer.Option(None, help="first N questions per set only"),
    sets: str = typer.Option("", help="comma-separated set names to run (default: all)"),
    only: str = typer.Option("", help="comma-separated question ids to run (default: all, after --limit)"),
    round_size: int = typer.Option(5, help="questions per navigate round"),
    judge: bool = typer.Option(True, help="run the pairwise LLM judge"),
    rows_path: Path = typer.Option(RESULTS / "inject_vs_navigate.rows.jsonl", "--rows", help="per-stage JSONL (resume)"),
    out: Path = typer.Option(RESULTS / "inject_vs_navigate.json", help="summary JSON"),
) -> None:
    """Run (or resume) the benchmark and write the summary and the token ledger."""
    t_start = time.time()
    spec = json.loads(questions.read_text(encoding="utf-8"))
    settings = Settings()
    ms = ModelSettings(model=model, n_ctx=n_ctx, max_tokens=max_tokens, n_threads=n_threads)
    chat = get_chat_model(ms, settings.models_dir)
    emb = get_embedder(embedder, settings.cache_dir)
    rows = load_rows(rows_path)
    rows_path.parent.mkdir(parents=True, exist_ok=True)
    sink = rows_path.open("a", encoding="utf-8")

    def save(row: dict) -> None:
        rows[(row["qid"], row["stage"])] = row
        sink.write(json.dumps(row) + "\n")
        sink.flush()

    fits: dict[str, dict] = {}
    by_set: dict[str, list[dict]] = {}
    for q in spec["questions"]:
        if not only or q["id"] in only.split(","):
            by_set.setdefault(q["set"], []).append(q)
    for set_name, info in spec["sets"].items():
        docs = [load_document(SHARED_DATA / p) for p in info["documents"]]
        inj = InjectRetriever(chat, Ledger())
        inj.index(docs)
        try:
            inj.check_fits("")
            fits[set_name] = {"documents": info["documents"], "corpus_tokens": inj.corpus_tokens, "fits": True}
        except ContextOverflowError as e:
            fits[set_name] = {"documents": info["documents"], "corpus_tokens": inj.corpus_tokens, "fits": False, "message": str(e)}
        if info.get("fit_check_only") or set_name not in by_set or (sets and set_name not in sets.split(",")):
            continue
        qs = by_set[set_name][:limit] if limit else by_set[set_name]
        nav = NavIndexRetriever(chat, Ledger())
        nav.index(docs)
        ne = NavEmbedRetriever(emb, ledger=Ledger())
        ne.index(docs)
        print(f"[{set_name}] {len(docs)} docs, inject corpus {inj.corpus_tokens} tokens, {len(qs)} questions", flush=True)

        # Phase 1: inject answers, all together (corpus prefix reused by llama.cpp between calls).
        for q in qs:
            if (q["id"], "inject") in rows or not fits[set_name]["fits"]:
                continue
            res = inj.search(q["question"], query_id=q["id"])
            entry = inj.entry_for(res)
            ans = answer_inject(chat, q["question"], res.passages, inj.ledger, entry)
            save({"qid": q["id"], "set": set_name, "stage": "inject", "mode": "inject", "answer": ans.text,
                  "passages": [{"doc_id": p.doc_id, "node_id": p.node_id, "text": p.text} for p in res.passages],
                  **entry_row(entry)})
            print(f"  inject {q['id']} {entry.input_tokens} tok {entry.wall_s:.1f}s", flush=True)
        # Then rounds of `round_size` questions: S1+S2 scans (index prefix reused within a
        # round), navindex S3 answers, navembed answers — so an interrupted run still has
        # complete questions in every mode.
        for r0 in range(0, len(qs), round_size):
            rq = qs[r0:r0 + round_size]
            for q in rq:
                if (q["id"], "navindex_scan") in rows:
                    continue
                res = nav.search(q["question"], k=20, query_id=q["id"])
                entry = nav.entry_for(res)
                save({"qid": q["id"], "set": set_name, "stage": "navindex_scan", "mode": "navindex",
                      "passages": [p.model_dump() for p in res.passages],
                      "trace": {k: v for k, v in res.trace.items() if k != "ledger_entry"}, **entry_row(entry)})
                print(f"  scan {q['id']} picks {len(res.trace['picks'])} rejected {len(res.trace['rejected'])} "
                      f"{entry.wall_s:.1f}s", flush=True)
            for q in rq:
                if (q["id"], "navindex_answer") in rows:
                    continue
                passages = [Passage.model_validate(p) for p in rows[(q["id"], "navindex_scan")]["passages"]]
                entry = nav.ledger.start(q["id"], "navindex")
                ans = answer_from_passages(chat, q["question"], passages, nav.ledger, entry)
                save({"qid": q["id"], "set": set_name, "stage": "navindex_answer", "mode": "navindex",
                      "answer": ans.text, **entry_row(entry)})
                print(f"  navindex {q['id']} ctx {ans.context_tokens} {entry.wall_s:.1f}s", flush=True)
            for q in rq:
                if (q["id"], "navembed") in rows:
                    continue
                res = ne.search(q["question"], k=10, query_id=q["id"])
                entry = ne.entry_for(res)
                ans = answer_from_passages(chat, q["question"], res.passages, ne.ledger, entry)
                save({"qid": q["id"], "set": set_name, "stage": "navembed", "mode": "navembed", "answer": ans.text,
                      "passages": [{"doc_id": p.doc_id, "node_id": p.node_id, "text": p.text} for p in res.passages],
                      **entry_row(entry)})
                print(f"  navembed {q['id']} ctx {ans.context_tokens} {entry.wall_s:.1f}s", flush=True)

    answer_stage = {"inject": "inject", "navindex": "navindex_answer", "navembed": "navembed"}
    passages_stage = {"inject": "inject", "navindex": "navindex_scan", "navembed": "navembed"}
    # Metrics over every question of the file finished in all modes (by this or an earlier,
    # resumed invocation), so an interrupted or partial run stays comparable across modes.
    qlist = [q for q in spec["questions"] if all((q["id"], answer_stage[m]) in rows for m in MODES)]

    # Phase 5: pairwise judge, each navigating mode vs inject, both orders.
    if judge:
        for q in qlist:
            for mode in ("navindex", "navembed"):
                stage = f"judge_{mode}"
                a_row, b_row = rows.get((q["id"], answer_stage[mode])), rows.get((q["id"], "inject"))
                if (q["id"], stage) in rows or a_row is None or b_row is None:
                    continue
                ref = REFUSAL if q.get("absent") else q["reference"]
                votes = []
                t0 = time.perf_counter()
                for first, second, first_is_mode in ((a_row["answer"], b_row["answer"], True), (b_row["answer"], a_row["answer"], False)):
                    msgs = [("system", JUDGE_SYSTEM), ("human", JUDGE_USER.format(question=q["question"], reference=ref, a=first, b=second))]
                    from langchain_core.messages import HumanMessage, SystemMessage
                    v = invoke_structured(chat, [SystemMessage(msgs[0][1]), HumanMessage(msgs[1][1])], Verdict).winner
                    votes.append("tie" if v == "tie" else ("mode" if (v == "A") == first_is_mode else "inject"))
                outcome = votes[0] if votes[0] == votes[1] else "tie"
                save({"qid": q["id"], "stage": stage, "mode": mode, "votes": votes, "outcome": outcome,
                      "wall_s": round(time.perf_counter() - t0, 3)})
                print(f"  judge {mode} {q['id']} {votes} -> {outcome}", flush=True)
    sink.close()

    # Summary: rebuild the ledger from the rows, then the per-mode metrics.
    price = PriceCard()
    ledger = Ledger(price, run_info={"command": " ".join(sys.argv)})
    per_mode: dict[str, dict] = {}
    for mode in MODES:
        done = [q for q in qlist if (q["id"], answer_stage[mode]) in rows]
        entries = []
        for q in done:
            e = ledger.start(q["id"], mode)
            for st in {passages_stage[mode], answer_stage[mode]}:
                r = rows[(q["id"], st)]
                e.calls += [CallUsage(**c) for c in r["calls"]]
                e.answering_context_tokens += r["answering_context_tokens"]
                e.invented_ids += r["invented_ids"]
                e.wall_s += r["wall_s"]
            entries.append(e)
        answered = [q for q in done if not q.get("absent")]
        fc = [fetched_correct(q, rows[(q["id"], passages_stage[mode])]["passages"]) for q in answered]
        kf = [key_facts_ok(q, rows[(q["id"], answer_stage[mode])]["answer"]) for q in done]
        ctrl = [q for q in done if q.get("absent")]
        refusals_wrong = sum(is_refusal(rows[(q["id"], answer_stage[mode])]["answer"]) for q in answered)
        per_mode[mode] = {
            **ledger.totals(mode),
            "correct_clause_fetched": rate(sum(bool(x) for x in fc), len(fc)),
            "key_facts": rate(sum(kf), len(kf)),
            "controls_refused": rate(sum(is_refusal(rows[(q["id"], answer_stage[mode])]["answer"]) for q in ctrl), len(ctrl)),
            "refused_answerable": refusals_wrong,
        }
        if judge and mode != "inject":
            outs = [rows[(q["id"], f"judge_{mode}")]["outcome"] for q in done if (q["id"], f"judge_{mode}") in rows]
            per_mode[mode]["judge_vs_inject"] = {
                "n": len(outs), "wins": outs.count("mode"), "ties": outs.count("tie"), "losses": outs.count("inject"),
                "win_rate": rate(outs.count("mode"), len(outs)), "loss_rate": rate(outs.count("inject"), len(outs)),
                "not_worse_rate": rate(outs.count("mode") + outs.count("tie"), len(outs)),
            }
    inj = per_mode["inject"]
    ratios = {}
    for mode in ("navindex", "navembed"):
        m = per_mode[mode]
        if m["queries"] and inj["queries"] == m["queries"]:
            ratios[mode] = {
                "input_tokens_inject_over_mode": round(inj["input_tokens"] / max(m["input_tokens"], 1), 2),
                "answering_context_inject_over_mode": round(inj["answering_context_tokens"] / max(m["answering_context_tokens"], 1), 2),
                "cost_none_inject_over_mode": round(inj["cost_usd"]["none"] / max(m["cost_usd"]["none"], 1e-12), 2),
                "cost_warm_inject_over_mode": round(inj["cost_usd"]["warm"] / max(m["cost_usd"]["warm"], 1e-12), 2),
            }
    nav_uncached = per_mode["navindex"]["uncached_tokens"] / max(per_mode["navindex"]["queries"], 1)
    summary = {
        "benchmark": "inject_vs_navigate (issue #4)",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["nice -n 10", sys.executable.replace(str(REPO) + "/", ""), *sys.argv]),
        "versions": {"python": platform.python_version(), "clauselens": version("clauselens"),
                     "llama_cpp_python": version("llama-cpp-python"), "langchain_core": version("langchain-core"),
                     "sentence_transformers": version("sentence-transformers")},
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "model": {"name": model, "n_ctx": n_ctx, "max_tokens": max_tokens, "n_threads": n_threads, "temperature": ms.temperature},
        "navembed": {"embedder": embedder, "candidates": CANDIDATES, "keep": KEEP,
                     "reranker": "none (no cross-encoder weights offline; LLM reranking too slow for this CPU run)"},
        "sample": {"questions_file": str(questions.relative_to(REPO)) if questions.is_relative_to(REPO) else str(questions),
                   "question_ids": [q["id"] for q in qlist], "controls": [q["id"] for q in qlist if q.get("absent")]},
        "inject_fit": fits,
        "price_card": price.model_dump(),
        "modes": per_mode,
        "ratios_vs_inject": ratios,
        "paper": PAPER,
        "caching_crossover": {"navindex_uncached_tokens_per_query_R": round(nav_uncached, 1),
                              "corpus_tokens_C_star": round(caching_crossover(nav_uncached, price), 1),
                              "rule": "inject is cheaper at warm steady state only while C < R * p_in / p_r"},
        "wall_s_this_invocation": round(time.time() - t_start, 1),
    }
    summary["readme_table"] = readme_table(summary)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    print(summary["readme_table"])
    ledger.write(out.with_name(out.stem + ".ledger.json"))
    keys = ("input_tokens", "answering_context_tokens", "correct_clause_fetched", "key_facts")
    print(json.dumps({"ratios_vs_inject": ratios, **{m: {k: per_mode[m][k] for k in keys} for m in MODES}}, indent=1))


if __name__ == "__main__":
    app()
