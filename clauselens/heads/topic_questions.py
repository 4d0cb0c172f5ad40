"""Synthetic everyday questions per clause topic, written by the bundled 1.5B (issue #39): training
data for the question-topic head (:mod:`clauselens.heads.topic`).

The passage-level generator (:mod:`clauselens.heads.synthetic`, InPars / GPL style) writes questions
a passage answers. This one writes questions *about a clause topic* without a passage: a client
asking what an agreement says about, say, a cap on liability, in their own words, for many
agreement types and askers. A topic is one of CUAD's 41 categories (Hendrycks et al. 2021), its
description taken from ``CUAD_v1_README.txt``, or one of :data:`OTHER_TOPICS` -- common contract
topics that are not CUAD categories, written once from general drafting knowledge (payment,
delivery, confidentiality, ...) so the head learns that a question can be about none of the
categories. No evaluation or development question is read.

Items are (topic, agreement type, asker) triples, shuffled with a fixed seed so any prefix covers all
topics; the runner is resumable (items already in the output file are skipped) and takes the model
as a ``complete(messages, seed) -> str`` callable (tests pass a fake)::

    flock /tmp/clauselens-llm.lock nice -n 5 .venv/bin/python -m clauselens.heads.topic_questions --minutes 28
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from clauselens.errors import ClauselensError
from clauselens.heads.synthetic import MODEL_FILE, done_ids, llama_complete, questions_schema
from clauselens.heads.synthetic import run as synthetic_run

CACHE = Path.home() / ".cache" / "clauselens" / "synth"
OUT = CACHE / "topic_questions.jsonl"
CUAD_README = Path("/work/shared/data/cuad/CUAD_v1_README.txt")
OTHER = "Other"
SEED = 39

#: Common contract topics outside CUAD's categories (general drafting knowledge, one line each).
OTHER_TOPICS: dict[str, str] = {
    "payment terms": "when and how invoices are paid, payment deadlines, the currency and method of payment",
    "late payment": "interest or charges on payments made late",
    "taxes": "who bears sales tax, VAT, withholding and other taxes on the payments",
    "delivery": "how, when and where goods are delivered or shipped, and who arranges transport",
    "risk and title": "when ownership of goods and the risk of loss or damage pass from one party to the other",
    "acceptance": "inspection and acceptance or rejection of delivered goods or work",
    "specifications": "the specifications, quality standards and descriptions the products or services must meet",
    "general warranties": "promises that the products or services are free of defects or fit for purpose",
    "indemnification": "one party covering the other's losses from third-party claims",
    "confidentiality": "keeping the other party's business information secret and not disclosing it",
    "force majeure": "events beyond a party's control, such as disasters or strikes, that excuse performance",
    "dispute resolution": "how disputes are settled: negotiation, mediation, arbitration or courts",
    "notices": "how formal notices must be sent and to which address",
    "termination for breach": "ending the agreement when the other party breaks it or becomes insolvent",
    "representations": "statements each party makes about itself, such as authority to sign",
    "compliance with laws": "obeying applicable laws, regulations, permits and licences",
    "fees and prices": "the fees, prices or rates charged for the products or services",
    "expenses": "reimbursement of travel and other expenses",
    "reporting": "reports, forecasts and information one party must give the other",
    "marketing obligations": "advertising, promotion and marketing efforts each party must make",
    "trademarks use": "how one party may use the other's brand names and logos",
    "subcontracting": "using subcontractors or agents to do the work",
    "personnel": "the staff a party assigns to the work, their qualifications and supervision",
    "support and maintenance": "technical support, maintenance, fixes and service levels",
    "entire agreement": "whether the written agreement replaces earlier discussions and how it may be amended",
    "relationship of the parties": "whether the parties are independent contractors, partners or agents",
}

#: Agreement types and askers the questions are written for (vary the wording, not the topic).
AGREEMENT_TYPES = ("supply agreement", "software licence", "distribution agreement", "services contract",
                   "consulting agreement", "joint venture agreement", "endorsement deal", "hosting agreement",
                   "franchise agreement", "manufacturing agreement", "marketing agreement", "reseller agreement",
                   "collaboration agreement", "transportation contract", "development agreement", "outsourcing deal")
ASKERS = ("a small-business owner", "a finance manager", "a sales director", "an operations manager",
          "a start-up founder", "a procurement officer", "an investor", "a product manager")

SYSTEM = """You help build a search engine for contracts. You write {n} different questions that {asker} with no
legal training would ask to find out what their {kind} says about one topic.
Rules:
- Everyday words, the way that person would say it. Do not use the topic's legal name or legal terms of art:
  describe the situation in plain words instead.
- Name the parties the way people do: invented company names, "they", "we", "the supplier", "the other side".
- Vary the form: a yes/no question, an "if this happens, ..." question, a "who", "how long" or "how much" question,
  a blunt short one and a longer hedged one.
- Each question is one sentence of at most 25 words.
The register, shown for a different topic (late payment): "If we pay Brightline a week late, can they charge us
extra?", "Do we owe interest when an invoice slips?", "What happens if Acme sits on our bill for two months?"
Reply in JSON: {{"questions": ["...", "..."]}}"""

USER = "Topic: {topic}"

SCHEMA: dict[str, Any] = questions_schema(3, 5, 220)

Complete = Callable[[list[dict[str, str]], int], str]


def cuad_descriptions(path: Path = CUAD_README) -> dict[str, str]:
    """CUAD category -> its description (``Category:`` / ``Description:`` lines of the README)."""
    if not path.is_file():
        raise ClauselensError(f"CUAD README not found: {path}")
    out: dict[str, str] = {}
    cat = None
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"\s*(Category|Description):\s*(.+?)\s*$", line)
        if not m:
            continue
        if m.group(1) == "Category":
            cat = m.group(2).strip()
        elif cat:
            out[cuad_name(cat)] = m.group(2).strip()
            cat = None
    return out


#: CUAD README category names (lower case) spelt otherwise in ``master_clauses.csv`` (the presence head's names).
README_ALIASES = {"notice to terminate renewal": "Notice Period To Terminate Renewal",
                  "right of first refusal, offer or negotiation (rofr/rofo/rofn)": "Rofr/Rofo/Rofn",
                  "affiliate ip license-licensee": "Affiliate License-Licensee",
                  "affiliate ip license-licensor": "Affiliate License-Licensor",
                  "price restriction": "Price Restrictions",
                  "unlimited/all-you-can-eat license": "Unlimited/All-You-Can-Eat-License"}


def cuad_name(cat: str) -> str:
    """CUAD README spelling -> the master_clauses.csv / presence-head spelling ("Cap on Liability" ->
    "Cap On Liability", "Joint IP Ownership" -> "Joint Ip Ownership")."""
    low = cat.lower()
    if low in README_ALIASES:
        return README_ALIASES[low]
    return re.sub(r"(^|[ /-])([a-z])", lambda m: m.group(1) + m.group(2).upper(), low)


def items(descriptions: dict[str, str], per_topic: int = 6, seed: int = SEED) -> list[dict[str, Any]]:
    """(topic, agreement type, asker) items, ``per_topic`` per topic, shuffled so a prefix covers every topic."""
    rng = random.Random(seed)
    topics = [(c, d, c) for c, d in descriptions.items()]  # the description only: not the category's legal name
    topics += [(f"{OTHER}:{t}", f"{t}: {d}", OTHER) for t, d in OTHER_TOPICS.items()]
    rounds: list[list[dict[str, Any]]] = [[] for _ in range(per_topic)]
    for name, text, label in topics:
        kinds = rng.sample(AGREEMENT_TYPES, per_topic)
        for i in range(per_topic):
            rounds[i].append({"id": f"{name}|{i}", "topic": name, "label": label, "text": text,
                              "kind": kinds[i], "asker": ASKERS[(i + zlib.crc32(name.encode())) % len(ASKERS)]})
    out = []
    for r in rounds:
        rng.shuffle(r)
        out += r
    return out


def messages(item: dict[str, Any], n: int = 5) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM.format(n=n, asker=item["asker"], kind=item["kind"])},
            {"role": "user", "content": USER.format(topic=item["text"])}]


def run(todo: list[dict[str, Any]], complete: Complete, out: Path, *, minutes: float | None = None,
        limit: int | None = None, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Write questions for every item not yet in ``out`` (one JSON line per item); resumable
    (:func:`clauselens.heads.synthetic.run` with this module's prompt and no near-copy filter)."""
    return synthetic_run(todo, complete, out, minutes=minutes, limit=limit, log=log, make_messages=messages,
                         near_copies=False, name="topic_questions")


def read(path: Path = OUT) -> list[dict[str, Any]]:
    """The written items (``label``, ``questions``, ...) of ``path``; empty when absent."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut by a killed run
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--model", type=Path, default=MODEL_FILE)
    ap.add_argument("--per-topic", type=int, default=6)
    ap.add_argument("--rounds", default="", help="only these rounds, 'A:B' (a second writer takes other rounds "
                                                  "into another --out file)")
    ap.add_argument("--minutes", type=float, default=28.0)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--temperature", type=float, default=0.8)
    args = ap.parse_args(argv)
    todo = items(cuad_descriptions(), args.per_topic)
    if args.rounds:
        lo, hi = (int(v) for v in args.rounds.split(":"))
        todo = [t for t in todo if lo <= int(t["id"].rsplit("|", 1)[1]) < hi]
    complete = llama_complete(args.model, n_threads=args.threads, temperature=args.temperature,
                              max_tokens=260, schema=SCHEMA)
    stats = run(todo, complete, args.out, minutes=args.minutes, limit=args.limit,
                log=lambda s: print(s, file=sys.stderr, flush=True))
    stats["remaining"] = len(todo) - len(done_ids(args.out))
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
