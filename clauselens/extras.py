"""Optional dependencies: the pyproject extras (issue #18) and a clear message when a command
needs one that is not installed (instead of an ``ImportError`` traceback).

``scripts/setup.sh`` installs every extra, so ``make demo`` / ``make test`` have them all; a bare
``pip install clauselens`` has ``ask``, ``ingest``, ``chat``, ``library`` and ``grid`` with the
hybrid retriever and the local library backend.
"""

from __future__ import annotations

import importlib.util

from clauselens.errors import ConfigError

#: extra -> the modules it provides (checked by :func:`require_extra`).
EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "multipart"),
    "mcp": ("mcp",),
    "lightrag": ("lightrag", "tokenizers"),
    "rerank": ("FlagEmbedding",),
    "milvus": ("pymilvus",),  # a Milvus Lite .db path also needs milvus_lite (pymilvus says so)
}


def require_extra(extra: str, what: str) -> None:
    """Raise :class:`ConfigError` naming ``what`` needs, and how to install it, when a module of
    the extra ``extra`` is not installed."""
    missing = [m for m in EXTRAS[extra] if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(f"{what} needs the optional dependencies clauselens[{extra}] (not installed: {', '.join(missing)}); "
                          f"install them with: pip install -e '.[{extra}]' (scripts/setup.sh installs every extra)")
