"""Parsing benchmark on the 21 CUAD contracts of ``../shared/data/cuad`` (+ the 2 image-only scans).

Per contract, for the PDF and for the TXT: nodes found, share of non-whitespace text covered by
(non-root) nodes, cross-references resolved / found, defined terms found, whether a clause
structure was found. Speed: pages/s over the text-layer PDFs, and pages/s over OCR pages (both
image-only PDFs in ``../shared/data/scanned-contracts``, 300 dpi). OCR quality: character-level
similarity (``difflib.SequenceMatcher.ratio`` on whitespace-normalised text) between our OCR and
the CUAD TXT (itself ABBYY OCR, so not a clean ground truth). Cross-references into other
instruments ("Section 402 of the Sarbanes-Oxley Act") are counted apart (``xrefs_external``);
references to exhibits the filing omits stay in the denominator of the resolved share.

Metadata (issue #3): fill rates of title, parties (>= 2 names), effective date, document type
and amended base agreement over the 21 contracts, and, where the hand-checked values of
``tests/parsing/cuad_metadata_expected.json`` are present, how many extracted values are right
(title: contains the hand-checked name, case-insensitive; parties: same set, case- and
whitespace-insensitive, trailing ``.``/``,`` ignored; date: same calendar date via
``clauselens.parsing.metadata.parse_date``; type: equal).

Usage::

    nice -n 10 .venv/bin/python benchmarks/parsing_cuad.py [--no-ocr] [--out benchmarks/results/parsing_cuad.json]

Writes JSON with the command, versions, sample, date and all per-document rows.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import json
import os
import platform
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

from clauselens.parsing import Document, load_document
from clauselens.parsing.metadata import parse_date

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CUAD = SHARED / "data" / "cuad"
SCANNED = SHARED / "data" / "scanned-contracts"
EXPECTED_META = REPO / "tests" / "parsing" / "cuad_metadata_expected.json"


def coverage(doc: Document) -> float:
    """Share of non-whitespace characters of ``doc.text`` inside some non-root node span."""
    covered = bytearray(len(doc.text))
    for n in doc.nodes[1:]:
        covered[n.span.start:n.span.end] = b"\x01" * (n.span.end - n.span.start)
    idx = [i for i, c in enumerate(doc.text) if not c.isspace()]
    return sum(covered[i] for i in idx) / len(idx) if idx else 0.0


def stats(doc: Document, seconds: float) -> dict:
    """The per-document figures reported."""
    xr = doc.cross_references
    return {
        "nodes": len(doc.nodes) - 1,
        "numbered_nodes": sum(1 for n in doc.nodes if n.ref),
        "coverage": round(coverage(doc), 4),
        "structured": doc.structured,
        "xrefs": len(xr),
        "xrefs_resolved": sum(1 for x in xr if x.target_node_id),
        "xrefs_external": sum(1 for x in xr if x.external),
        "defined_terms": len(doc.defined_terms),
        "pages": len(doc.pages),
        "seconds": round(seconds, 3),
        "doc_type": doc.doc_type,
        "title": doc.title,
        "parties": doc.parties,
        "effective_date": doc.effective_date,
        "amends": doc.amends,
        "warnings": doc.warnings,
    }


def _norm_party(p: str) -> str:
    return " ".join(p.split()).lower().rstrip(" .,")


def meta_check(row: dict, exp: dict) -> dict:
    """Per field, whether the extracted value (``row``: a :func:`stats` dict) is filled and,
    against the hand-checked ``exp``, right: ``{field: {"filled": bool, "correct": bool}}``
    plus party-level ``parties_found``/``parties_right``/``parties_expected`` counts."""
    got_p = {_norm_party(p) for p in row["parties"]}
    exp_p = {_norm_party(p) for p in exp["parties"]}
    d = parse_date(row["effective_date"])
    exp_d = dt.date.fromisoformat(exp["effective_date"]) if exp["effective_date"] else None
    return {
        "title": {"filled": bool(row["title"]),
                  "correct": bool(row["title"]) and exp["title"].lower() in " ".join(row["title"].split()).lower()},
        "parties": {"filled": len(row["parties"]) >= 2, "correct": bool(got_p) and got_p == exp_p},
        "effective_date": {"filled": bool(row["effective_date"]), "correct": d is not None and d == exp_d},
        "doc_type": {"filled": bool(row["doc_type"]), "correct": row["doc_type"] == exp["doc_type"]},
        "parties_found": len(got_p), "parties_right": len(got_p & exp_p), "parties_expected": len(exp_p),
    }


def meta_summary(rows: list[dict], kind: str, expected: dict) -> dict:
    """Fill rates over ``rows`` (one per contract) and, for the contracts in ``expected``,
    the hand-check accuracy per field (correct among filled, and among all)."""
    r = [row[kind] for row in rows]
    out: dict = {
        "documents": len(r),
        "title_filled": sum(bool(x["title"]) for x in r),
        "parties_2plus_filled": sum(len(x["parties"]) >= 2 for x in r),
        "parties_any_filled": sum(bool(x["parties"]) for x in r),
        "effective_date_filled": sum(bool(x["effective_date"]) for x in r),
        "doc_type_filled": sum(bool(x["doc_type"]) for x in r),
        "doc_types": {t: sum(x["doc_type"] == t for x in r) for t in sorted({x["doc_type"] for x in r})},
        "amendments_with_base": sum(bool(x["amends"]) for x in r if x["doc_type"] == "amendment"),
    }
    checks = []
    for row in rows:
        key = next((k for k in expected if row["name"].startswith(k)), None)
        if key:
            checks.append(meta_check(row[kind], expected[key]))
    if checks:
        hc: dict = {"documents_checked": len(checks)}
        for f in ("title", "parties", "effective_date", "doc_type"):
            filled = sum(c[f]["filled"] for c in checks)
            right = sum(c[f]["correct"] for c in checks)
            hc[f] = {"filled": filled, "correct": right, "correct_of_filled": round(right / filled, 3) if filled else None}
        found, good, exp_n = (sum(c[k] for c in checks) for k in ("parties_found", "parties_right", "parties_expected"))
        hc["party_names"] = {"found": found, "right": good, "expected": exp_n,
                             "precision": round(good / found, 3) if found else None, "recall": round(good / exp_n, 3)}
        out["hand_check"] = hc
    return out


def similarity(a: str, b: str) -> float:
    """``difflib`` ratio of whitespace-normalised texts (character level)."""
    a, b = " ".join(a.split()), " ".join(b.split())
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def timed_load(path: Path, **kw) -> tuple[Document, float]:
    t = time.perf_counter()
    doc = load_document(path, **kw)
    return doc, time.perf_counter() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-ocr", action="store_true", help="skip the OCR part (slow: ~4 s/page on 2 cores)")
    ap.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "parsing_cuad.json"))
    args = ap.parse_args(argv)
    load_start = os.getloadavg()
    git = ["git", "-C", str(REPO)]
    commit = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run([*git, "status", "--porcelain", "--", "clauselens/parsing", "benchmarks/parsing_cuad.py"],
                           capture_output=True, text=True).stdout.strip()

    selected = json.loads((CUAD / "selected_contracts.json").read_text())
    rows = []
    for entry in selected:
        pdf_doc, pdf_s = timed_load(CUAD / entry["pdf"], ocr=False)
        txt_path = next((CUAD / "full_contract_txt").glob(Path(entry["txt"]).name))
        txt_doc, txt_s = timed_load(txt_path)
        rows.append({"name": Path(entry["pdf"]).stem, "pdf": stats(pdf_doc, pdf_s), "txt": stats(txt_doc, txt_s),
                     "scan_with_ocr_layer": entry["scanned_with_ocr_text_layer"]})
        print(f"{rows[-1]['name'][:50]:50s} pdf nodes {rows[-1]['pdf']['nodes']:4d} cov {rows[-1]['pdf']['coverage']:.3f} "
              f"| txt nodes {rows[-1]['txt']['nodes']:4d} cov {rows[-1]['txt']['coverage']:.3f}", flush=True)

    def agg(kind: str) -> dict:
        r = [row[kind] for row in rows]
        xr = sum(x["xrefs"] for x in r)
        return {
            "documents": len(r),
            "nodes_total": sum(x["nodes"] for x in r),
            "nodes_median": sorted(x["nodes"] for x in r)[len(r) // 2],
            "coverage_mean": round(sum(x["coverage"] for x in r) / len(r), 4),
            "coverage_min": min(x["coverage"] for x in r),
            "structured_share": round(sum(x["structured"] for x in r) / len(r), 3),
            "xrefs_total": xr,
            "xrefs_resolved_share": round(sum(x["xrefs_resolved"] for x in r) / xr, 4) if xr else None,
            "xrefs_external": sum(x["xrefs_external"] for x in r),
            "xrefs_internal_resolved_share": round(
                sum(x["xrefs_resolved"] for x in r) / max(xr - sum(x["xrefs_external"] for x in r), 1), 4),
            "defined_terms_total": sum(x["defined_terms"] for x in r),
            "seconds_total": round(sum(x["seconds"] for x in r), 2),
        }

    summary = {"pdf": agg("pdf"), "txt": agg("txt")}
    expected = json.loads(EXPECTED_META.read_text())["cuad"] if EXPECTED_META.exists() else {}
    summary["metadata"] = {"pdf": meta_summary(rows, "pdf", expected), "txt": meta_summary(rows, "txt", expected),
                           "hand_checked_values": str(EXPECTED_META.relative_to(REPO)) if expected else None}
    text_pages = sum(row["pdf"]["pages"] for row in rows)
    summary["pdf"]["pages_total"] = text_pages
    summary["pdf"]["pages_per_second"] = round(text_pages / summary["pdf"]["seconds_total"], 2)

    ocr_rows = []
    if not args.no_ocr:
        for scan in sorted(SCANNED.glob("*.image-only.pdf")):
            doc, secs = timed_load(scan, ocr=True, ocr_dpi=300)
            name = scan.name.replace(".image-only.pdf", "")
            ref = next((CUAD / "full_contract_txt").glob(name + ".txt")).read_text(encoding="utf-8")
            row = {"name": name, **stats(doc, secs), "ocr_pages": sum(p.method == "ocr" for p in doc.pages),
                   "mean_ocr_confidence": round(sum(p.ocr_confidence or 0 for p in doc.pages) / len(doc.pages), 1),
                   "similarity_to_cuad_txt": round(similarity(doc.text, ref), 4)}
            ocr_rows.append(row)
            print(f"OCR {name[:46]:46s} {row['ocr_pages']} pages {secs:.1f}s sim {row['similarity_to_cuad_txt']}", flush=True)
        pages = sum(r["ocr_pages"] for r in ocr_rows)
        secs = sum(r["seconds"] for r in ocr_rows)
        summary["ocr"] = {"documents": len(ocr_rows), "pages": pages, "seconds": round(secs, 1),
                          "pages_per_second": round(pages / secs, 3),
                          "similarity_mean": round(sum(r["similarity_to_cuad_txt"] for r in ocr_rows) / len(ocr_rows), 4)}

    try:
        tess = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    except OSError:
        tess = ""
    result = {
        "benchmark": "parsing_cuad",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": commit,
        "parsing_code_modified_since_commit": bool(dirty),
        "versions": {"python": platform.python_version(), "pdfplumber": version("pdfplumber"),
                     "pypdfium2": version("pypdfium2"), "pytesseract": version("pytesseract"), "tesseract": tess},
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs (shared with other jobs)",
        "load_average_1min_start_end": [round(load_start[0], 1), round(os.getloadavg()[0], 1)],
        "sample": "21 CUAD v1 contracts of ../shared/data/cuad/selected_contracts.json (PDF with ocr=False, and TXT); "
                  "OCR on the 2 image-only PDFs of ../shared/data/scanned-contracts at 300 dpi",
        "summary": summary,
        "documents": rows,
        "ocr_documents": ocr_rows,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1))
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
