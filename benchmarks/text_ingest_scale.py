"""How parse time grows with the size of a text file (issue #22, item 5: the text size limit).

The 21 CUAD contract texts of ``../shared/data/cuad/full_contract_txt`` (1.06 MB together) are
concatenated and repeated to reach each size; each file is parsed once with
``clauselens.parsing.load_document`` (clause tree, defined terms and their uses, cross-references,
metadata) in this process, and wall and CPU seconds are recorded. ``CLAUSELENS_MAX_TEXT_MB``
(``Settings.max_text_mb``) is chosen from this curve.

Usage::

    nice -n 10 .venv/bin/python benchmarks/text_ingest_scale.py [--mb 0.5 1 2 4] [--out benchmarks/results/text_ingest_scale.json]

Writes JSON with the command, versions, load average, date and one row per size.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from clauselens.config import Settings
from clauselens.parsing import load_document
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CUAD_TXT = REPO.parent / "shared" / "data" / "cuad" / "full_contract_txt"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, nargs="+", default=[0.5, 1.0, 2.0, 4.0])
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "text_ingest_scale.json")
    args = ap.parse_args(argv)
    corpus = "\n\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(CUAD_TXT.glob("*.txt")))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.mb:
            n = int(mb * 1_000_000)
            text = (corpus * (n // len(corpus) + 1))[:n]
            f = Path(tmp) / f"text_{mb:g}mb.txt"
            f.write_text(text, encoding="utf-8")
            load = os.getloadavg()[0]
            t0, c0 = time.perf_counter(), time.process_time()
            doc = load_document(f)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            rows.append({"mb": mb, "chars": len(doc.text), "nodes": len(doc.nodes), "defined_terms": len(doc.defined_terms),
                         "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "cpu_s_per_mb": round(cpu / mb, 2),
                         "load_1min_before": round(load, 2)})
            print(json.dumps(rows[-1]), flush=True)
    out = {"command": " ".join([Path(sys.argv[0]).name, *argv]), "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "cpus": os.cpu_count(), "max_text_mb_default": Settings.model_fields["max_text_mb"].default,
           "versions": run_provenance(["pdfplumber", "charset-normalizer"]), "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
