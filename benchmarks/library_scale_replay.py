"""Library scale with real MiniLM vectors, both lexical engines side by side (issue #42).

``benchmarks/library_scale.py`` parses the LegalBench-RAG corpus and uses stand-in random vectors;
this benchmark instead *replays* an existing MiniLM library -- the clause-QA CUAD library
(462 CUAD agreements, 62,116 passages, real all-MiniLM-L6-v2 vectors), read from a COPY made with
SQLite's backup API (the shared library is never written) -- into fresh libraries of 10k / 100k /
520k passages, once per configuration ``engine:vectors`` side by side (default: today's
``bm25s:f32`` -- one BM25 index rebuilt on every change, exact float32 scans -- and
``tantivy:f16`` -- lexical segments, :mod:`clauselens.library.lexical_tantivy`, float16 vectors
with an HNSW graph above 50k rows, :mod:`clauselens.library.vectors_ann`).

Replication: a size is the 462 agreements (copy ``r0``), then copies ``r1``, ``r2``, ... of the
agreements that no dev question names (own doc id and path; identical text and tokens; the
vectors of a copy get N(0, 0.02^2) noise per dimension and are re-normalised, so an approximate
index sees near-duplicates, not exact ties) until the passage count is reached. The dev
agreements are never copied, so a dev question still names one agreement. Replay writes through
the library's real storages (``catalogue.put_agreement``, ``vectors.append``, the lexical
engine's segment add or rebuild): the add numbers are storage-side (no parsing, no embedding).

Measured per (size, engine), each step in a fresh process: build seconds; open (median of 3)
and RSS; ``Library.search`` latency with the **real MiniLM query encoding included** on the 100
dev questions ("named"), 50 generic questions naming no agreement ("unnamed") and 50 dev
questions with ``resolve=False`` ("whole_library"); RSS after the queries (the embedder uncached: every query is encoded); add one real CUAD
agreement not in the library (TXT parsed and embedded with MiniLM: seconds split into parse +
embed and the rest) and remove it again; the whole-library path's parts (MiniLM encoding, lexical
top 50, dense scan) and recall@10 of the dense step against an exact scan of every live row.

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m \\
        benchmarks.library_scale_replay --sizes 10000 100000 --configs bm25s:f32 tantivy:f16
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from benchmarks.library_scale import (
    GENERIC_QUESTIONS,
    QUESTIONS,
    GapWatch,
    cpu_s,
    dir_bytes,
    latency_summary,
    load_questions,
    now_utc,
    peak_rss_mb,
    rss_mb,
    write_json,
)

REPO = Path(__file__).resolve().parents[1]
SOURCE = Path("~/.cache/clauselens/bench/clause_qa/cuad462-minilm").expanduser()
CACHE = Path("~/.cache/clauselens/bench/library_scale_replay").expanduser()
OUT = REPO / "benchmarks" / "results" / "library_scale_replay.json"
CUAD_TXT = REPO.parent / "shared" / "data" / "cuad" / "full_contract_txt"
NOISE = 0.02
K = 5


class NamedStub:
    """An embedder that is never called: the replayed library records ``minilm`` (so a later
    ``Library.open`` uses the real MiniLM for queries)."""

    name = "minilm"
    dim = 384


def source_copy(cache: Path) -> Path:
    """A private copy of the source library (SQLite backup from a read-only connection)."""
    dst = cache / "source"
    if (dst / "done").exists():
        return dst
    dst.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(f"file:{SOURCE / 'catalogue.sqlite'}?mode=ro", uri=True)
    out = sqlite3.connect(str(dst / "catalogue.sqlite"))
    src.backup(out)
    out.close()
    src.close()
    (dst / "vectors.f32").write_bytes((SOURCE / "vectors.f32").read_bytes())
    (dst / "library.json").write_text((SOURCE / "library.json").read_text())
    (dst / "done").write_text("ok")
    return dst


def step_build(size: int, engine: str, root: Path, cache: Path, pinned: Sequence[str], vectors: str = "f32") -> dict:
    """Replay the source into a new library of ``size`` passages with lexical engine ``engine`` and
    vector format ``vectors`` (``f16``: the HNSW graph is built at the end when the size calls for it)."""
    import shutil

    from clauselens.library import Library
    from clauselens.library.storage import SqliteCatalogue

    src = source_copy(cache)
    scat = SqliteCatalogue(src / "catalogue.sqlite")
    svec = np.memmap(src / "vectors.f32", dtype=np.float32, mode="r").reshape(-1, 384)
    if root.exists():
        shutil.rmtree(root)
    lib = Library.open(root, embedder=NamedStub(), lexical=engine, vectors=vectors)
    pinned_set = set(pinned)
    recs = scat.agreements()
    dev = [r for r in recs if Path(r.path).name in pinned_set]
    others = [r for r in recs if Path(r.path).name not in pinned_set]
    np.random.default_rng(17).shuffle(others)
    plan: list[tuple[int, Any]] = []
    total, k = 0, 0
    for r in [*dev, *others]:  # copy r0: the dev agreements first, then the others, until the size is reached
        if total >= size:
            break
        plan.append((0, r))
        total += r.passages
    while total < size:
        k += 1
        for r in others:
            plan.append((k, r))
            total += r.passages
            if total >= size:
                break
    rng = np.random.default_rng(42)
    t0, c0 = time.perf_counter(), cpu_s()
    t_commit = 0.0
    n = 0
    for i, (copy, rec) in enumerate(plan):
        rows = scat.rows_of([rec.doc_id])
        chunks = scat.passages(rows)
        toks = scat.tokens_of(rows)
        vecs = np.asarray(svec[rows], dtype=np.float32)
        suffix = f"-r{copy}" if copy else ""
        if copy:
            vecs = vecs + rng.normal(0, NOISE, vecs.shape).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            chunks = [c.model_copy(update={"id": c.id + suffix, "doc_id": rec.doc_id + suffix}) for c in chunks]
        new = rec.model_copy(update={"doc_id": rec.doc_id + suffix, "path": rec.path + suffix})
        defs = [(t, o, bool(m)) for t, o, m in scat.db.execute(
            "SELECT term, offset, means FROM definitions WHERE doc_id=?", (rec.doc_id,))]
        marks = [(kk, o) for kk, o in scat.db.execute("SELECT ref_key, offset FROM markers WHERE doc_id=?", (rec.doc_id,))]
        profile = scat.profile(rec.doc_id)
        first = lib.catalogue.reserve_rows(len(chunks))
        new_rows = list(range(first, first + len(chunks)))
        lib.vectors.append(first, vecs)
        lib.catalogue.put_agreement(new, profile, chunks, toks, new_rows, defs, marks)
        if lib.lexical.incremental:
            lib.lexical.add_passages(new.doc_id, new_rows, toks, lib.analyzer.tokenize(profile))  # type: ignore[attr-defined]
            if (i + 1) % 200 == 0:
                s = time.perf_counter()
                lib._commit_lexical()
                t_commit += time.perf_counter() - s
        n += len(chunks)
        if i % 500 == 0:
            print(f"[replay] {engine} {size}: {i}/{len(plan)} agreements {time.perf_counter() - t0:.0f}s", file=sys.stderr,
                  flush=True)
    s = time.perf_counter()
    lib._commit_lexical()
    t_commit += time.perf_counter() - s
    wall, cpu = time.perf_counter() - t0, cpu_s() - c0
    graph_s = None
    if getattr(lib.vectors, "needs_graph", None) and lib.vectors.needs_graph():  # type: ignore[attr-defined]
        s = time.perf_counter()
        lib.vectors.build_graph()  # type: ignore[attr-defined]
        graph_s = round(time.perf_counter() - s, 2)
    return {"engine": engine, "vectors": vectors, "graph_build_s": graph_s, "passages": n, "agreements": len(plan), "copies_max": k,
            "seconds": round(wall, 2), "cpu_s": round(cpu, 2), "lexical_commit_or_rebuild_s": round(t_commit, 2),
            "passages_per_s": round(n / wall, 1), "peak_rss_mb": peak_rss_mb()}


def step_open(root: Path) -> dict:
    t0 = time.perf_counter()
    from clauselens.library import Library

    t1 = time.perf_counter()
    lib = Library.open(root, create=False)
    t2 = time.perf_counter()
    return {"import_s": round(t1 - t0, 3), "open_s": round(t2 - t1, 3), "rss_after_open_mb": rss_mb(),
            "agreements": len(lib.agreements())}


def step_queries(root: Path, named: Sequence[str], generic: Sequence[str], n_whole: int = 50) -> dict:
    """``Library.search`` latency with the real MiniLM query encoding included."""
    from clauselens.library import Library
    from clauselens.retrieval.embedders import load_embedder

    lib = Library.open(root, create=False, embedder=load_embedder("minilm"))  # uncached: every query is encoded
    lib.embedder.embed_queries(["warm up"])  # the model load is not a query
    lib.search("warm up question about termination", K)
    watch = GapWatch()
    groups = {"named": [(q, True) for q in named], "unnamed": [(q, True) for q in generic],
              "whole_library": [(q, False) for q in list(named)[:n_whole]]}
    out: dict[str, Any] = {"rss_after_open_mb": rss_mb(), "groups": {}}
    tops: dict[str, list[list[str]]] = {}
    retried = 0
    for g, qs in groups.items():
        ms, tops[g] = [], []
        for q, resolve in qs:
            for attempt in range(4):
                g0 = watch.settle()
                s = time.perf_counter()
                res = lib.search(q, K, resolve=resolve)
                t = (time.perf_counter() - s) * 1000
                if watch.settle() == g0 or attempt == 3:
                    break
                retried += 1
            ms.append(t)
            tops[g].append([p.chunk_id for p in res.passages])
        out["groups"][g] = latency_summary(ms)
    watch.close()
    out["retimed_after_a_gap"] = retried
    out["rss_after_queries_mb"] = rss_mb()
    out["top_chunk_ids"] = tops
    # the whole-library path's parts, and recall@10 of the dense step against an exact scan
    lex_ms, vec_ms, enc_ms, recall = [], [], [], []
    live = lib.catalogue.live_mask()
    for q in list(named)[:n_whole]:
        s = time.perf_counter()
        v = lib.embedder.embed_queries([q])[0]
        enc_ms.append((time.perf_counter() - s) * 1000)
        toks = lib.analyzer.tokenize(q)
        s = time.perf_counter()
        lib.lexical.top_passages(toks, None, None, 50)
        lex_ms.append((time.perf_counter() - s) * 1000)
        s = time.perf_counter()
        r, sc = lib.vectors.scores(v, None)
        vec_ms.append((time.perf_counter() - s) * 1000)
        ok = r < len(live)
        ok[ok] = live[r[ok]]
        r, sc = r[ok], sc[ok]
        top = set(r[np.argsort(-sc)[:10]].tolist())
        ex = getattr(lib.vectors, "exact_scores", None)
        full = ex(v) if ex else lib.vectors.scores(v, None)[1]
        full = np.where(np.arange(len(full)) < len(live), full, -9.0)
        full[:len(live)][~live[:len(full)]] = -9.0
        exact = set(np.argsort(-full)[:10].tolist())
        recall.append(len(top & exact) / 10)
    out["parts_ms"] = {"query_encoding_minilm": latency_summary(enc_ms), "lexical_top50_whole_library": latency_summary(lex_ms),
                       "dense_whole_library": latency_summary(vec_ms)}
    n = len(recall)
    m = float(np.mean(recall))
    sd = float(np.std(recall, ddof=1)) if n > 1 else 0.0
    out["dense_recall_at_10_vs_exact"] = {"mean": round(m, 4), "ci95": [round(m - 1.96 * sd / n ** 0.5, 4),
                                          round(min(1.0, m + 1.96 * sd / n ** 0.5), 4)], "n_queries": n}
    return out


def step_incremental(root: Path, cache: Path, repeats: int = 1, threads: int | None = None,
                     runtimes: Sequence[str] = ()) -> dict:
    """Add one real CUAD TXT agreement the library does not hold (parse + MiniLM + storage), remove it;
    ``repeats`` times in this process (the first add also pays one-off loads: the profile tokens,
    a library's conversion). ``threads``: torch threads for the embedding (default: the process's).
    ``runtimes`` (e.g. ``torch onnx``): MiniLM on each of these runtimes
    (:func:`clauselens.retrieval.embedders.load_embedder`), taking turns add by add (the order
    reversed every other repeat), each runtime's adds summarised apart, with the paired ratios."""
    import shutil

    import torch

    from clauselens.library import Library
    from clauselens.parsing.store import parse_file
    from clauselens.retrieval.embedders import load_embedder

    if threads:
        torch.set_num_threads(threads)
    if list(runtimes) == ["overlap"]:  # the serial add and the overlapped one (issue #42)
        return _incremental_overlap(root, cache, repeats)
    if runtimes:
        return _incremental_runtimes(root, cache, repeats, runtimes)
    lib = Library.open(root, create=False, embedder=load_embedder("minilm"))  # uncached: the file's passages are embedded
    have = {Path(r.path.split(".txt")[0] + ".txt").name for r in lib.agreements()}
    sized = [p for p in sorted(CUAD_TXT.glob("*.txt")) if 20_000 < p.stat().st_size < 60_000]
    f = next((p for p in sized if p.name not in have), sized[0])  # every CUAD file is in the library: add one again
    d = cache / "incoming"
    d.mkdir(parents=True, exist_ok=True)
    dst = d / (f.name if f.name not in have else f"incoming_{f.name}")
    shutil.copy(f, dst)
    lib.embedder.embed_queries(["warm up"])
    spent = {"embed": 0.0, "parse": 0.0, "commit": 0.0}

    def timed(key: str, fn: Any) -> Any:
        def run(*a: Any, **kw: Any) -> Any:
            s = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                spent[key] += time.perf_counter() - s
        return run

    lib.embedder.embed_passages = timed("embed", lib.embedder.embed_passages)
    lib.lexical.commit = timed("commit", lib.lexical.commit)  # type: ignore[attr-defined]
    load = timed("parse", lambda p: parse_file(p))
    runs = []
    for _ in range(max(repeats, 1)):
        spent.update(dict.fromkeys(spent, 0.0))
        t0, c0 = time.perf_counter(), time.process_time()
        rep = lib.add([dst], load=load)
        add_s, add_cpu = time.perf_counter() - t0, time.process_time() - c0
        add_parts = dict(spent)
        t1 = time.perf_counter()
        removed = lib.remove([str(dst)])
        rm_s = time.perf_counter() - t1
        runs.append({"add_one_s": round(add_s, 3), "add_one_cpu_s": round(add_cpu, 3), "embed_s": round(add_parts["embed"], 3),
                     "parse_s": round(add_parts["parse"], 3),
                     "lexical_commit_s": round(add_parts["commit"], 3),
                     "rest_s": round(add_s - sum(add_parts.values()), 3), "remove_one_s": round(rm_s, 3), "removed": len(removed)})
    first = runs[0]
    later = runs[1:] or runs
    return {"file": f.name, "passages": rep.passages, "add_one_s": first["add_one_s"],
            "add_one_embed_s": first["embed_s"], "add_one_without_embed_s": round(first["add_one_s"] - first["embed_s"], 3),
            "remove_one_s": first["remove_one_s"], "removed": first["removed"], "torch_threads": torch.get_num_threads(),
            "runs": runs, "median_after_first": {k: round(statistics.median(r[k] for r in later), 3) for k in first},
            "load_1min_after": round(os.getloadavg()[0], 2), "peak_rss_mb": peak_rss_mb()}


def _incoming(lib: Any, cache: Path) -> tuple[Path, Path]:
    """(the CUAD TXT the add-one step adds, its copy under ``cache/incoming``)."""
    import shutil

    have = {Path(r.path.split(".txt")[0] + ".txt").name for r in lib.agreements()}
    sized = [p for p in sorted(CUAD_TXT.glob("*.txt")) if 20_000 < p.stat().st_size < 60_000]
    f = next((p for p in sized if p.name not in have), sized[0])
    d = cache / "incoming"
    d.mkdir(parents=True, exist_ok=True)
    dst = d / (f.name if f.name not in have else f"incoming_{f.name}")
    shutil.copy(f, dst)
    return f, dst


#: ``--add-runtimes`` names of MiniLM on ONNX Runtime with a thread setting: ``onnx_t<N>`` (N intra-op threads,
#: idle threads sleep), ``onnx_t<N>_spin`` (they busy-wait, ONNX Runtime's default), ``onnx_auto`` (ONNX
#: Runtime's defaults: one thread per core, busy-waiting).
def variant_embedder(name: str) -> Any:
    """The MiniLM embedder a ``--add-runtimes`` name stands for: ``torch``, ``onnx`` (the settings' threads),
    or a thread variant (comment above)."""
    from clauselens.retrieval.embedders import load_embedder

    if name in ("torch", "onnx"):
        return load_embedder("minilm", runtime=name)  # type: ignore[arg-type]
    if name == "onnx_auto":
        return load_embedder("minilm", runtime="onnx", threads=0, spin=True)
    if name.startswith("onnx_t"):
        n, _, spin = name[len("onnx_t"):].partition("_")
        return load_embedder("minilm", runtime="onnx", threads=int(n), spin=spin == "spin")
    raise SystemExit(f"unknown add runtime {name!r}: torch, onnx, onnx_t<N>, onnx_t<N>_spin, onnx_auto or overlap")


def _incremental_variants(root: Path, cache: Path, repeats: int, variants: dict[str, tuple[Any, bool]]) -> dict:
    """Add one CUAD TXT at this size once per variant ``name -> (embedder, overlapped add)``, the
    variants taking turns add by add (the order reversed every other repeat), each add removed again;
    wall and CPU per add and per stage (parse, embedding -- in its worker thread when overlapped --,
    the profile index prepared, the catalogue write, the lexical commit; CPU of a stage is its
    thread's), the 1-minute load before each add, the paired ratios to the first variant, and
    whether every variant left the first one's vectors and profile scores. ``beyond_embed_s``: the
    add's wall seconds minus the embedding's (what else is on the add's path)."""
    from clauselens.library import Library
    from clauselens.parsing.store import parse_file

    names = list(variants)
    lib = Library.open(root, create=False, embedder=variants[names[0]][0])
    f, dst = _incoming(lib, cache)
    spent: dict[str, list[float]] = {}

    def timed(key: str, fn: Any) -> Any:
        def run(*a: Any, **kw: Any) -> Any:
            s, c = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **kw)
            finally:
                w = spent.setdefault(key, [0.0, 0.0])
                w[0] += time.perf_counter() - s
                w[1] += time.thread_time() - c
        return run

    for emb, _ in variants.values():
        emb.embed_queries(["warm up"])
        emb.embed_passages = timed("embed", emb.embed_passages)
    lex = lib.lexical
    lex.commit = timed("lexical_commit", lex.commit)  # type: ignore[attr-defined]
    if hasattr(lex, "prepare_profiles"):
        lex.prepare_profiles = timed("profile_prepare", lex.prepare_profiles)  # type: ignore[attr-defined]
    lib.catalogue.put_agreement = timed("catalogue_put", lib.catalogue.put_agreement)  # type: ignore[method-assign]
    load = timed("parse", parse_file)
    probe = lib.analyzer.tokenize("termination notice governing law confidentiality")
    after: dict[str, Any] = {}
    lib.add([dst], load=parse_file)  # one-off loads (profile tokens, page cache) before the timed adds
    lib.remove([str(dst)])
    runs: dict[str, list[dict]] = {n: [] for n in names}
    for i in range(max(repeats, 1)):
        for name in (names if i % 2 == 0 else names[::-1]):
            lib._embedder, lib.overlap_add = variants[name]
            spent.clear()
            load1 = os.getloadavg()[0]
            t0, c0 = time.perf_counter(), time.process_time()
            rep = lib.add([dst], load=load)
            add_s, add_cpu = time.perf_counter() - t0, time.process_time() - c0
            r: dict[str, Any] = {"add_one_s": round(add_s, 3), "add_one_cpu_s": round(add_cpu, 3), "load_1min": round(load1, 2)}
            for k, (w, c) in spent.items():
                r[k + "_s"], r[k + "_cpu_s"] = round(w, 3), round(c, 3)
            r["beyond_embed_s"] = round(add_s - spent.get("embed", [0.0])[0], 3)  # the add's wall time the embedding does not cover
            if i == 0:  # what the add left: its vectors and the profile scores of a probe
                rows = lib.catalogue.rows_of([r_.doc_id for r_ in lib.agreements() if r_.path == str(dst)])
                vec = getattr(lib.vectors, "_map", None)
                after[name] = (np.asarray(vec()[rows]).copy() if vec else None, lex.profile_scores(probe))
            lib.remove([str(dst)])
            runs[name].append(r)
    keys = ("add_one_s", "add_one_cpu_s", "embed_s", "lexical_commit_s")
    stage_keys = sorted({k for rs in runs.values() for r in rs for k in r if k.endswith("_s") or k == "load_1min"})
    ref = after[names[0]]
    return {"file": f.name, "passages": rep.passages, "variants": names, "adds_per_variant": len(runs[names[0]]),
            "overlapped": {n: variants[n][1] for n in names}, "runs": runs,
            "median": {n: {k: round(statistics.median(r.get(k, 0.0) for r in rs), 3) for k in stage_keys} for n, rs in runs.items()},
            "ratio_to_" + names[0]: paired_ratios(runs, names, keys),
            "same_vectors": {n: bool(ref[0] is not None and np.array_equal(ref[0], after[n][0])) for n in names[1:]},
            "same_profile_scores": {n: ref[1] == after[n][1] for n in names[1:]},
            "load_1min_after": round(os.getloadavg()[0], 2), "peak_rss_mb": peak_rss_mb()}


def _incremental_runtimes(root: Path, cache: Path, repeats: int, runtimes: Sequence[str]) -> dict:
    """:func:`_incremental_variants` with MiniLM on several runtimes / thread settings
    (:func:`variant_embedder`), every add overlapped (the product's add)."""
    import torch

    out = _incremental_variants(root, cache, repeats, {rt: (variant_embedder(rt), True) for rt in runtimes})
    out["torch_threads"] = torch.get_num_threads()
    return out


def paired_ratios(runs: dict[str, list[dict]], names: Sequence[str], keys: Sequence[str]) -> dict:
    """Per name after the first and per key: the mean of the paired ratios name / first with a
    Student-t 95 % interval."""
    from scipy.stats import t as student

    ref, out = names[0], {}
    for nm in names[1:]:
        for k in keys:
            ratios = [b[k] / a[k] for a, b in zip(runs[ref], runs[nm]) if a[k] > 0]
            m = float(np.mean(ratios))
            sd = float(np.std(ratios, ddof=1)) if len(ratios) > 1 else 0.0
            h = float(student.ppf(0.975, len(ratios) - 1) * sd / len(ratios) ** 0.5) if len(ratios) > 1 else 0.0
            out.setdefault(nm, {})[k] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)], "n_pairs": len(ratios)}
    return out


def _incremental_overlap(root: Path, cache: Path, repeats: int) -> dict:
    """:func:`_incremental_variants` with ``Library.overlap_add`` off ("serial", the add before issue
    #42's overlap) and on ("overlap"), the same MiniLM embedder."""
    emb = variant_embedder("onnx")
    return _incremental_variants(root, cache, repeats, {"serial": (emb, False), "overlap": (emb, True)})


def _child(step: str, args: dict, label: str, cache: Path) -> dict:
    path = cache / "steps" / f"{label}.json"
    if path.exists():
        return json.loads(path.read_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    argf = cache / "steps" / f".{label}.args.json"
    write_json(argf, args)
    print(f"[replay] step {label} ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "benchmarks.library_scale_replay", "--_step", step, "--_args", str(argf),
                    "--_out", str(path)], cwd=REPO, check=True)
    res = json.loads(path.read_text())
    res["clauselens_commit"] = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                              capture_output=True, text=True).stdout.strip()
    write_json(path, res)
    return res


def _run_step(step: str, a: dict) -> dict:
    root, cache = Path(a.get("root", ".")), Path(a["cache"])
    if step == "build":
        return step_build(a["size"], a["engine"], root, cache, a["pinned"], a.get("vectors", "f32"))
    if step == "open":
        return step_open(root)
    if step == "queries":
        return step_queries(root, a["named"], a["generic"], a.get("n_whole", 50))
    if step == "incremental":
        return step_incremental(root, cache, a.get("repeats", 1), a.get("threads"), a.get("runtimes") or ())
    raise SystemExit(f"unknown step {step}")


def overlap_at_k(a: list[list[str]], b: list[list[str]]) -> float:
    """Mean share of one engine's top-k chunk ids the other also returns (same questions)."""
    return round(statistics.mean(len(set(x) & set(y)) / max(len(x), 1) for x, y in zip(a, b)) if a else 0.0, 3)


def run(sizes: Sequence[int], configs: Sequence[str], cache: Path, out: Path, add_label: str | None = None,
        add_repeats: int = 1, add_threads: int | None = None, add_runtimes: Sequence[str] = ()) -> dict:
    qs = load_questions(QUESTIONS)
    pinned = [Path(q["agreement_file"]).name for q in qs if q.get("agreement_file")]
    named = [q["question"] for q in qs]
    result: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {"sizes": {}}
    cmd = {"date": now_utc(), "command": " ".join(["python", "-m", "benchmarks.library_scale_replay", *sys.argv[1:]])}
    if add_label:  # the libraries' other numbers keep the command and date that made them
        result.setdefault("add_runs", {})[add_label] = cmd
    else:
        result.update(cmd)
    result.update({"benchmark": "library_scale_replay", "issue": 42,
                   "source": f"copy of {SOURCE} (462 CUAD agreements, 62,116 passages, MiniLM vectors)",
                   "method": __doc__.split("\n\n")[1:4]})
    base = {"cache": str(cache)}
    for size in sizes:
        per: dict[str, Any] = {}
        for conf in configs:
            eng, vec = conf.split(":")
            root = cache / f"lib_{eng}_{vec}_{size}"
            lbl = f"{eng}_{vec}_{size}"
            build = _child("build", {**base, "size": size, "engine": eng, "vectors": vec, "root": str(root),
                                     "pinned": pinned}, f"{lbl}_build", cache)
            opens = [_child("open", {**base, "root": str(root)}, f"{lbl}_open{i}", cache) for i in range(3)]
            q = _child("queries", {**base, "root": str(root), "named": named, "generic": GENERIC_QUESTIONS},
                       f"{lbl}_queries", cache)
            inc = _child("incremental", {**base, "root": str(root)}, f"{lbl}_incremental", cache)
            extra = dict(result.get("sizes", {}).get(str(size), {}).get(conf, {}).get("incremental_runs", {}))
            if add_label:  # a later add-one measurement on the same library (one process, ``add_repeats`` adds)
                extra[add_label] = _child("incremental", {**base, "root": str(root), "repeats": add_repeats,
                                                          "threads": add_threads, "runtimes": list(add_runtimes)},
                                          f"{lbl}_incremental_{add_label}", cache)
            per[conf] = {"build": build, "disk_mb": round(dir_bytes(root)["total"] / 2**20, 1),
                        "open_s_median": statistics.median(o["open_s"] for o in opens),
                        "rss_after_open_mb_median": statistics.median(o["rss_after_open_mb"] for o in opens),
                        "queries": {k: v for k, v in q.items() if k != "top_chunk_ids"}, "incremental": inc,
                        "incremental_runs": extra,
                        "_tops": q["top_chunk_ids"]}
        if len(per) == 2:
            a, b = (per[c]["_tops"] for c in configs)
            result.setdefault("engine_top5_overlap", {})[str(size)] = {g: overlap_at_k(a[g], b[g]) for g in a}
        for v in per.values():
            v.pop("_tops", None)
        result["sizes"][str(size)] = {**result["sizes"].get(str(size), {}), **per}  # configs not run now are kept
        write_json(out, result)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--configs", nargs="+", default=["bm25s:f32", "tantivy:f16"],
                    help="lexical engine:vector format per library, side by side")
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--add-label", help="also measure add-one again under this label (libraries and other steps cached)")
    ap.add_argument("--add-repeats", type=int, default=3, help="adds (each removed again) in the --add-label step")
    ap.add_argument("--add-threads", type=int, default=None, help="torch threads in the --add-label step")
    ap.add_argument("--add-runtimes", nargs="*", default=(),
                    help="MiniLM runtimes (torch onnx, or onnx_t1 onnx_t2 onnx_t2_spin onnx_auto: ONNX Runtime threads) "
                         "taking turns in the --add-label step, the first the reference; "
                         "'overlap': the serial add and the overlapped one (issue #42) taking turns")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--_step")
    ap.add_argument("--_args", type=Path)
    ap.add_argument("--_out", type=Path)
    a = ap.parse_args(argv)
    if a._step:
        write_json(a._out, _run_step(a._step, json.loads(a._args.read_text())))
        return
    run(a.sizes, a.configs, a.cache, a.out, a.add_label, a.add_repeats, a.add_threads, a.add_runtimes)


if __name__ == "__main__":
    main()
