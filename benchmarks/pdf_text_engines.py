"""Text-PDF extraction speed: the parser's pdfplumber path vs raw pypdfium2 (issue #17, "add
throughput"; groundwork, the fast path itself is not built yet).

On the 21 CUAD PDFs of ``../shared/data/cuad/full_contract_pdf`` (text layer, OCR off):

* ``pdfplumber``: ``clauselens.parsing.pdf._text_lines`` per page (pdfplumber's character-level
  line extraction plus the two-column check), the step that dominates ``load_document`` on text PDFs;
* ``pypdfium2``: the page's text (``PdfTextPage.get_text_range``) and every character's box
  (``get_charbox``), i.e. what a fast path needs to keep character offsets and page positions.

CPU seconds per engine (``time.process_time``, so the load of other processes matters less),
pages/s, and the character similarity (``difflib`` ratio, whitespace-collapsed, NFKC) of the
raw pypdfium2 page text to the page text the parser produces today (``extract_pdf``: furniture
removed, lines joined), as a first look at how far apart the two are.

Usage::

    nice -n 10 .venv/bin/python benchmarks/pdf_text_engines.py [--out benchmarks/results/pdf_text_engines.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import json
import os
import sys
import time
import unicodedata
from pathlib import Path

from clauselens.parsing.pdf import _text_lines, extract_pdf
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CUAD_PDF = REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf"


def _norm(s: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", s).split())


def main(argv: list[str]) -> int:
    import pdfplumber
    import pypdfium2 as pdfium

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "pdf_text_engines.json")
    args = ap.parse_args(argv)
    files = sorted(f for f in CUAD_PDF.rglob("*") if f.is_file() and f.suffix.lower() == ".pdf")
    load = os.getloadavg()[0]
    pages = 0
    c0 = time.process_time()
    for f in files:
        with pdfplumber.open(f) as pdf:
            for page in pdf.pages:
                _text_lines(page)
                page.close()
                pages += 1
    plumber_cpu = time.process_time() - c0
    raw: dict[str, list[str]] = {}
    c0 = time.process_time()
    for f in files:
        pdf = pdfium.PdfDocument(str(f))
        texts = []
        for i in range(len(pdf)):
            page = pdf[i]
            tp = page.get_textpage()
            texts.append(tp.get_text_range())
            for k in range(tp.count_chars()):
                tp.get_charbox(k)
            tp.close()
            page.close()
        pdf.close()
        raw[f.name] = texts
    pdfium_cpu = time.process_time() - c0
    sims = []
    for f in files:
        ours, _ = extract_pdf(f, ocr=False)
        for p, r in zip(ours, raw[f.name]):
            a, b = _norm(p.text), _norm(r)
            if a or b:
                sims.append(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio())
    sims.sort()
    out = {
        "command": " ".join([Path(sys.argv[0]).name, *argv]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "load_1min_before": round(load, 2),
        "versions": run_provenance(["pdfplumber", "pdfminer.six", "pypdfium2"]),
        "files": len(files), "pages": pages,
        "pdfplumber": {"cpu_s": round(plumber_cpu, 2), "pages_per_cpu_s": round(pages / plumber_cpu, 1)},
        "pypdfium2": {"cpu_s": round(pdfium_cpu, 2), "pages_per_cpu_s": round(pages / pdfium_cpu, 1)},
        "raw_pdfium_vs_parser_text": {"pages": len(sims), "median": round(sims[len(sims) // 2], 4),
                                      "p10": round(sims[len(sims) // 10], 4), "min": round(sims[0], 4)},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
