"""Which storages a library uses (the registry half of LightRAG's storage design: abstract
classes in :mod:`clauselens.library.storage`, implementations chosen by name here): the backend
(``local`` or ``milvus``) and, for ``local``, the lexical engine and the vector format."""

from __future__ import annotations

from pathlib import Path

from clauselens.errors import ConfigError
from clauselens.library.storage import (
    Bm25sLexical,
    CatalogueStorage,
    LexicalStorage,
    SqliteCatalogue,
    VectorStorage,
)

#: Lexical engines of the ``local`` backend: ``bm25s`` (one index rebuilt on every change) and
#: ``tantivy`` (segments: :mod:`clauselens.library.lexical_tantivy`).
LEXICAL_ENGINES = ("bm25s", "tantivy")
#: Vector formats of the ``local`` backend: ``f32`` (exact scans) and ``f16`` (float16 + an HNSW
#: graph above a size threshold: :mod:`clauselens.library.vectors_ann`).
VECTOR_FORMATS = ("f32", "f16")

#: Library backends: ``local`` (the embedded default above) and ``milvus``
#: (:mod:`clauselens.library.milvus`: Milvus Lite at a ``.db`` path, or a Milvus server by URI).
BACKENDS = ("local", "milvus")


def open_storages(backend: str, root: Path, dim: int, *, uri: str | None = None, name: str | None = None,
                  lexical: str = "bm25s", vectors: str = "f32") -> tuple[CatalogueStorage, LexicalStorage, VectorStorage]:
    """The storages of backend ``backend`` for the library at ``root``: ``local`` keeps them
    under ``root``; ``milvus`` in the collections ``clauselens_<name>_*`` of the Milvus at
    ``uri`` (default: the Milvus Lite file ``root/milvus.db``); ``lexical`` picks the local
    lexical engine (:data:`LEXICAL_ENGINES`), ``vectors`` the local vector format
    (:data:`VECTOR_FORMATS`). Raises :class:`ConfigError` naming the valid
    backends / engines for an unknown one."""
    if backend == "local":
        if lexical not in LEXICAL_ENGINES:
            raise ConfigError(f"unknown lexical engine {lexical!r}; available: {', '.join(LEXICAL_ENGINES)}")
        if lexical == "tantivy":
            from clauselens.library.lexical_tantivy import TantivyLexical

            lex: LexicalStorage = TantivyLexical(root / "lexical_tantivy")
        else:
            lex = Bm25sLexical(root / "lexical")
        if vectors not in VECTOR_FORMATS:
            raise ConfigError(f"unknown vector format {vectors!r}; available: {', '.join(VECTOR_FORMATS)}")
        if vectors == "f16":
            from clauselens.library.vectors_ann import Float16Vectors

            vec: VectorStorage = Float16Vectors(root, dim)
        else:
            from clauselens.library.vectors_ann import NumpyVectors

            vec = NumpyVectors(root / "vectors.f32", dim)
        return SqliteCatalogue(root / "catalogue.sqlite"), lex, vec
    if backend == "milvus":
        from clauselens.extras import require_extra

        require_extra("milvus", "the milvus library backend")
        from clauselens.library.milvus import open_milvus

        return open_milvus(uri or str(root / "milvus.db"), name or root.name, dim)
    raise ConfigError(f"unknown library backend {backend!r}; available: {', '.join(BACKENDS)}")



__all__ = ["BACKENDS", "LEXICAL_ENGINES", "VECTOR_FORMATS", "open_storages"]
