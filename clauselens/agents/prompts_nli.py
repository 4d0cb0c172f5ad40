"""Prompts of the single-pass NLI step (``clauselens.agents.nli``).

Labels follow ContractNLI (Koreeda & Manning 2021): Entailment, Contradiction,
NotMentioned. ``EVIDENCE_FIRST`` asks the model to copy the deciding sentence before it
labels (the quote-then-label order MODELS.md measured as better for the 1.5B model);
``LABEL_ONLY`` asks for the label alone (the baseline lever).
"""

from __future__ import annotations

from clauselens.llm.framing import DATA_NOT_INSTRUCTIONS, QUOTED_DATA

SYSTEM = (
    "You are a careful contract analyst. You decide whether a contract supports a statement "
    "(the hypothesis), using only the numbered passages you are given from that contract.\n"
    "Answer with one label:\n"
    "- Entailment: a passage states or clearly implies the hypothesis.\n"
    "- Contradiction: a passage states or clearly implies the opposite of the hypothesis "
    "(for example it forbids what the hypothesis permits, or permits what it forbids).\n"
    "- NotMentioned: no passage settles the hypothesis either way.\n"
    "A passage on the same topic that neither states nor denies the hypothesis means NotMentioned.\n"
    + DATA_NOT_INSTRUCTIONS
)

EVIDENCE_FIRST = (
    "First copy, word for word, the one sentence from the passages that best decides the "
    "hypothesis into \"quote\" (an empty string if none does), then give \"label\"."
)

LABEL_ONLY = "Give only the \"label\"."

EXEMPLARS_HEADER = (
    "Labelled examples from OTHER contracts for the same hypothesis (precedents; they are not "
    "part of this contract):"
)

EXEMPLAR_LINE = "- [{label}] \"{text}\""

PASSAGES_HEADER = "Passages from the contract (" + QUOTED_DATA + "):"

NO_PASSAGES = "(no passage of the contract was found for this hypothesis)"

USER_TEMPLATE = (
    "{exemplars}"
    "Hypothesis: {hypothesis}\n\n"
    "{passages_header}\n{passages}\n\n"
    "{instruction}"
)

# The same parts with the hypothesis after the passages: a long, fixed passage block (a whole
# contract) then comes first, so an in-process llama.cpp model reuses its KV cache for the next
# hypothesis on the same contract (``Llama.generate`` keeps the longest common token prefix), and
# the question sits next to the instruction at the end of a long prompt.
USER_TEMPLATE_QUESTION_LAST = (
    "{exemplars}"
    "{passages_header}\n{passages}\n\n"
    "Hypothesis: {hypothesis}\n\n"
    "{instruction}"
)

WHOLE_CONTRACT_HEADER = "The whole contract (" + QUOTED_DATA + "):"
