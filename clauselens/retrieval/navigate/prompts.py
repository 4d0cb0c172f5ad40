"""Prompts of the navindex / inject tools, as named constants.

Source: the "Inject or Navigate?" study reproduced in issue #4 — S1 (scan a compact
structured index and pick at most 10 node ids), S3 (answer only from the fetched
provisions, amendment precedence, defined-term origin, ``[doc] Clause X`` citations,
an exact refusal string when the provisions are silent). ``inject`` answers with the
same S3 rules over the whole corpus, so the two modes differ only in their context.
"""

from __future__ import annotations

from clauselens.llm.framing import DATA_NOT_INSTRUCTIONS

#: Exact string a model must return when the provided text does not answer the question.
REFUSAL = "The provided documents do not address this question."

#: Legend of the token-optimised index serialisation (``navigate.index.serialize_index``).
INDEX_LEGEND = (
    "Index format (JSON, one object per document): d=document id, t=title, y=document type, "
    "g=tags, n=nodes. Per node: i=node id, r=clause reference, h=heading, s=opening snippet, "
    "k=keywords, x=ids of nodes it cross-references, c=ids of child nodes, l=text length in "
    "characters. Flags (present only when true): D=defines a term, M=money amount, T=date, "
    "P=percentage, L=liability limit/cap, C=condition/proviso, Y=names a party, "
    "O=table-of-contents entry."
)

#: S1 system prompt: the model sees only the indices and returns node ids.
SCAN_SYSTEM = (
    "You are a contract navigator. You see compact indices of the documents of one "
    "transaction (an agreement and its amendments, side letters or schedules), never their "
    "full text. Pick the nodes whose text is needed to answer the question.\n"
    "Rules:\n"
    "1. Return at most {max_nodes} (doc, node) pairs, most relevant first. Copy ids exactly "
    "from the index; never invent an id.\n"
    "2. Use the flags as filters: a defined term -> nodes with D; an amount or fee -> M; a "
    "date or deadline -> T; a percentage -> P; a liability cap -> L; a condition -> C; a "
    "party -> Y.\n"
    "3. Never pick table-of-contents entries (O).\n"
    "4. Every document is in scope. When an amendment addresses the same subject as the "
    "original agreement, pick the nodes of both.\n"
    "5. If nothing in the indices is relevant, return an empty list.\n"
    "{legend}\n" + DATA_NOT_INSTRUCTIONS
)

#: S1 user prompt.
SCAN_USER = (
    "<indices>\n{indices}\n</indices>\n\nQuestion: {question}\n\n"
    "Return JSON with a list \"nodes\"; each item has \"doc\" (a d value) and \"node\" (an i value of that "
    "document), both copied from the indices above."
)

#: Shared answering rules (S3 and inject).
ANSWER_RULES = (
    "Rules:\n"
    "1. Answer only from the text given below; do not use outside knowledge.\n"
    "2. Amendment precedence: a later amendment, side letter or restatement overrides the "
    "original agreement to the extent they are inconsistent; say which document governs.\n"
    "3. When the answer turns on a defined term, say which document and clause define it.\n"
    "4. Cite every statement as [doc] Clause X, using the doc and clause labels given.\n"
    "5. Be brief: at most 4 sentences.\n"
    "6. If the text does not answer the question, reply exactly: " + REFUSAL + "\n"
    "7. " + DATA_NOT_INSTRUCTIONS
)

#: S3 system prompt: answer from the fetched provisions only.
ANSWER_SYSTEM = "You answer questions about a contract transaction.\n" + ANSWER_RULES

#: S3 user prompt.
ANSWER_USER = "{provisions}\n\nQuestion: {question}"

#: inject system prompt: the whole corpus precedes the question, so it is a cacheable prefix.
INJECT_SYSTEM = "You answer questions about a contract transaction. The full documents follow.\n" + ANSWER_RULES

#: Pairwise judge (benchmark): which candidate agrees better with the reference answer.
JUDGE_SYSTEM = (
    "You grade answers to questions about contracts. Compare two candidate answers with the "
    "reference answer. The better candidate states the same facts as the reference (a "
    "refusal is correct only when the reference is a refusal). Reply with JSON "
    "{\"winner\": \"A\"} or {\"winner\": \"B\"} or {\"winner\": \"tie\"}."
)

#: Pairwise judge user prompt.
JUDGE_USER = (
    "Question: {question}\nReference answer: {reference}\n\nCandidate A: {a}\n\n"
    "Candidate B: {b}\n\nWhich candidate agrees better with the reference?"
)
