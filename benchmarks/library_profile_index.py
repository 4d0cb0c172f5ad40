"""The agreement-profile part of a tantivy library's commit, before and after issue #42's change
(:class:`clauselens.library.lexical_tantivy.ProfileTokens`).

Every commit of a tantivy library rebuilds the small bm25s index of agreement profiles (BM25's IDF
and mean length depend on every profile). Before: the profile tokens were a JSON file of token
strings, read once per process and written at each commit, and bm25s mapped every string to an id.
After: int32 ids over one vocabulary in an ``.npz``, the vocabulary compacted and bm25s given ids.
This benchmark times both ways on one library's profiles, alternating, ``--rounds`` times each
(process CPU and wall seconds: read, write, index build + save), and checks that both indexes give
identical ``profile_scores`` on ``--queries`` queries drawn from the profiles.

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m \\
        benchmarks.library_profile_index --library ~/.cache/clauselens/bench/library_scale_replay/lib_tantivy_f16_520000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

REPO = Path(__file__).resolve().parents[1]
LIBRARY = Path("~/.cache/clauselens/bench/library_scale_replay/lib_tantivy_f16_520000").expanduser()
OUT = REPO / "benchmarks" / "results" / "library_profile_index.json"


def _timed(fn: Callable[..., Any], *args: Any, **kw: Any) -> tuple[float, float, Any]:
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args, **kw)
    return time.perf_counter() - w, time.process_time() - c, out


def _build_ids(pt: Any, order: list[str], ix: Any, generation: int) -> None:
    ids, lists, vocab = pt.compact(order)
    ix.build(np.zeros(0, np.int64), [], ids, lists, generation, profile_vocab=vocab)


def run(library: Path, rounds: int, queries: int) -> dict:
    from clauselens.library.lexical_tantivy import ProfileTokens
    from clauselens.library.storage import Bm25sLexical

    lex = library / "lexical_tantivy"
    pt = ProfileTokens.load(lex / "profile_tokens.npz", lex / "profile_tokens.json")
    as_json = {d: pt.tokens(d) for d in pt.docs}
    order = list(as_json)
    rng = np.random.default_rng(5)
    qs = [[as_json[order[i]][j] for j in rng.integers(0, max(len(as_json[order[i]]), 1), 6) if as_json[order[i]]]
          for i in rng.integers(0, len(order), queries)]
    times: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []} for k in
                                                 ("before_read", "before_write", "before_build", "after_read", "after_write",
                                                  "after_build")}

    def note(key: str, w: float, c: float) -> None:
        times[key]["wall"].append(w)
        times[key]["cpu"].append(c)

    same = None
    with tempfile.TemporaryDirectory(prefix="profile-index-") as tmp:
        t = Path(tmp)
        for r in range(rounds):
            for way in (("before", "after") if r % 2 == 0 else ("after", "before")):
                if way == "before":
                    w, c, _ = _timed(lambda: (t / "p.json").write_text(json.dumps(as_json)))
                    note("before_write", w, c)
                    w, c, toks = _timed(lambda: json.loads((t / "p.json").read_text()))
                    note("before_read", w, c)
                    ix_b = Bm25sLexical(t / "before")
                    w, c, _ = _timed(ix_b.build, np.zeros(0, np.int64), [], order, [toks[d] for d in order], r)
                    note("before_build", w, c)
                else:
                    w, c, _ = _timed(pt.save, t / "p.npz")
                    note("after_write", w, c)
                    w, c, back = _timed(ProfileTokens.load, t / "p.npz")
                    note("after_read", w, c)
                    ix_a = Bm25sLexical(t / "after")
                    w, c, _ = _timed(_build_ids, back, order, ix_a, r)
                    note("after_build", w, c)
        same = all(ix_a.profile_scores(q) == ix_b.profile_scores(q) for q in qs)
    summary = {k: {"median_wall_s": round(statistics.median(v["wall"]), 3), "median_cpu_s": round(statistics.median(v["cpu"]), 3)}
               for k, v in times.items()}
    per_commit = {way: round(summary[f"{way}_write"]["median_cpu_s"] + summary[f"{way}_build"]["median_cpu_s"], 3)
                  for way in ("before", "after")}
    return {"library": str(library), "agreements": len(order), "profile_tokens": int(sum(len(v) for v in as_json.values())),
            "vocabulary": len(pt.words), "rounds": rounds, "queries": len(qs), "identical_profile_scores": same,
            "summary": summary, "per_commit_cpu_s": per_commit,
            "once_per_process_read_cpu_s": {way: summary[f"{way}_read"]["median_cpu_s"] for way in ("before", "after")}}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--library", type=Path, default=LIBRARY)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    res = run(a.library.expanduser(), a.rounds, a.queries)
    res.update({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "load_1min_after": round(os.getloadavg()[0], 2),
                "command": " ".join(["python", "-m", "benchmarks.library_profile_index", *(argv if argv is not None else sys.argv[1:])]),
                "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                                    capture_output=True, text=True).stdout.strip(),
                "benchmark": "library_profile_index", "issue": 42})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
