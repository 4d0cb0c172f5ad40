"""CPU time of the rendered-visibility check (:func:`clauselens.parsing.visibility.mark_unshown`)
per page, this tree against a baseline revision of the module, side by side in one run (issue #42:
text-PDF add >= 20 pages/s; the check is part of the ``text_layer`` stage of
``benchmarks/library_add_pdf.py``).

Every page of the 21 CUAD PDFs (``../shared/data/cuad/full_contract_pdf``, 349 pages) is read once
by :class:`~clauselens.parsing.pdfium_page.PdfiumPage` without the check; then both versions mark
deep copies of its characters, in alternating order (A/B, B/A) so warm-up and load drifts fall on
both. Reported: process CPU seconds of each, the ratio new/old, a 95 % bootstrap interval of that
ratio over pages (2,000 resamples, seed 0), and the number of characters whose marks
(``not_shown``, ``ocr_layer``) differ (must be 0: the change is meant to be output-identical).

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m \\
        benchmarks.visibility_mark_speed --baseline 78283d3
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

REPO = Path(__file__).resolve().parents[1]
CUAD_PDF = REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf"
OUT = REPO / "benchmarks" / "results" / "visibility_mark_speed.json"


def baseline_module(rev: str, tmp: Path) -> Any:
    """``clauselens/parsing/visibility.py`` as of git revision ``rev``, imported under another name."""
    src = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:clauselens/parsing/visibility.py"],
                         capture_output=True, text=True, check=True).stdout
    path = tmp / "visibility_baseline.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("visibility_baseline", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def marks(chars: list[dict]) -> list[tuple[bool, bool]]:
    return [(bool(c.get("not_shown")), bool(c.get("ocr_layer"))) for c in chars]


def run(rev: str) -> dict:
    import numpy as np
    import pypdfium2 as pdfium

    from clauselens.parsing import visibility
    from clauselens.parsing.pdfium_page import PdfiumPage

    files = sorted(p for p in CUAD_PDF.rglob("*") if p.suffix.lower() == ".pdf")
    old_t: list[float] = []
    new_t: list[float] = []
    differing = marked = 0
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_module(rev, Path(tmp))
        for f in files:
            pdf = pdfium.PdfDocument(str(f))
            try:
                for i in range(len(pdf)):
                    page = pdf[i]
                    pg = PdfiumPage(page, i + 1, check_ink=False)
                    got: dict[str, list] = {}
                    order = [("old", old), ("new", visibility)]
                    for name, mod in order if len(old_t) % 2 == 0 else order[::-1]:
                        chars = copy.deepcopy(pg.chars)
                        t = time.process_time()
                        mod.mark_unshown(page, chars, pg._ox, pg._top, pg._over_image)
                        (old_t if name == "old" else new_t).append(time.process_time() - t)
                        got[name] = marks(chars)
                    differing += sum(a != b for a, b in zip(got["old"], got["new"]))
                    marked += sum(m[0] for m in got["new"])
                    page.close()
            finally:
                pdf.close()
    o, n = np.asarray(old_t), np.asarray(new_t)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(o), size=(2000, len(o)))
    ratios = n[idx].sum(axis=1) / o[idx].sum(axis=1)
    return {
        "files": len(files), "pages": len(o), "baseline": rev, "old_cpu_s": round(float(o.sum()), 3),
        "new_cpu_s": round(float(n.sum()), 3), "old_ms_per_page": round(1000 * float(o.mean()), 2),
        "new_ms_per_page": round(1000 * float(n.mean()), 2), "ratio_new_over_old": round(float(n.sum() / o.sum()), 3),
        "ratio_95ci": [round(float(v), 3) for v in np.percentile(ratios, [2.5, 97.5])],
        "chars_with_different_marks": differing, "not_shown_marked": marked,
        "load_1min_before": round(load, 2), "load_1min_after": round(os.getloadavg()[0], 2),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", required=True, help="git revision of the module to compare against")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    res = run(a.baseline)
    res.update({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpus": os.cpu_count(),
                "command": " ".join(["python", "-m", "benchmarks.visibility_mark_speed", *(argv if argv is not None else sys.argv[1:])]),
                "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                                    capture_output=True, text=True).stdout.strip()})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({"benchmark": "visibility_mark_speed", "issue": 42, "method": __doc__.split("\n\n")[1],
                                 "run": res}, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
