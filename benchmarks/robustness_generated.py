"""The issue #41 "done when" checks on fresh generated inputs: ``tests/parsing/robustness_gen.py``
cases for seeds 1..N (the unit test uses seed 0), every kind (hidden text x fonts/sizes/colours,
1-3 columns, 0/90/180/270-degree scans, numbering styles, misnamed and binary files). Recorded per
kind: cases passed (Wilson 95 % interval) and the failures with their problems; per case its
6-gram recall, clause numbers found and wall seconds.

Run: ``nice -n 5 .venv/bin/python -m benchmarks.robustness_generated [N]`` ->
``benchmarks/results/robustness_generated.json`` (about 1 minute per seed on 2 shared cores: the
four scans are OCR'd).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.robustness_columns import wilson

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "benchmarks" / "results" / "robustness_generated.json"


def main(argv: list[str]) -> None:
    sys.path.insert(0, str(REPO / "tests" / "parsing"))
    from tests.parsing.robustness_gen import check, make_cases

    n_seeds = int(argv[0]) if argv else 3
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, n_seeds + 1):
            d = Path(tmp) / str(seed)
            d.mkdir()
            for case in make_cases(seed):
                t = time.perf_counter()
                got = check(case, case.make(d))
                got.update(seed=seed, kind=case.kind, seconds=round(time.perf_counter() - t, 2))
                rows.append(got)
                print(json.dumps(got)[:300], flush=True)
    summary = {}
    for kind in sorted({r["kind"] for r in rows}) + ["all"]:
        sel = [r for r in rows if kind in ("all", r["kind"])]
        ok = sum(r["ok"] for r in sel)
        summary[kind] = {"cases": len(sel), "passed": ok, "wilson95": wilson(ok, len(sel)),
                         "failures": [(r["seed"], r["case"], r["problems"]) for r in sel if not r["ok"]]}
    OUT.write_text(json.dumps({"summary": summary, "rows": rows, "command": " ".join([Path(sys.argv[0]).name, *argv])},
                              indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
