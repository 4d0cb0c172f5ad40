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

Library methods (issue #17): ``library`` puts the corpus documents into a persistent
:class:`clauselens.library.Library` (lexical only; ``-dense`` adds ``--embedder``) and asks
each query through ``Library.search`` -- agreement resolution from the query's words, then
the library's own passages (<= 900 characters) ranked within the resolved agreement(s);
``library-filenames`` is the same with file names appended to every agreement's resolution
profile (LegalBench-RAG's file names repeat the parties its queries name, so that row is not
the honest one). Their rows also report the share of queries resolved to the gold document
alone (and with the gold document among those searched). The library is built once per
selection and variant under ``~/.cache/clauselens/bench/legalbench_library/`` (resumable:
``add`` skips unchanged files). Its rankers are asked for 64 candidates (the library's
default is 50), so R@64 means the same as in the other rows.

Backends (issue #20): ``-milvus`` builds the same library on the ``milvus`` backend (a Milvus
Lite file; BM25 inside the engine, with the engine's term statistics); ``-globalidf`` asks the
local library with ``Library.local_idf = False`` (library-wide BM25 statistics instead of the
resolved agreement's own), which isolates the one ranking difference between the backends by
design. Each row records its ``backend`` and ``bm25_statistics``.

Per-query results are cached per method, chunk set and retrieval-code fingerprint
(``--fresh`` ignores them). Resumable: embeddings are cached by ``clauselens.retrieval.embedders``; per-query results
go to ``~/.cache/clauselens/bench/<selection>-<corpus>/<setting>/<method>.jsonl`` and
queries already there are not run again. Results (with the command, versions, sample and
date) are written to ``benchmarks/results/legalbench_rag_<selection>_<setting>.json``;
methods from earlier runs in that file are kept.

Example (the README table)::

    nice -n 10 .venv/bin/python benchmarks/legalbench_rag.py --selection mini --setting whole \
        --methods bm25:fixed500,bm25:recursive,bm25:structure,bm25-route:structure
    nice -n 19 .venv/bin/python benchmarks/legalbench_rag.py --selection mini --setting whole \
        --methods library,library-filenames --out benchmarks/results/legalbench_rag_mini_library_whole.json
    nice -n 19 .venv/bin/python benchmarks/legalbench_rag.py --selection full --setting whole \
        --methods library,library-filenames --out benchmarks/results/legalbench_rag_full_library_whole.json
    nice -n 10 .venv/bin/python benchmarks/legalbench_rag.py --selection mini --setting whole \
        --methods library,library-milvus,library-globalidf --out benchmarks/results/legalbench_rag_mini_library_backends.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import platform
import sys
import time
from pathlib import Path
from typing import Iterable

import numpy as np

from clauselens.parsing.types import Chunk, Span
from clauselens.provenance import run_provenance
from clauselens.retrieval.eval_metrics import document_mismatch, precision_recall
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
    for d in files:
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


# ------------------------------------------------------------------ library (issue #17)
LIBRARY_CACHE = CACHE / "bench" / "legalbench_library"


def cached_rows(path: Path) -> dict[tuple[str, int], dict]:
    """Per-query rows already stored in a resumable ``.jsonl`` cache, keyed by (set, index)."""
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {(r["set"], r["idx"]): r for r in rows}


def library_options(kind: str, embedder_name: str) -> tuple[bool, str]:
    """``(use file names, embedder name)`` of a library method: ``library`` with optional
    flags ``-filenames`` (file names in resolution), ``-dense`` (``embedder_name``;
    otherwise lexical only, ``"none"``), ``-milvus`` (the milvus backend on a Milvus Lite
    file, issue #20; see :func:`library_backend`), ``-globalidf`` (local backend only:
    ``Library.local_idf = False``, library-wide BM25 statistics; see :func:`library_local_idf`) and
    ``-nolay`` (``Library.expand_lay_terms = False``: no lay-phrase terms in the ranking query) and
    ``-head`` (the installed reranker head over the fused top, as ``retrieval.library_rerank = "head"``
    configures it: :func:`clauselens.library.opening.configure_ranking`)."""
    base, *flags = kind.split("-")
    if base != "library" or not set(flags) <= {"filenames", "dense", "milvus", "globalidf", "nolay", "head"}:
        raise SystemExit(f"unknown library method {kind!r}: library[-filenames][-dense][-milvus|-globalidf][-nolay][-head]")
    if {"milvus", "globalidf"} <= set(flags):
        raise SystemExit(f"{kind}: -globalidf is a local-backend switch (Milvus always uses the engine's BM25 statistics)")
    return "filenames" in flags, embedder_name if "dense" in flags else "none"


def library_local_idf(kind: str) -> bool:
    """``Library.local_idf`` for a library method: False for ``-globalidf`` (BM25 with the
    library-wide term statistics, as Milvus uses its collection's; isolates that one design
    difference between the backends, as ``benchmarks/backend_parity.py``'s
    ``local-global-idf`` row does), else True (the default: the resolved agreements' own)."""
    return "globalidf" not in kind.split("-")[1:]


def bm25_statistics(kind: str) -> str:
    """What BM25 term statistics a library method ranks with (recorded in its result row)."""
    if library_backend(kind) == "milvus":
        return "engine (Milvus Lite: per sealed segment of the passages collection)"
    from clauselens.library.library import LOCAL_BM25_MAX

    if library_local_idf(kind):
        return (f"the resolved agreements' own when they hold <= {LOCAL_BM25_MAX} passages (Library.local_idf), "
                "else library-wide")
    return "library-wide (Library.local_idf = False)"


def library_backend(kind: str) -> str:
    """``"milvus"`` for a ``library...-milvus`` method, else ``"local"``."""
    return "milvus" if "milvus" in kind.split("-")[1:] else "local"


def library_dir(selection: str, variant: str, files: dict[str, Path], default_files: bool) -> Path:
    """``<LIBRARY_CACHE>/<selection>-<variant>`` for the selection's own documents; another
    document set (``--corpus``, ``--sets``, ``--limit``) gets a directory of its own (a hash
    of its doc ids), so no library ever holds documents outside the run's corpus."""
    if default_files:
        return LIBRARY_CACHE / f"{selection}-{variant}"
    import hashlib

    h = hashlib.sha256("\n".join(sorted(files)).encode()).hexdigest()[:8]
    return LIBRARY_CACHE / f"{selection}-{len(files)}docs-{h}-{variant}"


def build_library(root: Path, files: dict[str, Path], *, file_names: bool = False, embedder_name: str = "none",
                  seed: Path | None = None, log: bool = True, backend: str = "local"):
    """Open the library at ``root``, adding whatever of ``files`` it lacks (unchanged files
    are skipped, so an interrupted build resumes). ``file_names`` turns on file names in
    resolution (and rebuilds the profile index when that changes). ``seed``: an existing
    library over the same files and embedder whose directory is copied first when ``root``
    does not exist (the file-name variant differs only in its profile index, so the
    documents are parsed once). Returns ``(library, seconds, AddReport)``."""
    import shutil

    from clauselens.library import Library

    t0 = time.perf_counter()
    seeded = seed is not None and not root.exists() and (seed / "library.json").exists()
    if seeded:
        shutil.copytree(seed, root)
    lib = Library.open(root, embedder_name=embedder_name, cache_dir=CACHE, abstain_threshold=0.0, backend=backend)
    if bool(lib.meta.get("use_file_names", False)) != file_names:
        lib.meta["use_file_names"] = file_names
        (root / "library.json").write_text(json.dumps(lib.meta, indent=2))
        lib.rebuild_lexical()

    def progress(stage: str, i: int, n: int, detail: str) -> None:
        if log and stage == "add" and (i % 25 == 0 or i == n):
            print(f"[library] {stage} {i}/{n} {time.perf_counter() - t0:.0f}s {detail[:60]}", file=sys.stderr, flush=True)

    rep = lib.add(sorted(files.values()), progress=progress)
    if rep.failed:
        print(f"[library] {len(rep.failed)} files failed: {rep.failed[:3]}", file=sys.stderr)
    seconds = time.perf_counter() - t0
    if rep.added or rep.updated or seeded:
        record_build_time(root.with_name(root.name + ".build.json"), seconds, carried=bool(rep.unchanged),
                          seed_side=seed.with_name(seed.name + ".build.json") if seeded else None,
                          seed=seed if seeded else None)
    return lib, seconds, rep


def record_build_time(side: Path, seconds: float, *, carried: bool, seed_side: Path | None = None,
                      seed: Path | None = None) -> dict:
    """Write the library's build time next to it (``side``): summed over resumed builds
    (and the seed's build when it was copied from one), but when this run kept nothing of
    the library as it found it (``carried`` False: every file added or re-indexed, e.g. after
    a record-format change), earlier runs' time no longer describes its contents and is
    dropped. Returns what was written."""
    old = {"seconds": 0.0, "runs": 0}
    if carried and seed is not None:
        if seed_side is not None and seed_side.exists():
            old["seconds"] = json.loads(seed_side.read_text())["seconds"]
    elif carried and side.exists():
        old = json.loads(side.read_text())
    out = {"seconds": round(old["seconds"] + seconds, 1), "runs": old["runs"] + 1,
           "seeded_from": str(seed) if seed is not None else (old.get("seeded_from") if carried else None)}
    side.write_text(json.dumps(out))
    return out


def library_doc_map(lib, files: dict[str, Path]) -> dict[str, str]:
    """Library doc id -> benchmark ``file_path`` (the corpus-relative name the gold spans use)."""
    by_path = {str(p.resolve()): d for d, p in files.items()}
    out = {}
    for r in lib.agreements():
        d = by_path.get(str(Path(r.path).resolve()))
        if d is None:
            raise SystemExit(f"library {lib.root} holds {r.path}, which is not in this run's corpus")
        out[r.doc_id] = d
    return out


def library_ranked(passages, doc_map: dict[str, str]) -> list[dict]:
    """Library passages as the benchmark's ranked snippets: ``{"doc": file_path, "spans":
    [[start, end]]}`` (a library passage has exactly one span, an offset into the file's
    text as read, BOM included)."""
    out = []
    for p in passages:
        if len(p.spans) != 1:
            raise ValueError(f"library passage {p.chunk_id} has {len(p.spans)} spans, expected 1")
        out.append({"doc": doc_map[p.doc_id], "spans": [[p.spans[0].start, p.spans[0].end]]})
    return out


def library_query(lib, query: str, doc_map: dict[str, str], inv_map: dict[str, str], k: int = max(KS),
                  gold_doc: str | None = None) -> dict:
    """One query through ``Library.search`` (pinned to ``gold_doc`` when given: the gold
    setting): the per-query cache row (ranked snippets, resolution, abstention, latency)."""
    q0 = time.perf_counter()
    res = lib.search(query, k=k, doc_ids=[inv_map[gold_doc]] if gold_doc else None)
    lat = (time.perf_counter() - q0) * 1000
    rtrace = res.trace.get("resolution", {})
    return {"latency_ms": round(lat, 3), "ranked": library_ranked(res.passages, doc_map),
            "resolution": {"status": rtrace.get("status"), "chosen": [doc_map[d] for d in rtrace.get("chosen", [])],
                           "first": doc_map[rtrace["ranked"][0][0]] if rtrace.get("ranked") else None},
            "abstained": res.abstained, "reason": res.reason}


def resolution_summary(rows: list[dict], golds: list[str]) -> dict:
    """Resolution accuracy (in %) of library rows against each query's gold document:
    resolved to it alone (the headline), it among the agreements searched, and it ranked
    first by the resolver whatever the decision; plus status counts."""
    n = len(rows)
    alone = sum(1 for r, g in zip(rows, golds) if r["resolution"]["status"] == "resolved" and r["resolution"]["chosen"] == [g])
    among = sum(1 for r, g in zip(rows, golds) if g in r["resolution"]["chosen"])
    first = sum(1 for r, g in zip(rows, golds) if r["resolution"].get("first") == g)
    status: dict[str, int] = {}
    for r in rows:
        status[r["resolution"]["status"]] = status.get(r["resolution"]["status"], 0) + 1
    return {"resolved_to_gold_alone": round(100 * alone / n, 2) if n else None,
            "gold_among_searched": round(100 * among / n, 2) if n else None,
            "gold_ranked_first": round(100 * first / n, 2) if n else None,
            "status_counts": dict(sorted(status.items())), "abstained": sum(1 for r in rows if r.get("abstained")),
            "queries": n}


def library_fingerprint(lib, candidates: int) -> str:
    """12 hex digits identifying the library's contents and settings and the library and
    retrieval code, so cached per-query results are reused only when none changed."""
    import hashlib

    h = hashlib.sha256()
    for r in lib.agreements():
        h.update(f"{r.doc_id}:{r.sha256}:{r.passages}".encode())
    h.update(f"{lib.meta.get('use_file_names', False)}:{lib.meta['embedder']}:{candidates}:{lib.expand_lay_terms}".encode())
    for f in sorted((REPO / "clauselens" / "library").glob("*.py")):
        h.update(f.read_bytes())
    for f in sorted((REPO / "clauselens" / "retrieval").glob("*.py")):
        if f.name in ("analyzer.py", "lexical.py", "fusion.py", "types.py", "embedders.py", "lay_terms.py"):
            h.update(f.read_bytes())
    h.update((REPO / "clauselens" / "data" / "lay_terms.json").read_bytes())
    return h.hexdigest()[:12]


def dir_bytes(root: Path) -> int:
    """Bytes on disk under ``root``."""
    return sum(f.stat().st_size for f in Path(root).rglob("*") if f.is_file())



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


def aggregate(tests: dict[str, list[tuple[int, dict]]], done: dict[tuple[str, int], dict]) -> tuple[dict, dict, list[float]]:
    """Per-set summaries, their macro average over the sets, and every latency, from the
    per-query rows ``done[(set, index)]`` (each with ``ranked`` and ``latency_ms``)."""
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
    return per_set, macro, lats


def _versions() -> dict:
    return run_provenance(("bm25s", "sentence-transformers", "torch", "langchain-text-splitters", "PyStemmer", "numpy",
                           "pymilvus", "milvus-lite"),
                          ("clauselens", "benchmarks/legalbench_rag.py"))


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


def run_library_method(kind: str, a: argparse.Namespace, tests: dict[str, list[tuple[int, dict]]],
                       files: dict[str, Path], corpus: str, settings: list[str], results: dict[str, dict],
                       path_map: dict[str, str], argv: list[str] | None) -> dict[str, list[dict]]:
    """Build (or open) the library of ``kind`` (see :func:`library_options`) and run every
    query of every setting through it, with the same per-query cache and scoring as the
    other methods; fills ``results[setting][kind(@embedder)]`` and returns each setting's
    per-query rows in test order (for :func:`library_differences`)."""
    import clauselens.library.library as library_module

    file_names, emb = library_options(kind, a.embedder)
    default_files = corpus == ("selection" if a.selection == "mini" else "all") and a.limit is None and set(tests) == set(SETS)
    backend = library_backend(kind)
    variant = f"{emb}{'-filenames' if file_names else ''}{'-milvus' if backend == 'milvus' else ''}"
    root = library_dir(a.selection, variant, files, default_files)
    seed = library_dir(a.selection, emb, files, default_files) if file_names and backend == "local" else None
    lib, build_s, rep = build_library(root, files, file_names=file_names, embedder_name=emb, seed=seed, backend=backend)
    lib.local_idf = library_local_idf(kind)  # -globalidf reads the same library with library-wide statistics
    lib.expand_lay_terms = "nolay" not in kind.split("-")[1:]  # -nolay: the same library without lay-phrase terms
    if "head" in kind.split("-")[1:]:  # -head: the reranker head with the settings' depth, weight, int8, abstention
        from clauselens.config import Settings
        from clauselens.heads.cross_encoder import load_reranker

        r = Settings().retrieval
        lib.reranker = load_reranker(int8=r.library_rerank_int8)
        if lib.reranker is None:
            raise SystemExit(f"{kind}: no reranker head installed (clauselens/heads/weights/reranker/)")
        lib.rerank_top, lib.rerank_weight = r.library_rerank_top, r.library_rerank_weight
        lib.rerank_abstain = lib.reranker.abstain_threshold if r.library_rerank_abstain is None else r.library_rerank_abstain
    doc_map = library_doc_map(lib, files)
    inv_map = {v: k for k, v in doc_map.items()}
    missing = sorted(set(files) - set(inv_map))
    if missing:
        print(f"[library] {len(missing)} corpus documents are not in the library: {missing[:3]}", file=sys.stderr)
    n_passages = sum(r.passages for r in lib.agreements())
    print(f"[{kind}] library {root}: {len(lib)} agreements, {n_passages:,} passages "
          f"(added {len(rep.added)}, re-indexed {len(rep.updated)}, unchanged {len(rep.unchanged)}) in {build_s:.1f}s",
          file=sys.stderr)
    side = root.with_name(root.name + ".build.json")
    build_info = json.loads(side.read_text()) if side.exists() else None
    emb_tag = f"@{emb}" if emb != "none" else ""
    candidates = max(KS)
    saved = library_module.CANDIDATES
    library_module.CANDIDATES = candidates  # R@64 needs 64 candidates (the library's default is 50)
    per_query: dict[str, list[dict]] = {}
    try:
        fp = library_fingerprint(lib, candidates)
        for setting in settings:
            run_dir = CACHE / "bench" / f"{a.selection}-{corpus}" / setting
            run_dir.mkdir(parents=True, exist_ok=True)
            jl = run_dir / f"{kind}{emb_tag}-{fp}.jsonl"
            if jl.exists() and a.fresh:
                jl.unlink()
            done = cached_rows(jl)
            t0 = time.perf_counter()
            with jl.open("a") as fh:
                for s, ts in tests.items():
                    for i, t in ts:
                        if (s, i) in done:
                            continue
                        gold_doc = t["snippets"][0]["file_path"]
                        row = {"set": s, "idx": i, **library_query(lib, t["query"], doc_map, inv_map,
                                                                   gold_doc=gold_doc if setting == "gold" else None)}
                        fh.write(json.dumps(row) + "\n")
                        done[(s, i)] = row
            print(f"[{setting}] {kind}{emb_tag}: queries in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
            per_set, macro, lats = aggregate(tests, done)
            res_sets = {}
            for s, ts in tests.items():
                res_sets[s] = resolution_summary([done[(s, i)] for i, _ in ts], [t["snippets"][0]["file_path"] for _, t in ts])
            every = [done[(s, i)] for s, ts in tests.items() for i, _ in ts]
            per_query[setting] = every
            golds = [t["snippets"][0]["file_path"] for ts in tests.values() for _, t in ts]
            resolution = {"all": resolution_summary(every, golds), "per_set": res_sets,
                          "macro_resolved_to_gold_alone": round(float(np.mean([v["resolved_to_gold_alone"] for v in res_sets.values()])), 2)}
            command = " ".join([".venv/bin/python", "benchmarks/legalbench_rag.py", *(argv if argv is not None else sys.argv[1:])])
            results[setting][kind + emb_tag] = {
                "command": command, "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                "retriever": "clauselens.library.Library.search (agreement resolution, then BM25"
                             f"{' + dense RRF' if emb_tag else ''} within the resolved agreements)",
                "chunker": "library passages (clause bodies, <= 900 chars)", "embedder": emb if emb_tag else None,
                "file_names_in_resolution": file_names, "candidates_per_ranker": candidates,
                "backend": backend, "bm25_statistics": bm25_statistics(kind), "lay_terms": lib.expand_lay_terms,
                "library": {"root": str(root), "agreements": len(lib), "passages": n_passages,
                            "build_or_open_s_this_run": round(build_s, 1), "added_this_run": len(rep.added),
                            "reindexed_this_run": len(rep.updated),
                            "build": build_info,
                            "failed": [list(f) for f in rep.failed]},
                "chunks": n_passages, "index_time_s": round(build_info["seconds"] if build_info else build_s, 2),
                "index_bytes": dir_bytes(root),
                "latency_ms_p50": round(float(np.percentile(lats, 50)), 3),
                "latency_ms_p95": round(float(np.percentile(lats, 95)), 3),
                "resolution": resolution, "per_set": per_set, "macro": macro}
            mm = macro
            print(f"[{setting}] {kind}{emb_tag}: P@1 {mm['precision']['1']:.2f} R@1 {mm['recall']['1']:.2f} "
                  f"| merged P@1 {mm['precision_merged']['1']:.2f} R@8 {mm['recall_merged']['8']:.2f} "
                  f"R@64 {mm['recall_merged']['64']:.2f} | DRM@8 {mm['drm']['8']:.2f} "
                  f"| resolved to gold {resolution['all']['resolved_to_gold_alone']:.2f}%", file=sys.stderr)
    finally:
        library_module.CANDIDATES = saved
    return per_query


def library_differences(rows_a: list[dict], rows_b: list[dict], tests: dict[str, list[tuple[int, dict]]],
                        ks: tuple[int, ...] = (1, 8, 64)) -> dict:
    """Per-query comparison of two library rows of one run (same queries, same order):
    counts of queries whose resolution, abstention, first passage or top-k passage sets
    differ, and of those whose merged recall at ``ks`` differs (which row was better), plus
    the queries whose resolution, abstention or merged recall differs, one record each."""
    counts = {"queries": len(rows_a), "resolution_differs": 0, "abstention_differs": 0, "first_passage_differs": 0,
              **{f"top{k}_set_differs": 0 for k in ks},
              **{f"recall_merged@{k}": {"a_better": 0, "b_better": 0} for k in ks}}
    listed = []
    golds = [(s, i, t) for s, ts in tests.items() for i, t in ts]
    for ra, rb, (s, i, t) in zip(rows_a, rows_b, golds, strict=True):
        if (ra["set"], ra["idx"]) != (s, i) or (rb["set"], rb["idx"]) != (s, i):
            raise ValueError(f"rows out of order at {s} {i}")
        gold = [(sn["file_path"], *sn["span"]) for sn in t["snippets"]]
        ma, mb = score_query(ra["ranked"], gold), score_query(rb["ranked"], gold)
        res_a = (ra["resolution"]["status"], ra["resolution"]["chosen"])
        res_b = (rb["resolution"]["status"], rb["resolution"]["chosen"])
        counts["resolution_differs"] += res_a != res_b
        counts["abstention_differs"] += ra["abstained"] != rb["abstained"]
        counts["first_passage_differs"] += ra["ranked"][:1] != rb["ranked"][:1]
        recall = {}
        for k in ks:
            sa = {(p["doc"], *map(tuple, p["spans"])) for p in ra["ranked"][:k]}
            sb = {(p["doc"], *map(tuple, p["spans"])) for p in rb["ranked"][:k]}
            counts[f"top{k}_set_differs"] += sa != sb
            x, y = ma["Rm"][KS.index(k)], mb["Rm"][KS.index(k)]
            if abs(x - y) > 1e-9:
                counts[f"recall_merged@{k}"]["a_better" if x > y else "b_better"] += 1
            recall[k] = [round(100 * x, 2), round(100 * y, 2)]
        if res_a != res_b or ra["abstained"] != rb["abstained"] or any(v[0] != v[1] for v in recall.values()):
            listed.append({"set": s, "idx": i, "gold_doc": gold[0][0], "query": t["query"][:160],
                           "resolution": [{"status": r[0], "chosen": r[1]} for r in (res_a, res_b)],
                           "abstained": [ra["abstained"], rb["abstained"]],
                           "same_first_passage": ra["ranked"][:1] == rb["ranked"][:1],
                           "n_ranked": [len(ra["ranked"]), len(rb["ranked"])],
                           **{f"recall_merged@{k}": v for k, v in recall.items()}})
    return {"counts": counts, "queries": listed}


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
    library_rows: dict[str, dict[str, list[dict]]] = {s: {} for s in settings}
    def write_results() -> None:
        for setting in settings:
            if a.out:
                out = Path(a.out).with_name(f"{Path(a.out).stem}_{setting}.json") if len(settings) > 1 else Path(a.out)
            else:
                out = REPO / "benchmarks" / "results" / f"legalbench_rag_{a.selection}_{setting}.json"
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
            # every pair of library rows of this run compared query by query; earlier comparisons
            # are kept only when neither of their rows was run again
            names = list(library_rows[setting])
            diffs = {k: v for k, v in old.get("library_differences", {}).items() if not {v["a"], v["b"]} & set(names)}
            for x, y in itertools.combinations(names, 2):
                diffs[f"{x}_vs_{y}"] = {"a": x, "b": y, **library_differences(
                    library_rows[setting][x], library_rows[setting][y], tests)}
            if diffs:
                doc["library_differences"] = diffs
            out.write_text(json.dumps(doc, indent=1))
            print(f"wrote {out}", file=sys.stderr)

    for method in a.methods.split(","):
        kind, _, chunker = method.partition(":")
        if kind.split("-")[0] == "library":
            if chunker not in ("", "library"):
                raise SystemExit(f"{method}: a library method uses the library's own passages (no chunker)")
            rows = run_library_method(kind, a, tests, files, corpus, settings, results, path_map, argv)
            emb_tag = f"@{library_options(kind, a.embedder)[1]}" if "dense" in kind.split("-") else ""
            for setting, r in rows.items():
                library_rows[setting][kind + emb_tag] = r
            write_results()
            continue
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
            done.update(cached_rows(jl))
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
            per_set, macro, lats = aggregate(tests, done)
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
