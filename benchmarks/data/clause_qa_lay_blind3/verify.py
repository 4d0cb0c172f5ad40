"""Independent checker for the blind lay-register set #3 (questions.jsonl).

It reads only the stored JSON and the CUAD texts (it does not rebuild spans from
anchors) and checks:

  structure    60 records, unique ids, exactly the field set of the shared lay set
               (/work/shared/data/clause-qa-lay/questions.jsonl), 10 agreements with
               4 paraphrase + 2 unanswerable each;
  selection    no agreement stem is in cuad/train_allowed.txt, no file name is in
               /tmp/brief5/used_agreements.txt (when that file exists);
  wording      no question contains the agreement's file name or stem;
  paraphrase   1+ gold spans, each inside the file, non-empty, not starting or ending
               inside a word, file_path equal to agreement_file; the stored slice
               (whitespace-normalised) is printed in the log for reading;
  unanswerable empty gold; every absent_check regex re-run over the whole file: each
               hit must be listed in hits_reviewed with the same term and span (and a
               why_irrelevant note), and every listed hit must still occur; at least
               half of the topics are not CUAD categories (cuad_category null) and
               every named category appears in CUAD_v1_README.txt.

Exit code 0 and "PASS" on success; otherwise every failure is printed.
Run:  python3 benchmarks/data/clause_qa_lay_blind3/verify.py
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = Path("/work/shared/data/legalbench-rag/corpus")
LAY = Path("/work/shared/data/clause-qa-lay/questions.jsonl")
TRAIN_ALLOWED = Path("/work/shared/data/cuad/train_allowed.txt")
USED = Path("/tmp/brief5/used_agreements.txt")
CUAD_README = Path("/work/shared/data/cuad/CUAD_v1_README.txt")

FAILS: list[str] = []


def fail(msg: str) -> None:
    FAILS.append(msg)
    print("FAIL:", msg)


def main() -> int:
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    if len(rows) != 60:
        fail(f"expected 60 lines, got {len(rows)}")
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        fail("duplicate ids")

    lay = [json.loads(line) for line in LAY.read_text().splitlines() if line.strip()]
    lay_keys = {t: set(next(r for r in lay if r["type"] == t)) for t in ("paraphrase", "unanswerable")}
    lay_ac_keys = set(next(r for r in lay if r["type"] == "unanswerable")["absent_check"])

    per_file: dict[str, Counter[str]] = {}
    for r in rows:
        if set(r) != lay_keys.get(r.get("type"), set()):
            fail(f"{r['id']}: fields {sorted(r)} differ from lay set {sorted(lay_keys.get(r.get('type'), []))}")
        per_file.setdefault(r["agreement_file"], Counter())[r["type"]] += 1
    if len(per_file) != 10:
        fail(f"expected 10 agreements, got {len(per_file)}")
    for f, c in per_file.items():
        if c != Counter({"paraphrase": 4, "unanswerable": 2}):
            fail(f"{f}: counts {dict(c)}")

    allowed = {os.path.splitext(x.strip())[0] for x in TRAIN_ALLOWED.read_text().splitlines() if x.strip()}
    used = set()
    if USED.exists():
        used = {os.path.basename(x.strip()) for x in USED.read_text().splitlines() if x.strip()}
    else:
        print("note: used_agreements list not present; skipped that check")
    for f in per_file:
        name = os.path.basename(f)
        stem = os.path.splitext(name)[0]
        if stem in allowed:
            fail(f"{f}: stem is in train_allowed")
        if name in used:
            fail(f"{f}: already used by another set")
        if not (CORPUS / f).exists():
            fail(f"{f}: file missing")

    readme = CUAD_README.read_text()
    categories = set(re.findall(r"Category:\s*(.+)", readme))
    categories = {c.strip() for c in categories}
    n_non_cuad = 0
    n_un = 0
    for r in rows:
        f = r["agreement_file"]
        text = (CORPUS / f).read_text()
        stem = os.path.splitext(os.path.basename(f))[0]
        q = r["question"].lower()
        if stem.lower() in q or os.path.basename(f).lower() in q or "cuad/" in q:
            fail(f"{r['id']}: question names the file")
        if r["type"] == "paraphrase":
            if not r["gold"]:
                fail(f"{r['id']}: no gold span")
            for g in r["gold"]:
                a, b = g["span"]
                if g["file_path"] != f:
                    fail(f"{r['id']}: gold file differs from agreement_file")
                if not (0 <= a < b <= len(text)):
                    fail(f"{r['id']}: span {a},{b} outside file of length {len(text)}")
                    continue
                s = text[a:b]
                if s != s.strip():
                    fail(f"{r['id']}: span has leading/trailing whitespace")
                if a > 0 and text[a - 1].isalnum() and text[a].isalnum():
                    fail(f"{r['id']}: span starts inside a word")
                if b < len(text) and text[b - 1].isalnum() and text[b].isalnum():
                    fail(f"{r['id']}: span ends inside a word")
                print(f"{r['id']} [{g['clause_ref']}] {' '.join(s.split())[:160]}")
        else:
            n_un += 1
            if r["gold"]:
                fail(f"{r['id']}: unanswerable has gold")
            ac = r["absent_check"]
            if not set(lay_ac_keys) <= set(ac):
                fail(f"{r['id']}: absent_check keys {sorted(ac)} lack {sorted(lay_ac_keys - set(ac))}")
            if len(ac["terms"]) < 1:
                fail(f"{r['id']}: no terms")
            cat = ac.get("cuad_category")
            if cat is None:
                n_non_cuad += 1
            elif cat not in categories:
                fail(f"{r['id']}: cuad_category {cat!r} not in CUAD README")
            found = set()
            for t in ac["terms"]:
                for m in re.finditer(t, text, re.I):
                    found.add((t, m.start(), m.end()))
            recorded = {(h["term"], h["span"][0], h["span"][1]) for h in ac["hits_reviewed"]}
            for h in ac["hits_reviewed"]:
                if not h.get("why_irrelevant"):
                    fail(f"{r['id']}: reviewed hit without a note: {h}")
            if found - recorded:
                fail(f"{r['id']}: unreviewed hits {sorted(found - recorded)}")
            if recorded - found:
                fail(f"{r['id']}: recorded hits no longer found {sorted(recorded - found)}")
            print(f"{r['id']} absent [{ac['topic']}] terms={len(ac['terms'])} hits_reviewed={len(recorded)}")
    if n_non_cuad * 2 < n_un:
        fail(f"only {n_non_cuad}/{n_un} unanswerable topics are outside the CUAD categories")
    print(f"agreements={len(per_file)} questions={len(rows)} unanswerable_non_cuad={n_non_cuad}/{n_un}")
    print("PASS" if not FAILS else f"FAIL ({len(FAILS)} problems)")
    return 0 if not FAILS else 1


if __name__ == "__main__":
    sys.exit(main())
