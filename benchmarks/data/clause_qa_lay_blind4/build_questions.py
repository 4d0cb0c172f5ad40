"""Build ``questions.jsonl`` for the blind lay-register set 4 from hand-written specs.

Every gold span is located from two text anchors (the clause's first words and its
last words) with a whitespace-tolerant regular expression over the raw contract
text, so no character offset is typed by hand.  Every unanswerable question carries
the regular expressions that were run over the whole contract; every hit is listed
with a written reason why it does not answer the question.  The build fails if a
start anchor is missing or ambiguous, or if a hit has no reviewed reason (or a
reason matches no hit).

Run:  python3 benchmarks/data/clause_qa_lay_blind4/build_questions.py
Then: python3 benchmarks/data/clause_qa_lay_blind4/verify.py
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from specs import AGREEMENTS, QUESTIONS  # noqa: E402

CORPUS = Path(os.environ.get("CLAUSE_QA_CORPUS", "/work/shared/data/legalbench-rag/corpus"))
FLAGS = "case-insensitive regex over the whole file"


def _flex(anchor: str) -> str:
    """Regex for ``anchor`` in which every whitespace run matches any whitespace run."""
    parts = [re.escape(p) for p in anchor.split()]
    return r"\s+".join(parts)


def locate(text: str, start_anchor: str, end_anchor: str) -> tuple[int, int]:
    starts = [m.start() for m in re.finditer(_flex(start_anchor), text)]
    if len(starts) != 1:
        raise SystemExit(f"start anchor found {len(starts)} times: {start_anchor!r}")
    m = re.compile(_flex(end_anchor)).search(text, starts[0])
    if m is None:
        raise SystemExit(f"end anchor not found after start: {end_anchor!r}")
    if m.end() - starts[0] > 6000:
        raise SystemExit(f"span suspiciously long ({m.end() - starts[0]}): {start_anchor!r}")
    return starts[0], m.end()


def _context(text: str, s: int, e: int, width: int = 70) -> str:
    return re.sub(r"\s+", " ", text[max(0, s - width) : min(len(text), e + width)]).strip()


def review_hits(text: str, terms: list[str], reasons: dict[str, list[tuple[str, str]]]) -> list[dict]:
    """All hits of ``terms``; each must be explained by a (context substring, reason) pair."""
    out: list[dict] = []
    used: set[tuple[str, str]] = set()
    for term in terms:
        for m in re.finditer(term, text, re.IGNORECASE):
            ctx = _context(text, m.start(), m.end())
            why = None
            for key, reason in reasons.get(term, []):
                if key.lower() in ctx.lower():
                    why = reason
                    used.add((term, key))
                    break
            if why is None:
                raise SystemExit(f"unreviewed hit for {term!r} at {m.start()}: {ctx}")
            out.append({"term": term, "span": [m.start(), m.end()], "matched": m.group(0), "context": ctx, "why_irrelevant": why})
    for term, pairs in reasons.items():
        for key, _ in pairs:
            if (term, key) not in used:
                raise SystemExit(f"reason never used (stale review): {term!r} / {key!r}")
    return out


def build() -> list[dict]:
    rows: list[dict] = []
    for q in QUESTIONS:
        key = q["id"].split("-")[0]
        fname = AGREEMENTS[key]["file"]
        rel = f"cuad/{fname}"
        text = (CORPUS / rel).read_text(encoding="utf-8")
        row: dict = {"id": q["id"], "type": q["type"], "question": q["question"], "agreement_file": rel}
        if q["type"] == "paraphrase":
            gold = []
            for ref, a, b in q["gold"]:
                s, e = locate(text, a, b)
                gold.append({"file_path": rel, "span": [s, e], "clause_ref": ref})
            row["gold"] = gold
            row["reference_answer"] = q["answer"]
        else:
            row["gold"] = []
            row["reference_answer"] = q["answer"]
            row["absent_check"] = {
                "topic": q["topic"],
                "terms": q["terms"],
                "flags": FLAGS,
                "hits_reviewed": review_hits(text, q["terms"], q.get("reasons", {})),
            }
        rows.append(row)
    return rows


def main() -> None:
    rows = build()
    out = HERE / "questions.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} questions to {out}")


if __name__ == "__main__":
    main()
