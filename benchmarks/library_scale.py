"""Library scale (issue #17, "Scale"): add throughput, disk, open time, RSS and query latency
of :class:`clauselens.library.Library` at 10k / 100k / 520k passages, LLM-free.

Corpus: every file of the LegalBench-RAG corpus (``../shared/data/legalbench-rag/corpus/``:
cuad, contractnli, maud, privacy_qa), parsed once with ``clauselens.parsing.store.parse_file``
(through a :class:`~clauselens.parsing.store.DocumentStore` under the cache, so a parse is
never repeated). A size is a prefix of one fixed order: the 10 agreements of the clause-QA
dev set first, then the other files in a seeded shuffle, then *replicated copies* of those
other files (copy ``r1``, ``r2``, ...: a hard link under the cache with its own path and doc
id ``<id>-r<k>``; identical text, so identical passages and vectors) until the size's passage
count is reached. The dev agreements are never replicated, so a dev question still names one
agreement. Each size is its own library, built from empty by one ``Library.add`` call.

Dense vectors: embedding 520k passages with MiniLM would take ~7 h on this machine, so every
size uses a stand-in embedder (:class:`RandomUnitEmbedder`, name ``random-unit-384``): a unit
vector of dimension 384 drawn from a normal distribution seeded by blake2b of the text, for
passages and queries alike. It goes through the library's real ``NumpyVectors`` path (file,
memmap, exact cosine), so storage, RSS and dense-scoring cost are those of MiniLM vectors;
rankings are meaningless (this measures cost, not quality) and the query latency excludes
query encoding, which is measured once on its own with the real MiniLM (``query_encoding``).

Measured per size (each step in a fresh process, so RSS and open time are honest):

* add: seconds, passages/s, agreements/s, split into loading the stored parse, the fake
  embedding, tokenising, the SQLite writes, the BM25 rebuild and the rest; the one-time parse
  of the corpus gives the parse rate, and an end-to-end rate with parsing is derived;
* disk: bytes of the library directory, per part;
* open: ``Library.open`` of the existing library in fresh processes (median of 3), plus the
  import time of ``clauselens.library``; RSS after open;
* queries through ``Library.search``: the 100 dev questions (they name an agreement: the
  resolver picks it), 50 generic questions naming none (whole library unless the resolver
  finds weak evidence) and 50 dev questions with ``resolve=False`` (always the whole library);
  p50 / p95 / max per group and per resolution status; RSS after the queries;
* incremental: adding one more agreement to the built library and removing it again
  (each rebuilds the BM25 indexes), and micro-timings / a cProfile of the search path.

Steps are cached under ``~/.cache/clauselens/bench/library_scale/`` (``steps/*.json``): a rerun
skips every finished step, and a library whose build did not finish is rebuilt from empty.

    nice -n 19 .venv/bin/python -m benchmarks.library_scale --sizes 10000 100000 520000
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import hashlib
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
CORPUS = DATA / "legalbench-rag" / "corpus"
QUESTIONS = DATA / "clause-qa-dev" / "questions.jsonl"
CACHE = Path("~/.cache/clauselens/bench/library_scale").expanduser()
OUT = REPO / "benchmarks" / "results" / "library_scale.json"
SIZES = (10_000, 100_000, 520_000)
SEED = 17
#: Targets of issue #17 on 2 cores.
TARGET_P95_MS = 200.0
TARGET_OPEN_S = 2.0
K = 5
SUFFIXES = (".txt", ".md", ".pdf", ".docx")

#: Questions that name no agreement (clause topics common in the corpus).
GENERIC_QUESTIONS = [
    "Which law governs the agreement?",
    "How can a party terminate for convenience?",
    "What happens on a change of control?",
    "Is there a non-compete restriction?",
    "What are the confidentiality obligations?",
    "Who owns the intellectual property created under the agreement?",
    "What is the limitation of liability?",
    "Are consequential damages excluded?",
    "What insurance must be maintained?",
    "Can the agreement be assigned without consent?",
    "What are the audit rights?",
    "How are disputes resolved?",
    "Is there an exclusivity obligation?",
    "What are the payment terms?",
    "When does the agreement expire?",
    "Does the agreement renew automatically?",
    "What notice period applies to termination?",
    "What warranties are given?",
    "Which party indemnifies the other?",
    "Is there a most favored nation clause?",
    "What is the minimum purchase commitment?",
    "Are there liquidated damages?",
    "Is there a right of first refusal?",
    "What is the non-solicitation period for employees?",
    "What happens if a force majeure event occurs?",
    "Can the licensee sublicense?",
    "Is the license exclusive or non-exclusive?",
    "What territory does the license cover?",
    "What are the termination rights on insolvency?",
    "How long do confidentiality obligations survive?",
    "What is the revenue sharing arrangement?",
    "Are there price adjustment provisions?",
    "What is the covenant not to sue?",
    "Who bears the cost of product recalls?",
    "What is the cap on damages?",
    "Is there a third party beneficiary?",
    "What are the anti-assignment provisions?",
    "What happens to the license after termination?",
    "What are the conditions to closing?",
    "What is the termination fee?",
    "What are the representations about financial statements?",
    "What interim operating covenants apply before closing?",
    "What is the definition of material adverse effect?",
    "How is personal information shared with third parties?",
    "Can users delete their data?",
    "What information is disclosed to the receiving party?",
    "Must confidential information be returned on termination?",
    "Is reverse engineering permitted?",
    "What are the source code escrow terms?",
    "What is the volume restriction?",
]


# ------------------------------------------------------------------ stand-in embedder
class RandomUnitEmbedder:
    """The dense stand-in (see the module docstring): ``name``, ``dim``, ``embed_passages``,
    ``embed_queries`` as :class:`clauselens.retrieval.embedders.Embedder`; each text's vector
    is a normal draw seeded by blake2b(kind + text), L2-normalised (reproducible; copies of a
    passage get the same vector, as a real embedder would give them)."""

    name = "random-unit-384"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self.seconds = 0.0

    def _vec(self, kind: str, texts: Sequence[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b((kind + t).encode("utf-8", "replace"), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        self.seconds += time.perf_counter() - t0
        return out

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._vec("p:", texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._vec("q:", texts)


# ------------------------------------------------------------------ helpers
def now_utc() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def rss_mb() -> float:
    """Current resident set size of this process (MiB)."""
    try:
        import psutil

        return round(psutil.Process().memory_info().rss / 2**20, 1)
    except ImportError:  # pragma: no cover - psutil is installed in the venv
        with open("/proc/self/statm") as f:
            return round(int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def peak_rss_mb() -> float:
    """Peak resident set size of this process (MiB; ``ru_maxrss`` is KiB on Linux)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def dir_bytes(root: Path) -> dict[str, int]:
    """Bytes per top-level entry of ``root`` (directories summed) and ``total``."""
    out: dict[str, int] = {}
    for p in sorted(root.iterdir()):
        out[p.name] = sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) if p.is_dir() else p.stat().st_size
    out["total"] = sum(out.values())
    return out


def pct(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), q)) if values else float("nan")


def latency_summary(ms: Sequence[float]) -> dict[str, Any]:
    return {"n": len(ms), "p50_ms": round(pct(ms, 50), 1), "p95_ms": round(pct(ms, 95), 1),
            "mean_ms": round(float(np.mean(ms)), 1) if ms else None, "max_ms": round(max(ms), 1) if ms else None}


def write_json(path: Path, data: Any) -> None:
    """Atomic JSON write."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1, default=str))
    os.replace(tmp, path)


def load_questions(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


class Timed:
    """Wraps a callable and sums its wall time (``seconds``) and calls."""

    def __init__(self, fn: Callable) -> None:
        self.fn, self.seconds, self.calls = fn, 0.0, 0

    def __call__(self, *a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return self.fn(*a, **kw)
        finally:
            self.seconds += time.perf_counter() - t0
            self.calls += 1


class GapWatch:
    """A daemon thread that ticks every ``tick`` seconds and sums the time this process was
    stopped (SIGSTOP: other jobs on this shared machine pause nice-19 work) or got no CPU at
    all: over a tick gap longer than ``gap`` seconds, the wall time the process's CPU time did
    not advance (a long call holding the GIL keeps using CPU, so it does not count).
    ``suspended_s`` is subtracted from wall times, and a query that spans a gap is timed again."""

    def __init__(self, tick: float = 0.1, gap: float = 1.0) -> None:
        import threading

        self.tick, self.gap, self.suspended_s, self.events = tick, gap, 0.0, 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self) -> None:
        last, last_cpu = time.monotonic(), time.process_time()
        while not self._stop.wait(self.tick):
            now, now_cpu = time.monotonic(), time.process_time()
            if now - last > self.gap:
                lost = (now - last - self.tick) - (now_cpu - last_cpu)
                if lost > 0.5 * self.gap:
                    self.suspended_s += lost
                    self.events += 1
            last, last_cpu = now, now_cpu

    def settle(self) -> float:
        """Wait two ticks (so a gap that just ended is counted) and return ``suspended_s``."""
        time.sleep(2 * self.tick)
        return self.suspended_s

    def close(self) -> None:
        self._stop.set()


def cpu_s() -> float:
    """CPU seconds (user + system, all threads) of this process."""
    return time.process_time()


# ------------------------------------------------------------------ step: parse
def corpus_files(corpus: Path) -> list[Path]:
    return sorted(f for f in corpus.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
                  and not any(part.startswith(".") for part in f.relative_to(corpus).parts))


def step_parse(corpus: Path, cache: Path) -> dict:
    """Parse every corpus file once (DocumentStore under ``cache/parsed``) and count its
    library passages. Resumable: ``cache/manifest.json`` is rewritten every 25 files."""
    from clauselens.errors import IngestError
    from clauselens.library.passages import library_passages
    from clauselens.parsing.store import DocumentStore

    mpath = cache / "manifest.partial.json"
    done: dict[str, dict] = json.loads(mpath.read_text()) if mpath.exists() else {}
    store = DocumentStore(cache / "parsed")
    files = corpus_files(corpus)
    for i, f in enumerate(files):
        rel = str(f.relative_to(corpus))
        if rel in done:
            continue
        t0 = time.perf_counter()
        try:
            doc, cached = store.load_status(f, ocr=False)
        except IngestError as e:
            done[rel] = {"rel": rel, "error": str(e)}
            continue
        parse_s = time.perf_counter() - t0
        n = len(library_passages(doc))
        done[rel] = {"rel": rel, "sha256": doc.sha256, "chars": len(doc.text), "passages": n,
                     "parse_s": round(parse_s, 4), "parse_cached": cached}
        if i % 25 == 0:
            write_json(mpath, done)
            print(f"[library_scale] parse {i + 1}/{len(files)} {rel[:60]}", file=sys.stderr, flush=True)
    ok = [d for d in done.values() if "error" not in d]
    out = {"corpus": str(corpus), "files": len(files), "parsed": len(ok),
           "failed": [[d["rel"], d["error"]] for d in done.values() if "error" in d],
           "chars": sum(d["chars"] for d in ok), "passages": sum(d["passages"] for d in ok),
           "parse_seconds": round(sum(d["parse_s"] for d in ok if not d["parse_cached"]), 2),
           "parsed_from_store": sum(1 for d in ok if d["parse_cached"]),
           "docs": {d["rel"]: {"passages": d["passages"], "sha256": d["sha256"], "chars": d["chars"]} for d in ok}}
    fresh = [d for d in ok if not d["parse_cached"]]
    if fresh:
        out["parse_passages_per_s"] = round(sum(d["passages"] for d in fresh) / max(out["parse_seconds"], 1e-9), 1)
        out["parse_chars_per_s"] = round(sum(d["chars"] for d in fresh) / max(out["parse_seconds"], 1e-9), 1)
    write_json(mpath, done)
    return out


# ------------------------------------------------------------------ plan
def plan_size(manifest: dict, target: int, pinned: Sequence[str], seed: int = SEED) -> list[dict]:
    """The files of a library of ``target`` passages: ``pinned`` (copy 0 only), then the
    other corpus files in a seeded shuffle as copy 0, 1, 2, ... until ``target`` passages.
    Each item: ``{"rel", "copy", "passages"}``."""
    docs = manifest["docs"]
    pinned = [r for r in pinned if r in docs]
    rest = sorted(r for r in docs if r not in set(pinned) and docs[r]["passages"] > 0)
    random.Random(seed).shuffle(rest)
    if not rest and sum(docs[r]["passages"] for r in pinned) < target:
        raise ValueError("nothing to replicate")
    out, total = [], 0
    for r in pinned:
        if total >= target:
            break
        out.append({"rel": r, "copy": 0, "passages": docs[r]["passages"]})
        total += docs[r]["passages"]
    k = 0
    while total < target:
        for r in rest:
            if total >= target:
                break
            out.append({"rel": r, "copy": k, "passages": docs[r]["passages"]})
            total += docs[r]["passages"]
        k += 1
    return out


def copy_path(cache: Path, corpus: Path, rel: str, k: int) -> Path:
    """Copy 0 is the corpus file itself; copy k >= 1 a hard link (or a copy, across file
    systems) under ``cache/files/r<k>/``."""
    src = corpus / rel
    if k == 0:
        return src
    dst = cache / "files" / f"r{k}" / rel
    if not dst.exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except OSError:
            shutil.copyfile(src, dst)
    return dst


# ------------------------------------------------------------------ step: build
def step_build(size: int, corpus: Path, cache: Path, manifest: dict, pinned: Sequence[str], backend: str = "local",
               root: Path | None = None) -> dict:
    """Build the library of ``size`` passages from empty with one ``Library.add`` on ``backend``."""
    from clauselens.library import Library
    from clauselens.parsing.store import DocumentStore

    plan = plan_size(manifest, size, pinned)
    root = root or cache / f"lib_{size}"
    if root.exists():
        shutil.rmtree(root)  # an unfinished build: start clean so the timings are whole
    files, origin = [], {}
    for it in plan:
        p = copy_path(cache, corpus, it["rel"], it["copy"])
        files.append(p)
        origin[str(p.resolve())] = (corpus / it["rel"], it["copy"])
    store = DocumentStore(cache / "parsed")

    def load(p: Path):
        src, k = origin[str(Path(p).resolve())]
        doc = store.load(src, ocr=False)
        if k:
            doc.id = f"{doc.id}-r{k}"
        doc.source_path = str(p)
        return doc

    emb = RandomUnitEmbedder()
    watch = GapWatch(gap=2.0)  # coarse: a long GIL-holding call must not count as a stop
    # the pre-#42 engines this benchmark has always measured (bm25s rebuilds, float32); issue #42's engines are
    # measured side by side with them by benchmarks/library_scale_replay.py
    local = {"lexical": "bm25s", "vectors": "f32"} if (backend or "local") == "local" else {}
    lib = Library.open(root, embedder=emb, abstain_threshold=0.0, backend=backend, **local)
    t_load = Timed(load)
    lib.analyzer.tokenize_many = t_tok = Timed(lib.analyzer.tokenize_many)
    lib.catalogue.put_agreement = t_put = Timed(lib.catalogue.put_agreement)
    lib.rebuild_lexical = t_rebuild = Timed(lib.rebuild_lexical)
    lib.catalogue.all_tokens = t_alltok = Timed(lib.catalogue.all_tokens)
    lib.lexical.build = t_bm25 = Timed(lib.lexical.build)
    lib.vectors.append = t_vec = Timed(lib.vectors.append)
    t0, c0 = time.perf_counter(), cpu_s()

    def progress(stage: str, i: int, n: int, detail: str) -> None:
        if stage == "add" and i % 200 == 0:
            print(f"[library_scale] {size}: add {i}/{n} {time.perf_counter() - t0:.0f}s rss {rss_mb():.0f} MB",
                  file=sys.stderr, flush=True)
        elif stage == "index":
            print(f"[library_scale] {size}: {detail} {'done' if i else 'rebuild'} {time.perf_counter() - t0:.0f}s",
                  file=sys.stderr, flush=True)

    rep = lib.add(files, load=t_load, progress=progress)
    wall = time.perf_counter() - t0
    cpu = cpu_s() - c0
    suspended = watch.settle()
    watch.close()
    total = wall - suspended  # wall time while this process could run
    if rep.failed:
        raise SystemExit(f"add failed for {len(rep.failed)} files: {rep.failed[:3]}")
    n_pass = len(lib.catalogue.rows_of(None))
    n_agr = len(lib.agreements())
    index_s = total - t_load.seconds
    parse_rate = manifest.get("parse_passages_per_s")
    other = wall - t_load.seconds - emb.seconds - t_tok.seconds - t_put.seconds - t_rebuild.seconds - t_vec.seconds
    out = {
        "backend": backend, "passages": n_pass, "agreements": n_agr, "planned_passages": sum(i["passages"] for i in plan),
        "copies_max": max(i["copy"] for i in plan),
        "replicated_agreements": sum(1 for i in plan if i["copy"] > 0),
        "seconds": round(total, 2), "wall_s_incl_suspended": round(wall, 2), "suspended_s": round(suspended, 2),
        "cpu_s": round(cpu, 2), "passages_per_cpu_s": round(n_pass / cpu, 1),
        "passages_per_s": round(n_pass / total, 1), "agreements_per_s": round(n_agr / total, 2),
        "index_passages_per_s": round(n_pass / index_s, 1),
        "breakdown_s": {
            "load_stored_parse": round(t_load.seconds, 2), "embed_stand_in": round(emb.seconds, 2),
            "tokenize": round(t_tok.seconds, 2),
            "sqlite_put" if backend == "local" else "milvus_insert_and_commit": round(t_put.seconds, 2),
            "vector_append_fsync" if backend == "local" else "vector_stage": round(t_vec.seconds, 2),
            "rebuild_lexical" if backend == "local" else "rebuild_lexical (milvus: flush)": round(t_rebuild.seconds, 2),
            "rebuild_lexical.all_tokens": round(t_alltok.seconds, 2),
            "rebuild_lexical.bm25_build_save": round(t_bm25.seconds, 2),
            "rest (sha256, passages, records, definitions, markers)": round(other, 2),
        },
        "breakdown_note": "wall seconds per part, suspended time included (it sums to wall_s_incl_suspended)",
        "peak_rss_mb": peak_rss_mb(),
    }
    if parse_rate:
        # end to end for new files: parse (measured once on the corpus) + index
        e2e = n_pass / parse_rate + index_s
        out["with_parse_estimate"] = {"parse_passages_per_s": parse_rate, "seconds": round(e2e, 1),
                                      "passages_per_s": round(n_pass / e2e, 1),
                                      "agreements_per_s": round(n_agr / e2e, 2)}
    lib.catalogue.close()
    return out


# ------------------------------------------------------------------ step: open (fresh process)
def step_open(root: Path) -> dict:
    """Import and open an existing library (run in a fresh process)."""
    watch = GapWatch()
    t0 = time.perf_counter()
    from clauselens.library import Library

    t1, g1 = time.perf_counter(), watch.settle()
    rss0 = rss_mb()
    # time (without changing) the BM25 rebuild Library.__init__ may run: class-level wrapper
    rebuild = Timed(Library.rebuild_lexical)
    Library.rebuild_lexical = lambda self: rebuild(self)  # type: ignore[method-assign]
    t1, c1 = time.perf_counter(), cpu_s()
    lib = Library.open(root, embedder=RandomUnitEmbedder(), create=False)
    t2, c2 = time.perf_counter(), cpu_s()
    suspended = watch.settle() - g1
    watch.close()
    open_s = t2 - t1 - suspended
    return {"import_s": round(t1 - t0 - g1 - 2 * watch.tick, 3), "open_s": round(open_s, 3),
            "open_wall_s_incl_suspended": round(t2 - t1, 3), "open_cpu_s": round(c2 - c1, 3),
            "suspended_s": round(g1 + suspended, 3), "rebuild_lexical_on_open_calls": rebuild.calls,
            "rebuild_lexical_on_open_wall_s": round(rebuild.seconds, 3),
            "open_s_without_rebuild": round(t2 - t1 - rebuild.seconds, 3), "rss_after_import_mb": rss0,
            "rss_after_open_mb": rss_mb(), "agreements": len(lib.agreements())}


# ------------------------------------------------------------------ step: queries (fresh process)
def _top_functions(prof: cProfile.Profile, n: int = 12) -> list[dict]:
    st = pstats.Stats(prof)
    rows = []
    for (file, line, fn), (_cc, nc, tt, ct, _) in st.stats.items():  # type: ignore[attr-defined]
        rows.append({"function": f"{'/'.join(Path(file).parts[-2:])}:{line}:{fn}", "calls": nc, "tottime_s": round(tt, 4),
                     "cumtime_s": round(ct, 4)})
    rows.sort(key=lambda r: -r["cumtime_s"])
    skip = ("library_scale.py", "{built-in method builtins.exec}", "cProfile")
    return [r for r in rows if not any(s in r["function"] for s in skip)][:n]


def step_queries(root: Path, named: Sequence[str], generic: Sequence[str], n_whole: int = 50,
                 profile_n: int = 10) -> dict:
    """Open the library and time ``Library.search`` on three query groups (see module docstring)."""
    watch = GapWatch()
    t0 = time.perf_counter()
    from clauselens.library import Library

    t1 = time.perf_counter()
    prof = cProfile.Profile()
    prof.enable()
    lib = Library.open(root, embedder=RandomUnitEmbedder(), create=False)
    prof.disable()
    t2 = time.perf_counter()
    out: dict[str, Any] = {"import_s": round(t1 - t0, 3), "open_s_profiled": round(t2 - t1, 3),
                           "open_profile": _top_functions(prof), "rss_after_open_mb": rss_mb()}
    groups = {"named": [(q, True) for q in named], "unnamed": [(q, True) for q in generic],
              "whole_library": [(q, False) for q in list(named)[:n_whole]]}
    per: dict[str, list[dict]] = {}
    first_ms = None
    retried = 0
    for g, qs in groups.items():
        per[g] = []
        for q, resolve in qs:
            for attempt in range(4):
                g0 = watch.settle()
                s, c = time.perf_counter(), cpu_s()
                res = lib.search(q, K, resolve=resolve)
                ms, cms = (time.perf_counter() - s) * 1000, (cpu_s() - c) * 1000
                if watch.settle() == g0 or attempt == 3:  # no stop / starvation gap during the query
                    break
                retried += 1
            first_ms = ms if first_ms is None else first_ms
            r = res.trace.get("resolution", {})
            per[g].append({"ms": ms, "cpu_ms": cms, "status": r.get("status"), "chosen": len(r.get("chosen", [])),
                           "abstained": res.abstained, "passages": len(res.passages)})
    out["queries_retimed_after_a_gap"] = retried
    out["suspended_s"] = round(watch.suspended_s, 2)
    out["rss_after_queries_mb"] = rss_mb()
    out["first_query_ms"] = round(first_ms or 0.0, 1)
    out["groups"] = {}
    for g, rows in per.items():
        s = latency_summary([r["ms"] for r in rows])
        s["cpu_p50_ms"], s["cpu_p95_ms"] = round(pct([r["cpu_ms"] for r in rows], 50), 1), round(pct([r["cpu_ms"] for r in rows], 95), 1)
        s["status_counts"] = {k: sum(1 for r in rows if r["status"] == k) for k in sorted({r["status"] for r in rows})}
        s["returned_k_share"] = round(sum(1 for r in rows if r["passages"] == K) / max(len(rows), 1), 3)
        out["groups"][g] = s
    allrows = [r for rows in per.values() for r in rows]
    out["all"] = latency_summary([r["ms"] for r in allrows])
    out["by_status"] = {st: latency_summary([r["ms"] for r in allrows if r["status"] == st])
                        for st in sorted({r["status"] for r in allrows})}
    # micro-timings of the whole-library path's parts (median of 5)
    q = lib.embedder.embed_queries(["governing law"])[0]
    toks = lib.analyzer.tokenize("Which law governs the agreement?")

    def med(fn: Callable[[], Any], n: int = 5) -> float:
        ts = []
        for _ in range(n):
            s = time.perf_counter()
            fn()
            ts.append((time.perf_counter() - s) * 1000)
        return round(statistics.median(ts), 2)

    def uncached_agreements() -> None:
        lib.catalogue._records = None  # the cache every catalogue write clears
        lib.catalogue.agreements()

    common = {
        "lexical.profile_scores(tokens)": med(lambda: lib.lexical.profile_scores(toks)),
        "catalogue.agreements() cached": med(lambda: lib.catalogue.agreements()),
        "catalogue.agreements() uncached": med(uncached_agreements, 3),
        "embed_queries (stand-in)": med(lambda: lib.embedder.embed_queries(["governing law"])),
    }
    if hasattr(lib.lexical, "hybrid"):  # milvus: the engine ranks; reading every vector back is not a query path
        one = [lib.agreements()[0].doc_id]
        out["micro_ms"] = {
            "lexical.hybrid(tokens, q, None, 50)": med(lambda: lib.lexical.hybrid(toks, q, None, 50)),
            "lexical.hybrid(tokens, q, [one agreement], 50)": med(lambda: lib.lexical.hybrid(toks, q, one, 50)),
            "lexical.passage_scores(tokens, None) (top 1000)": med(lambda: lib.lexical.passage_scores(toks, None)),
            **common}
    else:
        rows_all = lib.catalogue.rows_of(None)
        r_d, _ = lib.vectors.scores(q, None)
        out["micro_ms"] = {
            "catalogue.rows_of(None)": med(lambda: lib.catalogue.rows_of(None)),
            "np.isin(dense rows, live rows)": med(lambda: np.isin(r_d, rows_all)),
            "vectors.scores(q, None)": med(lambda: lib.vectors.scores(q, None)),
            "lexical.passage_scores(tokens, None)": med(lambda: lib.lexical.passage_scores(toks, None)),
            **common}
    out["profile"] = {}
    for g in ("named", "whole_library"):
        prof = cProfile.Profile()
        prof.enable()
        for qq, resolve in groups[g][:profile_n]:
            lib.search(qq, K, resolve=resolve)
        prof.disable()
        out["profile"][g] = {"queries": min(profile_n, len(groups[g])), "top_cumulative": _top_functions(prof)}
    out["peak_rss_mb"] = peak_rss_mb()
    watch.close()
    return out


# ------------------------------------------------------------------ step: incremental add / remove
def step_incremental(root: Path, corpus: Path, cache: Path, manifest: dict, pinned: Sequence[str]) -> dict:
    """Add one more agreement (a copy not in the library) to the built library, then remove it."""
    from clauselens.library import Library
    from clauselens.parsing.store import DocumentStore

    rel = next(r for r in sorted(manifest["docs"]) if r not in set(pinned) and manifest["docs"][r]["passages"] > 0)
    p = copy_path(cache, corpus, rel, 999)
    store = DocumentStore(cache / "parsed")

    def load(path: Path):
        doc = store.load(corpus / rel, ocr=False)
        doc.id, doc.source_path = f"{doc.id}-r999", str(path)
        return doc

    watch = GapWatch()

    def timed(fn: Callable[[], Any]) -> tuple[Any, float, float, float]:
        g0 = watch.settle()
        t0, c0 = time.perf_counter(), cpu_s()
        r = fn()
        wall, cpu = time.perf_counter() - t0, cpu_s() - c0
        gap = watch.settle() - g0
        return r, wall - gap, cpu, gap

    lib, open_s, _, g_open = timed(lambda: Library.open(root, embedder=RandomUnitEmbedder(), create=False))
    lib.rebuild_lexical = t_rebuild = Timed(lib.rebuild_lexical)
    rep, add_s, add_cpu, g_add = timed(lambda: lib.add([p], load=load))
    add_rebuild = t_rebuild.seconds
    removed, remove_s, remove_cpu, g_rm = timed(lambda: lib.remove([rep.added[0]]) if rep.added else [])
    watch.close()
    return {"file_passages": manifest["docs"][rel]["passages"], "open_s": round(open_s, 3), "add_one_s": round(add_s, 2),
            "add_one_cpu_s": round(add_cpu, 2), "add_one_rebuild_lexical_wall_s": round(add_rebuild, 2),
            "remove_one_s": round(remove_s, 2), "remove_one_cpu_s": round(remove_cpu, 2),
            "remove_one_rebuild_lexical_wall_s": round(t_rebuild.seconds - add_rebuild, 2),
            "suspended_s": round(g_open + g_add + g_rm, 2), "removed": len(removed), "peak_rss_mb": peak_rss_mb()}


# ------------------------------------------------------------------ step: real query encoding
def step_query_encoding(questions: Sequence[str]) -> dict:
    """Milliseconds to encode one query with the real MiniLM (what the stand-in leaves out)."""
    from clauselens.retrieval.embedders import load_embedder

    emb = load_embedder("minilm")
    emb.embed_queries(["warm up"])
    watch = GapWatch()
    ms, cms, retried = [], [], 0
    for q in questions:
        for attempt in range(4):
            g0 = watch.settle()
            s, c = time.perf_counter(), cpu_s()
            emb.embed_queries([q])
            w, cc = (time.perf_counter() - s) * 1000, (cpu_s() - c) * 1000
            if watch.settle() == g0 or attempt == 3:
                break
            retried += 1
        ms.append(w)
        cms.append(cc)
    watch.close()
    return {"embedder": "minilm (all-MiniLM-L6-v2)", **latency_summary(ms), "cpu_p50_ms": round(pct(cms, 50), 1),
            "cpu_p95_ms": round(pct(cms, 95), 1), "retimed_after_a_gap": retried}


# ------------------------------------------------------------------ orchestration
def _child(step: str, args: dict, cache: Path, label: str) -> dict:
    """Run one step in a fresh process; its JSON result is cached as ``steps/<label>.json``."""
    path = cache / "steps" / f"{label}.json"
    if path.exists():
        return json.loads(path.read_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    argf = cache / "steps" / f".{label}.args.json"
    write_json(argf, args)
    la0 = os.getloadavg()[0]
    print(f"[library_scale] step {label} ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "benchmarks.library_scale", "--_step", step, "--_args", str(argf),
                    "--_out", str(path)], cwd=REPO, check=True)
    res = json.loads(path.read_text())
    res["clauselens_commit"] = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                              check=False, capture_output=True, text=True).stdout.strip() or None
    res["load_avg_1min_start_end"] = [round(la0, 2), round(os.getloadavg()[0], 2)]
    res["wall_s"] = round(time.perf_counter() - t0, 2)
    write_json(path, res)
    argf.unlink(missing_ok=True)
    return res


def _run_step(step: str, a: dict) -> dict:
    corpus, cache = Path(a["corpus"]), Path(a["cache"])
    if step == "parse":
        return step_parse(corpus, cache)
    if step == "build":
        return step_build(a["size"], corpus, cache, a["manifest"], a["pinned"], a.get("backend", "local"),
                          Path(a["root"]) if a.get("root") else None)
    if step == "open":
        return step_open(Path(a["root"]))
    if step == "queries":
        return step_queries(Path(a["root"]), a["named"], a["generic"], a.get("n_whole", 50), a.get("profile_n", 10))
    if step == "incremental":
        return step_incremental(Path(a["root"]), corpus, cache, a["manifest"], a["pinned"])
    if step == "query_encoding":
        return step_query_encoding(a["questions"])
    raise SystemExit(f"unknown step {step}")


def run_size(size: int, *, corpus: Path, cache: Path, manifest: dict, pinned: Sequence[str], named: Sequence[str],
             generic: Sequence[str], open_trials: int = 3, n_whole: int = 50, profile_n: int = 10,
             incremental: bool = True, backend: str = "local", tag: str = "") -> dict:
    """Build (or reuse) the library of ``size`` passages on ``backend`` and measure it; every
    step cached (``tag``: a separate set of libraries and steps, e.g. a side-by-side run)."""
    root = cache / (f"lib_{size}" if not tag else f"{tag}_lib_{backend}_{size}")
    lbl = f"{size}" if not tag else f"{tag}_{backend}_{size}"
    base = {"corpus": str(corpus), "cache": str(cache)}
    build = _child("build", {**base, "size": size, "manifest": manifest, "pinned": list(pinned), "backend": backend,
                             "root": str(root)}, cache, f"{lbl}_build")
    if not root.exists():
        raise SystemExit(f"{root} is gone but {cache}/steps/{lbl}_build.json exists: delete steps/{lbl}_* to rebuild")
    disk_path = cache / "steps" / f"{lbl}_disk.json"
    if not disk_path.exists():
        write_json(disk_path, dir_bytes(root))
    disk = json.loads(disk_path.read_text())
    opens = [_child("open", {**base, "root": str(root)}, cache, f"{lbl}_open{i}") for i in range(open_trials)]
    qs = _child("queries", {**base, "root": str(root), "named": list(named), "generic": list(generic),
                            "n_whole": n_whole, "profile_n": profile_n}, cache, f"{lbl}_queries")
    inc = _child("incremental", {**base, "root": str(root), "manifest": manifest, "pinned": list(pinned)},
                 cache, f"{lbl}_incremental") if incremental else None
    open_s = [o["open_s"] for o in opens]
    cold = [o["import_s"] + o["open_s"] for o in opens]
    no_rebuild = [o["open_s_without_rebuild"] for o in opens if "open_s_without_rebuild" in o]
    return {
        "backend": backend, "target_passages": size, "passages": build["passages"], "agreements": build["agreements"],
        "replicated": build["copies_max"] > 0, "copies_max": build["copies_max"],
        "replicated_agreements": build["replicated_agreements"],
        "add": build,
        "disk": {"bytes": disk, "total_mb": round(disk["total"] / 2**20, 1)},
        "open": {"trials": opens, "open_s_median": round(statistics.median(open_s), 3),
                 "import_plus_open_s_median": round(statistics.median(cold), 3),
                 "rss_after_open_mb_median": statistics.median(o["rss_after_open_mb"] for o in opens),
                 "rebuild_lexical_on_open_wall_s_median": round(statistics.median(
                     o.get("rebuild_lexical_on_open_wall_s", 0.0) for o in opens), 3),
                 "open_s_without_rebuild_median": round(statistics.median(no_rebuild), 3) if no_rebuild else None,
                 "meets_target": statistics.median(open_s) <= TARGET_OPEN_S},
        "queries": qs,
        "incremental": inc,
    }


def table_row(r: dict) -> dict:
    q = r["queries"]["groups"]
    return {
        "backend": r.get("backend", "local"), "passages": r["passages"], "agreements": r["agreements"],
        "copies_max": r["copies_max"],
        "add_passages_per_s": r["add"]["passages_per_s"], "add_agreements_per_s": r["add"]["agreements_per_s"],
        "add_s": r["add"]["seconds"], "add_wall_s_incl_suspended": r["add"]["wall_s_incl_suspended"],
        "add_passages_per_wall_s": round(r["passages"] / r["add"]["wall_s_incl_suspended"], 1),
        "add_peak_rss_mb": r["add"]["peak_rss_mb"],
        "add_cpu_s": r["add"]["cpu_s"], "disk_mb": r["disk"]["total_mb"], "open_s": r["open"]["open_s_median"],
        "open_s_without_rebuild": r["open"].get("open_s_without_rebuild_median"),
        "import_plus_open_s": r["open"]["import_plus_open_s_median"],
        "rss_open_mb": r["open"]["rss_after_open_mb_median"], "rss_after_queries_mb": r["queries"]["rss_after_queries_mb"],
        **{f"{g}_p50_ms": q[g]["p50_ms"] for g in q}, **{f"{g}_p95_ms": q[g]["p95_ms"] for g in q},
        "unnamed_status_p95_ms": r["queries"]["by_status"].get("unnamed", {}).get("p95_ms"),
        "resolved_status_p95_ms": r["queries"]["by_status"].get("resolved", {}).get("p95_ms"),
        "first_query_ms": r["queries"].get("first_query_ms"),
        "catalogue_rows_of_all_ms": r["queries"]["micro_ms"].get("catalogue.rows_of(None)"),
        "dense_all_ms": r["queries"]["micro_ms"].get("vectors.scores(q, None)"),
        "engine_hybrid_whole_library_ms": r["queries"]["micro_ms"].get("lexical.hybrid(tokens, q, None, 50)"),
        "add_one_s": (r.get("incremental") or {}).get("add_one_s"),
    }


def run(sizes: Sequence[int], *, corpus: Path = CORPUS, cache: Path = CACHE, out: Path = OUT,
        questions: Path = QUESTIONS, generic: Sequence[str] = GENERIC_QUESTIONS, open_trials: int = 3,
        n_whole: int = 50, profile_n: int = 10, incremental: bool = True, query_encoding: bool = True,
        command: str | None = None, notes: Sequence[str] = (), backends: Sequence[str] = ("local",), tag: str = "") -> dict:
    """The whole benchmark (each size resumable); writes ``out`` after every size."""
    from clauselens.provenance import run_provenance

    cache.mkdir(parents=True, exist_ok=True)
    qs = load_questions(questions)
    pinned = list(dict.fromkeys(q["agreement_file"] for q in qs if q.get("agreement_file")))
    named = [q["question"] for q in qs]
    manifest = _child("parse", {"corpus": str(corpus), "cache": str(cache)}, cache, "parse")
    result: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    prev_sizes = result.get("sizes", {})
    result.update({
        "benchmark": "library_scale", "issue": 17,
        "command": command or " ".join(["python", "-m", "benchmarks.library_scale", *sys.argv[1:]]),
        "date": now_utc(),
        "versions": run_provenance(["numpy", "bm25s", "PyStemmer", "pydantic", "psutil", "pymilvus", "milvus-lite"]),
        "machine": {"cpus": os.cpu_count(), "load_average_1_5_15_at_write": [round(x, 2) for x in os.getloadavg()],
                    "note": "shared cores (other developers' jobs; see each step's load_avg_1min_start_end); page cache "
                            "warm (libraries were just written); compare backends only within one size, side by side"},
        "targets": {"query_p95_ms": TARGET_P95_MS, "open_s": TARGET_OPEN_S},
        "corpus": {k: v for k, v in manifest.items() if k != "docs"},
        "method": {
            "replication": "a size is a prefix of: the 10 clause-QA dev agreements (never replicated), then the other "
                           "corpus files in a seeded shuffle (seed 17) as copy r0, then replicated copies r1, r2, ... "
                           "(hard links under the cache with their own path and doc id '<id>-r<k>'; identical text) "
                           "until the passage count is reached; each size is its own library built from empty by one "
                           "Library.add call",
            "dense_vectors": "stand-in, not MiniLM: embedder 'random-unit-384' gives each text a unit vector of dim 384 "
                             "drawn from N(0, I) seeded by blake2b(text), stored and scored through the library's real "
                             "NumpyVectors path (float32 file, memmap, exact cosine); rankings are meaningless, costs "
                             "are those of 384-d vectors; query latency excludes query encoding (see query_encoding)",
            "queries": f"Library.search(k={K}), LLM-free, abstain_threshold 0: 'named' = the {len(named)} dev questions "
                       f"(resolve=True; each names its agreement), 'unnamed' = {len(generic)} generic clause questions "
                       f"naming no agreement (resolve=True), 'whole_library' = the first {n_whole} dev questions with "
                       "resolve=False (always the whole library); every query timed once, one process, after open",
            "open": f"Library.open(create=False) of the built library in {open_trials} fresh processes (median); "
                    "import_s is 'from clauselens.library import Library' in the same process",
            "add": "one Library.add of every file of the size into an empty library; the documents come from the "
                   "parse store (parsing measured once on the corpus: corpus.parse_*), so 'with_parse_estimate' adds "
                   "parse time at the measured parse rate",
        },
        "sizes": prev_sizes,
    })
    if notes:
        result["notes"] = list(notes)
    if query_encoding:
        try:
            result["query_encoding"] = _child("query_encoding", {"corpus": str(corpus), "cache": str(cache),
                                                                 "questions": named[:50]}, cache, "query_encoding")
        except subprocess.CalledProcessError as e:
            result["query_encoding"] = {"error": f"MiniLM unavailable ({e})"}
    for size in sizes:
        for backend in backends:  # side by side: both backends at one size before the next size
            r = run_size(size, corpus=corpus, cache=cache, manifest=manifest, pinned=pinned, named=named, generic=generic,
                         open_trials=open_trials, n_whole=n_whole, profile_n=profile_n, incremental=incremental,
                         backend=backend, tag=tag)
            key = str(size) if backends == ("local",) and not tag else f"{backend}:{size}"
            result["sizes"][key] = r
            result["table"] = {k: table_row(v) for k, v in sorted(
                result["sizes"].items(), key=lambda kv: (int(kv[0].split(":")[-1]), kv[0]))}
            write_json(out, result)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--questions", type=Path, default=QUESTIONS)
    ap.add_argument("--open-trials", type=int, default=3)
    ap.add_argument("--no-incremental", action="store_true", help="skip the add-one / remove-one step")
    ap.add_argument("--no-query-encoding", action="store_true", help="skip timing the real MiniLM query encoder")
    ap.add_argument("--note", action="append", default=[], help="a remark stored in the result JSON (repeatable)")
    ap.add_argument("--backends", nargs="+", default=["local"], choices=["local", "milvus"],
                    help="library backends to measure side by side (issue #20)")
    ap.add_argument("--tag", default="", help="separate libraries/steps for this run (needed with --backends)")
    ap.add_argument("--_step", help=argparse.SUPPRESS)
    ap.add_argument("--_args", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--_out", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._step:
        write_json(a._out, _run_step(a._step, json.loads(a._args.read_text())))
        return
    res = run(a.sizes, corpus=a.corpus, cache=a.cache, out=a.out, questions=a.questions, open_trials=a.open_trials,
              incremental=not a.no_incremental, query_encoding=not a.no_query_encoding, notes=a.note,
              backends=tuple(a.backends), tag=a.tag or ("" if a.backends == ["local"] else "pair"))
    print(json.dumps(res["table"], indent=1))


if __name__ == "__main__":
    main()
