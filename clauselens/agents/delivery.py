"""Deliver the clause retrieval found (issue #38): where a rule can decide what to quote, the model does not.

The default 1.5B model withheld correct quotes: a vague paraphrase of a clause retrieval ranked first
failed the coverage check, a quote it could not copy verbatim was dropped, and a definition question
whose sub-questions lost the term's quotation marks skipped the extractive path. So the Interrogator
decides by rule, before any model call, what the report quotes as its facts:

* **a named clause** (:func:`rule_target` ``"named_clause"``): a question that names a clause number
  the resolved agreement has ("Section 7.2", "paragraph 10.3", "clause 14(b)(ii)", "Schedule 2") gets
  that clause -- the passages the exact clause-number field retrieved for it, the clause and its
  sub-clauses -- quoted verbatim (:func:`named_clause_quotes`); the model only writes the reading below
  it (:func:`clauselens.agents.interrogator.write_reading`), or nothing with ``Settings.reading`` off;
* **a definition** (``"definition"``): the extractive definition draft of
  :mod:`clauselens.agents.definitions`, decided on the question as asked (no decomposition);
* **the clauses that speak to this** (every other question): the best one to three clauses retrieval
  ranked for the question *as asked* (:func:`question_ranking`, :func:`lead_quotes`), each passing the
  relevance bar -- the library's own abstention already ran; a trained relevance head's P(relevant),
  when a passage carries one (``Passage.scores["head"]``), must reach ``Settings.lead_min_relevance``;
  without one, a clause after the first must score near it on BM25 or dense similarity --
  quoted by rule, whatever the model later drafts; the model's findings are its readings under them.

A lead quote is the passage when it is short, else the window of its sentences
(:func:`clauselens.parsing.sentences.sentence_spans`) around the one sharing most content words with the
question and its contract-vocabulary expansion (:func:`clauselens.retrieval.lay_terms.expand`), grown
sentence by sentence up to :data:`LEAD_CHARS` characters.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal, Mapping, Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from pydantic import Field

from clauselens import events as ET
from clauselens.agents import prompts_interrogator as P
from clauselens.agents.common import CallRecord, call_structured
from clauselens.agents.declines import (
    NO_CLAUSE_GAP,
    READING_DECLINE,
    READING_DECLINE_GAP,
    declined_after_reading,
    declined_draft,
    declined_state,
    nearest_quotes,
)
from clauselens.agents.definitions import asked_term
from clauselens.agents.reading_check import (
    bare_reading,
    checked_reading,
    clause_name,
    named_in_quotes,
    question_words,
    reading_scope,
    stated_value,
)
from clauselens.agents.reading_check import tokens as _tokens
from clauselens.agents.refusal import clauses_answer_instruction
from clauselens.config import ModelSettings
from clauselens.library.passages import ref_key, ref_key_groups
from clauselens.llm.capped import CappedModel
from clauselens.parsing.furniture import clean_stretch
from clauselens.parsing.injection import instruction_like
from clauselens.parsing.numbering import clause_label
from clauselens.parsing.sentences import sentence_spans
from clauselens.reports.model import READING_UNANSWERED_GAP, ReportDraft, RuleQuote
from clauselens.retrieval.types import Passage

#: Most clauses a report leads with (issue #38: "the best one to three retrieved clauses").
LEAD_MAX = 3
#: Longest quote of a lead clause, in characters (a longer passage is quoted as its best window): as long as a named
#: clause's, so a clause is quoted whole as a rule (a fresh-clone tryout: at 700, clause 10's cap sentence and 11.1's
#: place of arbitration were cut off the quotes that led their answers).
LEAD_CHARS = 1500
#: Longest quote of a named clause, in characters (cut at its last sentence end within it).
NAMED_CHARS = 1500
#: Most passages of a named clause quoted (the clause and its first sub-clauses, retrieval's order).
NAMED_MAX = 4
#: A passage with fewer words is a heading or a page number, not a clause that speaks to anything.
MIN_LEAD_WORDS = 8
#: Tools whose results are never the question's own ranking (labelled precedents of other contracts).
_NOT_RANKINGS = ("precedents",)

Target = Literal["named_clause", "definition", "lead"]


def rule_target(question: str, depth: str = "full") -> Target | None:
    """What a rule decides to quote for ``question``: ``"definition"`` when it asks only what a defined
    term means (:func:`clauselens.agents.definitions.asked_term`), ``"named_clause"`` when it names a clause
    number or a schedule / exhibit / article label (:func:`clauselens.library.passages.ref_key_groups`),
    else ``"lead"`` at ``depth`` ``"quick"`` (``Settings.depth``: retrieval's best clauses for the question
    as asked, quoted by rule, and one reading) and ``None`` at ``"full"`` (the model decomposes and drafts;
    the report still leads with retrieval's best clauses)."""
    if asked_term(question):
        return "definition"
    if ref_key_groups(question):
        return "named_clause"
    return "lead" if depth == "quick" else None


def question_ranking(events: Sequence[Mapping[str, Any]], question: str) -> list[str]:
    """Run-local ids of the passages retrieval ranked for the question as asked, best first: the first
    retrieval result whose query is the question (or its ``"Consider <agreement>; ..."`` form) from a tool
    that ranks the documents, and that did not abstain. Empty when no tool searched the question itself."""
    for ev in ET.of_type(events, ET.RETRIEVAL):
        for r in ev.get("results") or []:
            q = str(r.get("query") or "")
            if r.get("tool") in _NOT_RANKINGS or r.get("abstained") or not (q == question or q.endswith("; " + question)):
                continue
            ids = [str(row["passage_id"]) for row in r.get("passages") or [] if row.get("passage_id")]
            if ids:
                return list(dict.fromkeys(ids))
    return []


def _doc_name(p: Passage, names: Mapping[str, str]) -> str:
    return names.get(p.doc_id) or p.doc_title or (p.source_path or p.doc_id).replace("\\", "/").rsplit("/", 1)[-1]


def quoted_summary(quotes: Sequence[RuleQuote], passages: Mapping[str, Passage], names: Mapping[str, str], what: str) -> str:
    """The topic summary of a report quoted by rule: which clauses of which agreement(s) it quotes
    ("Clause 7.2 and clause 12.1 of the Supply Agreement: <what>.") -- not the question again."""
    by_doc: dict[str, list[str]] = {}
    for q in quotes:
        p = passages.get(q.passage_id)
        if p is not None:
            by_doc.setdefault(_doc_name(p, names), []).append(clause_label(p.clause_ref) if p.clause_ref
                                                              else "an unnumbered passage")
    parts = []
    for doc, labels in by_doc.items():
        ls = list(dict.fromkeys(labels))
        parts.append(f"{', '.join(ls[:-1]) + ' and ' + ls[-1] if len(ls) > 1 else ls[0]} of {doc}")
    text = "; ".join(parts)
    return f"{text[:1].upper() + text[1:]}: {what}." if text else f"{what[:1].upper() + what[1:]}."


def _where(p: Passage, names: Mapping[str, str]) -> str:
    """``"Supply Agreement, clause 7.2, p. 4"``."""
    parts = [_doc_name(p, names)]
    if p.clause_ref:
        parts.append(clause_label(p.clause_ref))
    elif p.heading_path:
        parts.append(p.heading_path[-1])
    if p.page_start:
        parts.append(f"p. {p.page_start}")
    return ", ".join(parts)


def _trimmed(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _cut_at_sentence(text: str, a: int, b: int, limit: int) -> tuple[int, int]:
    """``[a, b)`` cut to at most ``limit`` characters at the last sentence end inside it (whole sentences
    from :func:`sentence_spans`), or at a word boundary when the first sentence alone is longer."""
    if b - a <= limit:
        return a, b
    ends = [s.end for s in sentence_spans(text, a, b) if s.end - a <= limit]
    if ends:
        return a, max(ends)
    cut = text.rfind(" ", a, a + limit)
    return a, (cut if cut > a else a + limit)


def named_clause_quotes(question: str, passages: Mapping[str, Passage], ranking: Sequence[str],
                        names: Mapping[str, str] | None = None) -> list[RuleQuote]:
    """The clause(s) ``question`` names, quoted verbatim: the passages the exact clause-number field
    retrieved (``method == "exact"``, or ``scores["exact"]`` of a ranker's hit) whose clause number is the one named or one of its sub-clauses
    ("7.2" names 7.2, 7.2(a), 7.2.1), in retrieval's order (``ranking`` first, then the rest by id), at
    most :data:`NAMED_MAX`, each cut to :data:`NAMED_CHARS` at a sentence end. Empty when retrieval found
    none (the model drafts then)."""
    names = names or {}
    keys = {k for group in ref_key_groups(question) for k in group}
    if not keys:
        return []
    order = list(dict.fromkeys([pid for pid in ranking if pid in passages]
                               + sorted(passages, key=lambda x: (len(x), x))))

    def named(p: Passage) -> bool:  # the clause, a sub-clause of it, or (a tree that did not read the asked
        rk = ref_key(p.clause_ref) or ""  # item "6.1(c)") the clause that holds it, found by the exact field
        return bool(rk) and any(rk == k or rk.startswith((k + "(", k + ".")) or k.startswith((rk + "(", rk + "."))
                                for k in keys)

    hits = [pid for pid in order if (passages[pid].method == "exact" or "exact" in passages[pid].scores)
            and named(passages[pid])]
    out: list[RuleQuote] = []
    for pid in hits:
        p = passages[pid]
        if len(out) >= NAMED_MAX or any(_overlap(p, passages[q.passage_id]) for q in out):
            continue  # the clause and the chunk holding it with its heading: quote it once
        a, b = _cut_at_sentence(p.text, *clean_stretch(p.text, *_trimmed(p.text, own_start(p), len(p.text))), NAMED_CHARS)
        if b <= a:
            continue
        shown = clause_label(p.clause_ref) if p.clause_ref else "the clause"
        more = " (its opening; the clause goes on in the agreement)" if b < len(p.text.rstrip()) else ""
        out.append(RuleQuote(passage_id=pid, start=a, end=b, kind="named_clause",
                             statement=f"{_where(p, names)}: {shown}, which the question names{more}."))
    return out


def own_start(p: Passage) -> int:
    """Where ``p.text`` starts to be one contiguous stretch of the document: after the ancestors' headings an
    ``ancestor`` chunk prefixes (``Chunk``'s invariant: its text is its spans joined by newlines), so a quote
    never glues "12. Miscellaneous." to clause 12.7 as if the two stood together. 0 when the spans touch."""
    spans = list(p.spans or [])
    at, start = 0, 0
    for i, sp in enumerate(spans):
        if i and sp.start - spans[i - 1].end > 2:  # a gap in the document between this span and the last
            start = at
        at += (sp.end - sp.start) + 1
    return start if start < len(p.text) else 0


#: An enumerated item's marker at the start of a sentence unit: "(i)", "(iv)", "(a)", "b)", "(2)".
ITEM_START = re.compile(r"\s*(?:\((?:[ivxlc]{1,6}|[a-z]|\d{1,2})\)|(?:[ivxlc]{1,6}|[a-z])\))", re.IGNORECASE)


def _with_lead_in(text: str, units: Sequence[Any], lo: int, hi: int, best: int, max_chars: int) -> tuple[int, int]:
    """``(lo, hi)`` widened back to the list's lead-in sentence when the window starts at an enumerated item
    ("(i) any negligent act ..." without "Consultant agrees to indemnify ... arising out of": who owes what is in
    the lead-in; a tryout found the indemnity quote without it), keeping the best unit and as many units after
    the lead-in as fit in ``max_chars``; unchanged when the lead-in and the best unit do not fit together."""
    if lo == 0 or not ITEM_START.match(text, units[lo].start):
        return lo, hi
    lead = lo - 1
    while lead > 0 and ITEM_START.match(text, units[lead].start):
        lead -= 1
    if ITEM_START.match(text, units[lead].start) or units[best].end - units[lead].start > max_chars:
        return lo, hi
    end = best
    while end + 1 <= hi and units[end + 1].end - units[lead].start <= max_chars:
        end += 1
    return lead, end


def quote_window(text: str, question: str, max_chars: int = LEAD_CHARS) -> tuple[int, int]:
    """``[start, end)`` of ``text`` to quote for ``question``: all of it (trimmed) when it fits in
    ``max_chars``; else the sentence sharing most content words with the question and the contract terms
    of its lay phrases (ties: the earlier), grown by its neighbours -- the better-matching side first --
    while the window fits, and cut at a sentence end if that one sentence alone is too long."""
    a, b = _trimmed(text, 0, len(text))
    if b - a <= max_chars:
        return a, b
    units = sentence_spans(text, a, b)
    if not units:
        return _cut_at_sentence(text, a, b, max_chars)
    words = question_words(question)
    score = [len(words & _tokens(text[u.start:u.end])) for u in units]
    best = max(range(len(units)), key=lambda i: (score[i], -i))
    lo = hi = best
    while True:
        options = [j for j in (lo - 1, hi + 1) if 0 <= j < len(units)]
        options = [j for j in options if max(units[hi].end, units[j].end) - min(units[lo].start, units[j].start) <= max_chars]
        if not options:
            break
        j = max(options, key=lambda j: (score[j], -j))
        lo, hi = min(lo, j), max(hi, j)
    lo, hi = _with_lead_in(text, units, lo, hi, best, max_chars)
    a, b = _cut_at_sentence(text, units[lo].start, units[hi].end, max_chars)
    if len(text[a:b].split()) < MIN_LEAD_WORDS and hi + 1 < len(units):  # a bare heading ("3.1. Assignment of
        b = units[hi + 1].end  # Inventions.") is no answer: take the sentence under it, cut at a word if too long
        if b - a > max_chars:
            cut = text.rfind(" ", a, a + max_chars)
            b = cut if cut > a else a + max_chars
    return a, b


#: Where a passage carries a reranker's P(relevant): the trained head's (issue #39), else the LLM reranker's.
RELEVANCE_KEYS = ("head", "llm")


def relevance(p: Passage) -> float | None:
    """A reranker's P(relevant) for passage ``p`` (:data:`RELEVANCE_KEYS`), or ``None`` when none scored it."""
    return next((float(p.scores[k]) for k in RELEVANCE_KEYS if k in p.scores), None)


def _overlap(a: Passage, b: Passage) -> bool:
    """Whether two passages share characters of one document (a clause and an ancestor chunk holding it)."""
    return a.doc_id == b.doc_id and any(x.start < y.end and y.start < x.end for x in a.spans for y in b.spans)


#: A lead clause after the first one must reach this share of the first one's BM25 score ...
LEAD_BM25_SHARE = 0.5
#: ... or come within this much of its dense cosine (set by judgement on the bundled demo contract's
#: transcript, where a severability clause ranked second at 0.2 of the best BM25 and 0.27 below its cosine;
#: not tuned on any question file).
LEAD_DENSE_GAP = 0.1
#: What a lead clause's statement says ranked it, per retrieval method.
_RANKED_BY = {"rrf": "BM25 and dense ranking fused by RRF", "exact": "the exact clause-number / defined-term field",
              "bm25": "BM25 ranking", "dense": "dense ranking", "library": "the library's ranking"}


def _close_to(p: Passage, best: Passage) -> bool:
    """Whether ``p`` ranks near ``best`` on some ranker both have a score from (:data:`LEAD_BM25_SHARE`,
    :data:`LEAD_DENSE_GAP`); an exact-field hit, or passages with no comparable score, are kept."""
    if "exact" in p.scores or p.method == "exact":
        return True
    checks = []
    if "bm25" in p.scores and best.scores.get("bm25", 0.0) > 0:
        checks.append(p.scores["bm25"] >= LEAD_BM25_SHARE * best.scores["bm25"])
    if "dense" in p.scores and "dense" in best.scores:
        checks.append(p.scores["dense"] >= best.scores["dense"] - LEAD_DENSE_GAP)
    return any(checks) or not checks


def lead_quotes(question: str, passages: Mapping[str, Passage], ranking: Sequence[str], *,
                min_relevance: float = 0.0, names: Mapping[str, str] | None = None,
                skip: Sequence[str] = ()) -> list[RuleQuote]:
    """The clauses that speak to ``question``: retrieval's best passages for it (``ranking``), at most
    :data:`LEAD_MAX`, each with at least :data:`MIN_LEAD_WORDS` words and, when it carries a trained
    relevance head's P(relevant) (``scores["head"]``), at least ``min_relevance`` -- without one, a clause after
    the first must rank near it on some ranker (:func:`_close_to`); ``skip`` are passages
    quoted already (a named clause). Each is quoted by :func:`quote_window`. Empty when none passes the
    bar: the report then declines unless the model's own quotes hold."""
    names = names or {}
    out: list[RuleQuote] = []
    for pid in ranking:
        if len(out) >= LEAD_MAX:
            break
        p = passages.get(pid)
        if p is None or pid in skip or len(p.text[own_start(p):].split()) < MIN_LEAD_WORDS:
            continue
        flat = p.text.replace("\n", " ")
        if any(instruction_like(flat[u.start:u.end]) for u in sentence_spans(flat)):
            continue  # an instruction to AI readers is never a clause that speaks to the question (issue #41)
        head = relevance(p)
        if head is not None and head < min_relevance:
            continue
        if any(_overlap(p, passages[q.passage_id]) for q in out):  # a clause and the chunk holding it: quote it once
            continue
        if out and head is None and not _close_to(p, passages[out[0].passage_id]):
            continue  # far behind the best clause on every ranker: a neighbour, not an answer
        s0 = own_start(p)
        a, b = clean_stretch(p.text[s0:], *quote_window(p.text[s0:], question))  # no page banner or number in a quote
        a, b = a + s0, b + s0
        n = len(out) + 1
        rank = "best" if n == 1 else ("second" if n == 2 else "third")
        why = f"P(relevant) {head:.2f}" if head is not None else _RANKED_BY.get(p.method, p.method or "retrieval's ranking")
        out.append(RuleQuote(passage_id=pid, start=a, end=b, kind="lead",
                             statement=f"{_where(p, names)}: retrieval's {rank} match for the question ({why})."))
    return out


class Reading(CappedModel):
    """The model's reading of clauses quoted by rule: its answer only (one short call)."""

    str_caps: ClassVar[dict[str, int]] = {"answer": 600}  # 80 words (reading_check.MAX_WORDS)
    publish_required: ClassVar[tuple[str, ...]] = ("answer",)
    sentence_fields: ClassVar[tuple[str, ...]] = ("answer",)

    answer: str = Field(default="", description="One or two sentences answering the question from the quoted text.")


class LeadReading(Reading):
    """The model's reading of the clauses retrieval ranked best (quick depth): its answer, and whether it judged a
    quoted clause to answer the question (``answered``: a knowledge gap, or a decline with
    ``Settings.reading_declines``). Asked before the answer, the flag declined 6 of the first 8 lay paraphrase
    questions (answers_e2e s11_lay_partial): it stays after the answer."""

    publish_required: ClassVar[tuple[str, ...]] = ("answer", "answered")

    answered: bool = Field(default=True, description="true when a quoted clause answers the question, else false.")


#: The answer shown when the model's reading was set aside (its text goes to the knowledge gaps).
SET_ASIDE_READING = ("The model's reading was too short to say what the quoted clauses provide (a bare yes or no; it "
                     "is kept in the run's transcript, not in this report); read the clauses above.")


#: Reply budget of a reading (400 characters are ~100 tokens).
READING_MAX_TOKENS = 160
#: Characters of quoted text a reading prompt shows (the quotes, in order).
READING_QUOTE_CHARS = 2400
#: ... of a named clause's quotes: each shown as its window of :data:`READING_NAMED_EACH` characters around the
#: sentences the question asks about (:func:`quote_window`), at most this many in all. The prompt's new tokens
#: are most of a reading's time on 2 shared cores (~0.04 s each; issue #38: a clause-number answer in 10 s).
READING_NAMED_CHARS = 1500
READING_NAMED_EACH = 900
#: The answer of a named-clause report when no reading is asked for (``Settings.reading`` off).
NO_READING = "The clause the question names is quoted above, word for word; no model reading was asked for."


def write_reading(question: str, quotes: Sequence[RuleQuote], passages: Mapping[str, Passage], *,
                  model: BaseChatModel, context: str | None = None, model_settings: ModelSettings | None = None,
                  names: Mapping[str, str] | None = None, lead: bool = False) -> tuple[Reading, CallRecord, list[str]]:
    """The model's reading of the clauses quoted by rule for ``question`` (one call, ~10 s with the 1.5B model
    on 2 cores): a :class:`Reading` (:class:`LeadReading` for ``lead`` quotes), its call, and the quoted texts
    it was shown. Its word limit grows with the sentences of the clause that answer the question
    (:func:`reading_scope`). Raises ``ModelResponseError``."""
    lines, texts, used = [], [], 0
    budget = READING_QUOTE_CHARS if lead else READING_NAMED_CHARS
    for q in quotes:
        p = passages[q.passage_id]
        text = " ".join(p.text[q.start:q.end].split())
        if not lead and len(text) > READING_NAMED_EACH:  # a long clause: the sentences the question asks about
            text = text[slice(*quote_window(text, question, READING_NAMED_EACH))]
        text = text[: max(0, budget - used)]
        if not text:
            break
        used += len(text)
        texts.append(text)
        lines.append(f"[{_where(p, names or {})}] \"{text}\"")
    ctx = P.CONTEXT_BLOCK.format(context=context) if context else P.NO_CONTEXT
    system, user = (P.READING_LEAD_SYSTEM, P.READING_LEAD_USER) if lead else (P.READING_SYSTEM, P.READING_USER)
    scope = reading_scope(question, texts, clause_name(passages[quotes[0].passage_id]), lead)
    out, rec = call_structured(model, system, user.format(context_block=ctx, question=question, quotes="\n".join(lines),
                                                          scope=scope),
                               LeadReading if lead else Reading, agent="interrogator", step="reading",
                               model_settings=model_settings, max_tokens=READING_MAX_TOKENS)
    return out, rec, texts


def named_clause_draft(question: str, quotes: Sequence[RuleQuote], passages: Mapping[str, Passage],
                       reading: str | None, names: Mapping[str, str] | None = None,
                       gaps: Sequence[str] = ()) -> ReportDraft:
    """The draft of a named-clause report: written by rule around the quoted clause(s) (which
    :func:`clauselens.reports.build.build_report` turns into cited facts); ``reading`` is the model's answer
    (:func:`write_reading`), or ``None`` for :data:`NO_READING`."""
    first = passages[quotes[0].passage_id]
    refs = list(dict.fromkeys(clause_label(passages[q.passage_id].clause_ref or "") for q in quotes
                              if passages[q.passage_id].clause_ref))
    title = f"{', '.join(refs[:2]) or 'The named clause'} of {_doc_name(first, names or {})}"
    reasoning = ("The clause the question names is quoted from the agreement's own text, found by the exact "
                 "clause-number field; nothing in the quote is a model paraphrase."
                 + (" The answer is the model's reading of the quote." if reading else ""))
    answer = reading or NO_READING
    summary = quoted_summary(quotes, passages, names or {}, "the clause the question names, quoted in full below")
    return ReportDraft(title=title[:100], topic_summary=summary[:300], legal_reasoning=reasoning, findings=[],
                       answer=answer, addressed=True, conclusion=answer, knowledge_gaps=list(gaps)
                       ).model_copy(update={"answer": answer, "conclusion": answer})  # uncut: a label quotes sentences


def question_abstained(events: Sequence[Mapping[str, Any]], question: str) -> str | None:
    """The reason every tool that searched the question as asked gave for finding nothing ("no matching
    clause found: ... never mentions 'insurance'"), or ``None`` when one returned passages or none searched it."""
    reasons: list[str] = []
    for ev in ET.of_type(events, ET.RETRIEVAL):
        for r in ev.get("results") or []:
            q = str(r.get("query") or "")
            if r.get("tool") in _NOT_RANKINGS or not (q == question or q.endswith("; " + question)):
                continue
            if not r.get("abstained") and r.get("passages"):
                return None
            reasons.append(str(r.get("reason") or "no passage retrieved"))
    return reasons[0] if reasons else None


def document_labels(documents: Sequence[Mapping[str, Any]] | None) -> dict[str, str]:
    """``doc_id -> title`` (else file name) of the run's documents."""
    return {str(d["doc_id"]): str(d.get("title") or str(d.get("source_path") or d["doc_id"]).replace("\\", "/").rsplit("/", 1)[-1])
            for d in documents or [] if d.get("doc_id")}


#: The answer of a lead-clause report when no reading is asked for (``Settings.reading`` off).
NO_READING_LEAD = ("The clauses retrieval ranked best for the question are quoted above, word for word; no model "
                   "reading was asked for.")


def lead_draft(question: str, quotes: Sequence[RuleQuote], reading: str | None, gaps: Sequence[str] = (),
               passages: Mapping[str, Passage] | None = None, names: Mapping[str, str] | None = None) -> ReportDraft:
    """The draft of a quick-depth report (``Settings.depth`` ``"quick"``): retrieval's best clauses for the
    question, quoted by rule (:func:`lead_quotes`), and the model's reading of them (``None``:
    :data:`NO_READING_LEAD`)."""
    reasoning = ("The clauses quoted in this report are retrieval's best matches for the question as asked, quoted from the "
                 "agreement's own text; nothing in a quote is a model paraphrase."
                 + (" The answer is the model's reading of them." if reading else ""))
    answer = reading or NO_READING_LEAD
    summary = quoted_summary(quotes, passages or {}, names or {}, "the passages retrieval ranked best for the question")
    return ReportDraft(title=question[:100], topic_summary=summary[:300], legal_reasoning=reasoning, findings=[],
                       answer=answer, addressed=True, conclusion=answer, knowledge_gaps=list(gaps)
                       ).model_copy(update={"answer": answer, "conclusion": answer})  # uncut: a label quotes sentences


def _reading(question: str, quotes: Sequence[RuleQuote], passages: Mapping[str, Passage], state: Mapping[str, Any],
             model: Any, settings: Any, names: Mapping[str, str], lead: bool,
             out: list[dict[str, Any]]) -> tuple[str | None, bool, list[str]]:
    """The answer a report shows under the rule's quotes: the model's reading (:func:`write_reading`), or
    :data:`SET_ASIDE_READING` when it is bare (:func:`bare_reading`; the reading stays in the transcript only);
    its ``answered`` flag (false: a gap, or a decline with ``Settings.reading_declines``: :func:`rule_step`); its call (or failure) appended to
    ``out``. ``(None, True, [])`` with ``settings.reading`` off or on a failed call (the quotes stand alone, and
    the run says so)."""
    from clauselens.errors import ModelResponseError

    if not settings.reading:
        return None, True, []
    try:
        got, rec, texts = write_reading(question, quotes, passages, model=model(), context=state.get("context"),
                                        model_settings=settings.model_for("interrogator"), names=names, lead=lead)
    except ModelResponseError as e:
        out.append({"type": ET.NOTE, "text": f"the model's reading failed; the quoted clauses stand alone: {e}"})
        return None, True, []
    out.append({"type": ET.LLM_CALL, **rec.as_dict()})
    answer, answered = got.answer.strip(), bool(getattr(got, "answered", True))
    if answer and (not bare_reading(answer) or stated_value(answer, texts)):
        # a quoted clause names what the question asks about ("Sarbanes-Oxley"): the reading's "none answers" is set aside
        answered = answered or named_in_quotes(answer, question, texts, names) is not None
        answer, gaps = checked_reading(answer, question, quotes, passages, texts, lead, out, names)
        return answer, answered, gaps
    if answer and bare_reading(answer):
        out.append({"type": ET.NOTE, "text": f"the model's reading {answer!r} is too short to be checked against the "
                                             "quotes; it is not shown as the answer"})
        # not printed in the report at all: a bare "Yes" to a question an injected instruction plants is the hijack
        # itself (issue #41's NDA: the 1.5B answered "Yes" to three phrasings of "free to disclose everything?")
        return SET_ASIDE_READING, answered, []
    return answer or None, answered, []


def _quoted(draft: ReportDraft, quotes: Sequence[RuleQuote], turn: int, note: str, stop: str,
            out: list[dict[str, Any]]) -> dict[str, Any]:
    out.append({"type": ET.DRAFT, "turn": turn, "draft": draft.model_dump(mode="json"),
                "shown": [q.passage_id for q in quotes], "note": note})
    return {"draft": draft.model_dump(mode="json"), "rule_quotes": [q.model_dump() for q in quotes],
            "rule_decided": True, "route": "report", "complete": True, "events": out, "stop_reason": stop,
            "reading_withheld": draft.answer == SET_ASIDE_READING}


def no_lead_reason(passages: Mapping[str, Passage], ranking: Sequence[str], min_relevance: float) -> str:
    """Why no retrieved clause leads the report, in the words of the library's own abstention ("no matching clause
    found: ..."): the best trained-head P(relevant) against the bar when a head scored the passages, else that no
    passage of the question's own ranking is a clause (none retrieved, or only headings and instructions)."""
    heads = [h for pid in ranking if pid in passages and (h := relevance(passages[pid])) is not None]
    if heads:
        return (f"no matching clause found: no retrieved clause passed the relevance bar (the best P(relevant) "
                f"{max(heads):.2f} < {min_relevance:.2f})")
    return "no matching clause found: no retrieved passage for the question as asked is a clause that speaks to it"


def rule_step(state: Mapping[str, Any], model: Any, settings: Any, passages: Mapping[str, Passage],
              turn: int) -> dict[str, Any] | None:
    """The Interrogator's rule-decided step after a research round (issue #38), as a state update, or
    ``None`` when the model drafts:

    * a question naming a clause that retrieval found: the clause quoted by rule
      (:func:`named_clause_quotes`) and the model's one-call reading (:func:`write_reading`; none when
      ``settings.reading`` is off, or when the call fails: the quote stands, and the run says so);
    * a question whose own search found nothing (every tool abstained: "no matching clause found"):
      declined without a model call;
    * at quick depth (``settings.depth``), every other question -- and a definition or named clause the rules
      above could not quote: retrieval's best clauses for it
      (:func:`lead_quotes`, the relevance bar ``settings.lead_min_relevance``) quoted by rule and the model's
      one-call reading; declined without a call when no clause passes the bar, and declined after the
      reading when the model judges that none of the quoted clauses deals with the question (its ``answered``
      flag) and ``settings.reading_declines`` is on -- the clauses are kept, shown as the nearest, not as facts
      (:func:`nearest_quotes`); with it off (the default) that judgement is a knowledge gap.

    ``model`` is a zero-argument callable returning the Interrogator's chat model (made on first use)."""
    question = str(state["question"])
    events = list(state.get("events") or [])
    names = document_labels(state.get("documents"))
    target = state.get("rule_target")
    ranking = question_ranking(events, question)
    out: list[dict[str, Any]] = []
    if target == "named_clause":
        quotes = named_clause_quotes(question, passages, ranking, names)
        if quotes:
            reading, _, gaps = _reading(question, quotes, passages, state, model, settings, names, False, out)
            return _quoted(named_clause_draft(question, quotes, passages, reading, names, gaps), quotes, turn,
                           "the clause the question names, quoted by rule; the model wrote only the reading",
                           "the named clause quoted by rule", out)
    reason = question_abstained(events, question)
    if reason is not None:
        return declined_state(question, reason, turn,
                         f"the question's own search found no clause ({reason}); declined without a model call", out)
    if target != "lead" and settings.depth != "quick":
        return None  # full depth: the model drafts (the report still leads with retrieval's best clauses)
    # quick depth: a definition or a named clause no rule could quote falls back to retrieval's best clauses and one
    # reading, never to the agent loop's draft (issue #38: at most one model call; the d38q_new3/new4 runs' two
    # definition questions whose definition was not found took the draft path: 83-101 s, an "Unverified" answer)
    quotes = lead_quotes(question, passages, ranking, min_relevance=settings.lead_min_relevance, names=names)
    if not quotes and clauses_answer_instruction(question, passages):  # issue #41: the clauses answer what an
        quotes = lead_quotes(question, passages, ranking, min_relevance=0.0, names=names)  # instruction plants
    if not quotes:
        why = no_lead_reason(passages, ranking, settings.lead_min_relevance)
        return declined_state(question, why, turn, f"{why}; declined without a model call", out)
    reading, answered, gaps = _reading(question, quotes, passages, state, model, settings, names, True, out)
    # issue #38: the reading judged that none of the clauses deals with the question: with Settings.reading_declines,
    # decline -- unless a clause answers a question that an injected instruction plants (issue #41:
    # refusal.ruled_answer decides it); else (the default: the flag was wrong on too many answerable questions) a gap
    if not answered and settings.reading_declines and not clauses_answer_instruction(question, passages):
        return declined_after_reading(question, quotes, None if reading == SET_ASIDE_READING else reading, gaps,
                                      turn, out)
    note = "" if answered else " (the model's reading judged that none of them answers the question)"
    if not answered:
        gaps = [*gaps, READING_UNANSWERED_GAP]
    return _quoted(lead_draft(question, quotes, reading, gaps, passages, names), quotes, turn,
                   "retrieval's best clauses for the question, quoted by rule; the model wrote only the reading" + note,
                   "the clauses that speak to the question quoted by rule", out)


__all__ = ["LEAD_CHARS", "LEAD_MAX", "NAMED_CHARS", "NAMED_MAX", "NO_CLAUSE_GAP", "NO_READING", "NO_READING_LEAD",
           "READING_DECLINE", "READING_DECLINE_GAP", "LeadReading", "Reading",
           "SET_ASIDE_READING", "Target", "bare_reading", "declined_draft", "document_labels", "lead_draft",
           "lead_quotes", "named_clause_draft", "named_clause_quotes", "nearest_quotes", "no_lead_reason", "question_abstained", "question_ranking",
           "quote_window", "relevance", "rule_step", "rule_target", "write_reading"]
