"""Prompts of the LLM pointwise reranker (one named constant per prompt).

Pointwise relevance judgement with a yes/no answer, as in Nogueira et al. (2020),
"Document Ranking with a Pretrained Sequence-to-Sequence Model" (monoT5: "Query: q
Document: d Relevant:" -> true/false), adapted to a chat model.
"""

from clauselens.llm.framing import DATA_NOT_INSTRUCTIONS, QUOTED_DATA

RERANK_SYSTEM = (
    "You judge whether a passage from a contract helps answer a question about that contract. "
    "Answer with one word: yes or no.\n" + DATA_NOT_INSTRUCTIONS
)

RERANK_USER = (
    "Question: {query}\n\n"
    "Passage (" + QUOTED_DATA + "):\n{passage}\n\n"
    "Does this passage contain information that answers the question? Answer yes or no."
)
