"""Build questions.jsonl for the blind lay-register set 5 from anchors (no typed offsets).

Every gold span is located by a start anchor (must occur exactly once in the file,
whitespace-normalised: a run of whitespace in the anchor matches any run in the text)
and ends at the end of the first occurrence of an end snippet after the start.
Unanswerable questions carry case-insensitive regex searches over the whole file; every
hit is written to ``absent_check.hits_reviewed`` with the reviewer's reason (given per
term below); a hit whose term has no reason aborts the build.

Corpus root: $CLAUSELENS_CUAD_CORPUS or ../../../../shared/data/legalbench-rag/corpus
relative to this folder.  Run: python3 build_questions.py  (writes questions.jsonl).
"""
import json
import os
import re
import sys

from specs import AGREEMENTS, SPECS

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("CLAUSELENS_CUAD_CORPUS") or os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "legalbench-rag", "corpus"))
CLAUSE_WORDS = re.compile(r"\b\d+\.\d+|\bsection\b|\bclause\b|\bparagraph\b|\barticle\b|\.txt|EX-\d", re.I)


def pattern(snippet):
    return re.compile(r"\s+".join(re.escape(t) for t in snippet.split()))


def words(s):
    return re.findall(r"[a-z0-9]+", s.lower())


def ngrams(ws, n=3):
    return {tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)}


def locate(text, start, end):
    hits = [m.start() for m in pattern(start).finditer(text)]
    if len(hits) != 1:
        raise ValueError(f"start anchor {start!r} occurs {len(hits)} times")
    m = pattern(end).search(text, hits[0])
    if not m:
        raise ValueError(f"end snippet {end!r} not found after {start!r}")
    return hits[0], m.end()


def load(fn):
    with open(os.path.join(CORPUS, "cuad", fn), encoding="utf-8") as f:
        return f.read()


def build():
    rows, problems = [], []
    texts = {k: load(fn) for k, (fn, _) in AGREEMENTS.items()}
    for sp in SPECS:
        key = sp["id"].split("-")[0]
        fn = AGREEMENTS[key][0]
        text = texts[key]
        q = sp["question"]
        if CLAUSE_WORDS.search(q):
            problems.append(f"{sp['id']}: question names a clause/number/file")
        row = {"id": sp["id"], "type": sp["type"], "question": q, "agreement_file": "cuad/" + fn, "gold": []}
        if sp["type"] == "paraphrase":
            for start, end, ref in sp["gold"]:
                try:
                    s, e = locate(text, start, end)
                except ValueError as exc:
                    problems.append(f"{sp['id']}: {exc}")
                    continue
                shared = ngrams(words(q)) & ngrams(words(text[s:e]))
                if shared:
                    problems.append(f"{sp['id']}: shares 3-grams with {ref}: {sorted(' '.join(x) for x in shared)}")
                row["gold"].append({"file_path": "cuad/" + fn, "span": [s, e], "clause_ref": ref})
                print(f"{sp['id']:<10} {ref:<28} [{s},{e}) ...{' '.join(text[max(s, e - 70):e].split())!r}")
            row["reference_answer"] = sp["answer"]
        else:
            row["reference_answer"] = sp["answer"]
            hits = []
            for t in sp["terms"]:
                for m in re.finditer(t, text, re.I):
                    reason = sp["reasons"].get(t)
                    ctx = text[max(0, m.start() - 60):m.end() + 60]
                    if not reason:
                        problems.append(f"{sp['id']}: unreviewed hit {t!r} -> {' '.join(ctx.split())!r}")
                        continue
                    hits.append({"term": t, "span": [m.start(), m.end()], "matched": m.group(0),
                                 "context": ctx, "why_irrelevant": reason})
            for t in sp["reasons"]:
                if t not in sp["terms"]:
                    problems.append(f"{sp['id']}: reason for unknown term {t!r}")
            row["absent_check"] = {"topic": sp["topic"],
                                   "terms": sp["terms"], "flags": "case-insensitive regex over the whole file",
                                   "hits_reviewed": hits}
            print(f"{sp['id']:<10} absent '{sp['topic']}': {len(sp['terms'])} terms, {len(hits)} reviewed hits")
        rows.append(row)
    return rows, problems


def main():
    rows, problems = build()
    for p in problems:
        print("PROBLEM", p)
    if problems:
        sys.exit(1)
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} questions")


if __name__ == "__main__":
    main()
