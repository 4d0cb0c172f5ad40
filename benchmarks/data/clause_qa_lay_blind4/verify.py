"""Independent re-check of ``questions.jsonl`` against the contract texts.

Checks (any failure -> exit status 1):
  * 60 lines, the JSON fields of ``clause-qa-lay/questions.jsonl``, unique ids;
  * 10 agreements, each with exactly 4 "paraphrase" and 2 "unanswerable" questions;
  * no agreement's stem is in ``cuad/train_allowed.txt`` and no file name is in the
    list of agreements already used by other sets (``used_agreements_snapshot.txt``,
    a copy of the list given with the brief; the live list is also read if present);
  * every gold span lies inside the file, is non-empty, starts and ends on a word
    boundary, and its file_path equals agreement_file; unanswerable questions have
    no gold;
  * every absent_check regex, re-run case-insensitively over the whole file, yields
    exactly the hits listed in hits_reviewed (same spans and matched text), each with
    a non-empty reason;
  * no question contains the file name or the file stem.
The gold slices are written to ``verification_log.txt`` for reading.
Run:  python3 benchmarks/data/clause_qa_lay_blind4/verify.py
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("CLAUSE_QA_CORPUS", "/work/shared/data/legalbench-rag/corpus"))
TRAIN_ALLOWED = Path("/work/shared/data/cuad/train_allowed.txt")
USED_LISTS = [HERE / "used_agreements_snapshot.txt", Path("/tmp/brief6/used_agreements.txt")]
LAY_REF = Path("/work/shared/data/clause-qa-lay/questions.jsonl")
TOP_FIELDS = ["id", "type", "question", "agreement_file", "gold", "reference_answer"]
ABSENT_FIELDS = {"topic", "terms", "flags", "hits_reviewed"}
HIT_FIELDS = {"term", "span", "matched", "context", "why_irrelevant"}


def main() -> int:
    errors: list[str] = []
    log: list[str] = []
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    if len(rows) != 60:
        errors.append(f"expected 60 questions, found {len(rows)}")
    ids = Counter(r["id"] for r in rows)
    errors += [f"duplicate id {i}" for i, n in ids.items() if n > 1]

    if LAY_REF.exists():  # the reference set's field sets, per type
        ref_fields: dict[str, set[str]] = {}
        for line in LAY_REF.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            ref_fields.setdefault(r["type"], set(r))
    else:
        ref_fields = {"paraphrase": set(TOP_FIELDS), "unanswerable": set(TOP_FIELDS) | {"absent_check"}}

    allowed_stems = {Path(x.strip()).stem for x in TRAIN_ALLOWED.read_text().splitlines() if x.strip()}
    used: set[str] = set()
    for p in USED_LISTS:
        if p.exists():
            used |= {x.strip() for x in p.read_text().splitlines() if x.strip()}

    per_file: dict[str, Counter] = defaultdict(Counter)
    texts: dict[str, str] = {}
    for r in rows:
        qid = r.get("id")
        if set(r) != ref_fields.get(r.get("type"), set()):
            errors.append(f"{qid}: fields {sorted(r)} differ from the lay set's {sorted(ref_fields.get(r.get('type'), []))}")
            continue
        af = r["agreement_file"]
        if not af.startswith("cuad/"):
            errors.append(f"{qid}: agreement_file must start with cuad/")
        per_file[af][r["type"]] += 1
        if af not in texts:
            texts[af] = (CORPUS / af).read_text(encoding="utf-8")
        text = texts[af]
        name = Path(af).name
        if Path(af).stem in allowed_stems:
            errors.append(f"{qid}: {name} is in train_allowed.txt")
        if name in used:
            errors.append(f"{qid}: {name} is in the used-agreements list")
        if name.lower() in r["question"].lower() or Path(af).stem.lower() in r["question"].lower():
            errors.append(f"{qid}: question names the file")
        if not r["question"].strip() or not r["reference_answer"].strip():
            errors.append(f"{qid}: empty question or reference_answer")
        log.append(f"=== {qid} [{r['type']}] {name}\nQ: {r['question']}\nA: {r['reference_answer']}")
        if r["type"] == "paraphrase":
            if not r["gold"]:
                errors.append(f"{qid}: paraphrase without gold")
            for g in r["gold"]:
                s, e = g["span"]
                if g["file_path"] != af:
                    errors.append(f"{qid}: gold file_path {g['file_path']} != agreement_file")
                if not (0 <= s < e <= len(text)):
                    errors.append(f"{qid}: span {s},{e} outside file of {len(text)} chars")
                    continue
                sl = text[s:e]
                if sl != sl.strip():
                    errors.append(f"{qid}: span has leading/trailing whitespace")
                if s > 0 and text[s - 1].isalnum() and sl[0].isalnum():
                    errors.append(f"{qid}: span starts mid-word at {s}")
                if e < len(text) and text[e].isalnum() and sl[-1].isalnum():
                    errors.append(f"{qid}: span ends mid-word at {e}")
                if not g.get("clause_ref"):
                    errors.append(f"{qid}: missing clause_ref")
                shown = re.sub(r"[ \t]+", " ", sl)
                log.append(f"--- gold {g['clause_ref']} [{s},{e}] ({e - s} chars)\n{shown}")
        elif r["type"] == "unanswerable":
            if r["gold"]:
                errors.append(f"{qid}: unanswerable with gold")
            ac = r["absent_check"]
            if set(ac) != ABSENT_FIELDS:
                errors.append(f"{qid}: absent_check fields {sorted(ac)}")
                continue
            expected = set()
            for term in ac["terms"]:
                for m in re.finditer(term, text, re.IGNORECASE):
                    expected.add((term, m.start(), m.end(), m.group(0)))
            listed = set()
            for h in ac["hits_reviewed"]:
                if set(h) != HIT_FIELDS:
                    errors.append(f"{qid}: hit fields {sorted(h)}")
                    continue
                if not h["why_irrelevant"].strip():
                    errors.append(f"{qid}: hit without reason: {h}")
                if text[h["span"][0] : h["span"][1]] != h["matched"]:
                    errors.append(f"{qid}: hit span does not slice to matched text: {h}")
                listed.add((h["term"], h["span"][0], h["span"][1], h["matched"]))
            for miss in sorted(expected - listed):
                errors.append(f"{qid}: unreviewed regex hit {miss}")
            for extra in sorted(listed - expected):
                errors.append(f"{qid}: listed hit not produced by its regex {extra}")
            log.append(f"--- absent: {ac['topic']}; terms {ac['terms']}; {len(listed)} hits reviewed")
            for h in ac["hits_reviewed"]:
                log.append(f"    hit {h['term']!r} @{h['span']}: {h['context']}\n      -> {h['why_irrelevant']}")
        else:
            errors.append(f"{qid}: unknown type {r['type']}")

    if len(per_file) != 10:
        errors.append(f"expected 10 agreements, found {len(per_file)}")
    for af, c in per_file.items():
        if c["paraphrase"] != 4 or c["unanswerable"] != 2:
            errors.append(f"{af}: {dict(c)} (want 4 paraphrase + 2 unanswerable)")

    log.append(f"\nagreements: {len(per_file)}; questions: {len(rows)}; types: {dict(Counter(r['type'] for r in rows))}")
    log.append("RESULT: " + ("PASS" if not errors else "FAIL\n" + "\n".join(errors)))
    (HERE / "verification_log.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    print(log[-2])
    print(log[-1])
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
