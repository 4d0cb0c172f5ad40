"""Cost and false alarms of the rendered-visibility rule (issue #41 item 1,
:mod:`clauselens.parsing.visibility`).

On the 21 CUAD PDFs of ``../shared/data/cuad/full_contract_pdf`` plus the PDFs of
``../shared/robustness`` (real files, text nobody hid), each page is read by
:class:`~clauselens.parsing.pdfium_page.PdfiumPage` with and without the ink check, under the
PDFium lock as the parser does. Recorded per file: pages, ms per page of the read alone and of the
ink check (the difference; median of 3 runs per page is not taken: one run, the whole file), and
the non-space characters the ink check marks ``not_shown`` that no fast-path rule already drops
(each one would be a false alarm on these files: nobody hid text in them) with the lines they sit on.

Run: ``.venv/bin/python -m benchmarks.robustness_visibility`` -> ``benchmarks/results/robustness_visibility.json``;
with ``--plumber``, the pdfplumber engine's warnings of text the rendered page does not show (false
alarms on these files) -> ``benchmarks/results/robustness_visibility_pdfplumber.json``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = [REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf", REPO.parent / "shared" / "robustness"]
OUT = REPO / "benchmarks" / "results" / "robustness_visibility.json"
PLUMBER_OUT = REPO / "benchmarks" / "results" / "robustness_visibility_pdfplumber.json"


def measure(path: Path) -> dict:
    import pypdfium2 as pdfium

    from clauselens.parsing.hidden import hidden_reason as _hidden_reason
    from clauselens.parsing.pdfium_lock import PDFIUM_LOCK
    from clauselens.parsing.pdfium_page import PdfiumPage

    base = ink = 0.0
    flagged: list[str] = []
    n_chars = 0
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(str(path))
        except Exception as exc:  # encrypted files of the robustness folder
            return {"file": path.name, "skipped": str(exc)[:80]}
        try:
            n = len(pdf)
            for i in range(n):
                page = pdf[i]
                try:
                    t0 = time.process_time()
                    PdfiumPage(page, i + 1, check_ink=False)
                    t1 = time.process_time()
                    pp = PdfiumPage(page, i + 1)
                    t2 = time.process_time()
                finally:
                    page.close()
                base += t1 - t0
                ink += (t2 - t1) - (t1 - t0)
                n_chars += len(pp.chars)
                box = pp.cropbox
                fills = [r for r in pp.rects if r.get("fill")]
                for c in pp.chars:
                    if c.get("not_shown"):
                        c2 = dict(c)
                        del c2["not_shown"]
                        if _hidden_reason(c2, box, fills) is None:
                            flagged.append(f"p{i + 1} y={c['top']:.0f}: {c['text']}")
        finally:
            pdf.close()
    return {"file": path.name, "pages": n, "chars": n_chars, "read_ms_per_page": round(1000 * base / max(n, 1), 1),
            "ink_ms_per_page": round(1000 * ink / max(n, 1), 1), "false_alarm_chars": len(flagged),
            "false_alarm_sample": flagged[:20]}


def plumber_alarms(files: list[Path]) -> dict:
    """The pdfplumber engine with the same rule (:func:`~clauselens.parsing.visibility.mark_unshown_plumber`):
    warnings of text "not shown on the rendered page" per file (each a false alarm on these files)."""
    from clauselens.parsing.hidden import NOT_SHOWN
    from clauselens.parsing.pdf import extract_pdf

    out = {}
    for f in files:
        try:
            _, warnings = extract_pdf(f, ocr=False, engine="pdfplumber")
        except Exception as exc:  # encrypted / image-only files of the robustness folder
            out[f.name] = f"skipped: {str(exc)[:60]}"
            continue
        out[f.name] = [w[:160] for w in warnings if NOT_SHOWN in w]
        print(f.name, len(out[f.name]), flush=True)
    return out


def main(argv: list[str]) -> None:
    files = sorted(f for d in SOURCES for f in d.rglob("*") if f.is_file() and f.suffix.lower() == ".pdf")
    if "--plumber" in argv:
        alarms = plumber_alarms(files)
        PLUMBER_OUT.write_text(json.dumps({"files": alarms, "warned_lines": sum(len(v) for v in alarms.values()
                                                                                if isinstance(v, list)),
                                           "command": " ".join([Path(sys.argv[0]).name, *argv])}, indent=1) + "\n")
        return
    rows = []
    for f in files:
        r = measure(f)
        rows.append(r)
        print(json.dumps(r)[:300], flush=True)
    done = [r for r in rows if "pages" in r]
    per_page = [r["ink_ms_per_page"] for r in done]
    summary = {
        "files": len(done), "pages": sum(r["pages"] for r in done), "chars": sum(r["chars"] for r in done),
        "ink_ms_per_page_median_file": statistics.median(per_page) if per_page else None,
        "ink_ms_per_page_overall": round(sum(r["ink_ms_per_page"] * r["pages"] for r in done) / max(sum(r["pages"] for r in done), 1), 1),
        "read_ms_per_page_overall": round(sum(r["read_ms_per_page"] * r["pages"] for r in done) / max(sum(r["pages"] for r in done), 1), 1),
        "false_alarm_chars": sum(r["false_alarm_chars"] for r in done),
        "files_with_false_alarms": sum(1 for r in done if r["false_alarm_chars"]),
        "cpu": "process_time (CPU seconds), 2-core shared machine",
    }
    OUT.write_text(json.dumps({"summary": summary, "files": rows, "command": " ".join([Path(sys.argv[0]).name, *argv])},
                              indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
