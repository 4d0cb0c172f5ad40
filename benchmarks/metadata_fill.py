"""Metadata fill rates over the 462 CUAD contracts of the LegalBench-RAG corpus (issue #17:
the library's catalogue -- parties, title, effective date -- is what resolution and the
``library list`` table are built from).

Per contract: the Archivist's title, parties and effective date, parsed from the TXT with the
parser of the checked-out commit. Reports how many contracts have no party, one party, or two
or more, and how many have a title and a date. Fill is not correctness (the hand-checked
accuracy on 21 contracts is ``benchmarks/parsing_cuad.py``); run it at two commits to compare
extractors:

    .venv/bin/python -m benchmarks.metadata_fill [--out benchmarks/results/metadata_fill.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from clauselens.parsing import load_document
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "metadata_fill.json")
    ap.add_argument("--corpus", type=Path, default=CORPUS, help="folder of CUAD TXT files (default: the shared corpus)")
    args = ap.parse_args(argv)
    if not any(args.corpus.glob("*.txt")):
        raise SystemExit(f"no .txt files in {args.corpus}")
    rows = {}
    for f in sorted(args.corpus.glob("*.txt")):
        doc = load_document(f)
        rows[f.name] = {"title": doc.title, "parties": doc.parties, "effective_date": doc.effective_date}
    n = [len(r["parties"]) for r in rows.values()]
    summary = {"contracts": len(rows), "parties_0": n.count(0), "parties_1": n.count(1),
               "parties_2plus": sum(x >= 2 for x in n), "title": sum(bool(r["title"]) for r in rows.values()),
               "effective_date": sum(bool(r["effective_date"]) for r in rows.values())}
    args.out.write_text(json.dumps({"benchmark": "metadata_fill", "corpus": args.corpus.name,
                                    "summary": summary, "command": "python -m benchmarks.metadata_fill",
                                    "provenance": run_provenance([]), "date": dt.date.today().isoformat(),
                                    "rows": rows}, indent=1) + "\n")
    print(summary)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
