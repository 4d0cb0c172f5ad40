"""inject: the whole corpus in the model's context for every query (issue #4).

The baseline of the "Inject or Navigate?" study. ``search`` returns every indexed document
as one passage (its whole text, span ``[0, len)``) — ``k`` does not apply, since the
method's contract is "everything" — after checking that system prompt + corpus + question
+ answer budget fit the model's window (tokens counted with the model's own tokenizer when
it has one); if not, :class:`~clauselens.errors.ContextOverflowError` says by how much.
:func:`answer_inject` answers with the same rules as navindex's S3, corpus first so that it
is a static, cacheable prefix (llama.cpp reuses the matching KV prefix between calls).
"""

from __future__ import annotations

from typing import Sequence

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from clauselens.errors import ContextOverflowError, RetrievalError
from clauselens.llm import count_tokens
from clauselens.parsing.types import Document, Span
from clauselens.retrieval.ledger import Ledger, LedgerEntry
from clauselens.retrieval.navigate import prompts as P
from clauselens.retrieval.navigate.answer import Answer, is_refusal
from clauselens.retrieval.navigate.fetch import doc_label
from clauselens.retrieval.navigate.llm import context_window, invoke_text
from clauselens.retrieval.types import Passage, SearchResult

ANSWER_RESERVE = 512
"""Tokens kept free for the question and the answer when checking that the corpus fits."""


def corpus_block(passages: Sequence[Passage]) -> str:
    """The documents as ``<document doc="label">text</document>`` elements."""
    return "\n".join(f'<document doc="{p.doc_title or p.doc_id}">\n{p.text}\n</document>' for p in passages)


def inject_messages(passages: Sequence[Passage], question: str) -> list:
    """System prompt + corpus (static prefix), then the question."""
    return [SystemMessage(P.INJECT_SYSTEM + "\n\n" + corpus_block(passages)), HumanMessage(f"Question: {question}")]


class InjectRetriever:
    """inject as a :class:`~clauselens.retrieval.types.RetrievalMethod`.

    ``model`` is only used for its tokenizer and window (``n_ctx``); ``reserve`` tokens are
    kept for the question and answer.
    """

    name = "inject"

    def __init__(self, model: BaseChatModel | None = None, ledger: Ledger | None = None,
                 reserve: int = ANSWER_RESERVE, window: int | None = None) -> None:
        self.model = model
        self.ledger = ledger or Ledger(label="inject")
        self.reserve = reserve
        self.window = window or context_window(model)
        self.passages: list[Passage] = []
        self.corpus_tokens = 0
        self._n = 0

    def index(self, documents: Sequence[Document]) -> None:
        """Keep every document whole and count the corpus tokens (with the system prompt)."""
        self.passages = [
            Passage(chunk_id=f"{d.id}#all", doc_id=d.id, node_id=d.nodes[0].id if d.nodes else "root", text=d.text,
                    spans=[Span(start=0, end=len(d.text))], doc_title=doc_label(d), source_path=d.source_path,
                    score=1.0, scores={"inject": 1.0}, method=self.name)
            for d in documents
        ]
        self.corpus_tokens = count_tokens(self.model, inject_messages(self.passages, "")[0].content)

    def check_fits(self, question: str = "") -> None:
        """Raise :class:`ContextOverflowError` if corpus + question + reserve exceed the window."""
        need = self.corpus_tokens + count_tokens(self.model, question) + self.reserve
        if need > self.window:
            raise ContextOverflowError(
                f"inject cannot answer: the {len(self.passages)} document(s) take {self.corpus_tokens:,} tokens and "
                f"with the question and a {self.reserve}-token answer budget need {need:,}, more than the model's "
                f"{self.window:,}-token window. Use --mode navindex or navembed, or a model with a larger window.")

    def search(self, query: str, k: int = 8, query_id: str | None = None) -> SearchResult:
        """Every document, whole (``k`` ignored). Raises ``RetrievalError`` when nothing is
        indexed and ``ContextOverflowError`` when the corpus does not fit."""
        if not self.passages:
            raise RetrievalError("inject has no documents: index some documents first")
        self.check_fits(query)
        self._n += 1
        self.ledger.start(query_id or f"q{self._n}", self.name)
        return SearchResult(query=query, passages=list(self.passages),
                            trace={"corpus_tokens": self.corpus_tokens, "ledger_entry": len(self.ledger.entries) - 1})

    def entry_for(self, result: SearchResult) -> LedgerEntry:
        """The ledger entry of a ``search`` result."""
        return self.ledger.entries[result.trace["ledger_entry"]]


def answer_inject(model: BaseChatModel, question: str, passages: Sequence[Passage],
                  ledger: Ledger | None = None, entry: LedgerEntry | None = None) -> Answer:
    """Answer ``question`` from the whole corpus (``passages`` from :meth:`InjectRetriever.search`).

    The corpus counts as answering context and as the cacheable prefix in the ledger.
    Raises :class:`ContextOverflowError` (from the model) if it does not fit after all.
    """
    msgs = inject_messages(passages, question)
    prefix = count_tokens(model, msgs[0].content)
    ctx = count_tokens(model, corpus_block(passages))
    if ledger is not None and entry is not None:
        entry.answering_context_tokens += ctx
        with ledger.recording(entry, "answer", cacheable_tokens=prefix):
            text = invoke_text(model, msgs)
    else:
        text = invoke_text(model, msgs)
    return Answer(text=text, refused=is_refusal(text), context_tokens=ctx)
