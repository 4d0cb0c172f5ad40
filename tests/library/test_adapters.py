"""The library as a LangChain and a LlamaIndex retriever (issue #17, "Ecosystem"), each driven
through its own framework's public API (``invoke`` / ``ainvoke``, ``retrieve`` / ``aretrieve``)
over a real library of 20 CUAD agreements (lexical only, so no model is needed)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode

from clauselens.library import Library
from clauselens.library.adapters import LibraryLangChainRetriever, LibraryLlamaIndexRetriever

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
MEDIWOUND = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
KITOV = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
FACILITY_Q = "How is 'Facility' defined in the MediWound supply agreement?"
MISSING_Q = "What does Section 99.7 of the MediWound supply agreement provide?"
FACILITY_DEF = '"Facility" means CBC\'s production facility in Tou-Liu City'

pytestmark = pytest.mark.skipif(not (MEDIWOUND.exists() and KITOV.exists()),
                                reason="needs the CUAD corpus in ../shared/data/legalbench-rag")


#: Other CUAD agreements added alongside. The resolver's thresholds are absolute BM25 scores
#: (``resolver.MIN_SCORE`` / ``LOW_SCORE``); in a 2-agreement library every name has IDF <= log 2,
#: so "the MediWound supply agreement" resolves to nothing and the whole library is searched
#: without the exact defined-term / clause-number fields. With ~20 agreements it is found.
FILLER = 18


@pytest.fixture(scope="module")
def library_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("adapters") / "lib"
    others = sorted(p for p in CUAD.glob("*.txt") if p not in (MEDIWOUND, KITOV))[:FILLER]
    rep = Library.open(root, embedder_name="none").add([MEDIWOUND, KITOV, *others])
    assert not rep.failed and len(rep.added) == 2 + FILLER
    return root


@pytest.fixture(scope="module")
def lib(library_dir: Path) -> Library:
    return Library.open(library_dir, embedder_name="none", create=False)


@pytest.fixture(scope="module")
def ids(lib: Library) -> dict[str, str]:
    """"mediwound" / "kitov" -> doc id."""
    by_path = {Path(r.path).name: r.doc_id for r in lib.agreements()}
    return {"mediwound": by_path[MEDIWOUND.name], "kitov": by_path[KITOV.name]}


def _check_provenance(meta: dict[str, Any], text: str) -> None:
    """Spans add up to the text (joined by newlines, as ``Chunk`` promises) and every field is there."""
    spans = meta["spans"]
    assert spans and meta["start"] == spans[0][0] and meta["end"] == spans[-1][1] and meta["start"] < meta["end"]
    assert sum(e - s for s, e in spans) + len(spans) - 1 == len(text)
    for key in ("doc_id", "chunk_id", "title", "agreement", "source_path", "clause_ref", "page_start", "page_end",
                "score", "method"):
        assert key in meta


# ------------------------------------------------------------------ LangChain
def test_langchain_invoke_finds_the_definition(lib: Library, ids: dict[str, str]) -> None:
    retriever = LibraryLangChainRetriever(library=lib, k=4)
    docs = retriever.invoke(FACILITY_Q)
    assert 1 <= len(docs) <= 4 and all(isinstance(d, Document) for d in docs)
    top = docs[0]
    assert FACILITY_DEF in top.page_content
    assert top.metadata["doc_id"] == ids["mediwound"]
    assert top.metadata["source_path"] == str(MEDIWOUND.resolve())
    assert "MediWound" in top.metadata["agreement"]
    assert top.id == top.metadata["chunk_id"]
    assert top.metadata["method"] == "exact" and top.metadata["score"] == 1.0
    _check_provenance(top.metadata, top.page_content)
    assert retriever.last_result is not None and not retriever.last_result.abstained


def test_langchain_party_filter_overrides_the_named_agreement(lib: Library, ids: dict[str, str]) -> None:
    retriever = LibraryLangChainRetriever(library=lib, k=5, party="Kitov")
    docs = retriever.invoke(FACILITY_Q)
    assert docs and {d.metadata["doc_id"] for d in docs} == {ids["kitov"]}
    assert all(FACILITY_DEF not in d.page_content for d in docs)


class _TextRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.texts: list[str] = []

    def on_text(self, text: str, **kwargs: Any) -> None:
        self.texts.append(text)


def test_langchain_abstains_with_a_visible_reason(lib: Library) -> None:
    retriever = LibraryLangChainRetriever(library=lib)
    rec = _TextRecorder()
    assert retriever.invoke(MISSING_Q, config={"callbacks": [rec]}) == []
    res = retriever.last_result
    assert res is not None and res.abstained and res.reason.startswith("no matching clause found")
    assert "99.7" in res.reason
    assert any("abstained" in t and "99.7" in t for t in rec.texts)


def test_langchain_unmatched_filter_abstains(lib: Library) -> None:
    retriever = LibraryLangChainRetriever(library=lib, party="Nobody Such Ltd")
    assert retriever.invoke(FACILITY_Q) == []
    assert "matches the filters" in retriever.last_result.reason


def test_langchain_ainvoke(lib: Library, ids: dict[str, str]) -> None:
    docs = asyncio.run(LibraryLangChainRetriever(library=lib, k=2).ainvoke(FACILITY_Q))
    assert docs[0].metadata["doc_id"] == ids["mediwound"] and FACILITY_DEF in docs[0].page_content


# ------------------------------------------------------------------ LlamaIndex
def test_llamaindex_retrieve_finds_the_definition(lib: Library, ids: dict[str, str]) -> None:
    retriever = LibraryLlamaIndexRetriever(lib, k=4)
    nodes = retriever.retrieve(FACILITY_Q)
    assert 1 <= len(nodes) <= 4 and all(isinstance(n, NodeWithScore) for n in nodes)
    top = nodes[0]
    assert isinstance(top.node, TextNode) and FACILITY_DEF in top.node.text
    assert top.score == 1.0 and top.node.metadata["doc_id"] == ids["mediwound"]
    assert top.node.node_id == top.node.metadata["chunk_id"]
    assert top.node.ref_doc_id == ids["mediwound"]
    assert (top.node.start_char_idx, top.node.end_char_idx) == (top.node.metadata["start"], top.node.metadata["end"])
    _check_provenance(top.node.metadata, top.node.text)
    # what an LLM sees: the agreement and clause, not file paths or scores
    llm_view = top.node.get_content(metadata_mode=MetadataMode.LLM)
    assert top.node.metadata["agreement"] in llm_view and FACILITY_DEF in llm_view
    assert str(MEDIWOUND.resolve()) not in llm_view and "chunk_id" not in llm_view


def test_llamaindex_doc_id_filter(lib: Library, ids: dict[str, str]) -> None:
    nodes = LibraryLlamaIndexRetriever(lib, k=5, doc_ids=[ids["kitov"]]).retrieve(FACILITY_Q)
    assert nodes and {n.node.metadata["doc_id"] for n in nodes} == {ids["kitov"]}
    nodes = LibraryLlamaIndexRetriever(lib, k=5, doc_ids=[ids["mediwound"]]).retrieve(FACILITY_Q)
    assert nodes and {n.node.metadata["doc_id"] for n in nodes} == {ids["mediwound"]}
    assert FACILITY_DEF in nodes[0].node.text


def test_llamaindex_abstains(lib: Library) -> None:
    retriever = LibraryLlamaIndexRetriever(lib)
    assert retriever.retrieve(MISSING_Q) == []
    res = retriever.last_result
    assert res is not None and res.abstained and "99.7" in res.reason


def test_llamaindex_aretrieve(lib: Library, ids: dict[str, str]) -> None:
    nodes = asyncio.run(LibraryLlamaIndexRetriever(lib, k=2).aretrieve(FACILITY_Q))
    assert nodes[0].node.metadata["doc_id"] == ids["mediwound"] and FACILITY_DEF in nodes[0].node.text


# ------------------------------------------------------------------ packaging
def test_offline_and_lazy(library_dir: Path) -> None:
    """With every socket connection refused, the adapters import and answer; and importing
    ``clauselens.library`` loads neither framework adapter nor LlamaIndex."""
    code = textwrap.dedent(f"""
        import socket, sys

        def refuse(*a, **k):
            raise OSError("network access attempted")

        socket.socket.connect = refuse
        socket.socket.connect_ex = refuse
        socket.create_connection = refuse

        import clauselens.library
        assert "llama_index" not in sys.modules, "clauselens.library imports llama_index"
        assert "clauselens.library.adapters" not in sys.modules
        from clauselens.library import Library
        from clauselens.library.adapters import LibraryLangChainRetriever, LibraryLlamaIndexRetriever

        lib = Library.open({str(library_dir)!r}, embedder_name="none", create=False)
        q = {FACILITY_Q!r}
        assert LibraryLlamaIndexRetriever(lib).retrieve(q)[0].node.text.count("Tou-Liu")
        assert LibraryLangChainRetriever(library=lib).invoke(q)[0].page_content.count("Tou-Liu")
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")
    assert "NLTK" not in out.stdout + out.stderr
