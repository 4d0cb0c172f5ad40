"""Shared by the library tests: a library of one agreement written in the test."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Callable

import pytest

from clauselens.library import Library


@pytest.fixture
def library_of(tmp_path: Path) -> Callable[[str, str], Library]:
    """``library_of(file_name, text)``: a lexical-only library holding that one agreement
    (``text`` is dedented, so it can be indented in the test)."""

    def make(name: str, text: str) -> Library:
        d = tmp_path / "agreements"
        d.mkdir(exist_ok=True)
        (d / name).write_text(textwrap.dedent(text), encoding="utf-8")
        lib = Library.open(tmp_path / "lib", embedder_name="none")
        assert len(lib.add([d / name]).added) == 1
        return lib

    return make
