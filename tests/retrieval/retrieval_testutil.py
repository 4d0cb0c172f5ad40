"""Shared helpers for retrieval tests: paths to ../shared data and hand-made chunks."""

from __future__ import annotations

import re
from pathlib import Path

from clauselens.parsing.types import Chunk, Span

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"
DATA = SHARED / "data"


def paragraph_chunks(path: Path, doc_id: str | None = None) -> list[Chunk]:
    """One chunk per blank-line-separated paragraph of a text file, with exact spans and
    the leading clause number (``"3.2"``, ``"2"``) as ``clause_ref``. Used to test the
    retrieval layer independently of the parser."""
    text = path.read_text(encoding="utf-8")
    doc_id = doc_id or path.name
    out = []
    for i, m in enumerate(re.finditer(r"\S(?:.*\S)?(?:\n(?!\s*\n).*\S)*", text)):
        ref = re.match(r"(\d+(?:\.\d+)*)\.?\s", m.group())
        out.append(Chunk(id=f"{doc_id}#{i}", doc_id=doc_id, node_id=f"n{i}", kind="node", text=m.group(),
                         spans=[Span(start=m.start(), end=m.end())], clause_ref=ref.group(1) if ref else None,
                         source_path=str(path)))
    return out
