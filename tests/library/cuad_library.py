"""A lexical-only library of CUAD agreements copied under neutral names (``m1.txt`` ...), so that
resolution has to read the text, not the file name. Shared by the library tests."""

from __future__ import annotations

import shutil

import pytest

from clauselens.library import Library
from tests.parsing.parsing_paths import SHARED

#: The CUAD texts as LegalBench-RAG ships them (``../shared`` beside the repository).
CUAD_CORPUS = SHARED / "data" / "legalbench-rag" / "corpus" / "cuad"


def have(files: dict[str, str]) -> bool:
    """Whether every CUAD text ``files`` names is on this machine."""
    return all((CUAD_CORPUS / f).exists() for f in files.values())


def cuad_library(tmp: pytest.TempPathFactory, files: dict[str, str]) -> Library:
    """A library holding ``files`` (neutral name -> CUAD file name), every one added."""
    corpus = tmp.mktemp("corpus")
    for name, src in files.items():
        shutil.copy(CUAD_CORPUS / src, corpus / name)
    lib = Library.open(tmp.mktemp("lib") / "lib", embedder_name="none")
    rep = lib.add([corpus])
    assert len(rep.added) == len(files) and not rep.failed
    return lib
