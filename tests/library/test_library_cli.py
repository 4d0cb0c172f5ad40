"""``clauselens library add | list | search | remove`` and ``ask --library`` argument checks,
through the real CLI (typer's runner) on real CUAD contracts: a bad file in a folder is
reported by name with a non-zero exit and no traceback while the good ones are added; a
second add skips unchanged files; search prints the resolved agreement and the exact clause;
a missing library and files-plus-library are clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from clauselens.cli import app

CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
MW = CUAD / "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt"
KITOV = CUAD / "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt"
pytestmark = pytest.mark.skipif(not (MW.exists() and KITOV.exists()), reason="needs the CUAD corpus in ../shared/data")
runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")  # lexical only: no model needed
    folder = tmp_path / "contracts"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(MW, folder / "supply.txt")
    shutil.copy(KITOV, folder / "sub" / "manufacturing.txt")
    (folder / "broken.pdf").write_bytes(b"PK\x03\x04 a zip archive, not a PDF")
    return folder


def _run(args: list[str]):
    res = runner.invoke(app, args)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def test_add_list_search_remove(env: Path) -> None:
    res = _run(["library", "add", str(env), "--library", "firm"])
    assert res.exit_code == 2, res.output
    assert "broken.pdf" in res.output and "2 added" in res.output
    again = _run(["library", "add", str(env / "supply.txt"), str(env / "sub"), "--library", "firm"])
    assert again.exit_code == 0 and "2 unchanged" in again.output
    listing = _run(["library", "list", "--library", "firm"])
    assert listing.exit_code == 0 and "MediWound" in listing.output and "2 agreements" in listing.output
    found = _run(["library", "search", "What does Section 15.2 of the MediWound supply agreement say about disputes?",
                  "--library", "firm", "--k", "2"])
    assert found.exit_code == 0
    assert "Agreement: SUPPLY AGREEMENT" in found.output and "clause 15.2" in found.output
    none = _run(["library", "search", "What does Section 99.7 of the MediWound supply agreement provide?", "-l", "firm"])
    assert "no matching clause found" in none.output
    lay = _run(["library", "search", "May MediWound just walk away from the supply agreement?", "-l", "firm"])
    assert lay.exit_code == 0 and "Read as contract wording: termination for convenience" in lay.output
    assert "Read as" not in found.output  # a question in contract words shows no such line
    gone = _run(["library", "remove", "supply.txt", "--library", "firm"])
    assert gone.exit_code == 0 and "supply.txt" in gone.output
    assert "1 agreement in" in _run(["library", "list", "--library", "firm"]).output  # not "1 agreements" (tryout)


def test_missing_library_and_conflicting_arguments(env: Path) -> None:
    res = _run(["library", "search", "anything", "--library", "nosuch"])
    assert res.exit_code == 3 and "no library" in res.output and "--library nosuch)" in res.output
    elsewhere = env.parent / "my-libs" / "firm2"
    res = _run(["library", "list", "--library", str(elsewhere)])  # the hint keeps the path given (a tryout's)
    assert res.exit_code == 3 and f"--library {elsewhere})" in res.output.replace("\n", "")
    res = _run(["ask", str(env / "supply.txt"), "question?", "--library", "firm"])
    assert res.exit_code == 3 and "either files or --library" in res.output
    res = _run(["ask", "What is the term?", "--library", "nosuch"])
    assert res.exit_code == 3 and "no library" in res.output


def test_a_name_no_agreement_holds_is_said(env: Path) -> None:
    """A new user's tryout asked about "our NDA with Acme Widgets" in a library without it and got other agreements'
    clauses with no word that Acme is not there."""
    assert _run(["library", "add", str(env / "supply.txt"), str(env / "sub"), "--library", "names"]).exit_code == 0
    res = _run(["library", "search", "How long must we keep things secret under our NDA with Acme Widgets?", "-l", "names"])
    assert "No agreement in the library names 'Acme Widgets'" in res.output.replace("\n", " ")
    plain = _run(["library", "search", "How long must information be kept confidential?", "-l", "names"])
    assert "No agreement named: searched the whole library." in plain.output
    named = _run(["library", "search", "What does the MediWound supply agreement say about disputes?", "-l", "names"])
    assert "Agreement: SUPPLY AGREEMENT" in named.output and "No agreement in the library names" not in named.output


def test_add_opens_encrypted_pdfs_with_the_password_given(env: Path) -> None:
    robust = Path(__file__).resolve().parents[2].parent / "shared" / "robustness" / "encrypted_user_pw.pdf"
    if not robust.exists():
        pytest.skip("needs ../shared/robustness/encrypted_user_pw.pdf: clone next to ../shared, as the README says")
    folder = env.parent / "locked"
    folder.mkdir()
    shutil.copy(robust, folder / "reseller.pdf")
    shutil.copy(MW, folder / "supply.txt")
    res = _run(["library", "add", str(folder), "--library", "pw"])
    assert res.exit_code == 2 and "reseller.pdf: encrypted, password required (pass --password)" in res.output
    assert "1 added" in res.output
    wrong = _run(["library", "add", str(folder), "--library", "pw", "--password", "nope"])
    assert wrong.exit_code == 2 and "the password given is wrong" in wrong.output and "1 unchanged" in wrong.output
    ok = _run(["library", "add", str(folder), "--library", "pw", "--password", "secret"])
    assert ok.exit_code == 0 and "1 added" in ok.output and "1 unchanged" in ok.output
    assert "RESELLER AGREEMENT" in _run(["library", "list", "--library", "pw"]).output


def test_library_rerank_setting_attaches_the_llm_scorer(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from clauselens.config import Settings
    from clauselens.errors import ConfigError
    from clauselens.library.opening import open_library
    from clauselens.retrieval.rerank import LLMRelevanceScorer

    assert _run(["library", "add", str(env / "supply.txt"), "--library", "rr"]).exit_code == 0
    assert open_library(Settings(), "rr").reranker is None  # off by default
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK", "llm")
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK_TOP", "7")
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__LIBRARY_RERANK_ABSTAIN", "0.3")
    model = object()  # the library layer never makes a model: the front end passes its getter
    lib = open_library(Settings(), "rr", chat_model=lambda: model)
    assert isinstance(lib.reranker, LLMRelevanceScorer) and (lib.rerank_top, lib.rerank_abstain) == (7, 0.3)
    assert lib.reranker.chat_model is model
    with pytest.raises(ConfigError, match="needs the Researcher's chat model"):
        open_library(Settings(), "rr")


def test_ask_library_rejects_tools_it_cannot_use(env: Path) -> None:
    """``ask --library`` searches through the library's own index: --mode / --tools / --precedents
    naming another tool get a message instead of being ignored (issue #43)."""
    assert _run(["library", "add", str(env / "supply.txt"), "--library", "firm"]).exit_code == 0
    for extra, said in ((["--mode", "navindex"], "--mode"), (["--tools", "hybrid,inject"], "--tools"),
                        (["--precedents", str(env / "supply.txt")], "--precedents")):
        res = _run(["ask", "What is the term?", "--library", "firm", *extra])
        assert res.exit_code == 3, res.output
        assert said in res.output and "cannot be used with --library" in res.output, res.output
