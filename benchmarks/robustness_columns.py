"""Reading order of generated column layouts (issue #41 item 3): the parser's recursive XY-cut on
whitespace gutters (:func:`clauselens.parsing.pdf._text_lines`) against pdfminer's layout analysis
(``pdfminer.high_level.extract_text`` with default ``LAParams``: text boxes grouped and ordered by
its ``boxes_flow`` rule), both followed by the same clause tree.

Data: the ``columns`` cases of ``tests/parsing/robustness_gen.py`` (1-3 columns of unequal
widths, gutters 16-30 pt, Helvetica/Times/Courier, vertical rules, full-width headings, clauses
broken across columns) for seeds 100..100+N-1 (seeds no test uses). Per method: mean 6-gram
recall of the reference reading order, documents with recall >= 0.95 (Wilson 95 % interval), the
clause numbers found, and documents below 0.95 *without* a layout warning (silent failures; only
the parser warns).

Run: ``.venv/bin/python -m benchmarks.robustness_columns [N]`` -> ``benchmarks/results/robustness_columns.json``.
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "robustness_columns.json"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n (Wilson 1927)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (round((c - h) / d, 3), round((c + h) / d, 3))


def main(argv: list[str]) -> None:
    sys.path.insert(0, str(REPO / "tests" / "parsing"))
    from pdfminer.high_level import extract_text

    from clauselens.parsing import load_document, load_text_document
    from tests.parsing.robustness_gen import LAYOUT_WARNING, make_cases, ngram_recall

    n_seeds = int(argv[0]) if argv else 5
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for seed in range(100, 100 + n_seeds):
            for case in make_cases(seed, scans=False):
                if case.kind != "columns":
                    continue
                path = case.make(d)
                doc = load_document(path)
                miner = load_text_document(extract_text(str(path)), doc_id="m")
                row = {"seed": seed, "case": case.name}
                for name, dd, warned in (("xycut", doc, any(LAYOUT_WARNING.search(w) for w in doc.warnings)),
                                         ("pdfminer", miner, False)):
                    have = {n.ref for n in dd.nodes if n.ref}
                    row[name] = {"recall6": round(ngram_recall(case.reference, dd.text), 3),
                                 "refs": sum(r in have for r in case.refs), "refs_total": len(case.refs),
                                 "warned": warned}
                rows.append(row)
                print(json.dumps(row), flush=True)
    summary = {}
    for name in ("xycut", "pdfminer"):
        rec = [r[name]["recall6"] for r in rows]
        ok = sum(x >= 0.95 for x in rec)
        silent = sum(r[name]["recall6"] < 0.95 and not r[name]["warned"] for r in rows)
        refs = sum(r[name]["refs"] for r in rows)
        total = sum(r[name]["refs_total"] for r in rows)
        summary[name] = {"docs": len(rows), "mean_recall6": round(sum(rec) / len(rec), 3),
                         "docs_recall_ge_0.95": ok, "share_ge_0.95": round(ok / len(rows), 3),
                         "share_ge_0.95_wilson95": wilson(ok, len(rows)), "silent_failures": silent,
                         "clause_numbers": f"{refs}/{total}", "clause_share": round(refs / total, 3),
                         "clause_share_wilson95": wilson(refs, total)}
    OUT.write_text(json.dumps({"summary": summary, "rows": rows,
                               "command": " ".join([Path(sys.argv[0]).name, *argv])}, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
