"""End-to-end PDF parsing with both text engines side by side (issue #17, "add throughput").

On the 21 CUAD PDFs of ``../shared/data/cuad/full_contract_pdf`` (the files
``benchmarks/pdf_text_engines.py`` and ``benchmarks/parsing_cuad.py`` use), each file is parsed
with ``clauselens.parsing.load_document(path, ocr=False, pdf_engine=...)`` once per engine,
``pdfium`` and ``pdfplumber`` alternating which goes first per file (so both see the same machine
load). OCR is off: OCR costs the same with either engine (Tesseract), and pages without a text
layer are counted apart.

Reported:

* speed: pages per wall second and per CPU second (``time.process_time``) of the whole
  ``load_document`` (text layer, furniture, clause tree, terms, metadata), per engine, and the
  1-minute load average before and after;
* text: per page, the ``difflib`` ratio between the two engines' page texts (as the document
  holds them: ``doc.text[page.start:page.end]``), exact and whitespace-collapsed; the pages under
  0.99 are listed;
* clause trees: per document, nodes and numbered nodes per engine, and the clause numbers
  (``Node.ref``) found by one engine only;
* routing: pages the ``pdfium`` engine handed to pdfplumber, and why
  (``clauselens.parsing.pdf.pdfium_routes``).

Usage::

    nice -n 10 .venv/bin/python benchmarks/pdf_engines_e2e.py [--out benchmarks/results/pdf_engines_e2e.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

from clauselens.parsing import Document, load_document
from clauselens.parsing.pdf import pdfium_routes
from clauselens.provenance import run_provenance

REPO = Path(__file__).resolve().parents[1]
CUAD_PDF = REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf"
ENGINES = ("pdfium", "pdfplumber")


def _ratio(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _page_texts(doc: Document) -> list[str]:
    return [doc.text[p.start:p.end].strip() for p in doc.pages]


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "pdf_engines_e2e.json")
    args = ap.parse_args(argv)
    files = sorted(f for f in CUAD_PDF.rglob("*") if f.is_file() and f.suffix.lower() == ".pdf")
    load_before = os.getloadavg()[0]
    wall = dict.fromkeys(ENGINES, 0.0)
    cpu = dict.fromkeys(ENGINES, 0.0)
    text_pages = dict.fromkeys(ENGINES, 0)
    rows, page_sims, low_pages = [], [], []
    routes: Counter[str] = Counter()
    pages_total = 0
    for k, f in enumerate(files):
        docs: dict[str, Document] = {}
        order = ENGINES if k % 2 == 0 else ENGINES[::-1]
        for eng in order:
            w0, c0 = time.perf_counter(), time.process_time()
            docs[eng] = load_document(f, ocr=False, pdf_engine=eng)
            cpu[eng] += time.process_time() - c0
            wall[eng] += time.perf_counter() - w0
            text_pages[eng] += sum(1 for p in docs[eng].pages if docs[eng].text[p.start:p.end].strip())
        a, b = docs["pdfium"], docs["pdfplumber"]
        pages_total += len(b.pages)
        for reason in pdfium_routes(f):
            if reason:
                routes[reason.split(":")[0]] += 1
        sims = []
        for i, (ta, tb) in enumerate(zip(_page_texts(a), _page_texts(b))):
            s = _ratio(ta, tb)
            s_ws = _ratio(" ".join(ta.split()), " ".join(tb.split()))
            sims.append(s)
            page_sims.append((s, s_ws))
            if s < 0.99:
                low_pages.append({"file": f.name, "page": i + 1, "ratio": round(s, 4), "ratio_ws": round(s_ws, 4),
                                  "chars_pdfium": len(ta), "chars_pdfplumber": len(tb)})
        refs_a = {n.ref for n in a.nodes if n.ref}
        refs_b = {n.ref for n in b.nodes if n.ref}
        rows.append({
            "file": f.name, "pages": len(b.pages), "pages_pdfium": len(a.pages),
            "nodes": {"pdfium": len(a.nodes) - 1, "pdfplumber": len(b.nodes) - 1},
            "numbered": {"pdfium": sum(1 for n in a.nodes if n.ref), "pdfplumber": sum(1 for n in b.nodes if n.ref)},
            "refs_only_pdfium": sorted(refs_a - refs_b), "refs_only_pdfplumber": sorted(refs_b - refs_a),
            "structured": {"pdfium": a.structured, "pdfplumber": b.structured},
            "same_text": a.text == b.text,
            "min_page_ratio": round(min(sims), 4) if sims else None,
        })
        r = rows[-1]
        print(f"{f.name[:60]:60} pages {len(b.pages):3} nodes {r['nodes']} same text {r['same_text']} "
              f"min page {r['min_page_ratio']}", file=sys.stderr)
    load_after = os.getloadavg()[0]
    ex = sorted(s for s, _ in page_sims)
    ws = sorted(s for _, s in page_sims)

    def q(v: list[float], p: float) -> float:
        return round(v[min(int(p * len(v)), len(v) - 1)], 4)

    out = {
        "command": " ".join([Path(sys.argv[0]).name, *argv]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "load_1min_before": round(load_before, 2), "load_1min_after": round(load_after, 2),
        "cpu_count": os.cpu_count(),
        "versions": run_provenance(["pdfplumber", "pdfminer.six", "pypdfium2"]),
        "files": len(files), "pages": pages_total, "ocr": False,
        "speed": {eng: {"wall_s": round(wall[eng], 2), "cpu_s": round(cpu[eng], 2),
                        "pages_per_wall_s": round(pages_total / wall[eng], 1),
                        "pages_per_cpu_s": round(pages_total / cpu[eng], 1),
                        "pages_with_text": text_pages[eng]} for eng in ENGINES},
        "page_text_ratio": {"pages": len(ex), "exact": {"min": ex[0], "p01": q(ex, 0.01), "p10": q(ex, 0.10),
                                                        "median": q(ex, 0.5), "share_1.0": round(sum(s == 1.0 for s in ex) / len(ex), 4)},
                            "whitespace_collapsed": {"min": ws[0], "p01": q(ws, 0.01), "p10": q(ws, 0.10),
                                                     "median": q(ws, 0.5), "share_1.0": round(sum(s == 1.0 for s in ws) / len(ws), 4)}},
        "clause_trees": {
            "nodes": {eng: sum(r["nodes"][eng] for r in rows) for eng in ENGINES},
            "numbered": {eng: sum(r["numbered"][eng] for r in rows) for eng in ENGINES},
            "docs_same_clause_numbers": sum(1 for r in rows if not r["refs_only_pdfium"] and not r["refs_only_pdfplumber"]),
            "docs_same_node_count": sum(1 for r in rows if r["nodes"]["pdfium"] == r["nodes"]["pdfplumber"]),
            "docs_identical_text": sum(1 for r in rows if r["same_text"]),
        },
        "pdfium_pages_routed_to_pdfplumber": dict(routes),
        "pages_below_0.99": low_pages,
        "documents": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in out.items() if k not in ("documents", "pages_below_0.99")}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
