"""LegalBench-RAG retrieval benchmark (Pipitone & Houir Alami 2024, arXiv:2408.10343).

Scores retrieval methods at k in {1, 2, 4, 8, 16, 32, 64} with the benchmark's character-
level precision/recall (as defined upstream, overlapping retrieved snippets NOT merged)
and the merged variant (our headline), plus document-level retrieval mismatch (DRM@k),
per set (contractnli, maud, privacy_qa -- cuad's query file is missing here) and
macro-averaged over the sets.

Settings:
  whole  -- one index over the corpus (the upstream protocol): with ``--selection mini``
            the documents the selected tests use (upstream's mini corpus), with
            ``--selection full`` (or ``--corpus all``) all 714 documents;
  gold   -- each query searches only its gold document (PAKTON's protocol).

Methods are ``<retriever>:<chunker>``; retrievers: ``bm25``, ``dense``, ``hybrid``
(BM25+dense, RRF k=60), each optionally ``-route`` (route to a document by the query's
"Consider <description>;" part first); chunkers: ``structure`` (the Archivist's
``build_chunks``), ``fixed500`` (500-character windows, no overlap) and ``recursive``
(langchain-text-splitters' RecursiveCharacterTextSplitter, 500 characters, no overlap).

Per-query results are cached per method, chunk set and retrieval-code fingerprint
(``--fresh`` ignores them). Resumable: embeddings are cached by ``clauselens.retrieval.embedders``; per-query results
go to ``~/.cache/clauselens/bench/<selection>-<corpus>/<setting>/<method>.jsonl`` and
queries already there are not run again. Results (with the command, versions, sample and
date) are written to ``benchmarks/results/legalbench_rag_<selection>_<setting>.json``;
methods from earlier runs in that file are kept.

Example (the README table)::

    nice -n 10 .venv/bin/python benchmarks/legalbench_rag.py --selection mini --setting whole \
        --methods bm25:fixed500,bm25:recursive,bm25:structure,bm25-route:structure
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import sys
import time
from pathlib import Path
from typing import Iterable

import numpy as np

from clauselens.parsing.types import Chunk, Span
from clauselens.retrieval.eval_metrics import document_mismatch, precision_recall
from clauselens.provenance import run_provenance
from clauselens.retrieval.hybrid import HybridRetriever

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "legalbench-rag"
SETS = ("contractnli", "maud", "privacy_qa")
KS = (1, 2, 4, 8, 16, 32, 64)
CACHE = Path.home() / ".cache" / "clauselens"
PAKTON = {"note": "PAKTON (gold-document protocol, 4 sets incl. CUAD)", "P@1": 22.34, "R@64": 89.58,
          "per_set": {"contractnli": {"R@1": 53.14, "R@64": 99.82}, "maud": {"R@1": 23.99, "R@64": 82.80},
                      "privacy_qa": {"R@1": 13.34, "R@64": 89.42}, "cuad": {"R@1": 16.52, "R@64": 86.23}}}


# ------------------------------------------------------------------ data
def disk_path(file_path: str, path_map: dict[str, str]) -> Path:
    """On-disk path of a benchmark ``file_path`` (17 names differ, see SOURCE.md)."""
    return DATA / "corpus" / path_map.get(file_path, file_path)


def load_tests(sets: Iterable[str], selection: str, limit: int | None) -> dict[str, list[tuple[int, dict]]]:
    """set -> [(index in the benchmark file, test)], in mini order for ``mini``."""
    mini = json.loads((DATA / "mini_selection.json").read_text())
    out = {}
    for s in sets:
        tests = json.loads((DATA / "benchmarks" / f"{s}.json").read_text(encoding="utf-8"))["tests"]
        idx = mini[s] if selection == "mini" else list(range(len(tests)))
        if limit:
            idx = idx[:limit]
        out[s] = [(i, tests[i]) for i in idx]
    return out


def corpus_files(tests: dict[str, list[tuple[int, dict]]], corpus: str, path_map: dict[str, str]) -> dict[str, Path]:
    """doc id (benchmark file_path) -> disk path, for the selected tests' docs or all."""
    inv = {v: k for k, v in path_map.items()}
    if corpus == "all":
        files = sorted(p for p in (DATA / "corpus").rglob("*.txt"))
        return {inv.get(str(p.relative_to(DATA / "corpus")), str(p.relative_to(DATA / "corpus"))): p for p in files}
    docs = sorted({sn["file_path"] for ts in tests.values() for _, t in ts for sn in t["snippets"]})
    return {d: disk_path(d, path_map) for d in docs}


# ------------------------------------------------------------------ chunkers
def chunk_fixed(doc_id: str, text: str, size: int = 500) -> list[Chunk]:
    """Non-overlapping ``size``-character windows (the upstream naive baseline)."""
    return [Chunk(id=f"{doc_id}#f{i}", doc_id=doc_id, node_id=f"f{i}", kind="window", text=text[s:s + size],
                  spans=[Span(start=s, end=min(len(text), s + size))], source_path=doc_id)
            for i, s in enumerate(range(0, len(text), size)) if text[s:s + size].strip()]


def chunk_recursive(doc_id: str, text: str, size: int = 500) -> list[Chunk]:
    """langchain-text-splitters RecursiveCharacterTextSplitter, ``size`` chars, no overlap."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    sp = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0, add_start_index=True)
    out = []
    for i, d in enumerate(sp.create_documents([text])):
        s = d.metadata["start_index"]
        assert text[s:s + len(d.page_content)] == d.page_content
        out.append(Chunk(id=f"{doc_id}#r{i}", doc_id=doc_id, node_id=f"r{i}", kind="window", text=d.page_content,
                         spans=[Span(start=s, end=s + len(d.page_content))], source_path=doc_id))
    return out


def chunk_structure(doc_id: str, text: str, kinds: set[str] | None = None, max_chars: int | None = None) -> list[Chunk]:
    """The Archivist's chunks (``load_text_document`` keeps the text exactly as read, BOM
    included, so spans are file offsets) + ``build_chunks``; ``kinds`` keeps only those
    chunk kinds (e.g. ``{"node", "window"}`` for non-overlapping chunks); ``max_chars``
    overrides the parser's chunk size bound."""
    from clauselens.parsing import build_chunks, load_text_document

    doc = load_text_document(text, doc_id=doc_id, source_path=doc_id)
    chunks = build_chunks(doc) if max_chars is None else build_chunks(doc, max_chars=max_chars)
    return [c for c in chunks if kinds is None or c.kind in kinds]


def build_chunks_for(chunker: str, files: dict[str, Path], texts: dict[str, str]) -> list[Chunk]:
    """All chunks of the corpus with ``chunker`` (``structure``/``fixed500``/``recursive``)."""
    out: list[Chunk] = []
    for d, p in files.items():
        t = texts[d]
        if chunker == "fixed500":
            out += chunk_fixed(d, t)
        elif chunker == "recursive":
            out += chunk_recursive(d, t)
        elif chunker == "structure":
            out += chunk_structure(d, t)
        elif chunker == "structure-node":
            out += chunk_structure(d, t, {"node", "window"})
        elif chunker.startswith("structure") and chunker[9:].isdigit():  # e.g. structure1000
            out += chunk_structure(d, t, max_chars=int(chunker[9:]))
        else:
            raise SystemExit(f"unknown chunker {chunker!r}")
    return out


# ------------------------------------------------------------------ retrievers
def make_retriever(kind: str, embedder_name: str) -> HybridRetriever:
    """``bm25``/``dense``/``hybrid`` with optional flags ``-route`` (route to the
    description's document first) and ``-dedup`` (drop passages less than half new)."""
    base, *flags = kind.split("-")
    if base not in ("bm25", "dense", "hybrid") or not set(flags) <= {"route", "dedup"}:
        raise SystemExit(f"unknown retriever {kind!r}")
    route = "route" in flags
    emb = None
    if base in ("dense", "hybrid"):
        from clauselens.retrieval.embedders import get_embedder

        emb = get_embedder(embedder_name, CACHE)
    r = HybridRetriever(emb, route="auto" if route else "never", route_top=1, candidates=64,
                        lexical=base != "dense", dedupe=0.5 if "dedup" in flags else None)
    return r


def fingerprint(chunks: list[Chunk]) -> str:
    """12 hex digits identifying the chunks (ids + spans) and the retrieval code, so cached
    per-query results are reused only when neither changed."""
    import hashlib

    h = hashlib.sha256()
    for c in chunks:
        h.update(f"{c.id}:{[(s.start, s.end) for s in c.spans]}".encode())
    for f in sorted((REPO / "clauselens" / "retrieval").glob("*.py")):
        if f.name in ("analyzer.py", "lexical.py", "dense.py", "fusion.py", "hybrid.py", "rerank.py", "embedders.py"):
            h.update(f.read_bytes())
    return h.hexdigest()[:12]


def index_bytes(r: HybridRetriever) -> int:
    """Bytes held by the passage indexes (BM25 sparse matrix + dense vectors)."""
    n = 0
    if r._bm25 is not None and r._bm25._bm25 is not None:
        n += sum(a.nbytes for a in r._bm25._bm25.scores.values() if hasattr(a, "nbytes"))
    if r._dense is not None:
        n += r._dense.vectors.nbytes
    return n


# ------------------------------------------------------------------ scoring
def score_query(ranked: list[dict], gold: list[tuple[str, int, int]]) -> dict[str, list[float]]:
    """Per-k metrics for one query. ``ranked``: [{"doc": id, "spans": [[s, e], ...]}]."""
    m = {k: [] for k in ("P", "R", "Pm", "Rm", "DRM")}
    for k in KS:
        top = ranked[:k]
        snips = [(p["doc"], s, e) for p in top for s, e in p["spans"]]
        p, r = precision_recall(snips, gold)
        pm, rm = precision_recall(snips, gold, merged=True)
        m["P"].append(p), m["R"].append(r), m["Pm"].append(pm), m["Rm"].append(rm)
        m["DRM"].append(document_mismatch([x["doc"] for x in top], gold))
    return m


def summarise(rows: list[dict]) -> dict:
    """Means (in %) per k of P/R (as defined), P/R merged, DRM over ``rows``."""
    out = {}
    for key, name in (("P", "precision"), ("R", "recall"), ("Pm", "precision_merged"),
                      ("Rm", "recall_merged"), ("DRM", "drm")):
        arr = np.array([r["m"][key] for r in rows]) if rows else np.zeros((0, len(KS)))
        out[name] = {str(k): round(float(arr[:, i].mean() * 100), 2) if len(arr) else None for i, k in enumerate(KS)}
    out["queries"] = len(rows)
    return out


def _versions() -> dict:
    return run_provenance(("bm25s", "sentence-transformers", "torch", "langchain-text-splitters", "PyStemmer", "numpy"), ("clauselens", "benchmarks/legalbench_rag.py"))


def markdown_table(paths: list[Path]) -> str:
    """README table (merged P@1, R@1, R@8, R@64, as-defined R@64, DRM@8, per-set R@1/R@64,
    latency) from results JSON files."""
    head = ("| setting | method | queries | chunks | P@1 | R@1 | R@8 | R@64 | R@64 as defined | DRM@8 "
            "| CNLI R@1 / R@64 | MAUD R@1 / R@64 | PQA R@1 / R@64 | index s | p50 / p95 ms |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for p in paths:
        d = json.loads(Path(p).read_text())
        smp = d["sample"]
        for name, m in d["methods"].items():
            mac = m["macro"]
            cells = []
            for s in SETS:
                x = m["per_set"].get(s)
                cells.append(f"{x['recall_merged']['1']:.1f} / {x['recall_merged']['64']:.1f}" if x else "–")
            nq = sum(v["queries"] for v in m["per_set"].values())
            lines.append(
                f"| {smp['setting']} ({smp['selection']}, {smp['documents_indexed'] if smp['setting'] == 'whole' else 'gold'} docs) "
                f"| {name} | {nq} | {m['chunks']:,} | {mac['precision_merged']['1']:.2f} | {mac['recall_merged']['1']:.2f} "
                f"| {mac['recall_merged']['8']:.2f} | {mac['recall_merged']['64']:.2f} | {mac['recall']['64']:.2f} "
                f"| {mac['drm']['8']:.1f} | {' | '.join(cells)} | {m['index_time_s']:.0f} "
                f"| {m['latency_ms_p50']:.1f} / {m['latency_ms_p95']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--setting", default="whole", help="whole, gold, or whole,gold")
    ap.add_argument("--selection", default="mini", choices=["mini", "full"])
    ap.add_argument("--corpus", default=None, choices=["selection", "all"],
                    help="whole setting: index the selected tests' documents or all 714 (default: selection for mini, all for full)")
    ap.add_argument("--methods", default="bm25:fixed500,bm25-route:structure")
    ap.add_argument("--embedder", default="minilm")
    ap.add_argument("--limit", type=int, default=None, help="queries per set")
    ap.add_argument("--out", default=None, help="results JSON (default benchmarks/results/legalbench_rag_<selection>_<setting>.json)")
    ap.add_argument("--fresh", action="store_true", help="ignore cached per-query results (after a code change)")
    ap.add_argument("--table", nargs="+", default=None, help="print the README table from these results JSONs and exit")
    a = ap.parse_args(argv)
    if a.table:
        print(markdown_table([Path(p) for p in a.table]))
        return 0
    sets = [s for s in a.sets.split(",") if s]
    if "cuad" in sets:
        print("cuad: benchmarks/cuad.json is missing from ../shared/data/legalbench-rag; skipped", file=sys.stderr)
        sets.remove("cuad")
    corpus = a.corpus or ("selection" if a.selection == "mini" else "all")
    path_map = json.loads((DATA / "corpus_path_map.json").read_text())["map"]
    tests = load_tests(sets, a.selection, a.limit)
    files = corpus_files(tests, corpus, path_map)
    texts = {d: p.read_text(encoding="utf-8") for d, p in files.items()}  # BOM kept (SOURCE.md)
    print(f"{len(files)} documents, {sum(map(len, texts.values())):,} chars; "
          f"queries: {', '.join(f'{s}={len(v)}' for s, v in tests.items())}", file=sys.stderr)
    settings = a.setting.split(",")
    chunk_cache: dict[str, list[Chunk]] = {}
    results: dict[str, dict] = {s: {} for s in settings}
    def write_results() -> None:
        for setting in settings:
            out = (Path(a.out).with_name(f"{Path(a.out).stem}_{setting}.json") if len(settings) > 1 else Path(a.out)) if a.out else REPO / "benchmarks" / "results" / f"legalbench_rag_{a.selection}_{setting}.json"
            out.parent.mkdir(parents=True, exist_ok=True)
            old = json.loads(out.read_text()) if out.exists() else {}
            methods = old.get("methods", {})
            methods.update(results[setting])
            doc = {
                "benchmark": "LegalBench-RAG (arXiv:2408.10343), char-level P/R as in run_benchmark.py + merged variant",
                "command": " ".join([".venv/bin/python", "benchmarks/legalbench_rag.py", *(argv if argv is not None else sys.argv[1:])]),
                "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "machine": f"{platform.machine()}, {__import__('os').cpu_count()} CPU cores (shared), no GPU",
                "versions": _versions(),
                "sample": {"selection": a.selection, "setting": setting, "corpus": corpus if setting == "whole" else "gold document",
                           "documents_indexed": len(files), "chars_indexed": sum(map(len, texts.values())),
                           "queries": {s: len(v) for s, v in tests.items()}, "limit": a.limit,
                           "cuad": "not scored: benchmarks/cuad.json is missing here (its corpus is complete)"},
                "ks": list(KS), "metrics_in_percent": True, "pakton_reference": PAKTON,
                "methods": methods,
            }
            out.write_text(json.dumps(doc, indent=1))
            print(f"wrote {out}", file=sys.stderr)

    for method in a.methods.split(","):
        kind, _, chunker = method.partition(":")
        chunker = chunker or "structure"
        if chunker not in chunk_cache:
            t0 = time.perf_counter()
            chunk_cache[chunker] = build_chunks_for(chunker, files, texts)
            print(f"[{chunker}] {len(chunk_cache[chunker]):,} chunks in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        chunks = chunk_cache[chunker]
        t0 = time.perf_counter()
        r = make_retriever(kind, a.embedder)
        r.index_chunks(chunks)
        index_s = time.perf_counter() - t0
        print(f"[{method}] indexed in {index_s:.1f}s", file=sys.stderr)
        for setting in settings:
            run_dir = CACHE / "bench" / f"{a.selection}-{corpus}" / setting
            run_dir.mkdir(parents=True, exist_ok=True)
            emb_tag = f"@{a.embedder}" if kind.split("-")[0] != "bm25" else ""
            jl = run_dir / f"{method.replace(':', '__')}{emb_tag}-{fingerprint(chunks)}.jsonl"
            done = {}
            if jl.exists() and a.fresh:
                jl.unlink()
            if jl.exists():
                for line in jl.read_text().splitlines():
                    row = json.loads(line)
                    done[(row["set"], row["idx"])] = row
            with jl.open("a") as fh:
                for s, ts in tests.items():
                    for i, t in ts:
                        if (s, i) in done:
                            continue
                        gold_doc = t["snippets"][0]["file_path"]
                        q0 = time.perf_counter()
                        res = r.search(t["query"], k=64, doc_ids=[gold_doc] if setting == "gold" else None)
                        lat = (time.perf_counter() - q0) * 1000
                        ranked = [{"doc": p.doc_id, "spans": [[sp.start, sp.end] for sp in p.spans]} for p in res.passages]
                        row = {"set": s, "idx": i, "latency_ms": round(lat, 3), "ranked": ranked}
                        fh.write(json.dumps(row) + "\n")
                        done[(s, i)] = row
            per_set = {}
            lats = []
            for s, ts in tests.items():
                rows = []
                for i, t in ts:
                    row = done[(s, i)]
                    gold = [(sn["file_path"], *sn["span"]) for sn in t["snippets"]]
                    rows.append({"m": score_query(row["ranked"], gold)})
                    lats.append(row["latency_ms"])
                per_set[s] = summarise(rows)
            macro = {name: {str(k): round(float(np.mean([per_set[s][name][str(k)] for s in per_set])), 2) for k in KS}
                     for name in ("precision", "recall", "precision_merged", "recall_merged", "drm")}
            results[setting][method + emb_tag] = {
                "command": " ".join([".venv/bin/python", "benchmarks/legalbench_rag.py", *(argv if argv is not None else sys.argv[1:])]),
                "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "retriever": kind, "chunker": chunker, "embedder": a.embedder if emb_tag else None,
                "chunks": len(chunks), "index_time_s": round(index_s, 2), "index_bytes": index_bytes(r),
                "latency_ms_p50": round(float(np.percentile(lats, 50)), 3),
                "latency_ms_p95": round(float(np.percentile(lats, 95)), 3),
                "per_set": per_set, "macro": macro}
            mm = macro
            print(f"[{setting}] {method}{emb_tag}: P@1 {mm['precision']['1']:.2f} R@1 {mm['recall']['1']:.2f} "
                  f"| merged P@1 {mm['precision_merged']['1']:.2f} R@8 {mm['recall_merged']['8']:.2f} "
                  f"R@64 {mm['recall_merged']['64']:.2f} | DRM@8 {mm['drm']['8']:.2f}", file=sys.stderr)
        write_results()  # after every method, so a long run keeps what it has
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
