"""The library on the ``milvus`` backend (issue #20), run against a real Milvus Lite file (no
mock): the same results contract as the local backend on real CUAD contracts (resolution,
exact clause numbers, defined terms, "no matching clause found", filters), clause numbers kept
exact by the BM25 analyzer setup, incremental add / update / prune / remove, an ``add`` killed
with SIGKILL before and after its commit point, the dense path through ``hybrid_search``, and
the CLI (``library add --backend milvus --uri``)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pymilvus")
pytest.importorskip("milvus_lite")

from clauselens.library import Library  # noqa: E402
from clauselens.library.milvus import milvus_term  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CUAD = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
FILES = {
    "a1.txt": "MEDIWOUNDLTD_01_15_2014-EX-10.6-SUPPLY AGREEMENT.txt",
    "a2.txt": "KitovPharmaLtd_20190326_20-F_EX-4.15_11584449_EX-4.15_Manufacturing Agreement.txt",
    "a3.txt": "NANOPHASETECHNOLOGIESCORP_11_01_2005-EX-99.1-DISTRIBUTOR AGREEMENT.txt",
    "a4.txt": "IMPCOTECHNOLOGIESINC_04_15_2003-EX-10.65-JOINT VENTURE AGREEMENT.txt",
}
needs_cuad = pytest.mark.skipif(not all((CUAD / f).exists() for f in FILES.values()),
                                reason="needs the CUAD corpus in ../shared/data/legalbench-rag")

QUESTIONS = [
    "How is 'Product' defined in the MediWound supply agreement?",
    "How is 'Territory' defined in the Alfa Aesar / Nanophase distributor agreement?",
    "What does Section 5.6.3 of the MediWound supply agreement say about testing?",
    "What does clause 14.3(b) of the MediWound supply agreement say?",  # no such clause
    "What does the Dexcel / Kitov manufacturing agreement say about recalls?",
    "Which law governs the agreement?",  # names no agreement
]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("corpus")
    for name, src in FILES.items():
        shutil.copy(CUAD / src, d / name)
    return d


@pytest.fixture(scope="module")
def libs(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, Library]:
    root = tmp_path_factory.mktemp("libs")
    local = Library.open(root / "local", embedder_name="none")
    milvus = Library.open(root / "milvus", embedder_name="none", backend="milvus")
    for lib in (local, milvus):
        rep = lib.add([corpus])
        assert len(rep.added) == 4 and not rep.failed
    return local, milvus


def _names(lib: Library, doc_ids) -> list[str]:
    recs = {r.doc_id: Path(r.path).name for r in lib.agreements()}
    return [recs[d] for d in doc_ids]


@needs_cuad
def test_catalogue_and_collections_on_milvus(libs: tuple[Library, Library]) -> None:
    local, milvus = libs
    assert milvus.meta["backend"] == "milvus" and milvus.meta["uri"].endswith("milvus.db")
    strip = lambda r: r.model_dump(exclude={"added_utc"})  # noqa: E731
    assert [strip(r) for r in milvus.agreements()] == [strip(r) for r in local.agreements()]
    store = milvus.catalogue.store
    n = len(store.query("passages", "row >= 0", ["row"]))
    assert n == sum(r.passages for r in milvus.agreements()) > 200
    # the filters are scalar fields of every passage
    hit = store.query("passages", 'doc_type == "agreement" and year == 2005', ["doc_id", "parties"], limit=1)
    assert _names(milvus, [hit[0]["doc_id"]]) == ["a3.txt"] and "NTC" in hit[0]["parties"]


@needs_cuad
@pytest.mark.parametrize("question", QUESTIONS)
def test_same_results_contract_as_the_local_backend(libs: tuple[Library, Library], question: str) -> None:
    local, milvus = libs
    a, b = local.search(question, 5), milvus.search(question, 5)
    assert b.trace["resolution"]["chosen"] == a.trace["resolution"]["chosen"]
    assert (b.abstained, b.reason) == (a.abstained, a.reason)
    exact_a = [p.chunk_id for p in a.passages if p.method == "exact"]
    assert [p.chunk_id for p in b.passages if p.method == "exact"] == exact_a
    if not a.abstained:
        assert len(b.passages) == 5 and all(p.source_path and p.doc_title is not None for p in b.passages)
        if a.trace["resolution"]["chosen"]:
            assert {p.doc_id for p in b.passages} <= set(a.trace["resolution"]["chosen"])
        else:  # the whole library, each passage labelled with its agreement
            assert len({p.doc_id for p in b.passages}) >= 2 and {p.doc_id for p in b.passages} <= {r.doc_id for r in milvus.agreements()}


@needs_cuad
def test_defined_term_and_clause_number_come_first(libs: tuple[Library, Library]) -> None:
    _, milvus = libs
    res = milvus.search("How is 'Product' defined in the MediWound supply agreement?", 3)
    assert res.passages[0].method == "exact" and '"Product"' in res.passages[0].text
    res = milvus.search("What does Section 5.6.3 of the MediWound supply agreement say about testing?", 3)
    assert res.passages[0].clause_ref == "5.6.3"
    res = milvus.search("What does clause 14.3(b) of the MediWound supply agreement say?", 3)
    assert res.abstained and res.reason.startswith("no matching clause found: clause 14.3(b) is not in")


@needs_cuad
def test_filters_restrict_the_agreements(libs: tuple[Library, Library]) -> None:
    _, milvus = libs
    res = milvus.search("Who pays for shipping?", 10, year=2005)
    assert res.passages and set(_names(milvus, {p.doc_id for p in res.passages})) == {"a3.txt"}
    res = milvus.search("Who pays for shipping?", 10, party="Kitov")
    assert res.passages and set(_names(milvus, {p.doc_id for p in res.passages})) == {"a2.txt"}
    assert milvus.search("Who pays for shipping?", 10, doc_type="amendment").abstained


def test_clause_numbers_stay_exact_in_milvus_bm25(tmp_path: Path) -> None:
    assert milvus_term("14.3(b)") == "14_3_b" and milvus_term("5.17") == "5_17" and milvus_term("termin") == "termin"
    d = tmp_path / "c"
    d.mkdir()
    (d / "x.txt").write_text(textwrap.dedent("""\
        SERVICES AGREEMENT

        This Services Agreement is made between Quillfeather Ltd ("Supplier") and Brambleton plc ("Customer").

        1. Scope
        The Supplier provides the services described in Schedule 5 for 17 months.

        2. Exclusions
        Obligations under clause 14.3(b) and § 5.17 of the Master Agreement do not apply.

        3. Fees
        Fees are payable under clause 14.3 within 30 days of an invoice (b) issued monthly.

        4. Term
        This agreement runs for 5 years and 17 days.
        """), encoding="utf-8")
    lib = Library.open(tmp_path / "lib", embedder_name="none", backend="milvus")
    assert len(lib.add([d]).added) == 1
    stored = lib.catalogue.store.query("passages", "row >= 0", ["tokens", "text"])
    assert any("14_3_b" in r["tokens"].split() and "5_17" in r["tokens"].split() for r in stored)

    def top(q: str) -> list[str]:
        rows, scores = lib.lexical.passage_scores(lib.analyzer.tokenize(q), None)
        order = np.argsort(-scores, kind="stable")
        return [c.text for c in lib.catalogue.passages(rows[order])]

    hits = top("14.3(b)")
    assert len(hits) == 1 and "clause 14.3(b) and § 5.17" in hits[0]  # not "14.3 ... (b)" of clause 3
    hits = top("§ 5.17")
    assert len(hits) == 1 and "§ 5.17" in hits[0]  # not "5 years and 17 days", not "Schedule 5 for 17 months"
    assert "clause 14.3 within" in top("14.3")[0]


@needs_cuad
def test_incremental_add_update_prune_remove(corpus: Path, tmp_path: Path) -> None:
    d = tmp_path / "c"
    d.mkdir()
    for name in ("a1.txt", "a2.txt", "a3.txt"):
        shutil.copy(corpus / name, d / name)
    lib = Library.open(tmp_path / "lib", embedder_name="none", backend="milvus")
    store = lib.catalogue.store
    assert len(lib.add([d]).added) == 3
    rep = lib.add([d])
    assert len(rep.unchanged) == 3 and not rep.added and not rep.updated
    (d / "a2.txt").write_text((d / "a2.txt").read_text(encoding="utf-8") + "\n\n99.1 Extra. A new clause on zebras.\n",
                              encoding="utf-8")
    rep = lib.add([d])
    assert [Path(p).name for p in rep.updated] == ["a2.txt"] and len(lib) == 3
    a2 = next(r.doc_id for r in lib.agreements() if Path(r.path).name == "a2.txt")
    batches = {r["batch"] for r in store.query("passages", f'doc_id == "{a2}"', ["batch"])}
    assert len(batches) == 1  # the old version's passages are gone
    res = lib.search("What does clause 99.1 of the Dexcel / Kitov manufacturing agreement say?", 3)
    assert res.passages[0].clause_ref == "99.1" and "zebras" in res.passages[0].text
    (d / "a1.txt").unlink()
    assert [Path(p).name for p in lib.add([d], prune=True).pruned] == ["a1.txt"]
    assert lib.remove(["a3.txt"]) == [str((d / "a3.txt").resolve())]
    assert [Path(r.path).name for r in lib.agreements()] == ["a2.txt"]
    assert {r["doc_id"] for r in store.query("passages", "row >= 0", ["doc_id"])} == {a2}
    assert {r["doc_id"] for r in store.query("facts", "id >= 0", ["doc_id"])} == {a2}
    again = Library.open(lib.root, create=False)  # a new process would see the same
    assert [Path(r.path).name for r in again.agreements()] == ["a2.txt"]
    assert again.lexical.generation() == again.catalogue.generation()


_KILLER = """
import os, signal, sys
from pathlib import Path
from clauselens.library import Library
lib = Library.open(sys.argv[1], embedder_name="none", backend="milvus")
store = lib.catalogue.store
when = sys.argv[2]
files = [Path(p) for p in sys.argv[3:]]
real_upsert, real_delete = store.client.upsert, store.client.delete
seen = {"agreements": 0}

def upsert(name, rows, **kw):
    if name == store.name("agreements"):
        seen["agreements"] += 1
        if seen["agreements"] == 2 and when == "before-commit":
            print("killing", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)  # its passages and facts are written, its agreement row is not
    return real_upsert(name, rows, **kw)

def delete(name, **kw):
    if when == "after-commit" and name == store.name("passages") and "batch !=" in kw.get("filter", ""):
        print("killing", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # committed, the replaced version's rows not yet deleted
    return real_delete(name, **kw)

store.client.upsert, store.client.delete = upsert, delete
lib.add(files)
print("finished", flush=True)
"""


def _killed_add(root: Path, when: str, files: list[Path]) -> str:
    proc = subprocess.run([sys.executable, "-c", _KILLER, str(root), when, *map(str, files)], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=str(REPO))
    assert proc.returncode == -signal.SIGKILL, proc.stdout + proc.stderr
    return proc.stdout


@needs_cuad
def test_add_killed_before_its_commit_leaves_the_library_as_it_was(corpus: Path, tmp_path: Path) -> None:
    root = tmp_path / "lib"
    assert "killing" in _killed_add(root, "before-commit", [corpus / "a1.txt", corpus / "a2.txt"])
    lib = Library.open(root, create=False)  # replays the journal: the half-written agreement is rolled back
    assert [Path(r.path).name for r in lib.agreements()] == ["a1.txt"]
    store = lib.catalogue.store
    a1 = lib.agreements()[0].doc_id
    assert {r["doc_id"] for r in store.query("passages", "row >= 0", ["doc_id"])} == {a1}
    assert {r["doc_id"] for r in store.query("facts", "id >= 0", ["doc_id"])} == {a1}
    assert not store.pending()
    assert lib.search("How is 'Product' defined in the MediWound supply agreement?", 3).passages
    rep = lib.add([corpus / "a1.txt", corpus / "a2.txt"])  # resumable: the rest is added
    assert len(rep.unchanged) == 1 and len(rep.added) == 1 and len(lib) == 2


@needs_cuad
def test_update_killed_after_its_commit_is_finished_on_open(corpus: Path, tmp_path: Path) -> None:
    d = tmp_path / "c"
    d.mkdir()
    shutil.copy(corpus / "a1.txt", d / "a1.txt")
    root = tmp_path / "lib"
    lib = Library.open(root, embedder_name="none", backend="milvus")
    lib.add([d])
    old_n = lib.agreements()[0].passages
    lib.catalogue.store.close()
    del lib
    (d / "a1.txt").write_text((d / "a1.txt").read_text(encoding="utf-8") + "\n\n99.1 Extra. A new clause on zebras.\n",
                              encoding="utf-8")
    assert "killing" in _killed_add(root, "after-commit", [d / "a1.txt"])
    lib = Library.open(root, create=False)
    (rec,) = lib.agreements()
    assert rec.passages == old_n + 1
    store = lib.catalogue.store
    assert len(store.query("passages", "row >= 0", ["row"])) == rec.passages  # the old version's rows are gone
    assert not store.pending()
    res = lib.search("What does clause 99.1 of the MediWound supply agreement say?", 3)
    assert "zebras" in res.passages[0].text


class _HashEmbedder:
    """A deterministic stand-in embedder (unit vectors seeded by the text), so the dense
    field and ``hybrid_search`` run without loading a model; Milvus itself is real."""

    name = "hash-16"
    dim = 16

    def _v(self, texts):
        out = np.stack([np.random.default_rng(int.from_bytes(hashlib.blake2b(t.encode(), digest_size=8).digest(), "little"))
                        .standard_normal(self.dim) for t in texts]).astype(np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    embed_passages = embed_queries = _v


@needs_cuad
@pytest.mark.parametrize("index", ["FLAT", "HNSW"])
def test_dense_path_goes_through_hybrid_search(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               index: str) -> None:
    monkeypatch.setenv("CLAUSELENS_MILVUS_DENSE_INDEX", index)
    emb = _HashEmbedder()
    lib = Library.open(tmp_path / "lib", embedder=emb, backend="milvus")
    assert lib.catalogue.store.dense_index == index
    lib.add([corpus / "a1.txt", corpus / "a3.txt"])
    res = lib.search("Who pays for shipping under the Alfa Aesar / Nanophase distributor agreement?", 5)
    assert res.trace["stage_hits"] == {"engine_rrf": 50} and len(res.passages) == 5
    q = emb.embed_queries([res.trace["ranking_query"]])[0]
    from clauselens.library.passages import embed_text

    for p in res.passages:
        assert p.method == "rrf" and 0 < p.scores["rrf"] <= 2 / 61 + 1e-6
        (chunk,) = [c for c in lib.catalogue.passages(lib.catalogue.rows_of([p.doc_id])) if c.id == p.chunk_id]
        assert p.scores["dense"] == pytest.approx(float(emb.embed_passages([embed_text(chunk)])[0] @ q), abs=1e-5)
    again = Library.open(tmp_path / "lib", embedder=emb, create=False)
    assert [p.chunk_id for p in again.search(res.query, 5).passages] == [p.chunk_id for p in res.passages]


@needs_cuad
def test_cli_add_with_backend_milvus_then_search(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from clauselens.cli import app

    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(app, ["library", "add", str(corpus / "a1.txt"), str(corpus / "a2.txt"), "--library", "firm",
                              "--backend", "milvus", "--uri", "./library.db"])
    assert res.exit_code == 0, res.output
    meta = json.loads((tmp_path / "cache" / "libraries" / "firm" / "library.json").read_text())
    assert meta["backend"] == "milvus" and meta["uri"] == str(tmp_path / "library.db")
    assert (tmp_path / "library.db").exists()
    res = runner.invoke(app, ["library", "search", "How is 'Product' defined in the MediWound supply agreement?",
                              "--library", "firm"])
    assert res.exit_code == 0, res.output
    assert "1. SUPPLY AGREEMENT" in res.output and "exact 1.0000" in res.output  # the passage defining it, first
    res = runner.invoke(app, ["library", "add", str(corpus / "a1.txt"), "--library", "firm", "--backend", "local"])
    assert res.exit_code != 0 and "uses backend 'milvus'" in res.output


@pytest.mark.slow
@needs_cuad
def test_ask_library_on_milvus(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_model_path: Path) -> None:
    """``library add --backend milvus`` then ``ask --library`` with the real 0.5B model: the
    question is resolved and the Researcher's passages come from Milvus."""
    from typer.testing import CliRunner

    from clauselens.cli import app

    monkeypatch.setenv("CLAUSELENS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CLAUSELENS_RETRIEVAL__EMBEDDER", "none")
    (tmp_path / "cache" / "models").mkdir(parents=True)
    for f in small_model_path.parent.glob(small_model_path.stem + "*"):
        (tmp_path / "cache" / "models" / f.name).symlink_to(f)
    runner = CliRunner()
    res = runner.invoke(app, ["library", "add", str(corpus / "a1.txt"), str(corpus / "a2.txt"), "--library", "firm",
                              "--backend", "milvus", "--uri", str(tmp_path / "firm.db")])
    assert res.exit_code == 0, res.output
    out = tmp_path / "out"
    res = runner.invoke(app, ["ask", "--library", "firm", "How is 'Facility' defined in the MediWound supply agreement?",
                              "--model", "qwen2.5-coder-0.5b", "--max-turns", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "the question names" in res.output and "SUPPLY AGREEMENT" in res.output
    transcript = json.loads((out / "report.transcript.json").read_text())
    texts = [p["text"] for p in transcript["passages"].values()]
    assert any('"Facility" means' in t for t in texts)
    assert all(Path(p["source_path"]).name == "a1.txt" for p in transcript["passages"].values())
    assert (out / "report.md").read_text().strip()
