"""The navigation tools of the "Inject or Navigate?" study reproduced in issue #4: three ways
to choose the text a model answers from, answered by the same S3 prompt.

* **navindex** -- the model reads compact structured indices of the documents and picks
  nodes (S1 :mod:`~clauselens.retrieval.navigate.scan`), their verbatim text is fetched
  deterministically with one hop along cross-references and definitions (S2
  :mod:`~clauselens.retrieval.navigate.fetch`); :mod:`~clauselens.retrieval.navigate.navindex`
  is the retriever. The index format, its flag detectors and serialisation:
  :mod:`~clauselens.retrieval.navigate.index`.
* **navembed** -- the same nodes embedded, cosine top-40, rerank, keep 10
  (:mod:`~clauselens.retrieval.navigate.navembed`).
* **inject** -- the whole corpus in the context (:mod:`~clauselens.retrieval.navigate.inject`).

S3, answering only from the chosen provisions: :mod:`~clauselens.retrieval.navigate.answer`;
the prompts: :mod:`~clauselens.retrieval.navigate.prompts`; the model helpers they share:
:mod:`~clauselens.retrieval.navigate.llm`; building a tool by name for the registry:
:mod:`~clauselens.retrieval.navigate.tools`. Every LLM call is written to a
:class:`~clauselens.retrieval.ledger.Ledger`.
"""
