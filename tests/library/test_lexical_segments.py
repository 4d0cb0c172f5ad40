"""The segment-growing lexical index (issue #42, :mod:`clauselens.library.lexical_tantivy`):
an add writes a segment and rebuilds nothing, a changed file and a removal are segment
operations, exact clause-number and defined-term fields work as with bm25s, the ranking of a
whole-library search matches bm25s on the same small library, and a process killed mid-add
(SIGKILL, as the Milvus tests do) leaves a library that opens and answers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("tantivy")

from clauselens.library import Library  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

SUPPLY = """SUPPLY AGREEMENT
between Acme Corp and Beta LLC.
1. Term
1.1 This Agreement lasts five years from the Effective Date.
2. Termination
2.1 Either party may terminate this Agreement on ninety days written notice.
3. Payment
3.1 Fees are due within thirty days of each invoice.
"""
NDA = """NON-DISCLOSURE AGREEMENT
between Gamma Inc and Delta Ltd.
1. Confidential Information
1.1 "Confidential Information" means all information disclosed by one party to the other.
2. Term
2.1 The obligations of confidentiality survive for two years.
"""
LEASE = """EQUIPMENT LEASE
between Omega Leasing and Sigma Foods.
1. Rent
1.1 Lessee pays monthly rent of five thousand dollars.
2. Insurance
2.1 Lessee insures the equipment against loss and damage.
"""


def _files(tmp_path: Path) -> Path:
    d = tmp_path / "agreements"
    d.mkdir()
    for name, text in (("supply.txt", SUPPLY), ("nda.txt", NDA), ("lease.txt", LEASE)):
        (d / name).write_text(text, encoding="utf-8")
    return d


def test_add_writes_segments_and_never_rebuilds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = _files(tmp_path)
    lib = Library.open(tmp_path / "lib", embedder_name="none", lexical="tantivy")
    assert lib.add([d / "supply.txt", d / "nda.txt"]).added
    calls = []
    monkeypatch.setattr(Library, "rebuild_lexical", lambda self: calls.append(1))
    lib.add([d / "lease.txt"])
    assert calls == []  # the third agreement is a segment, not a rebuild
    assert lib.lexical.generation() == lib.catalogue.generation()
    hit = lib.search("insurance of the equipment", 3, resolve=False).passages
    assert hit and hit[0].clause_ref == "2.1" and "insures" in hit[0].text
    (d / "supply.txt").write_text(SUPPLY + "4. Audit\n4.1 Acme may audit the books of Beta once a year.\n", encoding="utf-8")
    assert lib.add([d]).updated == [str((d / "supply.txt").resolve())]
    audit = lib.search("audit the books", 5, resolve=False).passages
    assert [p.clause_ref for p in audit if "audit" in p.text] == ["4.1"]  # the old version's passages are gone
    assert lib.remove(["nda.txt"]) and calls == []
    again = Library.open(tmp_path / "lib", create=False)
    assert type(again.lexical).__name__ == "TantivyLexical"
    assert not [p for p in again.search("confidential information", 5, resolve=False).passages if "Gamma" in p.text]
    assert {p.doc_id for p in again.search("terminate written notice", 5, resolve=False).passages} <= \
        {r.doc_id for r in again.agreements()}


def test_exact_fields_and_ranking_match_bm25s(tmp_path: Path) -> None:
    d = _files(tmp_path)
    libs = {e: Library.open(tmp_path / e, embedder_name="none", lexical=e) for e in ("bm25s", "tantivy")}
    for lib in libs.values():
        lib.add([d])
    for q in ("Section 3.1 of the supply agreement", "How is 'Confidential Information' defined in the NDA?",
              "terminate on written notice", "monthly rent"):
        got = {e: [(p.doc_id, p.clause_ref) for p in lib.search(q, 3).passages] for e, lib in libs.items()}
        assert got["tantivy"] and got["tantivy"][0] == got["bm25s"][0], (q, got)
    with pytest.raises(Exception, match="lexical engine"):
        Library.open(tmp_path / "bm25s", lexical="tantivy")


def test_interrupted_add_releases_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = _files(tmp_path)
    lib = Library.open(tmp_path / "lib", embedder_name="none", lexical="tantivy")
    lib.add([d / "lease.txt"])
    real = lib.catalogue.put_agreement
    calls = {"n": 0}

    def crash_on_second(*a, **kw):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # Ctrl+C between two agreements
        return real(*a, **kw)

    monkeypatch.setattr(lib.catalogue, "put_agreement", crash_on_second)
    with pytest.raises(KeyboardInterrupt):
        lib.add([d / "nda.txt", d / "supply.txt"])
    monkeypatch.undo()
    again = Library.open(tmp_path / "lib", create=False)  # same process: the writer's lock was released
    assert sorted(Path(r.path).name for r in again.agreements()) == ["lease.txt", "nda.txt"]
    rep = again.add([d])
    assert rep.added == [str((d / "supply.txt").resolve())] and len(again) == 3
    assert again.search("ninety days written notice", 3, resolve=False).passages[0].clause_ref == "2.1"


_KILLER = """
import os, signal, sys
from pathlib import Path
from clauselens.library import Library
import clauselens.library.lexical_tantivy as lt
lib = Library.open(sys.argv[1], embedder_name="none", lexical="tantivy")
when, files = sys.argv[2], [Path(p) for p in sys.argv[3:]]
real_write = lt._write_atomic

def write(path, text):
    if when == "before-meta" and path.name == "lexical_meta.json":
        print("killing", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # segment committed, generation not recorded
    return real_write(path, text)

lt._write_atomic = write
real_add = lib.lexical.add_passages

def add_passages(doc_id, rows, tokens, profile):
    real_add(doc_id, rows, tokens, profile)
    if when == "mid-add" and "nda" in doc_id:
        print("killing", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)  # catalogue row written, segment staged, nothing committed
lib.lexical.add_passages = add_passages
lib.add(files)
print("finished", flush=True)
"""


@pytest.mark.parametrize("when", ["mid-add", "before-meta"])
def test_add_killed_leaves_a_readable_library(tmp_path: Path, when: str) -> None:
    d = _files(tmp_path)
    root = tmp_path / "lib"
    first = Library.open(root, embedder_name="none", lexical="tantivy")
    first.add([d / "lease.txt"])
    del first
    proc = subprocess.run([sys.executable, "-c", _KILLER, str(root), when, str(d / "supply.txt"), str(d / "nda.txt")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)},
                          cwd=str(REPO))
    assert proc.returncode == -signal.SIGKILL and "killing" in proc.stdout, proc.stdout + proc.stderr
    lib = Library.open(root, create=False)  # the catalogue moved on without the index: rebuilt on open
    assert lib.lexical.generation() == lib.catalogue.generation()
    names = sorted(Path(r.path).name for r in lib.agreements())
    assert "lease.txt" in names and "supply.txt" in names
    assert lib.search("monthly rent", 3, resolve=False).passages[0].clause_ref == "1.1"
    for name in names:  # every agreement the catalogue holds is searchable
        doc = next(r.doc_id for r in lib.agreements() if Path(r.path).name == name)
        assert lib.lexical.top_passages(["agreement", "leas", "confidenti", "term"], None, [doc], 5) or name == "lease.txt"
    rep = lib.add([d])  # resumable
    assert len(lib) == 3 and not rep.failed
