"""Independent re-check of questions.jsonl (blind lay-register set 5).

Checks, reading the stored offsets (not re-deriving them from anchors):
  structure   60 records, unique ids <key>-para-<n>/<key>-un-<n>, 10 agreements x (4 paraphrase + 2 unanswerable),
              top-level fields exactly those of the clause-qa-lay set (id, type, question, agreement_file, gold,
              reference_answer, + absent_check for unanswerable), file paths exist;
  agreements  none is a stem listed in cuad/train_allowed.txt; none is in the used-agreements list
              ($CLAUSELENS_USED_AGREEMENTS, default /tmp/brief7/used_agreements.txt; skipped with a note if absent);
  paraphrase  1-2 gold spans, 0 <= s < e <= len(text), the slice text[s:e] starts with the spec's start anchor and
              ends with its end snippet (whitespace-normalised), starts/ends on non-space characters, clause_ref
              matches the spec; the question shares no 3-word sequence with any gold slice and has no clause
              number / clause word / file name;
  unanswerable gold == [], answer starts "Not addressed:", >= 5 terms, absent_check keys as in the lay set;
              every term is re-run over the whole file (case-insensitive) and the set of hits must equal the
              recorded hits_reviewed, each with a non-empty reason and a context that is the text around it.
Prints a report, writes verification_log.txt, exits 1 on any failure.
"""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_questions as B  # noqa: E402  (corpus root, 3-gram helpers)
from specs import AGREEMENTS, SPECS  # noqa: E402

SHARED = os.path.normpath(os.path.join(B.CORPUS, "..", ".."))
TRAIN_ALLOWED = os.path.join(SHARED, "cuad", "train_allowed.txt")
USED = os.environ.get("CLAUSELENS_USED_AGREEMENTS", "/tmp/brief7/used_agreements.txt")
FIELDS_PARA = {"id", "type", "question", "agreement_file", "gold", "reference_answer"}
FIELDS_UN = FIELDS_PARA | {"absent_check"}
ABSENT_KEYS = {"topic", "terms", "flags", "hits_reviewed"}
out, fails = [], []


def say(s=""):
    out.append(s)


def fail(s):
    fails.append(s)
    say("  FAIL " + s)


def norm(s):
    return " ".join(s.split())


def check_agreements():
    stems = set()
    if os.path.isfile(TRAIN_ALLOWED):
        with open(TRAIN_ALLOWED, encoding="utf-8") as f:
            stems = {os.path.splitext(x.strip())[0] for x in f if x.strip()}
    else:
        fail(f"train_allowed.txt not found at {TRAIN_ALLOWED}")
    used = None
    if os.path.isfile(USED):
        with open(USED, encoding="utf-8") as f:
            used = {x.strip() for x in f if x.strip()}
    for key, (fn, _name) in AGREEMENTS.items():
        if fn[:-4] in stems:
            fail(f"{key}: {fn} is in train_allowed")
        if used is not None and fn in used:
            fail(f"{key}: {fn} is in the used-agreements list")
    say(f"agreements: {len(AGREEMENTS)}; none in train_allowed ({len(stems)} stems); "
        + (f"none in used list ({len(used)} names)" if used is not None else "used-agreements list not found: skipped"))


def main():
    rows = [json.loads(x) for x in open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8") if x.strip()]
    specs = {s["id"]: s for s in SPECS}
    say("verification of questions.jsonl (clause_qa_lay_blind5)")
    say("=" * 72)
    if len(rows) != 60:
        fail(f"expected 60 records, found {len(rows)}")
    ids = [r.get("id") for r in rows]
    if len(set(ids)) != len(ids):
        fail("duplicate ids")
    check_agreements()
    texts = {}
    for _key, (fn, _) in AGREEMENTS.items():
        with open(os.path.join(B.CORPUS, "cuad", fn), encoding="utf-8") as f:
            texts["cuad/" + fn] = f.read()
    per = collections.defaultdict(collections.Counter)
    n_span = n_term = n_hit = 0
    for r in rows:
        m = re.fullmatch(r"([a-z]+)-(para|un)-(\d+)", r.get("id", ""))
        if not m or m.group(1) not in AGREEMENTS:
            fail(f"{r.get('id')}: bad id")
            continue
        key, kind = m.group(1), m.group(2)
        want = FIELDS_PARA if kind == "para" else FIELDS_UN
        if set(r) != want:
            fail(f"{r['id']}: fields {sorted(set(r))} != {sorted(want)}")
        if r["type"] != ("paraphrase" if kind == "para" else "unanswerable"):
            fail(f"{r['id']}: type/id mismatch")
        if r["agreement_file"] != "cuad/" + AGREEMENTS[key][0]:
            fail(f"{r['id']}: wrong agreement_file")
        per[key][r["type"]] += 1
        sp, text, q = specs.get(r["id"]), texts[r["agreement_file"]], r["question"]
        if sp is None:
            fail(f"{r['id']}: no spec")
            continue
        if B.CLAUSE_WORDS.search(q) or "_" in q:
            fail(f"{r['id']}: question names a clause number / clause word / file")
        if r["type"] == "paraphrase":
            if not 1 <= len(r["gold"]) <= 2 or len(r["gold"]) != len(sp["gold"]):
                fail(f"{r['id']}: gold count")
            for g, (start, end, ref) in zip(r["gold"], sp["gold"]):
                n_span += 1
                s, e = g["span"]
                if g["file_path"] != r["agreement_file"] or g["clause_ref"] != ref:
                    fail(f"{r['id']}: file_path/clause_ref mismatch")
                if not (isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= len(text)):
                    fail(f"{r['id']}: bad span {g['span']}")
                    continue
                seg = text[s:e]
                if not norm(seg).startswith(norm(start)) or not norm(seg).endswith(norm(end)):
                    fail(f"{r['id']}: slice {ref} does not run from its anchor to its end snippet")
                if seg != seg.strip():
                    fail(f"{r['id']}: slice {ref} starts or ends with whitespace")
                shared = B.ngrams(B.words(q)) & B.ngrams(B.words(seg))
                if shared:
                    fail(f"{r['id']}: question shares 3-grams with {ref}: {sorted(' '.join(x) for x in shared)}")
                say(f"  ok {r['id']:<12} {ref:<26} [{s},{e}) {norm(seg)[:60]!r}...")
        else:
            ac = r["absent_check"]
            if r["gold"] != [] or not r["reference_answer"].startswith("Not addressed:"):
                fail(f"{r['id']}: unanswerable must have empty gold and a 'Not addressed:' answer")
            if set(ac) != ABSENT_KEYS or ac["terms"] != sp["terms"] or len(ac["terms"]) < 5:
                fail(f"{r['id']}: absent_check keys/terms")
            found = set()
            for t in ac["terms"]:
                n_term += 1
                found |= {(t, mm.start(), mm.end()) for mm in re.finditer(t, text, re.I)}
            recorded = {(h["term"], h["span"][0], h["span"][1]) for h in ac["hits_reviewed"]}
            if found != recorded:
                fail(f"{r['id']}: unreviewed hits {sorted(found - recorded)} / stale {sorted(recorded - found)}")
            for h in ac["hits_reviewed"]:
                n_hit += 1
                s, e = h["span"]
                if text[s:e] != h["matched"] or h["context"] not in text[max(0, s - 200):e + 200] \
                        or not h.get("why_irrelevant"):
                    fail(f"{r['id']}: reviewed hit {h['span']} malformed")
            say(f"  ok {r['id']:<12} absent '{ac['topic']}' ({sp['cuad_category'] or 'not a CUAD category'}): "
                f"{len(ac['terms'])} terms, {len(found)} hit(s) all reviewed")
    for key in AGREEMENTS:
        if per[key]["paraphrase"] != 4 or per[key]["unanswerable"] != 2:
            fail(f"{key}: {dict(per[key])} (want 4 paraphrase + 2 unanswerable)")
    n_cuad = sum(1 for s in SPECS if s["type"] == "unanswerable" and s["cuad_category"])
    say()
    say(f"{len(rows)} records; {n_span} gold spans; {n_term} absence searches, {n_hit} reviewed hits; "
        f"unanswerable topics in CUAD categories: {n_cuad}/20, outside: {20 - n_cuad}/20")
    say("RESULT: " + ("PASS" if not fails else f"FAIL ({len(fails)} problem(s))"))
    rep = "\n".join(out) + "\n"
    print(rep, end="")
    with open(os.path.join(HERE, "verification_log.txt"), "w", encoding="utf-8") as f:
        f.write(rep.replace(USED, "<used-agreements list>"))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
