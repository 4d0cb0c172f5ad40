"""Where the grid tests read real CUAD agreements, and the one skip when those texts are absent from ../shared/data."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import pytest

TXT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"


def needs_texts(paths: Iterable[Path]) -> pytest.MarkDecorator:
    """Skip unless every CUAD text in ``paths`` is there (data absent on this machine, not a failure)."""
    return pytest.mark.skipif(not all(p.exists() for p in paths),
                              reason="CUAD texts not in ../shared/data/cuad/full_contract_txt (data absent)")
