"""One grid cell: retrieval through the library pinned to the agreement, a short typed answer
from the model, and the report's deterministic quote checks (:mod:`clauselens.reports.verify`):
the quote must be verbatim in a retrieved passage, it is widened to whole words and its
sentence / clause (as a report's quotes are), and the widened quote must be about the
question's topic (:func:`topic_check`; a question without ``terms`` gets them derived,
:func:`clauselens.grid.topic.derive_terms`), else the cell is ``unverified`` and its quote withheld.
The answer must then be what the quote states (:func:`check_answer`, issue #45): not an echo of
the prompt (:func:`clauselens.grid.evidence.echo_issue`), a typed value read from the quote
(:func:`clauselens.grid.values.check_value`), and a yes/no answer shown by the quote
(:func:`clauselens.grid.evidence.yes_no_issue`). A yes/no cell is "No / not found" only when no
retrieved passage is about the topic; when one is and the model found nothing, it is unverified.

The checks run on the model's stored reply (:attr:`Cell.reply`), so a new check version
(:data:`CHECK_VERSION`) re-checks stored cells without asking the model again
(:func:`clauselens.grid.runner.run_grid`).

The three steps are separate functions so that the runner can retrieve and verify in its own
thread (the library's SQLite catalogue) and send only the model call to worker threads.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Sequence

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens.grid.cells import Cell
from clauselens.grid.evidence import echo_issue, yes_no_issue
from clauselens.grid.questions import GridQuestion
from clauselens.grid.topic import derive_terms, plain_idioms, topic_stems
from clauselens.grid.values import ONE_DATE, check_value
from clauselens.parsing.numbering import clause_label
from clauselens.reports.verify import extend_match, verify_pieces, verify_quote
from clauselens.retrieval.types import Passage, SearchResult

#: Bumped when the prompt or the answer schema changes (part of every cell's fingerprint).
PROMPT_VERSION = "grid-4"
#: Bumped when :func:`finish`'s checks change (stored cells are re-checked from their stored reply).
CHECK_VERSION = "verbatim+clause+topic-2+value-2+echo+yesno-23+rule-99+heads-9+text-3"
#: Passages the model reads per cell.
DEFAULT_K = 3
#: What the embedder reads: nothing ("none": BM25 alone), the question ("question") or the search
#: text ("search"); see :func:`retrieve`. On the tune split BM25 alone cited the annotated clause
#: in its top passage for 50.5 % of pairs against 45.9 % (question) and 47.9 % (search text).
DENSE_QUERY = "none"
#: Passages from the start of the agreement a preamble question reads first.
FRONT_PASSAGES = 2
#: Characters of each passage shown to the model.
PASSAGE_CHARS = 900

TYPE_HINTS: dict[str, str] = {
    "yes_no": 'The answer is "Yes" if a passage contains such a clause, otherwise "No".',
    "date": "The answer is the date as the contract states it (e.g. \"May 8, 2014\"), or a short phrase when it is "
            "not a calendar date (e.g. \"upon execution\", \"perpetual\").",
    "duration": "The answer is the period, e.g. \"30 days\", \"2 years\", \"successive 1-year periods\".",
    "amount": "The answer is the amount with its currency, e.g. \"$50,000\".",
    "party": "The answer is the names of the parties, separated by \"; \".",
    "jurisdiction": "The answer is the state or country, as the contract names it.",
    "text": "The answer is a few words.",
}

SYSTEM = (
    "You review one contract. Answer the question only from the numbered passages of that contract, and reply "
    'with a JSON object {"found": ..., "passage": ..., "quote": ..., "answer": ...}: found is true only if a '
    "passage states what the question asks about; passage is that passage's number (P1 = 1); quote is the words "
    "of that passage that answer the question, copied exactly as they appear (one sentence, never empty when "
    "found is true); answer is the short answer. If no passage answers it: found false, passage 0, quote and "
    "answer empty."
)


class CellAnswer(BaseModel):
    """The model's reply for one cell (quote before answer: it answers from what it copied)."""

    found: bool = Field(description="true if a passage answers the question")
    passage: int = Field(0, description="number of the passage that answers it, 0 if none")
    quote: str = Field("", description="the words of that passage that answer the question, copied exactly")
    answer: str = Field("", description="the short answer")


def stored_reply(cell: Cell) -> CellAnswer | None:
    """The model's reply a stored cell was made from: :attr:`Cell.reply`, or, for a cell stored
    before replies were kept, rebuilt from its answer and (model) quote (passage number unknown)."""
    if cell.reply is not None:
        return CellAnswer.model_validate(cell.reply)
    if cell.status not in ("answered", "unverified"):
        return None
    return CellAnswer(found=True, passage=0, quote=cell.quote or cell.model_quote, answer=cell.answer)


def fingerprint(q: GridQuestion, model_id: str, k: int = DEFAULT_K) -> str:
    """What a stored cell was computed from: question wording, type, search text, model, k, prompt."""
    blob = json.dumps([q.question, q.type, q.search_text, model_id, k, PROMPT_VERSION])
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def retrieve(library: Any, doc_id: str, q: GridQuestion, k: int = DEFAULT_K, *, dense: str = "") -> SearchResult:
    """The top ``k`` passages of agreement ``doc_id`` for ``q``: the library pinned to it (no
    resolution step), ranked by BM25 on the question's ``search`` text (``dense="question"`` or
    ``"search"`` adds the embedder on that text, fused by RRF; :data:`DENSE_QUERY` was chosen on
    the tune split of ``benchmarks/cuad_grid.py``); the absent-topic shortcut is off (the model
    decides "not found"). A preamble question (``q.front_matter``: title, parties, date; or a
    ``party`` question without a search text) reads the agreement's first :data:`FRONT_PASSAGES`
    passages first, then the ranked ones. A question without a ``search`` text (a user's own
    words) has its lay phrases' contract terms added to the ranking query
    (:mod:`clauselens.retrieval.lay_terms`)."""
    dense = dense or DENSE_QUERY
    user = not q.search.strip()  # a question in the user's words: its lay phrases' contract terms join the ranking query
    front = q.front_matter or (user and q.type == "party")
    res = library.search(q.search_text, k, doc_ids=[doc_id], absent_topics=False, front_matter=True if front else None,
                         dense_query=q.question if dense == "question" else None, lexical_only=dense == "none",
                         lay_terms=user)
    if not front:
        return res
    rows = library.catalogue.rows_of([doc_id])[:FRONT_PASSAGES]
    lead = [Passage.from_chunk(c, 1.0, "front") for c in library.catalogue.passages(rows)]
    seen = {p.chunk_id for p in lead}
    merged = (lead + [p for p in res.passages if p.chunk_id not in seen])[:k]
    return res.model_copy(update={"passages": merged, "abstained": not merged, "reason": None if merged else res.reason})


def format_passages(passages: Sequence[Passage]) -> str:
    out = []
    for i, p in enumerate(passages, start=1):
        where = ", ".join(x for x in (clause_label(p.clause_ref) if p.clause_ref else "",
                                      f"page {p.page_start}" if p.page_start else "") if x)
        head = " / ".join(h for h in p.heading_path if h)
        out.append(f"[P{i}] {where}{' | ' + head if head else ''}\n{p.text[:PASSAGE_CHARS]}")
    return "\n\n".join(out)


def messages_for(q: GridQuestion, passages: Sequence[Passage]) -> list:
    """The chat messages of one cell."""
    user = (f"Passages:\n\n{format_passages(passages)}\n\nQuestion: {q.question}\n{TYPE_HINTS[q.type]}")
    return [SystemMessage(content=SYSTEM), HumanMessage(content=user)]


def ask_model(model: Any, q: GridQuestion, passages: Sequence[Passage], *, method: str = "auto",
              max_retries: int = 2) -> CellAnswer:
    """The model's :class:`CellAnswer` (``invoke_structured``: per-backend JSON, bounded retries).
    Raises the :mod:`clauselens.errors` of the model call."""
    from clauselens.llm import invoke_structured

    return invoke_structured(model, messages_for(q, passages), CellAnswer, method=method, max_retries=max_retries)


def normalise(q: GridQuestion, answer: str) -> str:
    """The typed form of a short answer: ``Yes``/``No``; an ISO date when the text is one
    calendar date; otherwise the text, trimmed."""
    a = " ".join(answer.split()).strip(" .;")
    if q.type == "yes_no":
        low = a.lower()
        if low.startswith("y") or low in ("true",):
            return "Yes"
        if low.startswith("n") or low in ("false",):
            return "No"
        return a
    if q.type == "date" and ONE_DATE.fullmatch(a):
        from dateutil import parser as dparser

        try:
            return dparser.parse(re.sub(r"\bday\s+of\b", " ", a, flags=re.IGNORECASE)).date().isoformat()
        except (ValueError, OverflowError):
            return a
    return a


def _term_pattern(term: str) -> str:
    body = r"\s+".join(re.escape(w) for w in term.split())
    return (r"(?<![a-z0-9])" if term[:1].isalnum() else "") + body


def topic_terms(q: GridQuestion) -> list[str]:
    """The question's topic terms: its :attr:`GridQuestion.terms`, or, for a question written
    without them, terms derived from its words (:func:`clauselens.grid.topic.derive_terms`)."""
    return list(q.terms) if q.terms else list(derive_terms(q.question))


def topic_check(q: GridQuestion, text: str) -> list[str]:
    """The question's topic terms (:func:`topic_terms`, word prefixes) found in ``text``;
    ``[]`` means the text is not about the question's topic. A question with no terms at all
    (generic words only) passes (``["*"]``)."""
    terms = topic_terms(q)
    if not terms:
        return ["*"]
    low = text.lower()
    return [t for t in terms if re.search(_term_pattern(t), low)]


def terms_preview(q: GridQuestion, n: int = 8) -> str:
    """The question's first ``n`` topic terms, for a cell's reason."""
    terms = topic_terms(q)
    return ", ".join(terms[:n]) + (", …" if len(terms) > n else "")


def off_topic(q: GridQuestion, passages: Sequence[Passage]) -> bool:
    """True when no retrieved passage mentions the question's topic: any quote the model could
    give would fail :func:`topic_check` (a quote lies inside one passage), so the cell is "not
    found" without a model call. Always False for a question without topic terms, or whose terms are only its own bare words
    (no :func:`vocabulary_terms`)."""
    # bare words ("Is anyone the one-and-only here - tied to dealing just with the other side?": only, tie, just, nobody) are no
    # evidence that the agreement lacks the topic (a dev grid set's "No" over an exclusivity its words never name)
    return bool(topic_terms(q)) and bool(vocabulary_terms(q)) and not any(topic_check(q, p.text) for p in passages)


def vocabulary_terms(q: GridQuestion) -> list[str]:
    """The question's topic terms in the contract's wording: its written terms, or the derived terms beyond its own word stems
    (a thesaurus concept's, an everyday word's: "cover" -> "indemn", "hold harmless")."""
    own = set(topic_stems(plain_idioms(q.question)))
    return list(q.terms) if q.terms else [t for t in derive_terms(q.question) if t not in own]


def instructions(q: GridQuestion) -> list[str]:
    """The prompt's own words (system text and every type hint): an answer must not repeat them."""
    return [SYSTEM, *TYPE_HINTS.values()]


def check_answer(q: GridQuestion, answer: str, quote: str, raw: str = "") -> tuple[str, str]:
    """The answer's shown value and ``""``, or the value and the reason it is not what the
    verified ``quote`` states: echo of the prompt (checked on the model's ``raw`` answer, before
    :func:`normalise`; the shown value is then ``""``: prompt text is never shown as an answer),
    typed value not the quote's, yes/no not shown by the quote (see the module docstring). The
    checks run in turn; the first reason wins."""
    if not answer.strip():
        return answer, "the model gave no answer"
    echo = echo_issue(raw or answer, quote, instructions(q))
    if echo:
        return "", echo
    if q.type == "yes_no":
        return answer, yes_no_issue(q.question, answer, quote)
    checked = check_value(q.type, answer, quote)
    return (checked.value if not checked.reason and q.type != "date" else answer), checked.reason


def source_link(path: str, page: int | None) -> str:
    """A link into the agreement: its file URI, at the page for PDFs."""
    if not path:
        return ""
    try:
        uri = Path(path).resolve().as_uri()
    except ValueError:
        return ""
    return f"{uri}#page={page}" if page and path.lower().endswith(".pdf") else uri


def _spans(p: Passage | None) -> list[list[int]]:
    return [[s.start, s.end] for s in p.spans] if p is not None else []


def finish(base: dict[str, Any], q: GridQuestion, result: SearchResult, reply: CellAnswer | None) -> Cell:
    """The cell from the retrieval result and the model's reply (``None``: retrieval abstained).

    The quote is checked verbatim against the retrieved passages (the cited one first), as a
    whole and then sentence by sentence (:func:`clauselens.reports.verify.verify_pieces`)."""
    top = result.passages[0] if result.passages else None
    base = {**base, "top_spans": _spans(top), "passages": len(result.passages), "check": CHECK_VERSION,
            "reply": reply.model_dump() if reply is not None else None}
    from clauselens.grid.yes_no import asks_freedom

    # a yes/no question's "No" when nothing is found -- not for a freedom nothing restricts ("Can they hire our staff?")
    no = "No" if q.type == "yes_no" and not asks_freedom(q.question) else ""
    if reply is None:
        return Cell(**base, status="not found", answer=no, reason=result.reason or "no matching clause found")
    if not reply.found or not (reply.quote.strip() or reply.answer.strip()):
        on_topic = [i for i, p in enumerate(result.passages, start=1) if topic_terms(q) and topic_check(q, p.text)]
        if q.type == "yes_no" and on_topic:  # "No" only when nothing retrieved is about the topic
            return Cell(**base, status="unverified", answer="",
                        reason=f"the model found no answer, but retrieved passage(s) {', '.join(f'P{i}' for i in on_topic)} "
                               f"speak of the topic ({terms_preview(q)}); not shown as No")
        return Cell(**base, status="not found", answer=no, reason="the retrieved passages do not answer it")
    answer = normalise(q, reply.answer) or ("Yes" if q.type == "yes_no" else "")
    # prompt text is never shown as an answer, whatever else fails (issue #45)
    shown_answer = "" if reply.answer.strip() and echo_issue(reply.answer, reply.quote, instructions(q)) else answer
    # an unverified Yes / No is not shown: the small model answers "Yes" to nearly every yes/no question (issue #40), so its
    # verdict without a quote that passed the checks tells a reviewer nothing (a new user's tryout read them as answers)
    kept = "" if q.type == "yes_no" else shown_answer
    by_id = {p.chunk_id: p for p in result.passages}
    prefer = [result.passages[reply.passage - 1].chunk_id] if 1 <= reply.passage <= len(result.passages) else []
    m = verify_quote(reply.quote, by_id, prefer) if reply.quote.strip() else None
    matches = [m] if m is not None else (verify_pieces(reply.quote, by_id, prefer)[0] if reply.quote.strip() else [])
    if not matches:
        return Cell(**base, status="unverified", answer=kept, model_quote=reply.quote[:1000],
                    reason="the model's quote is not verbatim in the retrieved passages; quote withheld")
    matches = [extend_match(x, by_id[x.passage_id])[0] for x in matches]
    src = by_id[matches[0].passage_id]
    quote = " … ".join(x.text for x in matches)
    if not topic_check(q, quote):
        return Cell(**base, status="unverified", answer=kept, model_quote=" ".join(quote.split())[:1000],
                    reason="the quoted sentence does not mention the question's topic (none of: "
                           f"{terms_preview(q)}); quote withheld")
    shown, issue = check_answer(q, answer, quote, reply.answer)
    if issue:
        return Cell(**base, status="unverified", answer=(shown and answer) if q.type != "yes_no" else "", model_quote=" ".join(quote.split())[:1000],
                    reason=f"{issue}; quote withheld")
    return Cell(**base, status="answered", answer=shown, quote=" ".join(quote.split()), clause=src.clause_ref or "",
                page=src.page_start, link=source_link(src.source_path or base.get("source_path", ""), src.page_start),
                quote_spans=[[s.start, s.end] for x in matches for s in x.doc_spans])


__all__ = ["CHECK_VERSION", "CellAnswer", "DEFAULT_K", "PROMPT_VERSION", "ask_model", "check_answer", "finish", "fingerprint",
           "instructions", "messages_for", "normalise", "off_topic", "terms_preview", "retrieve", "source_link", "stored_reply",
           "topic_check", "topic_terms"]
