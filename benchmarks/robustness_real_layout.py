"""Real PDFs must read the same when the column rules change (issue #41 item 3): every PDF under
``/work/shared`` (the 21 CUAD contract PDFs, the two scans, the robustness files) and the repository's
bundled contract, text layer only (OCR off: the column rules read text layers), each page's text
(sha256) and its layout warnings ("columns", "reading order").

    .venv/bin/python -m benchmarks.robustness_real_layout --out FILE            # a snapshot
    .venv/bin/python -m benchmarks.robustness_real_layout --baseline FILE      # compare with one

``--baseline`` lists every page whose text or layout warnings differ (``changed_pages``) and every page
newly warned; it exits 1 when any differ. ~1 CPU-minute.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = (Path("/work/shared"), REPO / "examples")
#: A warning about the reading order of a page set in columns (:mod:`clauselens.parsing.pdf`).
LAYOUT = re.compile(r"column|reading order", re.IGNORECASE)


def pdfs() -> list[Path]:
    out: list[Path] = []
    for root in ROOTS:
        out += [p for p in root.rglob("*") if p.suffix.lower() == ".pdf" and "/." not in str(p)]
    return sorted(out)


def snapshot() -> dict[str, dict]:
    from clauselens.errors import IngestError
    from clauselens.parsing import load_document

    out: dict[str, dict] = {}
    for path in pdfs():
        key = str(path)
        try:
            doc = load_document(path, ocr=False)
        except IngestError as exc:
            out[key] = {"error": str(exc)[:200]}
            continue
        pages: dict[str, str] = {}
        for pg in doc.pages:
            pages[str(pg.number)] = hashlib.sha256(doc.text[pg.start:pg.end].encode("utf-8")).hexdigest()[:16]
        out[key] = {"pages": pages, "layout_warnings": sorted(w for w in doc.warnings if LAYOUT.search(w))}
        print(f"{path.name}: {len(pages)} pages, {len(out[key]['layout_warnings'])} layout warnings", file=sys.stderr)
    return out


def compare(base: dict[str, dict], now: dict[str, dict]) -> dict:
    changed, warned, unwarned = [], [], []
    for key in sorted(set(base) | set(now)):
        a, b = base.get(key, {}), now.get(key, {})
        pa, pb = a.get("pages", {}), b.get("pages", {})
        changed += [f"{Path(key).name} p{p}" for p in sorted(set(pa) | set(pb), key=int) if pa.get(p) != pb.get(p)]
        wa, wb = set(a.get("layout_warnings", [])), set(b.get("layout_warnings", []))
        warned += [f"{Path(key).name}: {w}" for w in sorted(wb - wa)]
        unwarned += [f"{Path(key).name}: {w}" for w in sorted(wa - wb)]
    return {"files": len(now), "pages": sum(len(v.get("pages", {})) for v in now.values()),
            "changed_pages": changed, "newly_warned": warned, "no_longer_warned": unwarned}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="write the snapshot here")
    ap.add_argument("--baseline", type=Path, default=None, help="compare with this snapshot")
    args = ap.parse_args(argv)
    now = snapshot()
    if args.out:
        args.out.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    if args.baseline:
        diff = compare(json.loads(args.baseline.read_text()), now)
        print(json.dumps(diff, indent=1))
        sys.exit(1 if diff["changed_pages"] or diff["newly_warned"] else 0)


if __name__ == "__main__":
    main()
