"""Issue #22 item 10: every system prompt whose conversation carries contract text tells the
model that the text is quoted data, never instructions; the user messages label it so."""

from __future__ import annotations

import pytest

from clauselens.agents import prompts_archivist, prompts_archivist_dialogue, prompts_interrogator, prompts_nli
from clauselens.llm.framing import DATA_NOT_INSTRUCTIONS, QUOTED_DATA
from clauselens.retrieval import prompts_rerank
from clauselens.retrieval.navigate import prompts as prompts_navindex

#: (module, constant) of every system prompt sent together with document text.
WITH_DOCUMENT_TEXT = [
    (prompts_interrogator, "DRAFT_SYSTEM"),
    (prompts_interrogator, "DECIDE_SYSTEM"),
    (prompts_interrogator, "SUPPORT_SYSTEM"),
    (prompts_nli, "SYSTEM"),
    (prompts_rerank, "RERANK_SYSTEM"),
    (prompts_navindex, "SCAN_SYSTEM"),
    (prompts_navindex, "ANSWER_SYSTEM"),
    (prompts_navindex, "INJECT_SYSTEM"),
    (prompts_archivist, "REPAIR_SYSTEM"),
    (prompts_archivist_dialogue, "ARCHIVIST_DIALOGUE_SYSTEM"),
]


@pytest.mark.parametrize("module, name", WITH_DOCUMENT_TEXT, ids=[n for _, n in WITH_DOCUMENT_TEXT])
def test_system_prompt_says_document_text_is_data(module, name) -> None:
    assert DATA_NOT_INSTRUCTIONS in getattr(module, name)


def test_document_text_is_labelled_quoted_data() -> None:
    assert QUOTED_DATA in prompts_interrogator.DRAFT_USER
    assert QUOTED_DATA in prompts_nli.PASSAGES_HEADER and QUOTED_DATA in prompts_nli.WHOLE_CONTRACT_HEADER
    assert QUOTED_DATA in prompts_rerank.RERANK_USER


def test_formatted_prompts_keep_the_framing() -> None:
    """The prompts filled with ``str.format`` still carry it (no brace in it breaks format)."""
    scan = prompts_navindex.SCAN_SYSTEM.format(max_nodes=5, legend=prompts_navindex.INDEX_LEGEND)
    assert DATA_NOT_INSTRUCTIONS in scan
    dialogue = prompts_archivist_dialogue.ARCHIVIST_DIALOGUE_SYSTEM.format(documents="-", findings="-")
    assert DATA_NOT_INSTRUCTIONS in dialogue
