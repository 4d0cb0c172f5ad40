"""Clause numbers of the 462 CUAD texts (LegalBench-RAG corpus), before and after a change to the
clause-marker rules (issue #41 item 5 may only change the numbers the issue names), and of generated
numbering styles.

``--save NAME`` writes, per text, the (ref, kind) of every node of its clause tree
(:func:`clauselens.parsing.load_document`, as the library builds it) to
``~/.cache/clauselens/numbering_<NAME>.json``; ``--compare A B`` lists the texts whose trees
differ (and how many differ only in a number now kept as printed, "1.01" for "1.1") and writes the
differences to ``benchmarks/results/robustness_numbering.json``. ``--generated N`` runs the
numbering cases of ``tests/parsing/robustness_gen.py`` for seeds 1..N (decimal, lettered, deep,
"Section 1.01", "Clause 7"/"7(a)"/"(i)", unnumbered capitals headings above clauses and between
sub-clauses) and records clause numbers found and clauses under the right heading, with Wilson 95 %
intervals, under ``"generated"`` in the same file.

Run: ``nice -n 5 .venv/bin/python -m benchmarks.robustness_numbering --save before`` (~30 s).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
CACHE = Path.home() / ".cache" / "clauselens"
OUT = REPO / "benchmarks" / "results" / "robustness_numbering.json"


def save(name: str) -> None:
    from clauselens.parsing import load_document

    out = {}
    for p in sorted(CORPUS.rglob("*.txt")):
        doc = load_document(p)
        out[p.name] = [[n.ref, n.kind] for n in doc.nodes]
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / f"numbering_{name}.json").write_text(json.dumps(out))
    print(len(out), "texts,", sum(len(v) for v in out.values()), "nodes")


def _printed_key(ref: str | None) -> str | None:
    """A ref with leading zeros dropped: "1.01" and "1.1" are one clause, numbered as printed or not."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), ref) if ref else ref


def _results() -> dict:
    return json.loads(OUT.read_text()) if OUT.exists() else {}


def compare(a: str, b: str) -> None:
    before = json.loads((CACHE / f"numbering_{a}.json").read_text())
    after = json.loads((CACHE / f"numbering_{b}.json").read_text())
    diffs = {}
    as_printed = sum(1 for n, v in before.items() if after.get(n) != v
                     and [(_printed_key(r), k) for r, k in v] == [(_printed_key(r), k) for r, k in after.get(n, [])])
    for name, nodes in before.items():
        if after.get(name) != nodes:
            old = {tuple(x) for x in nodes}
            new = {tuple(x) for x in after.get(name, [])}
            diffs[name] = {"removed": sorted(map(str, old - new))[:20], "added": sorted(map(str, new - old))[:20]}
    summary = {"texts": len(before), "texts_changed": len(diffs),
               "refs_before": sum(1 for v in before.values() for r, _ in v if r),
               "refs_after": sum(1 for v in after.values() for r, _ in v if r),
               "texts_changed_only_as_printed": as_printed, "compared": [a, b]}
    res = _results()
    res.update(summary=summary, changed=diffs)
    OUT.write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(summary))


def generated(n_seeds: int) -> None:
    """The generated numbering cases for seeds 1..``n_seeds`` (see the module docstring)."""
    import sys
    import tempfile
    from datetime import datetime, timezone

    from benchmarks.robustness_columns import wilson

    sys.path.insert(0, str(REPO / "tests" / "parsing"))
    from tests.parsing.robustness_gen import check, make_cases

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, n_seeds + 1):
            d = Path(tmp) / str(seed)
            d.mkdir()
            for case in (c for c in make_cases(seed, scans=False) if c.kind == "numbering"):
                got = check(case, case.make(d))
                rows.append({"seed": seed, **{k: got.get(k) for k in ("case", "ok", "refs", "under", "problems")}})
    found = sum(int(r["refs"].split("/")[0]) for r in rows)
    total = sum(int(r["refs"].split("/")[1]) for r in rows)
    placed = sum(int(r["under"].split("/")[0]) for r in rows if r["under"])
    heads = sum(int(r["under"].split("/")[1]) for r in rows if r["under"])
    ok = sum(bool(r["ok"]) for r in rows)
    summary = {"seeds": n_seeds, "cases": len(rows), "cases_passed": ok, "cases_wilson95": wilson(ok, len(rows)),
               "clause_numbers_found": found, "clause_numbers_expected": total,
               "clause_number_recall": round(found / total, 4) if total else None, "recall_wilson95": wilson(found, total),
               "under_right_heading": placed, "under_heading_expected": heads, "heading_wilson95": wilson(placed, heads),
               "styles": sorted({r["case"] for r in rows}),
               "date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "command": f"python -m benchmarks.robustness_numbering --generated {n_seeds}"}
    res = _results()
    res["generated"] = {"summary": summary, "rows": rows}
    OUT.write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--compare", nargs=2)
    ap.add_argument("--generated", type=int, help="seeds of generated numbering cases")
    args = ap.parse_args()
    if args.save:
        save(args.save)
    if args.compare:
        compare(*args.compare)
    if args.generated:
        generated(args.generated)
