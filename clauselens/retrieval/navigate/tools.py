"""The navigation tools by name, for the tool registry (:mod:`clauselens.retrieval.registry`):
:func:`build_nav_tool` makes navindex, navembed or inject (issue #4; see
:mod:`clauselens.retrieval.navigate`). Each tool's module is imported when that tool is built.
"""

NAV_TOOLS = ("navindex", "navembed", "inject")
"""Names of the tools this module can build for the Researcher (``RetrievalSettings.tools``)."""


def build_nav_tool(name: str, settings, chat_model=None, embedder=None):
    """Build one of :data:`NAV_TOOLS` as a :class:`~clauselens.retrieval.types.RetrievalMethod`.

    Args:
        name: ``"navindex"`` (needs ``chat_model`` for the S1 scan), ``"navembed"`` (uses
            ``embedder`` or ``settings.retrieval.embedder``, and ``settings.retrieval.reranker``),
            or ``"inject"`` (uses ``chat_model``'s tokenizer and window for the fit check).
        settings: a :class:`clauselens.config.Settings`.
        chat_model: the Researcher's chat model.
        embedder: an :class:`~clauselens.retrieval.embedders.Embedder` to share (optional).

    Each tool has a ``ledger`` (:class:`~clauselens.retrieval.ledger.Ledger`) recording its
    LLM calls per query. Raises :class:`~clauselens.errors.ConfigError` for an unknown name
    or a tool that needs a chat model without one.
    """
    from clauselens.errors import ConfigError

    if name == "navindex":
        if chat_model is None:
            raise ConfigError("tool 'navindex' needs a chat model (the Researcher's) for its index scan")
        from clauselens.retrieval.navigate.navindex import NavIndexRetriever

        return NavIndexRetriever(chat_model, store_dir=settings.store_dir / "navindex")
    if name == "navembed":
        from clauselens.retrieval.embedders import get_embedder
        from clauselens.retrieval.navigate.navembed import NavEmbedRetriever
        from clauselens.retrieval.rerank import build_reranker

        spec = settings.retrieval.reranker
        reranker = None if spec in ("none", "", None) else build_reranker(spec, chat_model)
        emb = embedder or get_embedder(settings.retrieval.embedder, settings.cache_dir)
        return NavEmbedRetriever(emb, reranker=reranker, candidates=settings.retrieval.candidates)
    if name == "inject":
        from clauselens.retrieval.navigate.inject import InjectRetriever

        return InjectRetriever(chat_model)
    raise ConfigError(f"unknown navigation tool {name!r}: use one of {', '.join(NAV_TOOLS)}")
