"""Turn a model's :class:`ReportDraft` into a grounded :class:`Report`.

Every finding's quote is verified with :func:`clauselens.reports.verify.verify_quote`; a
quote that is not verbatim as a whole is checked sentence by sentence
(:func:`~clauselens.reports.verify.verify_pieces`) and its verbatim sentences are kept; a
finding none of whose quote is verbatim (small models copy a passage header or id instead of
the text) cites the sentence of a passage it names that says most of its claim, if one does
(:func:`~clauselens.reports.verify.select_quote`; the citation is marked ``selected`` and the model's quote is still
listed as removed). Verified quotes become :class:`Citation` s with exact document spans, the others are recorded in
``dropped_quotes`` and listed under ``knowledge_gaps``. A verified quote is widened
to whole words and its enclosing clause (:func:`~clauselens.reports.verify.extend_match`), and
each finding's claim is checked against its quoted text by the deterministic rules of
:func:`clauselens.reports.support.check_statement` (negation, party role -- with the cited
documents' party names and defined aliases --, notice period, numbers, absence, clause topic,
document): a finding that fails is ``contradicted`` / ``unrelated`` and never shown as a cited
fact. The answer is checked the same way against the quotes of the findings that pass (``answer_support``; a failed
answer is marked unverified and the model's answer check is not asked). :func:`finalize_support` then sets the report's verification
status, lists every unsupported or unverified claim and (with several documents) every
document no cited fact comes from under ``knowledge_gaps``; it is re-run after the model's support verdicts. Passage ids
a finding names that were never retrieved are removed. When nothing was retrieved, or the model says
nothing addresses the question and no quote could be verified, the report is marked ``documents_silent`` and says so
plainly (a declined report's nearest clauses, ``rule == "nearest"``, are shown as not answering). Pure function.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from clauselens.reports.candidates import named_candidates
from clauselens.reports.model import (
    READING_UNANSWERED_GAP,
    RULE_QUOTED_PREFIX,
    SILENT_ANSWER,
    Citation,
    DraftFinding,
    DroppedQuote,
    Finding,
    LabelBasis,
    Report,
    ReportDraft,
    RuleQuote,
    SupportStatus,
)
from clauselens.reports.support import (
    ISSUE_STATUS,
    check_claim,
    check_heading,
    check_prose,
    check_statement,
    quote_clause_ref,
)
from clauselens.reports.verify import (
    MIN_PIECE_WORDS,
    QuoteMatch,
    clean_model_quote,
    extend_match,
    passage_offsets_to_doc_spans,
    select_quote,
    verify_pieces,
    verify_quote,
)
from clauselens.retrieval.types import Passage

#: Reason of a dropped piece of a partly verified quote that is too short to cite alone: a clause number
#: or heading the model glued to its quote ("7.", "Term and Termination."). Recorded in
#: ``dropped_quotes`` (the audit trail) but not listed under knowledge gaps (fresh-clone reader: noise).
SHORT_PIECE = "part of a longer quote; too short to cite on its own"
#: Shown when the model's draft has no answer, conclusion or finding (never an empty answer).
NO_ANSWER = "The model did not state an answer; read the cited passages and knowledge gaps."


def _dedup(items: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for it in items:
        key = " ".join(it.split()).lower()
        if key and key not in seen:
            seen.add(key)
            out.append(it.strip())
    return out


def _parties(documents: Sequence[Mapping[str, Any]] | None, doc_ids: set[str]) -> dict[str, list[str]]:
    """The parties of the cited documents for the party check: each name of their summaries'
    ``parties`` with its defined aliases (``party_aliases``, read from the preamble by the parser;
    none in a summary or library record written before aliases were read). With several documents
    a name must name a party of the cited ones."""
    out: dict[str, list[str]] = {}
    for d in documents or []:
        if d.get("doc_id") not in doc_ids:
            continue
        aliases = d.get("party_aliases") or {}
        for p in d.get("parties") or []:
            known = out.setdefault(str(p), [])
            known += [str(a) for a in aliases.get(p) or [] if str(a) not in known]
    return out


def _without_contradicted(text: str, quoted: str, parties: Any, part: str) -> tuple[str, list[str]]:
    """``text`` without its sentences that ``quoted`` contradicts (:func:`~clauselens.reports.support.check_prose`),
    and a knowledge-gap line for each one taken out."""
    kept, gaps = [], []
    for sentence in _SENTENCE.split(text):
        if sentence and (issue := check_prose(sentence, quoted, parties)) is not None:
            gaps.append(f"{GAP_PROSE} (taken out of the {part}; {issue.kind} mismatch: {issue.detail}): {sentence}")
        elif sentence:
            kept.append(sentence)
    return " ".join(kept), gaps


def _model_finding(f: DraftFinding, passages: Mapping[str, Passage], citations: list[Citation], dropped: list[DroppedQuote],
                   by_span: dict[tuple, str], *, question: str, documents: Sequence[Mapping[str, Any]] | None) -> Finding | None:
    """One of the model's findings with its quote verified (a verbatim match, else its verbatim
    pieces, else the cited passage's sentence that says most of its claim), the citations it adds to
    ``citations`` (one per quoted span, shared through ``by_span``) and the quotes it loses to
    ``dropped``; its statement checked against its quotes (:func:`check_statement`). None for a
    finding with no statement (its citations still count)."""
    pids = [p for p in f.passage_ids if p in passages]
    cids: list[str] = []
    grounded = selected = False
    quote = clean_model_quote(f.quote or "")
    if not quote and f.statement.strip() and (chosen := select_quote(f.statement, passages, pids)):
        quote, selected = chosen.text, True  # no usable quote (only passage ids): the cited passage's sentence
    if quote:
        m = verify_quote(quote, passages, prefer=pids)
        matches: list[QuoteMatch] = [m] if m is not None else []
        if m is None:
            matches, missing = verify_pieces(quote, passages, prefer=pids)
            if not matches:
                chosen = select_quote(f.statement, passages, pids, quote)
                dropped.append(DroppedQuote(quote=quote, passage_id=pids[0] if pids else None,
                                            reason="not found verbatim in any retrieved passage" + (
                                                f"; the finding cites instead the sentence of {chosen.passage_id} "
                                                "that says most of its claim" if chosen else "")))
                matches, selected = ([chosen], True) if chosen else ([], False)
            else:
                for piece in missing:
                    short = len(piece.split()) < MIN_PIECE_WORDS
                    dropped.append(DroppedQuote(
                        quote=piece, passage_id=pids[0] if pids else None,
                        reason=(f"{SHORT_PIECE} (under {MIN_PIECE_WORDS} words)"
                                if short else "part of a longer quote; not found verbatim in any retrieved passage"),
                    ))
        for m in matches:
            p = passages[m.passage_id]
            wide, _ = extend_match(m, p)
            added = p.text[wide.start:m.start] + p.text[m.end:wide.end]
            extended, m = any(ch.isalnum() for ch in added), wide
            key = (p.chunk_id, m.start, m.end)
            if key in by_span:
                cid = by_span[key]
            else:
                cid = f"C{len(citations) + 1}"
                by_span[key] = cid
                citations.append(Citation(
                    id=cid, passage_id=m.passage_id, chunk_id=p.chunk_id, doc_id=p.doc_id,
                    node_id=p.node_id, doc_title=p.doc_title, source_path=p.source_path,
                    clause_ref=quote_clause_ref(m.text, p.clause_ref), heading_path=p.heading_path,
                    page_start=p.page_start, page_end=p.page_end, spans=m.doc_spans, quote=m.text,
                    extended=extended, selected=selected,
                ))
            if cid not in cids:
                cids.append(cid)
            grounded = True
            if m.passage_id not in pids:
                pids.append(m.passage_id)
    statement = f.statement.strip()
    if not statement:
        return None
    support: SupportStatus
    support, note = ("unchecked", "") if grounded else ("unverified", "no quote could be verified in the documents")
    if grounded and statement.rstrip().endswith("?"):  # a small model restated the question
        support, note = "unrelated", "the statement is a question, not a claim a quote could support"
    elif grounded:
        cited = [c for c in citations if c.id in cids]
        issue = check_heading(statement) or check_statement(
            statement, " ".join(c.quote for c in cited), question=question,
            headings=[c.heading_path[-1] for c in cited if c.heading_path],
            cited_titles=[c.doc_title or "" for c in cited],
            other_titles=[str(d.get("title") or "") for d in documents or []
                          if d.get("doc_id") not in {c.doc_id for c in cited}],
            parties=_parties(documents, {c.doc_id for c in cited}), cited_refs=[c.clause_ref for c in cited])
        if issue is not None:
            support, note = ISSUE_STATUS[issue.kind], f"{issue.kind} mismatch: {issue.detail}"
    return Finding(statement=statement, passage_ids=pids, citation_ids=cids, grounded=grounded,
                   support=support, support_note=note)


def _answer_support(answer: str, passing: Sequence[Finding], citations: Sequence[Citation],
                    documents: Sequence[Mapping[str, Any]] | None, question: str) -> tuple[SupportStatus, str]:
    """The answer checked as a claim (issue #19): against the report's own passing findings
    (:func:`check_claim`), then against their quotes (:func:`check_statement`); ``("unchecked", "")``
    when neither finds an issue."""
    answer_support: SupportStatus = "unchecked"
    answer_note = ""
    ids = {c for f in passing for c in f.citation_ids}
    cited = [c for c in citations if c.id in ids]
    parties = _parties(documents, {c.doc_id for c in cited})
    if (issue := check_claim(answer, " ".join(f.statement for f in passing), parties)) is not None:
        # "Yes, both parties can assign" over its own finding "neither party may assign"
        answer_support = "contradicted"
        answer_note = f"rules: the answer contradicts the report's own key findings ({issue.kind} mismatch: " \
                      f"{issue.detail.replace('the quoted text says', 'a finding says')})"
    elif (issue := check_statement(answer, " ".join(c.quote for c in cited), question=question,
                                   cited_titles=[c.doc_title or "" for c in cited], parties=parties,
                                   cited_refs=[c.clause_ref for c in cited])) is not None:
        answer_support, answer_note = ISSUE_STATUS[issue.kind], f"rules: {issue.kind} mismatch: {issue.detail}"
    return answer_support, answer_note


def build_report(
    draft: ReportDraft,
    passages: Mapping[str, Passage],
    *,
    question: str,
    context: str | None = None,
    turns: int = 0,
    complete: bool = False,
    nli: bool = False,
    label_basis: LabelBasis | None = None,
    documents: Sequence[Mapping[str, Any]] | None = None,
    rule_quotes: Sequence[RuleQuote] = (),
    answer_by_rule: bool = False,
) -> Report:
    """Verify ``draft`` against the retrieved ``passages`` (run-local id -> Passage).

    Returns a :class:`Report`; never raises on bad quotes (they are dropped and recorded).
    ``nli`` keeps the draft's ``label`` (ContractNLI mode), or ``label_basis``'s decided label when
    given (precedent vote or abstention, see :class:`LabelBasis`); otherwise ``label`` is None.
    ``documents`` are the run's document summaries (``doc_id``, ``title``, ``source_path``) for
    the per-document coverage of :func:`finalize_support` (none without them: pre-indexed tools
    or a question put to a whole library name no documents). ``rule_quotes`` are clauses chosen by
    rule (issue #38: a named clause, retrieval's best clauses): each becomes a cited fact first, its
    quote the passage's own characters, never withheld by the model's checks (:func:`rule_findings`).
    ``answer_by_rule``: the answer was written by clauselens, not the model (a named clause quoted with no
    reading): it is no claim to check.
    """
    citations: list[Citation] = []
    dropped: list[DroppedQuote] = []
    by_span: dict[tuple, str] = {}
    findings: list[Finding] = rule_findings(rule_quotes, passages, citations, by_span)
    for f in draft.findings:
        if (finding := _model_finding(f, passages, citations, dropped, by_span, question=question, documents=documents)) is not None:
            findings.append(finding)

    gaps = list(draft.knowledge_gaps)
    for d in dropped:
        if d.reason.startswith(SHORT_PIECE):  # "7.", "Term and Termination.": kept in dropped_quotes, not a reader's gap
            continue
        gaps.append(f'Quote removed ({d.reason}): "{d.quote}"')

    nearest = {c for f in findings if f.rule == "nearest" for c in f.citation_ids}  # shown as not answering: no quote
    silent = not passages or (not draft.addressed and not [c for c in citations if c.id not in nearest])
    answer = draft.answer.strip()
    conclusion = draft.conclusion.strip()
    if not silent and not answer:  # never a silent empty answer: fall back, and say so
        answer = conclusion or next((f.statement for f in findings), "")
        gaps.append("The model's draft gave no direct answer" + ("; the answer shown is its conclusion or first finding."
                                                                  if answer else "."))
        answer = answer or NO_ANSWER
    if silent:
        answer = SILENT_ANSWER + (f" {answer}" if answer and (passages or answer != SILENT_ANSWER) else "")
        conclusion = SILENT_ANSWER
        if not passages:
            findings = []
    label = draft.label if nli else None
    if nli and silent and label is None:
        label = "not_mentioned"
    if nli and label_basis is not None and label_basis.decided:
        label = label_basis.decided
    passing = [f for f in findings if f.grounded and f.citation_ids and (f.support == "unchecked" or f.rule)]
    answer_support: SupportStatus = "unchecked"
    answer_note = ""
    if not silent and not nli and passing and answer and not answer_by_rule:  # the answer is a claim too (issue #19)
        answer_support, answer_note = _answer_support(answer.removeprefix(RULE_QUOTED_PREFIX), passing, citations, documents, question)
    reasoning = draft.legal_reasoning.strip()
    if not silent and not nli and passing:  # the report's own prose may not say what its quotes contradict
        quoted = " ".join(c.quote for c in citations if c.id in {i for f in passing for i in f.citation_ids})
        parties = _parties(documents, {c.doc_id for c in citations})
        reasoning, lines = _without_contradicted(reasoning, quoted, parties, "legal reasoning")
        gaps += lines
        if conclusion and conclusion != answer:
            kept, lines = _without_contradicted(conclusion, quoted, parties, "conclusion")
            gaps += lines
            conclusion = kept or (_mark_unverified(conclusion) if lines else conclusion)
    title = draft.title.strip() or question
    doc_names = _dedup([p.doc_title or p.source_path or p.doc_id for p in passages.values()])
    report = Report(
        title=title, question=question, context=context,
        topic_summary=draft.topic_summary.strip(), legal_reasoning=reasoning,
        key_findings=findings, answer=answer,
        research_directions=_dedup(draft.research_directions), knowledge_gaps=_dedup(gaps),
        follow_up_questions=_dedup(draft.follow_up_questions), citations=citations,
        conclusion=conclusion or answer, documents_silent=silent, dropped_quotes=dropped,
        label=label, label_basis=label_basis if nli else None, turns=turns, complete=complete, documents=doc_names,
        answer_support=answer_support, answer_support_note=answer_note,
    )
    return finalize_support(report, passages, documents)


#: The support note of a finding quoted by rule, per :data:`~clauselens.reports.model.RuleKind`.
RULE_NOTES = {
    "named_clause": "rules: the clause the question names, quoted verbatim (exact clause-number field)",
    "definition": "rules: the agreement's own definition, verbatim",
    "lead": "rules: one of the best retrieved clauses for the question, quoted verbatim (retrieval's ranking)",
    "nli_evidence": "rules: an evidence span the ContractNLI probe ranked for the hypothesis, quoted verbatim",
    "nearest": "rules: one of retrieval's best clauses for a declined question, quoted verbatim as not answering",
}


def rule_findings(rule_quotes: Sequence[RuleQuote], passages: Mapping[str, Passage], citations: list[Citation],
                  by_span: dict[tuple, str]) -> list[Finding]:
    """One cited fact per clause quoted by rule (issue #38), its citation appended to ``citations``
    (``by_span`` de-duplicates a span quoted twice). The quote is ``passage.text[start:end]`` itself --
    chosen by rule, so there is no model copy to verify -- and the finding is ``supported`` by rule: its
    statement only says where the clause is and why it was chosen. Quotes of unknown passages or empty
    spans are skipped."""
    out: list[Finding] = []
    for rq in rule_quotes:
        p = passages.get(rq.passage_id)
        if p is None or not (0 <= rq.start < rq.end <= len(p.text)) or not p.text[rq.start:rq.end].strip():
            continue
        key = (p.chunk_id, rq.start, rq.end)
        cid = by_span.get(key)
        if cid is None:
            cid = by_span[key] = f"C{len(citations) + 1}"
            text = p.text[rq.start:rq.end]
            citations.append(Citation(
                id=cid, passage_id=rq.passage_id, chunk_id=p.chunk_id, doc_id=p.doc_id, node_id=p.node_id,
                doc_title=p.doc_title, source_path=p.source_path, clause_ref=quote_clause_ref(text, p.clause_ref),
                heading_path=p.heading_path, page_start=p.page_start, page_end=p.page_end,
                spans=passage_offsets_to_doc_spans(p, rq.start, rq.end), quote=text))
        out.append(Finding(statement=rq.statement, passage_ids=[rq.passage_id], citation_ids=[cid], grounded=True, rule=rq.kind,
                           support="unrelated" if rq.kind == "nearest" else "supported", support_note=RULE_NOTES[rq.kind]))
    return out


#: Knowledge-gap line for a sentence of the report's prose (legal reasoning, conclusion) that its quotes
#: contradict, written once by :func:`build_report`, which takes the sentence out (a conclusion with no
#: sentence left is kept whole and marked unverified).
GAP_PROSE = "Statement the quotes contradict"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")

#: Prefixes of the knowledge-gap lines :func:`finalize_support` writes (so a re-run replaces them).
GAP_UNSUPPORTED = "Unsupported claim"
GAP_UNVERIFIED = "Unverified claim"
GAP_UNADDRESSED = "Not addressed:"
GAP_WHICH_AGREEMENT = "Which agreement:"
GAP_UNCONFIRMED = "Unconfirmed agreement"
_OWN_GAPS = (GAP_UNSUPPORTED, GAP_UNVERIFIED, GAP_UNADDRESSED, GAP_WHICH_AGREEMENT, GAP_UNCONFIRMED)
#: Library resolutions that searched several candidate agreements because the question did not name
#: one clearly (``library.resolver``): the report says which one its facts come from, not that the
#: others went "unaddressed".
CANDIDATE_RESOLUTIONS = ("uncertain", "ambiguous")
#: Of those, the resolution under which no quote is shown as a fact *of the agreement asked about*:
#: "uncertain" means the question's words matched no agreement's parties, names or title well
#: (``library.resolver``: a best profile score under ``MIN_SCORE``), so the best few were searched
#: and a supported quote proves only what *one of them* says. Issue #19's second end-to-end run
#: (``benchmarks/answers_e2e.py``, independent labels) showed every fact of its three uncertain
#: questions as a fact of the wrong agreement or topic, e.g. a reseller agreement's test-feedback
#: clause for a question about a manufacturing agreement's batch disputes. Its findings become
#: ``unconfirmed`` (see :data:`~clauselens.reports.model.SupportStatus`) until the user names the
#: agreement. "ambiguous" (2-3 agreements the question names equally, e.g. two agreements of the
#: same parties) keeps its facts: each is a fact of an agreement the question names.
UNCONFIRMED_RESOLUTIONS = ("uncertain",)
#: Per-document coverage is reported for runs of at most this many documents (a question put to a
#: whole library is not expected to be answered from every agreement in it).
MAX_COVERAGE_DOCS = 10


def _doc_name(d: Mapping[str, Any]) -> str:
    return str(d.get("title") or d.get("source_path") or d.get("doc_id") or "document")


def finalize_support(report: Report, passages: Mapping[str, Passage],
                     documents: Sequence[Mapping[str, Any]] | None = None) -> Report:
    """Set ``verification`` / ``verification_note``, list unsupported and unverified claims and
    unaddressed documents under ``knowledge_gaps`` (replacing lines of an earlier call), from
    the findings' ``support``. Idempotent; returns a new :class:`Report`.

    A document is *unaddressed* when several documents are in the run and no cited fact
    (:attr:`Finding.cited_fact`) quotes it; its line says why: nothing was retrieved from it,
    no finding cites it, or its findings are not supported. When the documents are a library's
    candidates for a question that named none clearly (their ``resolution`` is one of
    :data:`CANDIDATE_RESOLUTIONS`), one line says which agreement the quoted findings come from instead,
    and the report is partly verified: the question may mean another one. Under an "uncertain"
    resolution (:data:`UNCONFIRMED_RESOLUTIONS`) no finding is a cited fact -- except one whose quotes all come
    from candidates whose party the question names (:func:`named_candidates`) -- : each one whose quote
    supports it is ``unconfirmed`` (listed under knowledge gaps with its agreement), and a report
    left with no cited fact is unverified with its answer marked :data:`UNCONFIRMED_PREFIX`. A report
    with some cited facts and some findings that are not has its answer and conclusion marked
    :data:`PARTLY_UNVERIFIED_PREFIX`: they may rest on the findings that failed.
    """
    gaps = [g for g in report.knowledge_gaps if not g.startswith(_OWN_GAPS)]
    cites = {c.id: c for c in report.citations}
    docs = [dict(d) for d in documents or []]
    unconfirmed = (len(docs) > 1 and not report.documents_silent
                   and any(d.get("resolution") in UNCONFIRMED_RESOLUTIONS for d in docs))
    named = named_candidates(report.question, docs) if unconfirmed else {}
    if unconfirmed:
        report = report.model_copy(update={"key_findings": [
            _unconfirmed(f, cites, docs, set(named)) for f in report.key_findings]})
    facts = [f for f in report.key_findings if f.cited_fact]
    for f in report.key_findings:
        if f.cited_fact or f.rule == "nearest":  # a nearest clause of a declined report claims nothing
            continue
        if f.support == "unconfirmed":
            gaps.append(f"{GAP_UNCONFIRMED} ({f.support_note}): {f.statement}")
        elif f.support == "unverified":
            gaps.append(f"{GAP_UNVERIFIED} (no verified quote): {f.statement}")
        else:
            gaps.append(f"{GAP_UNSUPPORTED} ({f.support}: {f.support_note or 'the quoted text does not support it'}): "
                        f"{f.statement}")
    unaddressed: list[str] = []
    which = ""
    candidates = any(d.get("resolution") in CANDIDATE_RESOLUTIONS for d in docs)
    held = [f for f in report.key_findings if f.cited_fact or f.support == "unconfirmed"]
    if candidates and len(docs) > 1 and not report.documents_silent and held:
        fact_docs = {cites[c].doc_id for f in held for c in f.citation_ids if c in cites}
        used = [_doc_name(d) for d in docs if d.get("doc_id") in fact_docs]
        others = [_doc_name(d) for d in docs if d.get("doc_id") not in fact_docs]
        said = f"it names {' and '.join(sorted(set(named.values())))}, a party of {len(named)} of them; " if named else ""
        which = (f"the question did not clearly name one agreement, so {len(docs)} were searched; {said}the quoted findings "
                 f"come from {' and '.join(used) or 'none of them'}; check that this is the agreement you mean")
        gaps.append(f"{GAP_WHICH_AGREEMENT} {which}" + (f" (also searched: {'; '.join(others)})." if others else "."))
    elif 1 < len(docs) <= MAX_COVERAGE_DOCS and not report.documents_silent:
        fact_docs = {cites[c].doc_id for f in facts for c in f.citation_ids if c in cites}
        cited_docs = {cites[c].doc_id for f in report.key_findings for c in f.citation_ids if c in cites}
        retrieved = {p.doc_id for p in passages.values()}
        for d in docs:
            did = d.get("doc_id")
            if did in fact_docs:
                continue
            if did not in retrieved:
                why = "nothing relevant was retrieved from it"
            elif did in cited_docs:
                why = "its findings are not supported by the quoted text"
            else:
                why = "passages were retrieved but no finding cites it"
            unaddressed.append(f"{_doc_name(d)}: {why}")
        gaps += [f"{GAP_UNADDRESSED} {u}" for u in unaddressed]
    n, k = len(report.key_findings), len(facts)
    unanswered = k > 0 and READING_UNANSWERED_GAP in report.knowledge_gaps
    # issue #19: the answer is a claim too; the model's check of it against the cited facts' quotes
    answer_bad = k > 0 and not report.documents_silent and report.answer_support in ("contradicted", "unrelated")
    if answer_bad:
        gaps.append(f"{GAP_UNSUPPORTED} (the answer; {report.answer_support}: "
                    f"{report.answer_support_note or 'the quoted text does not support it'}): {strip_mark(report.answer)}")
    unchecked = sum(1 for f in facts if f.support == "unchecked")
    if report.documents_silent:
        status, note = "silent", ""
    elif k == 0 and unconfirmed and held:
        status = "unverified"
        note = (f"Unconfirmed: {which}. The quotes support the findings, but only as facts of that agreement; "
                "ask again naming the agreement (its parties or title) for a verified answer.")
    elif k == 0:
        status = "unverified"
        note = ("Unverified: no key finding is supported by a verified quote from the documents, so the answer "
                "rests on the model alone and may be wrong. Check the documents before relying on it.")
    elif k < n or unaddressed or answer_bad or which or unanswered:
        status = "partial"
        parts = [which] if which else []
        if unanswered:  # the quotes are verbatim, but the reading says they do not answer: not "every finding verified"
            parts.append("the model's reading judged that none of the quoted clauses answers the question (they are "
                         "retrieval's best matches, quoted word for word)")
        if answer_bad:
            parts.append("the answer is not supported by the quotes of the cited findings")
        if k < n:  # an "unconfirmed" finding's quote supports it, but it is of another candidate (named_candidates)
            other = sum(1 for f in report.key_findings if f.support == "unconfirmed")
            parts += [f"{x} of {n} key findings {why}" for x, why in (
                (n - k - other, "are not supported by a verified quote"),
                (other, "quote another candidate agreement than the one the question names")) if x]
        if unaddressed:
            parts.append(f"{len(unaddressed)} of {len(docs)} documents are not addressed")
        note = "Partly unverified: " + " and ".join(parts) + "; see knowledge gaps. The answer may rest on them."
    else:
        status, note = "verified", f"Every key finding ({n}) is supported by a verified quote."
    if unchecked and status != "silent":
        note += f" ({unchecked} finding(s) checked by the deterministic rules only, not by the model.)"
    mark = _answer_mark(report, status, answer_bad, 0 < k < n, unconfirmed and bool(held))
    return report.model_copy(update={
        "knowledge_gaps": _dedup(gaps), "verification": status, "verification_note": note.strip(),
        "unaddressed_documents": unaddressed, "answer": _mark_unverified(report.answer, mark) if mark else report.answer,
        "conclusion": _mark_unverified(report.conclusion, mark) if mark else report.conclusion})


def _answer_mark(report: Report, status: str, answer_bad: bool, partly: bool, candidate_facts: bool) -> str | None:
    """The mark :func:`finalize_support` puts before the answer and conclusion (see each prefix), or ``None``."""
    if answer_bad:  # the cited facts hold, but the answer says something their quotes do not
        return UNVERIFIED_PREFIX
    if partly:  # the answer sums up every finding, the no-fact ones too (of another candidate, or unsupported)
        other = all(f.cited_fact or f.support == "unconfirmed" for f in report.key_findings)
        return PARTLY_UNCONFIRMED_PREFIX if other else PARTLY_UNVERIFIED_PREFIX
    if status == "unverified":  # the model's prose must not read as settled under an "Unverified" banner
        return UNCONFIRMED_PREFIX if candidate_facts else UNVERIFIED_PREFIX
    return None


#: Put before the answer and conclusion of a report with no supported finding (issue #19: a
#: conclusion read "the definition is clear and unambiguous" under the "Unverified" banner).
UNVERIFIED_PREFIX = "Unverified (the model's reading, not backed by a supporting quote): "


#: Put before the answer and conclusion of a report whose supported findings are all ``unconfirmed``
#: (:data:`UNCONFIRMED_RESOLUTIONS`).
UNCONFIRMED_PREFIX = "Unconfirmed (quoted from an agreement the question may not mean; see knowledge gaps): "
#: Put before the answer and conclusion of a report some of whose key findings are not cited facts: the
#: answer sums up the model's findings, the unsupported ones too. Issue #19's labelled runs: every
#: answer of such a report that was shown as settled (4 of 4, in runs 1, 2 and the held-out run) said
#: something its cited facts' quotes did not -- most often what a withheld finding said.
PARTLY_UNVERIFIED_PREFIX = ("Partly unverified (it may rest on a key finding the quotes do not support; see "
                            "knowledge gaps): ")
#: In its place when every key finding that is no fact is ``unconfirmed``: supported by its quote, but a clause of
#: another candidate agreement than the one the question names (:func:`~clauselens.reports.candidates.named_candidates`).
PARTLY_UNCONFIRMED_PREFIX = ("Partly unconfirmed (it may rest on a clause of another agreement than the one the "
                             "question names; see knowledge gaps): ")
#: Put before the answer and conclusion of a report whose facts are its quotes (:func:`quoted_facts`):
#: what they say is the model's summing-up of the quoted clauses, not a fact itself.
READING_PREFIX = "Reading (the model's words, summing up the quoted clauses; rely on the quotes): "
#: Put in place of an answer that repeated an instruction a document addresses to AI readers (issue #41 item 2,
#: :mod:`clauselens.agents.refusal`).
WITHHELD_PREFIX = "Withheld (the model's answer repeated an instruction a document addresses to AI readers): "
_MARKS = (UNVERIFIED_PREFIX, UNCONFIRMED_PREFIX, PARTLY_UNVERIFIED_PREFIX, PARTLY_UNCONFIRMED_PREFIX, READING_PREFIX,
          WITHHELD_PREFIX, RULE_QUOTED_PREFIX)


def quoted_facts(report: Report, by_rule: bool = False, definition: bool = False) -> Report:
    """``report`` with its quotes as its only facts (``Settings.facts = "quotes"``; issue #19:
    "a claim its quote does not support is never shown as fact").

    A 1.5B model's statement can pass every check and still misread its quote (a representation
    read as a duty; "24 hours or more in any 72-hour period" over "twenty-four (24) consecutive
    hours, or forty-eight (48) hours in any seventy-two (72) hour period"; README "Trust": 24 of 99
    such facts were unsupported in the out-of-sample runs). So the facts a report shows are the
    verified quotes of the findings that passed the support checks -- the documents' own words at
    their character spans -- and each finding's statement is shown beside its quotes as the
    model's reading (:meth:`Report.fact_quotes`, the renderers). The answer and conclusion of a
    report with such facts carry :data:`READING_PREFIX` (an answer marked already keeps its mark:
    unverified, partly unverified, unconfirmed), and a verified report's note says what is checked
    and what is not. Findings that failed a check are shown as before (unsupported, unverified,
    unconfirmed). ``by_rule``: the statements and the answer were written by rule from the quotes (an
    extractive definition report: "defines X in clause 1.2", the answer the definition itself; ``definition``
    says so in the note), not by the model; they are shown as such (``Report.readings = "rules"``) and the answer is not marked.
    Idempotent; returns a new :class:`Report`."""
    if report.facts == "quotes":
        return report
    update: dict[str, Any] = {"facts": "quotes", "readings": "rules" if by_rule else "model"}
    if report.documents_silent or not any(f.cited_fact for f in report.key_findings):
        return report.model_copy(update=update)
    n, rq = len(report.key_findings), report.answer.startswith(RULE_QUOTED_PREFIX)  # rq: the clause's sentences (reading_check)
    if by_rule:
        said = (f"Every key finding ({n}) is a verified quote{' of the definition' if definition else ''}, shown word "
                "for word as the fact; the line beside it, written by rule, says where it is.")
    else:
        update["answer"] = _mark_unverified(report.answer, READING_PREFIX)
        update["conclusion"] = _mark_unverified(report.conclusion, READING_PREFIX)
        said = (f"Every key finding ({n}) rests on a verified quote, shown word for word as the fact; what the "
                f"findings{'' if rq else ' and the answer'} say of the quotes is the model's reading, checked but not guaranteed"
                f"{'; the answer quotes the clause by rule' if rq else ''}.")
    if report.verification == "verified":  # finalize_support's note, said for quoted facts
        update["verification_note"] = report.verification_note.replace(
            f"Every key finding ({n}) is supported by a verified quote.", said)
    return report.model_copy(update=update)


def strip_mark(text: str) -> str:
    """``text`` without the mark (:data:`UNVERIFIED_PREFIX`, :data:`UNCONFIRMED_PREFIX`,
    :data:`PARTLY_UNVERIFIED_PREFIX`) it may carry."""
    for m in _MARKS:
        if text.startswith(m):
            return text[len(m):]
    return text


def is_marked(text: str) -> bool:
    """Whether ``text`` (an answer or conclusion) is marked as not settled (:func:`strip_mark`)."""
    return text.startswith(_MARKS)


def _mark_unverified(text: str, prefix: str = UNVERIFIED_PREFIX) -> str:
    """``text`` prefixed with ``prefix`` once (``""`` stays empty; a text marked already keeps its mark)."""
    t = text.strip()
    return t if not t or is_marked(t) else prefix + t


def _unconfirmed(f: Finding, cites: Mapping[str, Citation], docs: Sequence[Mapping[str, Any]],
                 named: set[str] | None = None) -> Finding:
    """Cited fact ``f`` of a question the library resolved as uncertain, as an ``unconfirmed`` finding
    naming the candidate agreement its quotes come from (other findings, and those quoting only ``named``, the
    candidates whose party the question names (:func:`named_candidates`), unchanged)."""
    if not f.cited_fact:
        return f
    if named and f.citation_ids and all(c in cites and cites[c].doc_id in named for c in f.citation_ids):
        return f
    names = {d.get("doc_id"): _doc_name(d) for d in docs}
    src = sorted({names.get(cites[c].doc_id, cites[c].doc_id) for c in f.citation_ids if c in cites})
    note = (f"its quote supports it, but it is from {' and '.join(src) or 'a candidate agreement'}, and the question "
            "did not clearly name which agreement it means")
    return f.model_copy(update={"support": "unconfirmed", "support_note": note})
