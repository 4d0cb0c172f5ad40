"""Where a question's time goes on a Milvus Lite library (issue #20): profiles
``Library.search`` on the milvus library that ``benchmarks.library_scale --backends milvus``
built (default: the 100k side-by-side run's, tag ``backends100k``) and attributes its time to
the storage calls the library makes.

Groups (the scale benchmark's): ``named`` = the first ``--named`` dev questions (each names
its agreement), ``unnamed`` = the first ``--unnamed`` generic questions (naming none). One
process, opened once, one warm-up query; each group profiled with ``cProfile`` in one pass
(profiling adds a little overhead, so compare shares, not the scale benchmark's latencies).
Reported per group: wall seconds, median per question, and the cumulative seconds / calls of
the milvus storage methods (``MilvusStore.query`` = one scalar-filter query; ``hybrid`` = the
ranking ``hybrid_search``; ``body_start`` = the front-matter demotion's per-agreement look-up,
cached per process and catalogue generation; clause-number and defined-term look-ups).

    nice -n 10 .venv/bin/python -m benchmarks.milvus_lite_query_profile
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

from benchmarks.library_scale import CACHE, GENERIC_QUESTIONS, QUESTIONS, RandomUnitEmbedder, load_questions

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "milvus_lite_query_profile_100k.json"
#: (file suffix, function name) of the calls reported.
WATCH = [("library/milvus_store.py", "query"), ("library/milvus.py", "hybrid"), ("library/milvus.py", "body_start"),
         ("library/milvus.py", "profile_scores"), ("library/milvus.py", "rows_with_ref"),
         ("library/milvus.py", "definitions_of"), ("library/milvus.py", "refs_of"), ("library/milvus.py", "rows_of"),
         ("library/milvus.py", "rows_containing"), ("library/milvus.py", "marker_offsets"),
         ("library/milvus.py", "passages"), ("library/library.py", "_demote_front_matter"),
         ("library/library.py", "resolve"), ("library/library.py", "search")]


def attribute(stats: pstats.Stats) -> dict[str, dict]:
    """Cumulative seconds and calls of the :data:`WATCH` functions in ``stats``."""
    out = {}
    for (fname, _, func), (_, ncalls, _, cum, _) in stats.stats.items():  # type: ignore[attr-defined]  # not in the stubs
        for suffix, name in WATCH:
            if func == name and fname.endswith(suffix):
                key = f"{suffix.split('/')[-1].removesuffix('.py')}.{name}"
                prev = out.get(key, {"seconds": 0.0, "calls": 0})
                out[key] = {"seconds": round(prev["seconds"] + cum, 2), "calls": prev["calls"] + ncalls}
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["seconds"]))


def main(argv: list[str] | None = None) -> None:
    from clauselens.library import Library
    from clauselens.provenance import run_provenance

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=CACHE / "backends100k_lib_milvus_100000")
    ap.add_argument("--named", type=int, default=30)
    ap.add_argument("--unnamed", type=int, default=20)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    lib = Library.open(a.root, embedder=RandomUnitEmbedder(), create=False)
    open_s = time.perf_counter() - t0
    passages = sum(r.passages for r in lib.agreements())
    lib.search("warm-up: which law governs the agreement?", 5, resolve=False)
    groups = {"named": [q["question"] for q in load_questions(QUESTIONS)][: a.named],
              "unnamed": list(GENERIC_QUESTIONS)[: a.unnamed]}
    result: dict = {"benchmark": "milvus_lite_query_profile", "issue": 20,
                    "command": " ".join(["python -m benchmarks.milvus_lite_query_profile", *(argv if argv is not None else sys.argv[1:])]),
                    "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                    "provenance": run_provenance(["pymilvus", "milvus-lite", "numpy"]),
                    "library": {"root": str(a.root), "backend": lib.meta["backend"], "agreements": len(lib),
                                "passages": passages, "open_s": round(open_s, 2)},
                    "groups": {}}
    for g, qs in groups.items():
        prof = cProfile.Profile()
        lat = []
        g0 = time.perf_counter()
        for q in qs:
            s = time.perf_counter()
            prof.enable()
            lib.search(q, 5)
            prof.disable()
            lat.append((time.perf_counter() - s) * 1000)
        result["groups"][g] = {"questions": len(qs), "wall_s": round(time.perf_counter() - g0, 1),
                               "median_ms": round(statistics.median(lat), 1), "max_ms": round(max(lat), 1),
                               "calls": attribute(pstats.Stats(prof))}
        print(f"[profile] {g}: {json.dumps(result['groups'][g])}", file=sys.stderr, flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
