"""Independent checker for the blind2 lay-register question set.

Re-checks questions.jsonl against the contract texts without using the
anchors in specs.py (it only reads the stored offsets and term lists):

  structure    60 records, unique ids <key>-para-<n> / <key>-un-<n>, exactly the
               fields of the clause-qa-lay set, 10 agreements x (4 paraphrase +
               2 unanswerable), questions do not name a file or clause number;
  agreements   each file exists in the corpus, is byte-identical to CUAD's
               full_contract_txt copy when that copy is present, its PDF is NOT
               in cuad/train_allowed.txt and its .txt name is NOT in the list of
               agreements already used by other sets;
  paraphrase   1-2 gold spans inside the file, gold file_path == agreement_file,
               span does not start/end on whitespace, slice is printed, no 3-word
               sequence shared between question and span;
  unanswerable gold == [], answer starts "Not addressed:", >= 5 regexes, re-running
               every regex (case-insensitive) over the whole file gives exactly
               the recorded hits, each recorded hit has matched text, context
               containing it and a non-empty reason;
  scorer       if the clause-qa-dev scorer is found: gold-as-results scores
               40/40 paraphrase hits and 0/20 answered-should-abstain; an empty
               results file scores 0/40 and 20/20.

Paths (environment overrides): CUAD_CORPUS (folder holding cuad/<file>.txt),
CUAD_DIR (CUAD folder with train_allowed.txt and full_contract_txt/),
USED_AGREEMENTS (text file, one .txt name per line; check skipped with a
warning if absent), CLAUSE_QA_SCORER.
Writes the report to stdout and verification_log.txt; exits 1 on any failure.
"""

import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("CUAD_CORPUS", "/work/shared/data/legalbench-rag/corpus")
CUAD_DIR = os.environ.get("CUAD_DIR", "/work/shared/data/cuad")
USED = os.environ.get("USED_AGREEMENTS", "/tmp/brief4/used_agreements.txt")
SCORER = os.environ.get("CLAUSE_QA_SCORER", "/work/shared/data/clause-qa-dev/score_clause_qa.py")
FIELDS_P = {"id", "type", "question", "agreement_file", "gold", "reference_answer"}
FIELDS_U = FIELDS_P | {"absent_check"}

out: list[str] = []
fails: list[str] = []


def say(s=""):
    out.append(s)


def fail(s):
    fails.append(s)
    say("  FAIL " + s)


def words(s):
    return re.findall(r"[a-z0-9]+", s.lower())


def ngrams(ws):
    return {tuple(ws[i : i + 3]) for i in range(len(ws) - 2)}


def full_txt_copies():
    root = os.path.join(CUAD_DIR, "full_contract_txt")
    found = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            found[f] = os.path.join(d, f)
    return found


def check_structure(rows):
    ids = [r.get("id") for r in rows]
    if len(rows) != 60:
        fail(f"expected 60 records, found {len(rows)}")
    if len(set(ids)) != len(ids):
        fail("duplicate ids")
    per = collections.defaultdict(collections.Counter)
    files = {}
    for r in rows:
        want = FIELDS_P if r.get("type") == "paraphrase" else FIELDS_U
        if set(r) != want:
            fail(f"{r.get('id')}: fields {sorted(set(r))} != {sorted(want)}")
        m = re.fullmatch(r"([a-z0-9]+)-(para|un)-(\d+)", r.get("id", ""))
        if not m or (m.group(2) == "para") != (r.get("type") == "paraphrase") or r.get("type") not in ("paraphrase", "unanswerable"):
            fail(f"{r.get('id')}: bad id or id/type mismatch")
            continue
        key = m.group(1)
        if files.setdefault(key, r["agreement_file"]) != r["agreement_file"]:
            fail(f"{r['id']}: agreement_file differs from others with key {key}")
        per[key][r["type"]] += 1
        q = r["question"]
        if re.search(r"\b\d+\.\d+|\bsection\b|\bclause\b|\bparagraph\b|\barticle\b|\.txt|\.pdf|EX-\d", q, re.I):
            fail(f"{r['id']}: question mentions a clause number/word or file name")
    for key, c in per.items():
        if c["paraphrase"] != 4 or c["unanswerable"] != 2:
            fail(f"{key}: {c['paraphrase']} paraphrase / {c['unanswerable']} unanswerable (want 4 / 2)")
    if len(per) != 10 or len(set(files.values())) != 10:
        fail(f"expected 10 agreements, found {len(set(files.values()))}")
    say(
        f"records {len(rows)}; agreements {len(set(files.values()))}; "
        f"paraphrase {sum(c['paraphrase'] for c in per.values())}; "
        f"unanswerable {sum(c['unanswerable'] for c in per.values())}"
    )
    return sorted(set(files.values()))


def check_agreements(files):
    allowed = {os.path.splitext(x.strip())[0].lower() for x in open(os.path.join(CUAD_DIR, "train_allowed.txt"), encoding="utf-8") if x.strip()}
    used = None
    if os.path.isfile(USED):
        used = {x.strip() for x in open(USED, encoding="utf-8") if x.strip()}
    else:
        say(f"  WARNING: used-agreements list not found ({USED}); that check skipped")
    copies = full_txt_copies()
    texts = {}
    for af in files:
        name = af.split("/", 1)[1]
        p = os.path.join(CORPUS, af)
        if not os.path.isfile(p):
            fail(f"missing file {af}")
            continue
        raw = open(p, "rb").read()
        texts[af] = raw.decode("utf-8")
        stem = os.path.splitext(name)[0].lower()
        if stem in allowed:
            fail(f"{name}: its PDF is in train_allowed.txt")
        if used is not None and name in used:
            fail(f"{name}: already used by another set")
        same = "n/a (not in the 21-file subset)"
        if name in copies:
            same = "identical" if open(copies[name], "rb").read() == raw else "DIFFERENT"
            if same == "DIFFERENT":
                fail(f"{name}: corpus copy differs from full_contract_txt")
        say(f"  {len(texts[af]):>7,} chars  full_contract_txt copy: {same}  {name}")
    say(
        f"  none of the {len(files)} PDFs is in train_allowed.txt ({len(allowed)} names)"
        + ("" if used is None else f"; none is in the used-agreements list ({len(used)} names)")
    )
    return texts


def check_paraphrase(r, text):
    if not 1 <= len(r["gold"]) <= 2:
        fail(f"{r['id']}: {len(r['gold'])} gold spans")
    qg = ngrams(words(r["question"]))
    for g in r["gold"]:
        s, e = g["span"]
        if g["file_path"] != r["agreement_file"] or not g.get("clause_ref"):
            fail(f"{r['id']}: gold file_path/clause_ref problem")
        if not (isinstance(s, int) and isinstance(e, int) and 0 <= s < e <= len(text)):
            fail(f"{r['id']}: bad span {g['span']}")
            continue
        seg = text[s:e]
        if seg != seg.strip():
            fail(f"{r['id']}: span {g['clause_ref']} starts or ends on whitespace")
        shared = qg & ngrams(words(seg))
        if shared:
            fail(f"{r['id']}: shares 3-grams with {g['clause_ref']}: {sorted(' '.join(x) for x in shared)}")
        flat = " ".join(seg.split())
        say(f"    {g['clause_ref']} [{s}, {e}) {flat[:70]!r} ... {flat[-50:]!r}")


def check_unanswerable(r, text):
    if r["gold"] != []:
        fail(f"{r['id']}: unanswerable with gold")
    if not r["reference_answer"].startswith("Not addressed:"):
        fail(f"{r['id']}: answer does not start with 'Not addressed:'")
    ac = r["absent_check"]
    terms = ac.get("terms", [])
    if len(terms) < 5:
        fail(f"{r['id']}: fewer than 5 terms")
    found = {(t, m.start(), m.end()) for t in terms for m in re.finditer(t, text, re.I)}
    rec = {(h["term"], h["span"][0], h["span"][1]) for h in ac.get("hits_reviewed", [])}
    if found != rec:
        fail(f"{r['id']}: unreviewed hits {sorted(found - rec)} / stale hits {sorted(rec - found)}")
    for h in ac.get("hits_reviewed", []):
        s, e = h["span"]
        if text[s:e] != h["matched"] or not h.get("why_irrelevant"):
            fail(f"{r['id']}: reviewed hit at {h['span']} has wrong text or no reason")
        ctx_at = [m.start() for m in re.finditer(re.escape(h["context"]), text)]
        if not any(c <= s and e <= c + len(h["context"]) for c in ctx_at):
            fail(f"{r['id']}: hit at {h['span']} not inside its quoted context")
    say(f"    topic {ac.get('topic')!r}: {len(terms)} regexes, {len(found)} hit(s), all reviewed")


def check_scorer():
    if not os.path.isfile(SCORER):
        say(f"scorer check skipped ({SCORER} not found)")
        return
    qf = os.path.join(HERE, "questions.jsonl")
    with tempfile.TemporaryDirectory() as td:
        orc, empty = os.path.join(td, "oracle.jsonl"), os.path.join(td, "empty.jsonl")
        subprocess.run([sys.executable, SCORER, "--questions", qf, "--write-oracle", orc], check=True, capture_output=True, text=True)
        open(empty, "w").close()
        r1 = subprocess.run([sys.executable, SCORER, orc, "--questions", qf], capture_output=True, text=True)
        r2 = subprocess.run([sys.executable, SCORER, empty, "--questions", qf], capture_output=True, text=True)

    def grab(txt, label):
        m = re.search(re.escape(label) + r"\s+(\d+)/(\d+)", txt)
        return (int(m.group(1)), int(m.group(2))) if m else None

    res = (
        grab(r1.stdout, "paraphrase"),
        grab(r1.stdout, "answered (should abstain)"),
        grab(r2.stdout, "paraphrase"),
        grab(r2.stdout, "answered (should abstain)"),
    )
    say(f"scorer check: oracle paraphrase {res[0]}, oracle answered {res[1]}; empty paraphrase {res[2]}, empty answered {res[3]}")
    if res != ((40, 40), (0, 20), (0, 40), (20, 20)):
        fail("scorer check gave unexpected numbers:\n" + r1.stdout + r1.stderr)


def main():
    rows = [json.loads(x) for x in open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8") if x.strip()]
    say("verification of benchmarks/data/clause_qa_lay_blind2/questions.jsonl")
    say("=" * 72)
    files = check_structure(rows)
    texts = check_agreements(files)
    say()
    for r in rows:
        text = texts.get(r["agreement_file"])
        if text is None:
            continue
        say(f"{r['id']}: {r['question']}")
        if r["type"] == "paraphrase":
            check_paraphrase(r, text)
        else:
            check_unanswerable(r, text)
    say()
    check_scorer()
    say("RESULT: " + ("PASS" if not fails else f"FAIL ({len(fails)} problem(s))"))
    report = "\n".join(out) + "\n"
    print(report, end="")
    with open(os.path.join(HERE, "verification_log.txt"), "w", encoding="utf-8") as f:
        f.write(report)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
