"""Build questions.jsonl for the blind lay-register clause-QA set (blind2).

Every question is written here as data.  Gold spans are never typed as
offsets: each has a start anchor (clause number / heading or first words of
the sub-clause) that must occur exactly once in the contract, and an end
snippet; the span runs from the anchor to the end of the first occurrence of
the end snippet after it.  Matching is whitespace-normalised (a run of
whitespace in an anchor matches any run of whitespace in the text), because
several SEC exhibits are typeset with hard line breaks and double spaces.

Checks (any failure -> nothing is written, exit 1):
  * every "must" snippet occurs in its span;
  * the question shares no 3-word sequence with any of its gold spans
    (lower-cased [a-z0-9]+ tokens);
  * the question has no clause number, no section/clause/paragraph/article
    word and no file name;
  * unanswerable: >= 5 case-insensitive regexes per topic are run over the
    whole contract and every hit must have a written review reason.

Corpus: the LegalBench-RAG copy of CUAD (byte-identical to CUAD's
full_contract_txt files of the same name).  Set CUAD_CORPUS to the folder
that contains cuad/<file>.txt.
"""

import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("CUAD_CORPUS", "/work/shared/data/legalbench-rag/corpus")
OUT = os.path.join(HERE, "questions.jsonl")

CONTRACTS = {
    "rog": "EuromediaHoldingsCorp_20070215_10SB12G_EX-10.B(01)_525118_EX-10.B(01)_Content License Agreement.txt",
    "drv": "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt",
    "pvx": "ADIANUTRITION,INC_04_01_2005-EX-10.D2-RESELLER AGREEMENT.txt",
    "thv": "THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT.txt",
    "stm": "BellringBrandsInc_20190920_S-1_EX-10.12_11817081_EX-10.12_Manufacturing Agreement1.txt",
    "cool": "COOLTECHNOLOGIES,INC_10_25_2017-EX-10.71-Strategic Alliance Agreement.txt",
    "vio": "VIOLINMEMORYINC_12_12_2012-EX-10.14-SPONSORSHIP AGREEMENT.txt",
    "neon": "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt",
    "hc2": "HC2HOLDINGS,INC_05_14_2020-EX-10.1-COOPERATION AGREEMENT.txt",
    "mcd": "MTITECHNOLOGYCORP_11_16_2004-EX-10.102-Reseller Agreement Premier Addendum.txt",
}


# the question specs are data kept beside this script in specs.py, loaded from its path (not an installed package)
_SPEC = importlib.util.spec_from_file_location("clause_qa_lay_blind2_specs", os.path.join(HERE, "specs.py"))
assert _SPEC is not None and _SPEC.loader is not None
_SPECS_MODULE = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_SPECS_MODULE)
SPECS = _SPECS_MODULE.SPECS


def words(s):
    return re.findall(r"[a-z0-9]+", s.lower())


def ngrams(ws, n=3):
    return {tuple(ws[i : i + n]) for i in range(len(ws) - n + 1)}


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def pat(s):
    return r"\s+".join(re.escape(t) for t in s.split())


def find_all(text, snippet):
    return [(m.start(), m.end()) for m in re.finditer(pat(snippet), text)]


def locate(text, g):
    starts = find_all(text, g["start"])
    if len(starts) != 1:
        raise ValueError(f"start anchor {g['start']!r} found {len(starts)} times")
    s = starts[0][0]
    m = re.compile(pat(g["end"])).search(text, s)
    if not m:
        raise ValueError(f"end snippet {g['end']!r} not found after start")
    return s, m.end()


CLAUSE_WORDS = re.compile(r"\b\d+\.\d+|\bsection\b|\bclause\b|\bparagraph\b|\barticle\b|\.txt|EX-\d", re.I)


def build():
    texts = {k: open(os.path.join(CORPUS, "cuad", fn), encoding="utf-8").read() for k, fn in CONTRACTS.items()}
    rows, fails = [], []
    for sp in SPECS:
        key = sp["id"].split("-")[0]
        fn, text = CONTRACTS[key], texts[key]
        q = sp["question"]
        if CLAUSE_WORDS.search(q):
            fails.append(f"{sp['id']}: question has clause number/word or file name")
        row = {"id": sp["id"], "type": sp["type"], "question": q, "agreement_file": "cuad/" + fn}
        if sp["type"] == "paraphrase":
            gold = []
            for g in sp["gold"]:
                try:
                    s, e = locate(text, g)
                except ValueError as exc:
                    fails.append(f"{sp['id']}: {exc}")
                    continue
                seg = text[s:e]
                for m in g["must"]:
                    if norm(m) not in norm(seg):
                        fails.append(f"{sp['id']}: must-snippet {m!r} not in {g['ref']}")
                shared = ngrams(words(q)) & ngrams(words(seg))
                if shared:
                    fails.append(f"{sp['id']}: shares 3-grams with {g['ref']}: {sorted(' '.join(x) for x in shared)}")
                print(f"{sp['id']} {g['ref']} [{s},{e}) {len(seg)} chars: {norm(seg)[:90]!r} ... {norm(seg)[-60:]!r}")
                gold.append({"file_path": "cuad/" + fn, "span": [s, e], "clause_ref": g["ref"]})
            row["gold"] = gold
            row["reference_answer"] = sp["answer"]
        else:
            row["gold"] = []
            row["reference_answer"] = sp["answer"]
            if len(sp["terms"]) < 5:
                fails.append(f"{sp['id']}: fewer than 5 search terms")
            hits = []
            for t in sp["terms"]:
                for m in re.finditer(t, text, re.I):
                    ctx = text[max(0, m.start() - 100) : m.end() + 100]
                    why = sp["reasons"].get(t)
                    if not why:
                        fails.append(f"{sp['id']}: unreviewed hit {t!r} at {m.start()}: {norm(ctx)!r}")
                    hits.append({"term": t, "span": [m.start(), m.end()], "matched": m.group(0), "context": ctx, "why_irrelevant": why or ""})
            for t in sp["reasons"]:
                if t not in sp["terms"]:
                    fails.append(f"{sp['id']}: reason for unknown term {t!r}")
            print(f"{sp['id']} topic {sp['topic']!r}: {len(sp['terms'])} terms, {len(hits)} hits")
            row["absent_check"] = {
                "topic": sp["topic"],
                "terms": sp["terms"],
                "flags": "case-insensitive regex over the whole file",
                "hits_reviewed": hits,
            }
        rows.append(row)
    if fails:
        print("\nFAILURES:")
        for f in fails:
            print("  " + f)
        sys.exit(1)
    with open(OUT, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"\nwrote {len(rows)} questions to questions.jsonl")


if __name__ == "__main__":
    build()
