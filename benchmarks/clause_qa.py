"""Clause-QA over a contract library (issue #17): the right clause in the top 5, per kind.

Data: ``../shared/data/clause-qa-dev/`` (100 hand-written questions over 10 CUAD
agreements, four kinds: exact clause number, defined term, paraphrase, unanswerable; gold
character spans; its README and scorer). Every question goes through
:meth:`clauselens.library.Library.search` -- the same path as ``clauselens library search``
and ``ask --library`` -- with no document given: the library resolves the agreement from
the question's words.

Settings (``--setting``):
  agreements10 -- the library holds the 10 dev agreements only;
  cuad462      -- the library holds all 462 CUAD contracts of the LegalBench-RAG corpus.

Measures: top-5 hit rate per kind with exact 95 % Clopper-Pearson intervals, the
unanswerable-answered rate, the abstain rate on answerable questions, the agreement
resolution accuracy, and retrieval latency (p50 / p95, LLM-free). ``--sweep`` also reports
the abstention trade-off for a range of thresholds on the best passage's dense cosine
(so a threshold is chosen on this dev set and reported, not guessed). File names are
never read by resolution unless ``--file-names`` (the row then says so).

The library is built once per setting and embedder under
``~/.cache/clauselens/bench/clause_qa/`` (resumable: ``add`` skips files already in it).
Per-question results are written next to the result JSON in the scorer's format
(``benchmarks/results/clause_qa_<setting>_<variant>.results.jsonl``), and the shared
scorer (``score_clause_qa.py``) is run on them as a cross-check.

    .venv/bin/python -m benchmarks.clause_qa --setting cuad462 --sweep

``--questions FILE ... --tag NAME`` asks other question files of the same fields instead (e.g. the
46 questions over 20 other CUAD agreements that ``benchmarks/answers_e2e.py`` asks end to end,
written by sessions that saw no code: a check of what the dev-set numbers generalise to).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from clauselens.library import Library
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "data" / "clause-qa-dev"
CORPUS = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus"
CACHE = Path.home() / ".cache" / "clauselens" / "bench" / "clause_qa"
RESULTS = REPO / "benchmarks" / "results"
KINDS = ("exact", "defined_term", "paraphrase")
K = 5


def clopper_pearson(x: int, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Exact binomial interval (Clopper & Pearson 1934) via the beta quantiles."""
    from scipy.stats import beta

    if n == 0:
        return float("nan"), float("nan")
    lo = 0.0 if x == 0 else float(beta.ppf(alpha / 2, x, n - x + 1))
    hi = 1.0 if x == n else float(beta.ppf(1 - alpha / 2, x + 1, n - x))
    return lo, hi


def wilson(x: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval (Wilson 1927) for ``x`` of ``n``."""
    if n == 0:
        return float("nan"), float("nan")
    p = x / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def rate(x: int, n: int) -> dict:
    """``{"x", "n", "rate", "ci95", "wilson95"}`` (``ci95``: Clopper-Pearson)."""
    lo, hi = clopper_pearson(x, n)
    wl, wh = wilson(x, n)
    return {"x": x, "n": n, "rate": round(x / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)],
            "wilson95": [round(wl, 4), round(wh, 4)]}


def write_result(name: str, tag: str, result: dict, shown: Sequence[str]) -> Path:
    """``result`` as ``results/<name>[_<tag>].json``; its ``shown`` keys printed as one JSON line, then the path."""
    out = RESULTS / f"{name}{'_' + tag if tag else ''}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: result[k] for k in shown}))
    print(f"wrote {out}")
    return out


def load_questions(path: Path = DEV / "questions.jsonl") -> list[dict]:
    """The dev questions, one dict each (see the dev set's README for the fields)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def library_for(setting: str, embedder: str, questions: list[dict], *, file_names: bool = False, tag: str = "") -> Library:
    """Open (building or completing it first) the benchmark library of ``setting`` (``tag``: an
    agreements10 library of another question file's agreements gets its own directory)."""
    root = CACHE / f"{setting}-{embedder}{'-fn' if file_names else ''}{f'-{tag}' if tag and setting == 'agreements10' else ''}"
    base = CACHE / f"{setting}-{embedder}"
    if file_names and not root.exists() and (base / "library.json").exists():
        shutil.copytree(base, root)  # same passages and vectors; only the resolution profiles change
    lib = Library.open(root, embedder_name=embedder, abstain_threshold=0.0)
    if file_names and not lib.meta.get("use_file_names"):
        lib.meta["use_file_names"] = True
        (root / "library.json").write_text(json.dumps(lib.meta, indent=2))
        lib.rebuild_lexical()
    if setting == "agreements10":
        files = sorted({CORPUS / q["agreement_file"] for q in questions})
    elif setting == "cuad462":
        files = [CORPUS / "cuad"]
    else:
        raise SystemExit(f"unknown setting {setting!r}: agreements10 or cuad462")
    t0 = time.perf_counter()

    def progress(stage: str, i: int, n: int, detail: str) -> None:
        if stage == "add" and (i % 25 == 0 or i == n):
            print(f"[clause_qa] {stage} {i}/{n} {time.perf_counter() - t0:.0f}s {detail[:60]}", file=sys.stderr, flush=True)

    rep = lib.add(files, progress=progress)
    if rep.failed:
        print(f"[clause_qa] {len(rep.failed)} files failed: {rep.failed[:3]}", file=sys.stderr)
    return lib


def rel(path: str) -> str:
    """A library path as the scorer's ``cuad/<file>.txt``."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(CORPUS.resolve()))
    except ValueError:
        return p.name


def rel_repo(path: Path) -> str:
    """``path`` relative to the repository when inside it."""
    p = path.resolve()
    return str(p.relative_to(REPO)) if p.is_relative_to(REPO) else str(path)


def hit(passages: list[dict], gold: list[dict]) -> bool:
    """A top-:data:`K` passage of the gold file overlapping a gold span."""
    for p in passages[:K]:
        for g in gold:
            if p["file_path"] == g["file_path"] and p["span"][0] < g["span"][1] and g["span"][0] < p["span"][1]:
                return True
    return False


def run(lib: Library, questions: list[dict]) -> list[dict]:
    """One result row per question: the scorer's fields plus resolution and timing."""
    rows = []
    for q in questions:
        t0 = time.perf_counter()
        res = lib.search(q["question"], K)
        ms = (time.perf_counter() - t0) * 1000
        passages = [{"file_path": rel(p.source_path or ""), "span": [p.spans[0].start, p.spans[-1].end],
                     "clause_ref": p.clause_ref, "method": p.method} for p in res.passages]
        resolved = [rel(r.path) for d in res.trace.get("resolution", {}).get("chosen", [])
                    for r in lib.agreements() if r.doc_id == d]
        rows.append({"id": q["id"], "type": q["type"], "abstained": res.abstained, "reason": res.reason,
                     "passages": passages, "resolution": res.trace.get("resolution", {}).get("status"),
                     "resolved_files": resolved, "best_dense": res.trace.get("best_dense"),
                     "lay_terms": res.trace.get("lay_terms", []), "ms": round(ms, 2)})
    return rows


def summarise(rows: list[dict], questions: list[dict], threshold: float = 0.0) -> dict:
    """Hit rates per kind, unanswerable answered, abstain rate on answerable, resolution
    accuracy; ``threshold`` > 0 re-applies abstention on ``best_dense`` offline (a row
    abstains when it already did, or when it had no exact/definition hit first and its
    best dense cosine is below ``threshold``)."""
    by_id = {q["id"]: q for q in questions}
    out: dict = {}
    abst = {}
    for r in rows:
        exact_first = bool(r["passages"]) and r["passages"][0]["method"] == "exact"
        abst[r["id"]] = r["abstained"] or (threshold > 0 and not exact_first and (r["best_dense"] or 0) < threshold)
    for kind in KINDS:
        rs = [r for r in rows if by_id[r["id"]]["type"] == kind]
        hits = sum(1 for r in rs if not abst[r["id"]] and hit(r["passages"], by_id[r["id"]]["gold"]))
        if rs:  # a question file of other kinds (--questions) may lack one
            out[kind] = rate(hits, len(rs))
    ans = [r for r in rows if by_id[r["id"]]["type"] in KINDS]
    named = [out[k] for k in ("exact", "defined_term") if k in out]
    out["exact+defined_term"] = rate(sum(r["x"] for r in named), sum(r["n"] for r in named))
    un = [r for r in rows if by_id[r["id"]]["type"] == "unanswerable"]
    out["unanswerable_answered"] = rate(sum(1 for r in un if not abst[r["id"]]), len(un))
    out["answerable_abstained"] = rate(sum(1 for r in ans if abst[r["id"]]), len(ans))
    # questions whose ranking query got contract terms for a lay phrase (clauselens.retrieval.lay_terms)
    out["with_lay_terms"] = {kind: sum(1 for r in rows if by_id[r["id"]]["type"] == kind and r.get("lay_terms"))
                             for kind in (*KINDS, "unanswerable") if any(by_id[r["id"]]["type"] == kind for r in rows)}
    res_ok = sum(1 for r in rows if r["resolution"] == "resolved" and r["resolved_files"] == [by_id[r["id"]]["agreement_file"]])
    res_in = sum(1 for r in rows if by_id[r["id"]]["agreement_file"] in r["resolved_files"])
    out["resolution"] = {"resolved_to_the_right_agreement_alone": rate(res_ok, len(rows)),
                         "right_agreement_among_searched": rate(res_in, len(rows)),
                         "status_counts": {s: sum(1 for r in rows if r["resolution"] == s)
                                           for s in sorted({r["resolution"] for r in rows if r["resolution"]})}}
    ms = [r["ms"] for r in rows]
    out["latency_ms"] = {"p50": round(float(np.percentile(ms, 50)), 2), "p95": round(float(np.percentile(ms, 95)), 2)}
    return out


def widen_absence(lib: Library, min_positives: int) -> list[str]:
    """The ``--absence-min-positives`` what-if: add to the loaded topic head's ``absent_below`` the
    categories its training measured (``metrics.absence``) with at least ``min_positives`` agreements
    having the clause and at least ``train_topic.MIN_COVERAGE`` coverage; the added categories."""
    from clauselens.heads.train_topic import MIN_COVERAGE

    head = lib._topic_judge()
    if head is None:
        return []
    added = [c for c, a in head.meta["metrics"]["absence"].items()
             if c not in head.absent_below and a["positives"] >= min_positives and a["coverage"] >= MIN_COVERAGE]
    for c in added:
        head.absent_below[c] = float(head.meta["metrics"]["absence"][c]["threshold"])
    print(f"[clause_qa] category absence widened by {added}", file=sys.stderr)
    return added


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--setting", choices=("agreements10", "cuad462"), default="cuad462")
    ap.add_argument("--embedder", default="minilm", help="minilm | e5-small | mpnet | none (lexical only)")
    ap.add_argument("--file-names", action="store_true", help="let file names count in resolution (off: the honest row)")
    ap.add_argument("--no-front-matter-demotion", action="store_true",
                    help="rank preamble and recitals like any passage (the library's step 4 off; the variant says so)")
    ap.add_argument("--no-lay-terms", action="store_true",
                    help="rank with the question alone, without the contract terms of its lay phrases "
                         "(clauselens.retrieval.lay_terms; the variant says so)")
    ap.add_argument("--no-category-absence", action="store_true",
                    help="without the topic head's category-absence abstention (clauselens.library.category_absence)")
    ap.add_argument("--no-heading-absence", action="store_true",
                    help="without the heading-topic absence check (clauselens.library.heading_topics; the CUAD "
                         "category check stays)")
    ap.add_argument("--no-concept-absence", action="store_true",
                    help="without the thesaurus concept-absence check (clauselens.library.concept_absence)")
    ap.add_argument("--query-adapter", type=Path, default=None, metavar="DIR",
                    help="rank the dense channel with this trained query adapter (a folder holding query_adapter/, "
                         "as clauselens.library.train_query_adapter writes it; the variant says so)")
    ap.add_argument("--heading-head", type=Path, default=None, metavar="ROOT",
                    help="read the heading-topic head from this weights root (ROOT/heading_topic/, as "
                         "train_heading_topics fit --root writes it) instead of the installed one; the variant says so")
    ap.add_argument("--topic-channel", action="store_true",
                    help="fuse the topic channel (topic head category -> presence probe's passages) into the ranking")
    ap.add_argument("--absence-min-positives", type=int, default=None, metavar="N",
                    help="what-if: let category absence also decline categories the topic head left out for having "
                         "fewer than train_topic.MIN_POSITIVES train_allowed agreements with the clause, when at least N "
                         "have it (thresholds and coverage from the head's own metrics; absent_mass kept)")
    ap.add_argument("--sweep", action="store_true", help="report the abstention trade-off over dense-cosine thresholds")
    ap.add_argument("--threshold", type=float, default=None,
                    help="abstention threshold on the best dense cosine to report as the headline (default: none)")
    ap.add_argument("--questions", type=Path, nargs="+", default=None,
                    help="question files of the dev set's fields over other agreements of the library (e.g. "
                         "benchmarks/data/answers_e2e_questions_new*.jsonl); results named with --tag")
    ap.add_argument("--tag", default="", help="name of a --questions run (in the result file names)")
    args = ap.parse_args(argv)
    if args.questions and not args.tag:
        ap.error("--questions needs --tag (the result files' name)")
    questions = [q for f in args.questions for q in load_questions(f)] if args.questions else load_questions()
    provenance = run_provenance(["bm25s", "numpy", "sentence-transformers", "scipy"])  # before this run writes its files
    t0 = time.perf_counter()
    lib = library_for(args.setting, args.embedder, questions, file_names=args.file_names)
    lib.demote_front_matter = not args.no_front_matter_demotion
    lib.expand_lay_terms = not args.no_lay_terms
    lib.topic_head = False if args.no_category_absence else None
    lib.heading_head = False if args.no_heading_absence else None
    lib.concept_absence = not args.no_concept_absence
    lib.topic_channel = args.topic_channel
    if args.absence_min_positives is not None and not args.no_category_absence:
        widen_absence(lib, args.absence_min_positives)
    if args.heading_head is not None and not args.no_heading_absence:
        from clauselens.heads.heading_topic import HeadingTopicHead

        lib.heading_head = HeadingTopicHead(args.heading_head)
    if args.query_adapter is not None:
        from clauselens.heads.query_adapter import QueryAdapter

        lib.query_adapter = QueryAdapter(args.query_adapter)
    build_s = time.perf_counter() - t0
    rows = run(lib, questions)
    variant = (f"{args.embedder}{'-filenames' if args.file_names else ''}"
               f"{'-no-front-matter-demotion' if args.no_front_matter_demotion else ''}"
               f"{'-no-lay-terms' if args.no_lay_terms else ''}{'-no-category-absence' if args.no_category_absence else ''}"
               f"{'-no-heading-absence' if args.no_heading_absence and not args.no_category_absence else ''}"
               f"{'-no-concept-absence' if args.no_concept_absence else ''}"
               f"{'-topic-channel' if args.topic_channel else ''}"
               f"{f'-absence-min-positives{args.absence_min_positives}' if args.absence_min_positives is not None else ''}"
               f"{'-query-adapter' if args.query_adapter else ''}"
               f"{'-heading-head' if args.heading_head is not None and not args.no_heading_absence else ''}"
               f"{f'-{args.tag}' if args.tag else ''}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    rpath = RESULTS / f"clause_qa_{args.setting}_{variant}.results.jsonl"
    rpath.write_text("".join(json.dumps(r) + "\n" for r in rows))
    thr = args.threshold or 0.0
    summary = summarise(rows, questions, thr)
    result = {
        "benchmark": "clause_qa_dev", "setting": args.setting, "variant": variant,
        "data": [rel_repo(f) for f in args.questions] if args.questions else str(DEV / "questions.jsonl"),
        "library": {"agreements": len(lib), "passages": sum(r.passages for r in lib.agreements()),
                    "embedder": lib.meta["embedder"], "file_names_in_resolution": args.file_names,
                    "front_matter_demoted": lib.demote_front_matter, "lay_terms": lib.expand_lay_terms,
                    "category_absence": lib.topic_head is not False, "topic_channel": lib.topic_channel,
                    "heading_absence": lib.topic_head is not False and lib.heading_head is not False,
                    "concept_absence": lib.concept_absence,
                    "query_adapter": str(args.query_adapter) if args.query_adapter else None,
                    "heading_head": str(args.heading_head) if args.heading_head is not None else None,
                    "seconds_to_open_or_build": round(build_s, 1)},
        "load_average_1_5_15_at_end": [round(x, 2) for x in os.getloadavg()],  # latency is only comparable at like load
        "k": K, "abstain_threshold_dense": thr, "questions": len(questions), "summary": summary,
        "command": " ".join(["python -m benchmarks.clause_qa", *(argv if argv is not None else sys.argv[1:])]),
        "provenance": provenance,
        "date": dt.date.today().isoformat(),
    }
    if args.sweep and lib.embedder is not None:
        result["sweep"] = {f"{t:.2f}": {k: summary_k for k, summary_k in summarise(rows, questions, t).items()
                                        if k in ("exact+defined_term", "paraphrase", "unanswerable_answered", "answerable_abstained")}
                           for t in np.arange(0.20, 0.62, 0.04)}
    out = RESULTS / f"clause_qa_{args.setting}_{variant}.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    scorer = DEV / "score_clause_qa.py"
    if scorer.exists() and thr == 0.0 and not args.questions:
        subprocess.run([sys.executable, str(scorer), str(rpath)], check=False)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
