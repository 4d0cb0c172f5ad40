"""navindex: the Researcher tool that navigates a compact structured index (issue #4).

Public names re-exported from :mod:`clauselens.retrieval.navindex_build` (index format,
deterministic flag detectors, Config-6 serialisation) and
:mod:`clauselens.retrieval.navindex_tool` (S1 scan, S2 fetch, S3 answer, the retriever).
"""

from clauselens.retrieval.navindex_build import (  # noqa: F401
    NavIndex,
    NavNode,
    build_nav_index,
    compact_index,
    has_condition,
    has_date,
    has_liability_limit,
    has_money,
    has_party,
    has_percentage,
    is_definition_text,
    is_toc_entry,
    keywords,
    serialize_index,
    write_nav_files,
)
from clauselens.retrieval.navindex_tool import (  # noqa: F401
    MAX_NODES,
    Answer,
    NavCorpus,
    NavIndexRetriever,
    ScanPick,
    ScanSelection,
    answer_from_passages,
    fetch,
    is_refusal,
    plan_scan_batches,
    provisions_block,
    scan,
    validate_picks,
)

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
        return NavIndexRetriever(chat_model, store_dir=settings.store_dir / "navindex")
    if name == "navembed":
        from clauselens.retrieval.embedders import get_embedder
        from clauselens.retrieval.navembed import NavEmbedRetriever
        from clauselens.retrieval.rerank import build_reranker

        spec = settings.retrieval.reranker
        reranker = None if spec in ("none", "", None) else build_reranker(spec, chat_model)
        emb = embedder or get_embedder(settings.retrieval.embedder, settings.cache_dir)
        return NavEmbedRetriever(emb, reranker=reranker, candidates=settings.retrieval.candidates)
    if name == "inject":
        from clauselens.retrieval.inject import InjectRetriever

        return InjectRetriever(chat_model)
    raise ConfigError(f"unknown navigation tool {name!r}: use one of {', '.join(NAV_TOOLS)}")
