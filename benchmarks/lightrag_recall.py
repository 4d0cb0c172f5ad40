"""LightRAG graph tool on LegalBench-RAG privacy_qa: recall@k with and without the graph
in fusion, indexing time, entities/relations extracted.

LegalBench-RAG: Pipitone & Houir Alami (2024), arXiv:2408.10343; character-level
precision/recall from :mod:`clauselens.retrieval.eval_metrics` (retrieved spans merged per
file, so recall <= 1). LightRAG: Guo et al. (2024), arXiv:2410.05779.

Graph indexing needs one LLM extraction call per chunk (about a minute with the bundled
1.5B model on 2 CPU cores), so on CPU this indexes only a sample: the first
``--max-chunks`` Archivist chunks (kinds ``node``/``window``) of each ``--docs`` file,
and scores only the queries whose gold spans all lie inside the indexed text. Every
method searches the same sample:

* ``hybrid``             -- BM25 + MiniLM dense, RRF k=60 (:class:`HybridRetriever`);
* ``lightrag-<mode>``    -- the graph tool alone (``naive`` = chunk vectors only, no graph);
  ``<mode>@query`` gives LightRAG the query text as its keywords (no LLM call per query),
  ``<mode>@llm`` lets LightRAG's keyword prompt extract them (one LLM call per query);
* ``hybrid+lightrag-<mode>`` -- both lists fused by RRF k=60 (:class:`HybridPlusGraph`).

Resumable: the graph lives in ``~/.cache/clauselens/store/lightrag/<bench-name>/`` and
already-processed chunks (and LightRAG's cached LLM replies) are reused. Results go to
``benchmarks/results/lightrag_privacy_qa.json`` with the command, versions, sample, date.

Example (what produced the committed results)::

    nice -n 10 .venv/bin/python benchmarks/lightrag_recall.py --docs "privacy_qa/Keep.txt" \
        --max-chunks 8 --modes naive,mix

For a GPU-served model add ``--base-url http://HOST:PORT/v1 --model NAME``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import logging
import platform
import sys
import time
from pathlib import Path

import numpy as np

from clauselens.config import Settings
from clauselens.errors import ClauselensError
from clauselens.parsing import build_chunks, load_text_document
from clauselens.provenance import run_provenance
from clauselens.retrieval.embedders import get_embedder
from clauselens.retrieval.eval_metrics import precision_recall
from clauselens.retrieval.fusion import reciprocal_rank_fusion
from clauselens.retrieval.hybrid import HybridRetriever
from clauselens.retrieval.lightrag.adapter import GraphUnavailableError, graph_chunks
from clauselens.retrieval.lightrag.retriever import LightRAGRetriever

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "legalbench-rag"
KS = (1, 2, 4, 8)


def _versions() -> dict:
    return run_provenance(("lightrag-hku", "llama-cpp-python", "sentence-transformers", "torch", "bm25s", "numpy"),
                          ("clauselens/retrieval", "benchmarks/lightrag_recall.py"))


def covered(chunks, doc_id: str) -> list[tuple[int, int]]:
    """Merged ``[start, end)`` intervals of ``doc_id`` covered by ``chunks``."""
    iv = sorted((s.start, s.end) for c in chunks if c.doc_id == doc_id for s in c.spans)
    out: list[list[int]] = []
    for s, e in iv:
        if out and s <= out[-1][1] + 2:  # chunks are trimmed: allow the blank between them
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def inside(span: tuple[int, int], ivs: list[tuple[int, int]]) -> bool:
    return any(s <= span[0] and span[1] <= e for s, e in ivs)


def recall_at(passages, gold, ks=KS) -> dict[str, list[float]]:
    """Merged precision/recall at each k of ``passages`` against ``gold`` snippets."""
    out = {"P": [], "R": []}
    for k in ks:
        snips = [(p.doc_id, s.start, s.end) for p in passages[:k] for s in p.spans]
        p, r = precision_recall(snips, gold, merged=True)
        out["P"].append(p)
        out["R"].append(r)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", default="privacy_qa/Keep.txt", help="comma-separated benchmark file_paths")
    ap.add_argument("--max-chunks", type=int, default=8, help="first N node/window chunks per document")
    ap.add_argument("--modes", default="naive,mix@query,mix@llm",
                    help="graph modes; '@query' = query text as keywords (no LLM call), '@llm' = LightRAG's keyword prompt")
    ap.add_argument("--llm-query-limit", type=int, default=None,
                    help="score '@llm' modes on only the first N sampled queries (one LLM call each)")
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--model", default=None, help="chat model (default: Settings' researcher model)")
    ap.add_argument("--base-url", default=None, help="OpenAI-compatible server (GPU) instead of in-process GGUF")
    ap.add_argument("--llm-max-async", type=int, default=1)
    ap.add_argument("--max-tokens", type=int, default=None, help="cap on each LLM reply (default: Settings')")
    ap.add_argument("--query-limit", type=int, default=None)
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "lightrag_privacy_qa.json"))
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")

    settings = Settings()
    ms = settings.researcher_model
    if args.base_url:
        ms = ms.model_copy(update={"backend": "openai", "base_url": args.base_url, "model": args.model or ms.model})
    elif args.model:
        ms = ms.model_copy(update={"model": args.model})
    if args.max_tokens:
        ms = ms.model_copy(update={"max_tokens": args.max_tokens})
    from clauselens.llm import get_chat_model

    chat = get_chat_model(ms, settings.models_dir)
    embedder = get_embedder(args.embedder, settings.cache_dir)
    docs = [d.strip() for d in args.docs.split(",") if d.strip()]
    path_map = json.loads((DATA / "corpus_path_map.json").read_text())
    chunks = []
    for d in docs:
        text = (DATA / "corpus" / path_map.get(d, d)).read_text(encoding="utf-8")
        doc = load_text_document(text, doc_id=d, source_path=d)
        chunks += graph_chunks(build_chunks(doc))[: args.max_chunks]
    cov = {d: covered(chunks, d) for d in docs}
    tests = json.loads((DATA / "benchmarks" / "privacy_qa.json").read_text(encoding="utf-8"))["tests"]
    sample = [(i, t) for i, t in enumerate(tests)
              if all(sn["file_path"] in cov and inside(tuple(sn["span"]), cov[sn["file_path"]]) for sn in t["snippets"])]
    if args.query_limit:
        sample = sample[: args.query_limit]
    logging.info("sample: %d chunks of %d docs, %d queries", len(chunks), len(docs), len(sample))

    # one graph per (documents, model): a run with more (or fewer) chunks resumes the same graph
    name = "bench-privacyqa-" + hashlib.sha256(f"{docs}|{ms.model}".encode()).hexdigest()[:10]
    graph = LightRAGRetriever(embedder=embedder, chat_model=chat, store_dir=settings.store_dir,
                              llm_name=ms.model, llm_max_async=args.llm_max_async)
    graph_error = None
    t0 = time.monotonic()
    try:
        graph.index_chunks(chunks, corpus=name)
    except GraphUnavailableError as e:
        graph_error = str(e)
        logging.warning(graph_error)
    index_wall = time.monotonic() - t0
    hybrid = HybridRetriever(embedder, candidates=40)
    hybrid.index_chunks(chunks)

    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    rows: dict[str, list[dict]] = {"hybrid": []}
    qtime: dict[str, float] = {"hybrid": 0.0}
    kmax = max(KS)
    for n, (i, t) in enumerate(sample, start=1):
        gold = [(sn["file_path"], sn["span"][0], sn["span"][1]) for sn in t["snippets"]]
        s = time.monotonic()
        hres = hybrid.search(t["query"], 40)
        qtime["hybrid"] += time.monotonic() - s
        rows["hybrid"].append({"test": i, "m": recall_at(hres.passages, gold)})
        for mode in modes:
            key = f"lightrag-{mode}"
            gmode, _, kw = mode.partition("@")
            if kw == "llm" and args.llm_query_limit is not None and n > args.llm_query_limit:
                continue
            s = time.monotonic()
            try:
                gres = graph.search(t["query"], 40, mode=gmode, keywords=kw or "llm")
                gp = gres.passages
            except GraphUnavailableError:
                gp = []
            qtime[key] = qtime.get(key, 0.0) + time.monotonic() - s
            rows.setdefault(key, []).append({"test": i, "m": recall_at(gp, gold)})
            fused = reciprocal_rank_fusion({"hybrid": [] if hres.abstained else hres.passages, "lightrag": gp})
            rows.setdefault(f"hybrid+{key}", []).append({"test": i, "m": recall_at(fused[:kmax], gold)})
        logging.info("query %d/%d done", n, len(sample))

    summary = {}
    for meth, rs in rows.items():
        R = np.array([r["m"]["R"] for r in rs]) if rs else np.zeros((0, len(KS)))
        P = np.array([r["m"]["P"] for r in rs]) if rs else np.zeros((0, len(KS)))
        summary[meth] = {
            "recall_merged": {str(k): round(float(R[:, j].mean() * 100), 2) if len(R) else None for j, k in enumerate(KS)},
            "precision_merged": {str(k): round(float(P[:, j].mean() * 100), 2) if len(P) else None for j, k in enumerate(KS)},
            "queries": len(rs),
            "seconds_per_query": round(qtime.get(meth, qtime.get(meth.replace("hybrid+", ""), 0.0)) / max(1, len(rs)), 3),
        }
    st = graph.stats
    result = {
        "benchmark": "LegalBench-RAG privacy_qa, LightRAG graph tool (sample indexed on CPU)",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "versions": _versions(),
        "machine": f"{platform.machine()}, {__import__('os').cpu_count()} cores (shared)",
        "model": {"backend": ms.backend, "model": ms.model, "base_url": ms.base_url, "n_ctx": ms.n_ctx,
                  "max_tokens": ms.max_tokens},
        "embedder": embedder.name,
        "sample": {"docs": docs, "max_chunks_per_doc": args.max_chunks, "chunks_indexed": len(chunks),
                   "chars_indexed": sum(len(c.text) for c in chunks), "queries": len(sample),
                   "query_rule": "privacy_qa tests whose gold spans all lie inside the indexed chunks",
                   "test_indices": [i for i, _ in sample]},
        "graph": {"entities": st.entities, "relations": st.relations, "chunks": st.chunks,
                  "failed_chunks": st.failed_chunks, "index_seconds_total": round(st.index_seconds, 1),
                  "seconds_per_chunk": round(st.index_seconds / max(1, st.chunks), 1),
                  "index_wall_this_run_s": round(index_wall, 1), "errors": st.errors, "unavailable": graph_error},
        "metric": "character-level recall/precision with retrieved spans merged per file, mean over queries, in %",
        "ks": list(KS),
        "results": summary,
    }
    graph.close()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({m: v["recall_merged"] for m, v in summary.items()}, indent=1))
    print(json.dumps(result["graph"], indent=1))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ClauselensError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(e.exit_code)
