"""The Archivist's dialogue step: from a conversation to a structured request, or to ONE
clarifying question.

PAKTON (Raptopoulos et al., 2025, §3.1) has the Archivist collect the user's question, their
context ("I am the licensee") and instructions before the Interrogator starts. Here:

1. the model extracts a :class:`DialogueExtraction` from the conversation (the latest
   question rewritten to stand alone, using earlier questions and findings);
2. :func:`find_ambiguity` — a pure, rule-based check — decides whether the request is
   ambiguous about *which party the user is* (a first-person question and no party known),
   *which agreement* (several agreements, none named) or *which version* (an amendment in the
   session, version not said);
3. :func:`archivist_dialogue` returns either the clarifying question or an
   :class:`ArchivistRequest` for the Interrogator; a follow-up (a question the model had to
   rewrite to stand alone, or one opening with "and", "what about", ...) carries the latest
   earlier finding in its context. After one clarifying question for a
   request it always proceeds (stating what it assumed), so the user is asked at most once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from clauselens.agents.prompts_archivist_dialogue import (
    ARCHIVIST_DIALOGUE_SYSTEM,
    ARCHIVIST_DIALOGUE_USER,
    CLARIFY_DOCUMENT,
    CLARIFY_PARTY,
    CLARIFY_VERSION,
)
from clauselens.llm.structured import invoke_structured
from clauselens.parsing.types import DocumentSummary

#: Characters of each earlier answer shown to the model (keeps the prompt small for a 1.5B model).
FINDING_CHARS = 400
#: Characters of the earlier answer a follow-up request carries to the Interrogator.
FOLLOW_UP_CHARS = 300
#: Most recent conversation messages shown to the model.
MAX_MESSAGES = 12

_FIRST_PERSON = re.compile(r"\b(i|we|me|us|my|our|mine|ours|i'm|we're|i've|we've)\b", re.IGNORECASE)
_SELF_DESCRIPTION = re.compile(
    r"\b(i am|i'm|we are|we're|as the|as a|as an|acting for|on behalf of|representing|my client|our client|my company|our company)\b",
    re.IGNORECASE)
_FORM_WORDS = re.compile(
    r"\b(brief\w*|short\w*|detail\w*|bullet\w*|list|table|summar\w*|in \d+ (words|sentences)|one (word|sentence|line)|"
    r"plain english|simple|format|quote|focus on|only)\b", re.IGNORECASE)
#: Openings that mark a follow-up even when the model did not rewrite the question.
_FOLLOW_UP_CUE = re.compile(r"^\s*(and|also|then|so|what about|how about|what if|does that|does this|is that|is this|and if)\b",
                            re.IGNORECASE)
_VERSION_WORDS = re.compile(r"\b(amend\w*|original|version|as amended|restated|latest)\b", re.IGNORECASE)


class DialogueExtraction(BaseModel):
    """What the model extracts from the conversation (the JSON schema it fills)."""

    question: str = Field(description="The latest question, rewritten to stand alone.")
    user_context: str | None = Field(default=None, description="Who the user is / their situation.")
    user_party: str | None = Field(default=None, description="The party of the agreement the user is.")
    instructions: str | None = Field(default=None, description="How the user wants the answer.")
    document: str | None = Field(default=None, description="The document the user named, if any.")
    version: str | None = Field(default=None, description='"original" or "amended" if said.')


class ArchivistRequest(BaseModel):
    """The structured request handed to the Interrogator.

    ``question`` stands alone; ``context`` joins the user's context, party, instructions and
    any assumption the Archivist made; ``doc_ids`` restricts the search (empty: all documents
    of the session)."""

    question: str
    context: str | None = None
    user_party: str | None = None
    instructions: str | None = None
    doc_ids: list[str] = Field(default_factory=list)
    assumptions: list[str] = Field(default_factory=list)


class DialogueOutcome(BaseModel):
    """Either ``clarifying_question`` (then ``request`` is None) or ``request``."""

    extraction: DialogueExtraction
    clarifying_question: str | None = None
    ambiguity: str | None = None
    request: ArchivistRequest | None = None


def _mentions(text: str, name: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z0-9]+", name.lower()) if len(w) > 2 and w not in {"the", "inc", "llc", "ltd", "and", "agreement"}]
    low = text.lower()
    return bool(words) and all(w in low for w in words[:2])


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3}


def _claims_party(text: str, party: str) -> bool:
    """True if the user describes themselves as ``party`` ("I am the Consultant", "we are
    Acme", "on behalf of the Licensee"): the party's words within 60 characters after a
    self-description. Merely naming a party ("what is the Consultant paid?") does not count."""
    for m in _SELF_DESCRIPTION.finditer(text):
        window = text[m.end(): m.end() + 60]
        if _mentions(window, party) or party.lower() in window.lower():
            return True
    return False


def sanitize_extraction(ex: DialogueExtraction, user_texts: Sequence[str]) -> DialogueExtraction:
    """Drop what the model extracted but the user never said. Pure.

    Small models fill optional fields from the prompt's own wording (seen with the 1.5B
    model: ``instructions="length, format, focus"``, a party picked from the document list).
    A field is kept only when the user's messages support it: ``user_party`` — the user
    describes themselves as that party (seen: "what is the Consultant paid?" read as "the
    user is the Consultant"); ``user_context`` — they describe themselves ("I am", "we are", "on behalf
    of"...) and share a content word with it; ``instructions`` — they ask about the form of the
    answer (brief, detailed, list, quote...) and share a content word with it; ``version`` —
    they say original/amended/version; ``document`` — its words appear in them."""
    joined = " ".join(user_texts)
    words = _content_words(joined)
    upd: dict[str, object] = {}
    if ex.user_party and not _claims_party(joined, ex.user_party):
        upd["user_party"] = None
    if ex.user_context and not (_SELF_DESCRIPTION.search(joined) and _content_words(ex.user_context) & words):
        upd["user_context"] = None
    if ex.instructions and not (_FORM_WORDS.search(joined) and _content_words(ex.instructions) & words):
        upd["instructions"] = None
    if ex.version and not _VERSION_WORDS.search(joined):
        upd["version"] = None
    if ex.document and not (_mentions(joined, ex.document) or ex.document.lower() in joined.lower()):
        upd["document"] = None
    return ex.model_copy(update=upd) if upd else ex


def known_party(ex: DialogueExtraction, user_texts: Sequence[str], documents: Sequence[DocumentSummary]) -> str | None:
    """The user's party if the extraction or the user's own words name one, else None.

    A party counts as named when the user's messages contain its distinctive words next to
    "I am"/"we are"/"as the"/"for the", or the model extracted ``user_party``."""
    if ex.user_party and ex.user_party.strip():
        return ex.user_party.strip()
    joined = " ".join(user_texts)
    for d in documents:
        for p in d.parties:
            for m in re.finditer(r"\b(i am|i'm|we are|we're|as|for|representing|on behalf of)\s+(the\s+)?", joined, re.IGNORECASE):
                tail = joined[m.end(): m.end() + len(p) + 20]
                if _mentions(tail, p):
                    return p
    said = re.search(r"\b(?:i am|i'm|we are|we're)\s+(?:the|a|an)\s+([A-Za-z][A-Za-z -]{2,40}?)"
                     r"(?:[.,;!?]|$| and | in | of | under )", joined, re.IGNORECASE)
    if said:
        return said.group(1).strip()
    return None


def find_ambiguity(
    ex: DialogueExtraction,
    latest_user_text: str,
    user_texts: Sequence[str],
    documents: Sequence[DocumentSummary],
) -> tuple[str, str] | None:
    """``(kind, clarifying question)`` if the request is ambiguous, else None. Pure.

    Checked in order: ``"document"`` — more than one agreement in the session and neither the
    question nor the extraction names one; ``"party"`` — the question is in the first person
    (I/we/my/our…) and no party of the user is known; ``"version"`` — an amendment amends a
    document in the session and the user did not say original or amended.
    """
    agreements = [d for d in documents if d.doc_type != "amendment"]
    text = f"{latest_user_text} {ex.question} {ex.document or ''}"
    if len(agreements) > 1 and not any(_mentions(text, d.name) or d.file_name.lower() in text.lower() for d in agreements):
        titles = " or ".join(f'"{d.name}"' for d in agreements[:4])
        return "document", CLARIFY_DOCUMENT.format(titles=titles)
    if _FIRST_PERSON.search(latest_user_text) and known_party(ex, user_texts, documents) is None:
        parties = sorted({p for d in documents for p in d.parties})
        plist = f" ({' or '.join(parties[:4])})" if parties else ""
        return "party", CLARIFY_PARTY.format(parties=plist)
    amendments = [d for d in documents if d.doc_type == "amendment" or d.amends]
    if amendments and not ex.version and not _VERSION_WORDS.search(latest_user_text):
        base = agreements[0].name if agreements else "The agreement"
        return "version", CLARIFY_VERSION.format(title=base, amendments=", ".join(d.name for d in amendments))
    return None


def _format_documents(documents: Sequence[DocumentSummary]) -> str:
    if not documents:
        return "- (none yet)"
    out = []
    for d in documents:
        parties = f"; parties: {', '.join(d.parties)}" if d.parties else ""
        out.append(f"- {d.file_name}: {d.title or 'untitled'} ({d.doc_type}{parties})")
    return "\n".join(out)


def _format_findings(findings: Sequence[tuple[str, str]]) -> str:
    if not findings:
        return "- (none yet)"
    return "\n".join(f"- Q: {q}\n  A: {a[:FINDING_CHARS]}" for q, a in findings[-3:])


def _format_conversation(messages: Sequence[BaseMessage]) -> str:
    lines = []
    for m in list(messages)[-MAX_MESSAGES:]:
        who = "User" if isinstance(m, HumanMessage) else "Assistant"
        content = m.content if isinstance(m.content, str) else str(m.content)
        lines.append(f"{who}: {content[:FINDING_CHARS * 2]}")
    return "\n".join(lines)


def build_dialogue_messages(
    conversation: Sequence[BaseMessage],
    documents: Sequence[DocumentSummary],
    findings: Sequence[tuple[str, str]],
) -> list[BaseMessage]:
    """The prompt for the extraction step (system + one user message)."""
    return [
        SystemMessage(content=ARCHIVIST_DIALOGUE_SYSTEM.format(
            documents=_format_documents(documents), findings=_format_findings(findings))),
        HumanMessage(content=ARCHIVIST_DIALOGUE_USER.format(conversation=_format_conversation(conversation))),
    ]


def archivist_dialogue(
    model: BaseChatModel,
    conversation: Sequence[BaseMessage],
    documents: Sequence[DocumentSummary],
    *,
    findings: Sequence[tuple[str, str]] = (),
    clarified: bool = False,
    method: str = "auto",
    max_retries: int = 2,
) -> DialogueOutcome:
    """Run the dialogue step on ``conversation`` (oldest first; the last message is the user's).

    Args:
        model: the Archivist's chat model.
        conversation: Human/AI messages of the session so far.
        documents: the session's documents.
        findings: earlier ``(question, answer)`` pairs of this session, oldest first.
        clarified: True when the previous assistant message was this step's clarifying
            question; then it proceeds whatever the answer (one question at most).
        method, max_retries: passed to :func:`clauselens.llm.structured.invoke_structured`.

    Returns:
        A :class:`DialogueOutcome`.

    Raises:
        ModelResponseError, ModelUnavailableError: from the model call.
        ValueError: ``conversation`` does not end with a user message.
    """
    if not conversation or not isinstance(conversation[-1], HumanMessage):
        raise ValueError("the conversation must end with the user's message")
    ex = invoke_structured(model, build_dialogue_messages(conversation, documents, findings),
                           DialogueExtraction, method=method, max_retries=max_retries)
    user_texts = [str(m.content) for m in conversation if isinstance(m, HumanMessage)]
    latest = user_texts[-1]
    ex = sanitize_extraction(ex, user_texts)
    if not ex.question.strip():
        ex = ex.model_copy(update={"question": latest})
    assumptions: list[str] = []
    if clarified and len(user_texts) >= 2:
        # The user answered our one clarifying question: the request is the earlier message
        # plus this answer, whatever it says.
        if not ex.question.strip() or ex.question.strip() == latest.strip():
            ex = ex.model_copy(update={"question": user_texts[-2]})
        if not ex.user_context:
            ex = ex.model_copy(update={"user_context": latest})
    else:
        amb = find_ambiguity(ex, latest, user_texts, documents)
        if amb is not None:
            return DialogueOutcome(extraction=ex, clarifying_question=amb[1], ambiguity=amb[0])
    party = known_party(ex, user_texts, documents)
    doc_ids = [d.doc_id for d in documents if ex.document and (_mentions(ex.document, d.name) or d.file_name.lower() in ex.document.lower())]
    if ex.version:
        assumptions.append(f"version: {ex.version}")
    ctx_parts = [p.strip().rstrip(".") + "." for p in (
        ex.user_context,
        f"The user is the {party}" if party and (not ex.user_context or party.lower() not in ex.user_context.lower()) else None,
        f"Instructions: {ex.instructions}" if ex.instructions else None) if p]
    ctx_parts += [f"Assumed {a}." for a in assumptions]
    if findings and not clarified and (ex.question.strip() != latest.strip() or _FOLLOW_UP_CUE.match(latest)):
        # a follow-up the model rewrote: carry the finding it builds on to the Interrogator
        q, a = findings[-1]
        ctx_parts.append(f'Earlier in this conversation the user asked "{q}" and the answer was: '
                         f'"{" ".join(a.split())[:FOLLOW_UP_CHARS]}".')
    req = ArchivistRequest(question=ex.question.strip(), context=" ".join(ctx_parts) or None,
                           user_party=party, instructions=ex.instructions, doc_ids=doc_ids, assumptions=assumptions)
    return DialogueOutcome(extraction=ex, request=req)


def last_ai_was_clarification(conversation: Sequence[BaseMessage]) -> bool:
    """True when the message before the latest user message is an assistant message marked
    as a clarifying question (``additional_kwargs["clarify"]``)."""
    if len(conversation) < 2:
        return False
    prev = conversation[-2]
    return isinstance(prev, AIMessage) and bool(prev.additional_kwargs.get("clarify"))
