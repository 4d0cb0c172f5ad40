"""Does a CUAD clause kind ever go without its own word? A census over the train_allowed agreements (issue #45).

For each yes/no CUAD category and the word family a clause of that kind is written with (``WORDS``: "compet" for a
non-compete, "insur" for insurance), it counts the train_allowed agreements whose CUAD annotation has such a clause but
whose text never uses the word (a miss: the word's absence would wrongly say "No"), and those without such a clause that
never use it (what the word's absence can decide). A category qualifies for the grid's "the agreement never words it"
reading (:data:`clauselens.grid.heads.NEVER_WORDED`) when its misses are at most ``MAX_MISS`` of its positives (as the
presence head's absence line, :data:`clauselens.heads.train_topic.PRESENT_MISS`) and it has at least ``MIN_POSITIVES``.
Only train_allowed agreements are read (CUAD annotations of other agreements are evaluation data).

    .venv/bin/python -m benchmarks.category_words_census   # -> benchmarks/results/category_words_census.json
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
OUT = REPO / "benchmarks" / "results" / "category_words_census.json"
MAX_MISS = 0.03
MIN_POSITIVES = 15
#: The word family each clause kind is written with (a regular expression, case-insensitive).
WORDS = {
    "Non-Compete": r"compet", "Exclusivity": r"exclusiv", "Insurance": r"insur", "No-Solicit Of Employees": r"solicit|hire|employ",
    "No-Solicit Of Customers": r"solicit|customer|client", "Audit Rights": r"audit|inspect|examin", "Cap On Liability": r"liab",
    "Most Favored Nation": r"favou?red|favou?rable|best\s+price|lowest\s+price", "Liquidated Damages": r"liquidated|damages",
    "Rofr/Rofo/Rofn": r"first\s+refusal|first\s+offer|first\s+negotiat|right\s+of\s+first", "Non-Disparagement": r"disparag",
    "Change Of Control": r"change\s+(?:of|in)\s+control|merge|acqui|control", "Third Party Beneficiary": r"third.part",
    "Source Code Escrow": r"escrow", "Minimum Commitment": r"minimum", "Anti-Assignment": r"assign|transfer",
    "Covenant Not To Sue": r"\bsue\b|challeng|contest", "Joint Ip Ownership": r"joint", "Volume Restriction": r"volume|quantit|maximum",
    "Price Restrictions": r"price", "Revenue/Profit Sharing": r"revenue|profit|royalt", "Uncapped Liability": r"liab",
    "Warranty Duration": r"warrant", "Post-Termination Services": r"terminat|expir",
}


def norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\.(pdf|txt)$", "", name.strip(), flags=re.IGNORECASE).lower())


def main() -> None:
    allowed = {norm(line) for line in (DATA / "cuad" / "train_allowed.txt").read_text().splitlines() if line.strip()}
    files = {norm(p.name): p for p in (DATA / "legalbench-rag" / "corpus" / "cuad").glob("*.txt")}
    rows = [r for r in csv.DictReader((DATA / "cuad" / "master_clauses.csv").open(encoding="utf-8"))
            if norm(r["Filename"]) in allowed and norm(r["Filename"]) in files]
    texts = {norm(r["Filename"]): files[norm(r["Filename"])].read_text(encoding="utf-8", errors="replace") for r in rows}
    out = {}
    for cat, pat in WORDS.items():
        rx = re.compile(pat, re.IGNORECASE)
        pos = [r for r in rows if r.get(cat, "").strip() not in ("", "[]")]
        neg = [r for r in rows if r.get(cat, "").strip() in ("", "[]")]
        miss = sum(1 for r in pos if not rx.search(texts[norm(r["Filename"])]))
        decided = sum(1 for r in neg if not rx.search(texts[norm(r["Filename"])]))
        share = miss / len(pos) if pos else 1.0
        out[cat] = {"words": pat, "positives": len(pos), "positives_without_the_words": miss, "miss_share": round(share, 4),
                    "negatives": len(neg), "negatives_without_the_words": decided,
                    "coverage": round(decided / len(neg), 4) if neg else 0.0,
                    "qualifies": bool(len(pos) >= MIN_POSITIVES and share <= MAX_MISS)}
        print(f"{cat:28} positives {len(pos):4} missing the words {miss:3} ({share:.1%}) | negatives {len(neg):4} "
              f"decided {decided:4} | {'QUALIFIES' if out[cat]['qualifies'] else '-'}", file=sys.stderr)
    OUT.write_text(json.dumps({"agreements": len(rows), "max_miss": MAX_MISS, "min_positives": MIN_POSITIVES, "categories": out,
                               "command": "python -m benchmarks.category_words_census"}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
