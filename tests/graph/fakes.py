"""A scripted chat model for fast graph tests: replies are chosen by the JSON schema the
model layer asks for (``SubQuestions``, ``SearchPlan``, ``ReportDraft``, ``StopDecision``,
``SupportVerdict``; ``DialogueExtraction`` for the chat Archivist; ``Reading`` under a clause quoted
by rule, ``LeadReading`` under retrieval's best clauses at quick depth), so tests do not depend on call
order; every prompt it received is kept for assertions. A script without ``SupportVerdict`` replies
``supports`` to the report's support checks (tests of the support check script it)."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

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
