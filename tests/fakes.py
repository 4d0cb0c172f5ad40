"""The test suite's two fake chat models, neither of which needs model weights.

:class:`ScriptedChat` replies from a script chosen by the JSON schema the model layer asks for
(``SubQuestions``, ``SearchPlan``, ``ReportDraft``, ``StopDecision``, ``SupportVerdict``;
``DialogueExtraction`` for the chat Archivist; ``Reading`` under a clause quoted by rule, ``LeadReading``
under retrieval's best clauses at quick depth), so tests do not depend on call order; every prompt it
received is kept for assertions. A script without ``SupportVerdict`` replies ``supports`` to the
report's support checks (tests of the support check script it).

:class:`ContractFakeChatModel` is a langchain-core ``BaseChatModel`` (like ``GenericFakeChatModel``)
that answers by looking at what it is asked: it reads the JSON schema that
:func:`clauselens.llm.structured.invoke_structured` puts in the system prompt (``text`` method, used
for unknown models) and replies with JSON for that schema, built from the prompt itself — e.g. a report
draft quotes the first sentence of the first retrieved passage, so citations are real and verifiable.
It never invents text that is not in the prompt. ``down=True`` makes every call raise
``ModelUnavailableError`` (a backend that is down). :class:`FixedJSONChatModel` returns one fixed reply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from clauselens.errors import ModelUnavailableError

SCHEMAS = ("SubQuestions", "SearchPlan", "ReportDraft", "StopDecision", "ScanSelection", "TreeRepair", "SupportVerdict", "SupportEvidenceVerdict",
           "DialogueExtraction", "Reading", "LeadReading")
DEFAULTS = {"SupportVerdict": [{"reason": "scripted default: the quoted text states the claim", "verdict": "supports"}],
            "LeadReading": [{"answer": "scripted default: the quoted clauses answer it.", "answered": True}],
            "Reading": [{"answer": "scripted default: the quoted clause answers it."}]}
#: Clause 7.2 of the DRIVEN DELIVERIES consulting agreement (CUAD), the termination answer's quote.
TERMINATION_QUOTE = ("Either Party may terminate this Agreement, with or without cause, upon giving the other party thirty (30) "
                     "days prior written notice")


def termination_script(quote: str = TERMINATION_QUOTE) -> dict[str, list[dict[str, Any]]]:
    """One research round answering "How can the agreement be terminated?" with ``quote``."""
    return {
        "SubQuestions": [{"sub_questions": ["How can the agreement be terminated?"]}],
        "SearchPlan": [{"queries": ["terminate written notice days"], "clause_refs": [], "defined_terms": [],
                        "agreement_names": [], "tools": ["hybrid"]}],
        "ReportDraft": [{"title": "Termination", "topic_summary": "Termination.", "legal_reasoning": "Clause 7.2.",
                         "findings": [{"statement": "30 days' notice.", "passage_ids": ["P1"], "quote": quote}],
                         "answer": "Either party, on 30 days' written notice.", "addressed": True,
                         "research_directions": [], "knowledge_gaps": [], "follow_up_questions": [],
                         "conclusion": "30 days."}],
        "StopDecision": [{"complete": True}],
        "LeadReading": [{"answer": "Either party, on 30 days' written notice.", "answered": True}],  # quick depth
    }


class ScriptedChat(BaseChatModel):
    """``script[schema]`` is a list of replies (dict -> JSON text, str as is); the last one
    repeats. ``calls`` records ``(schema, system_text, user_text)``."""

    script: dict[str, list[Any]]
    calls: list[tuple[str, str, str]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-test"

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        system = str(messages[0].content)
        user = "\n".join(str(m.content) for m in messages[1:])
        schema = next(s for s in SCHEMAS if f'"title": "{s}"' in system)
        n = sum(1 for c in self.calls if c[0] == schema)
        replies = self.script[schema] if schema in self.script or schema not in DEFAULTS else DEFAULTS[schema]
        reply = replies[min(n, len(replies) - 1)]
        self.calls.append((schema, system, user))
        text = reply if isinstance(reply, str) else json.dumps(reply)
        msg = AIMessage(content=text, response_metadata={"model_name": "scripted"}, usage_metadata={"input_tokens": len(system + user) // 4,
                                                      "output_tokens": len(text) // 4,
                                                      "total_tokens": (len(system + user) + len(text)) // 4})
        return ChatResult(generations=[ChatGeneration(message=msg)])


_SCHEMA_MARK = "validates against this JSON schema:\n"
_PASSAGE = re.compile(r"^\[(P\d+)\][^\n]*\n(.*?)(?=^\[P\d+\]|\Z)", re.MULTILINE | re.DOTALL)
_FOLLOW_UP = re.compile(r"^(and|what about|how about|does that|does it|is that|and,)\b", re.IGNORECASE)


def schema_title(messages: list[BaseMessage]) -> str:
    for m in messages:
        if isinstance(m, SystemMessage) and _SCHEMA_MARK in str(m.content):
            try:
                return json.loads(str(m.content).split(_SCHEMA_MARK, 1)[1]).get("title", "")
            except ValueError:
                return ""
    return ""


def _first_sentence(text: str) -> str:
    body = re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*\.?|\([a-z0-9]+\))\s+", "", text.strip())
    m = re.search(r"(.+?[.;])(?:\s|$)", body, re.DOTALL)
    return (m.group(1) if m else body[:200]).strip()


def _dialogue(prompt: str) -> dict:
    users = re.findall(r"^User: (.*)$", prompt, re.MULTILINE)
    latest = users[-1] if users else ""
    question = latest
    if _FOLLOW_UP.match(latest) and len(users) > 1:
        question = f"{latest.rstrip('?')} (following up on: {users[-2]})"
    party = None
    for u in users:
        m = re.search(r"\bI am the (\w+)", u)
        if m:
            party = m.group(1)
    return {"question": question, "user_party": party}


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3}


def _sentences(text: str) -> list[str]:
    body = re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*\.?|\([a-z0-9]+\))\s+", "", text.strip())
    return [s.strip() for s in re.findall(r"[^.;]+[.;]", body, re.DOTALL) if len(s.strip()) >= 30]


def _draft(prompt: str) -> dict:
    """Extractive: the sentence of the shown passages sharing most words with the question
    (ties: the earliest), quoted verbatim."""
    passages = _PASSAGE.findall(prompt)
    if not passages:
        return {"title": "No answer", "answer": "The documents provided do not address this question.", "addressed": False}
    m = re.search(r"^Question: (.*)$", prompt, re.MULTILINE)
    q = _stems((m.group(1) if m else "").split("(following up on:")[0])
    best = None
    for rank, (pid, text) in enumerate(passages):
        for i, sent in enumerate(_sentences(text) or [_first_sentence(text)]):
            score = len(q & _stems(sent))
            key = (-score, rank, i)
            if best is None or key < best[0]:
                best = (key, pid, sent)
    _, pid, quote = best
    return {
        "title": "Answer from the contract", "topic_summary": "What the contract says.",
        "legal_reasoning": f"Passage {pid} states it directly.",
        "findings": [{"statement": quote, "passage_ids": [pid], "quote": quote}],
        "answer": quote, "addressed": True, "knowledge_gaps": [], "conclusion": quote,
    }


_GRID_PASSAGE = re.compile(r"^\[P(\d+)\][^\n]*\n(.*?)(?=\n\n\[P\d+\]|\n\nQuestion:)", re.MULTILINE | re.DOTALL)


def _grid_cell(prompt: str) -> dict:
    """A grid cell (``CellAnswer``): the sentence of the shown passages sharing most words with
    the question, quoted verbatim, "Yes" for a yes/no question, else the quote's last capitalised
    name (e.g. "Scotland" in "... governed by the laws of Scotland") or its first words. No
    shared word, or a question about a zebra: not found."""
    m = re.search(r"^Question: (.*)$", prompt, re.MULTILINE)
    question = m.group(1) if m else ""
    q = _stems(question)
    best = None
    for n, text in _GRID_PASSAGE.findall(prompt):
        for i, sent in enumerate(_sentences(text) or [_first_sentence(text)]):
            key = (-len(q & _stems(sent)), int(n), i)
            if best is None or key < best[0]:
                best = (key, int(n), " ".join(sent.split()))
    if best is None or best[0][0] == 0 or "zebra" in question.lower():
        return {"found": False, "passage": 0, "quote": "", "answer": ""}
    _, n, quote = best
    names = re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*", quote[1:])
    answer = "Yes" if 'The answer is "Yes"' in prompt else names[-1] if names else " ".join(quote.split()[:6])
    return {"found": True, "passage": n, "quote": quote, "answer": answer}


_QUOTED = re.compile(r'^\[[^\]]*\] "(.*)"$', re.MULTILINE)


def _reading(prompt: str, lead: bool) -> dict:
    """A reading under clauses quoted by rule: the quoted sentence sharing most words with the question,
    ``answered`` false (lead clauses) when none shares one."""
    m = re.search(r"^Question: (.*)$", prompt, re.MULTILINE)
    q = _stems(m.group(1) if m else "")
    scored = [(len(q & _stems(s)), s) for quote in _QUOTED.findall(prompt) for s in (_sentences(quote) or [quote])]
    best = max(scored, key=lambda x: x[0], default=(0, ""))
    out: dict[str, Any] = {"answer": best[1][:380] or "The quoted text does not answer the question."}
    if lead:
        out["answered"] = best[0] > 0
    return out


RESPONDERS = {
    "CellAnswer": _grid_cell,
    "Reading": lambda p: _reading(p, False),
    "LeadReading": lambda p: _reading(p, True),
    "DialogueExtraction": _dialogue,
    "ReportDraft": _draft,
    "StopDecision": lambda p: {"complete": True, "reason": "The draft answers the question.", "follow_up_questions": []},
    "SubQuestions": lambda p: {"sub_questions": []},
    "SearchPlan": lambda p: {"queries": []},
    "SupportVerdict": lambda p: {"reason": "The claim is the quoted sentence itself.", "verdict": "supports"},
}


class ContractFakeChatModel(BaseChatModel):
    """See module docstring. ``calls`` records the schema title of every call."""

    down: bool = False
    calls: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "clauselens-contract-fake"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        if self.down:
            raise ModelUnavailableError("cannot reach model server at http://127.0.0.1:9/v1: connection refused")
        title = schema_title(messages)
        self.calls.append(title)
        prompt = "\n".join(str(m.content) for m in messages if isinstance(m, HumanMessage))
        reply = RESPONDERS.get(title, lambda p: {})(prompt)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=json.dumps(reply)))])


class FixedJSONChatModel(BaseChatModel):
    """Always replies with the JSON of ``reply`` (to replay what a real model once returned)."""

    reply: dict = {}

    @property
    def _llm_type(self) -> str:
        return "clauselens-fixed-json-fake"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=json.dumps(self.reply)))])
