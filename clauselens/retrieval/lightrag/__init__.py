"""LightRAG graph retrieval as a Researcher tool, in-process and offline.

Three modules, by seam:

* :mod:`~clauselens.retrieval.lightrag.adapter`: LightRAG plumbing (our tokenizer, embedding
  and LLM functions, chunking, key and corpus hashing, the event-loop thread);
* :mod:`~clauselens.retrieval.lightrag.retriever`: ``LightRAGRetriever`` (build, resume, open,
  search);
* :mod:`~clauselens.retrieval.lightrag.tool`: the Researcher's ``lightrag`` tool, the
  ``hybrid,lightrag`` composite and ``build_graph_tool``.

Importing them does not import LightRAG: it is imported when a graph is first built, opened or
queried.

LightRAG (Guo et al. 2024, "LightRAG: Simple and Fast Retrieval-Augmented Generation",
arXiv:2410.05779; package ``lightrag-hku==1.5.7``) extracts entities and relations from
each chunk with an LLM, stores them in a graph plus three vector stores, and at query
time retrieves chunks through entities (``local``), relations (``global``), both
(``hybrid``), both plus plain chunk vectors (``mix``) or chunk vectors only (``naive``).

How this adapter uses it:

* **Our chunks, not LightRAG's.** Every Archivist chunk of kind ``node`` or ``window``
  (one per piece of text, no overlap; see :func:`clauselens.parsing.build_chunks`) is
  inserted as its own LightRAG *document* whose id and ``file_path`` are a key derived
  from the text (:func:`~clauselens.retrieval.lightrag.adapter.graph_key`). LightRAG may split a long chunk further; every piece
  still carries the key, and ``clauselens_chunks.json`` in the working dir maps a key back
  to our :class:`~clauselens.parsing.types.Chunk` (document, clause ref, char spans).
  Identical texts share one key (LightRAG would otherwise reject the copy as a duplicate).
* **Ordinary passages.** :meth:`~clauselens.retrieval.lightrag.retriever.LightRAGRetriever.search` returns
  :class:`~clauselens.retrieval.types.Passage` s with ``method="lightrag"`` that enter RRF
  and reranking like any other list (:class:`~clauselens.retrieval.lightrag.tool.HybridPlusGraph`); nothing is dropped for
  lacking a marker.
* **Offline.** Our own ``llm_model_func`` (the configured langchain chat model),
  ``embedding_func`` (the configured :class:`~clauselens.retrieval.embedders.Embedder`)
  and a local tokenizer (HF ``tokenizers`` on all-MiniLM-L6-v2's ``tokenizer.json``) so
  LightRAG never fetches tiktoken files.
* **One working dir per corpus**: ``<store_dir>/lightrag/<corpus-hash>/``; the corpus hash
  covers the documents' ids and sha256. ``clauselens_meta.json`` records the embedder
  (name, dim): a graph built with another embedder is refused with a
  :class:`~clauselens.errors.RetrievalError` (or rebuilt with ``rebuild=True``).
* **Resumable, with progress.** Chunks are inserted in small batches; LightRAG's doc-status
  store marks each processed, so an interrupted :meth:`~clauselens.retrieval.lightrag.retriever.LightRAGRetriever.index` resumes
  where it stopped. A progress callback gets done/total and an ETA after every batch.
* **Zero entities is loud.** Small local models often extract nothing; then
  :class:`~clauselens.retrieval.lightrag.adapter.GraphUnavailableError` is raised (a :class:`RetrievalError`) and
  :class:`~clauselens.retrieval.lightrag.tool.HybridPlusGraph` falls back to hybrid retrieval, writing
  ``"graph retrieval unavailable: extraction produced 0 entities ...; hybrid results only"``
  into the trace; the graph-only ``lightrag`` tool (no fallback) retrieves nothing and says so.

Cost on CPU: with the bundled 1.5B model extraction takes about a minute per chunk on
two cores, so graph indexing is only practical here for a few dozen chunks; for real
corpora serve the model on a GPU (vLLM / llama.cpp server) and set
``CLAUSELENS_RESEARCHER_MODEL__BACKEND=openai`` and ``..._BASE_URL``.
"""
