"""One file's add overlapped with its embedding (issue #42, :mod:`clauselens.library.indexing`):
the overlapped add leaves the same vectors, catalogue and profile index as the serial one and
builds the profile index once (ahead of the commit); a prepared profile index whose assumptions
no longer hold is not used; a process killed while the passages are being embedded (after the
profile index was prepared) leaves the last committed library readable."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from clauselens.library import Library, lexical_tantivy
from clauselens.library.lexical_tantivy import TantivyLexical  # tantivy is a core dependency: no skip

REPO = Path(__file__).resolve().parents[2]

TEXTS = {
    "supply.txt": "SUPPLY AGREEMENT\nbetween Acme Corp and Beta LLC.\n1. Term\n1.1 This Agreement lasts five years.\n"
                  "2. Termination\n2.1 Either party may terminate on ninety days written notice.\n",
    "nda.txt": "NON-DISCLOSURE AGREEMENT\nbetween Gamma Inc and Delta Ltd.\n1. Confidential Information\n"
               "1.1 \"Confidential Information\" means all information disclosed.\n2. Term\n2.1 Obligations survive two years.\n",
    "lease.txt": "EQUIPMENT LEASE\nbetween Omega Leasing and Sigma Foods.\n1. Rent\n1.1 Lessee pays monthly rent.\n"
                 "2. Insurance\n2.1 Lessee insures the equipment against loss.\n",
}


class HashEmbedder:
    """Deterministic unit vectors from each text's sha256; ``delay`` seconds per call (so the
    main thread's work really runs while the worker embeds)."""

    name = "hash8"
    dim = 8

    def __init__(self, delay: float = 0.05) -> None:
        self.delay = delay

    def _vec(self, texts: Sequence[str]) -> np.ndarray:
        time.sleep(self.delay)
        v = np.asarray([np.frombuffer(hashlib.sha256(t.encode()).digest()[:8], np.uint8) for t in texts], np.float32) - 127.5
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    embed_queries = embed_passages = _vec


def _files(tmp_path: Path) -> Path:
    d = tmp_path / "agreements"
    d.mkdir()
    for name, text in TEXTS.items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def _library_state(lib: Library) -> tuple:
    lex = lib.lexical
    probes = [["rent"], ["agreement", "term"], ["confidenti", "gamma"], ["acme", "beta", "leas"]]
    recs = [(Path(r.path).name, r.doc_id) for r in lib.agreements()]
    return (recs, lib.vectors._map().tobytes(), [lex.profile_scores(p) for p in probes],  # type: ignore[attr-defined]
            [lex.top_passages(p, None, None, 10) for p in probes])  # type: ignore[call-arg]


def _commits_using_prepared(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per :meth:`TantivyLexical.commit` from now on: True when it built no profile index of its own
    (it published the one :meth:`~TantivyLexical.prepare_profiles` built)."""
    built: list[int] = []
    out: list[bool] = []
    real_index, real_commit = lexical_tantivy.profile_index, TantivyLexical.commit

    def index(*a, **kw):  # type: ignore[no-untyped-def]
        built.append(1)
        return real_index(*a, **kw)

    def commit(self, *a, **kw):  # type: ignore[no-untyped-def]
        n = len(built)
        try:
            return real_commit(self, *a, **kw)
        finally:
            out.append(len(built) == n)

    monkeypatch.setattr(lexical_tantivy, "profile_index", index)
    monkeypatch.setattr(TantivyLexical, "commit", commit)
    return out


def test_overlapped_add_matches_serial_and_builds_profiles_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = _files(tmp_path)
    prepared = _commits_using_prepared(monkeypatch)
    states = {}
    for mode in ("serial", "overlap"):
        lib = Library.open(tmp_path / mode, embedder=HashEmbedder(), lexical="tantivy", vectors="f16")
        lib.overlap_add = mode == "overlap"
        lib.add([d / "lease.txt", d / "nda.txt"])  # two files: the first not prepared, the last prepared
        prepared.clear()
        lib.add([d / "supply.txt"])
        (d / "nda.txt").write_text(TEXTS["nda.txt"] + "3. Notices\n3.1 Notices go to the registered office.\n")
        lib.add([d / "nda.txt"])  # a changed file: the replaced version dropped in the prepared index too
        (d / "nda.txt").write_text(TEXTS["nda.txt"], encoding="utf-8")
        assert prepared == [mode == "overlap"] * 2  # the overlapped commits publish the index built while embedding
        states[mode] = _library_state(Library.open(tmp_path / mode, create=False, embedder=HashEmbedder(0)))
    assert states["serial"] == states["overlap"]
    assert len(states["overlap"][0]) == 3 and states["overlap"][2][0]


def test_prepared_profiles_used_only_for_the_changes_they_assumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lex = TantivyLexical(tmp_path / "lex")
    lex.build(np.zeros(0, np.int64), [], ["a", "b"], [["supply", "acme"], ["lease", "rent"]], 1)
    used = _commits_using_prepared(monkeypatch)
    lex.prepare_profiles(["a", "b", "c"], ["c"], "c", ["nda", "gamma"])
    lex.remove_doc("c")
    lex.add_passages("c", [5], [["nda"]], ["nda", "gamma"])
    lex.commit(2, ["a", "b", "c"])
    lex.prepare_profiles(["a", "b", "c", "d"], ["d"], "d", ["guess"])  # a different profile staged than prepared
    lex.remove_doc("d")
    lex.add_passages("d", [6], [["other"]], ["other", "words"])
    lex.commit(3, ["a", "b", "c", "d"])
    lex.prepare_profiles(["b", "c", "d"], ["a"], "a", ["supply"])  # the order the commit gets differs
    lex.commit(4, ["a", "b", "c", "d"])
    assert used == [True, False, False]
    fresh = TantivyLexical(tmp_path / "fresh")
    fresh.build(np.zeros(0, np.int64), [], ["a", "b", "c", "d"],
                [["supply", "acme"], ["lease", "rent"], ["nda", "gamma"], ["other", "words"]], 4)
    for q in (["nda"], ["words", "rent"], ["guess"], ["supply"]):
        assert lex.profile_scores(q) == fresh.profile_scores(q)


_KILLER = """
import os, signal, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from test_add_overlap import HashEmbedder
from clauselens.library import Library

class Killing(HashEmbedder):
    def embed_passages(self, texts):
        if "ninety" in " ".join(texts):
            time.sleep(0.5)  # the main thread prepares the profile index meanwhile
            print("killing", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        return self._vec(texts)

lib = Library.open(sys.argv[1], create=False, embedder=Killing())
lib.add([Path(sys.argv[2])])
print("finished", flush=True)
"""


def test_killed_while_embedding_leaves_the_last_commit(tmp_path: Path) -> None:
    d = _files(tmp_path)
    root = tmp_path / "lib"
    first = Library.open(root, embedder=HashEmbedder(), lexical="tantivy", vectors="f16")
    first.add([d / "lease.txt"])
    before = _library_state(first)
    del first
    proc = subprocess.run([sys.executable, "-c", _KILLER, str(root), str(d / "supply.txt"), str(Path(__file__).parent)],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)},
                          cwd=str(REPO))
    assert proc.returncode == -signal.SIGKILL and "killing" in proc.stdout, proc.stdout + proc.stderr
    lib = Library.open(root, create=False, embedder=HashEmbedder(0))
    assert lib.lexical.generation() == lib.catalogue.generation()
    after = _library_state(lib)
    assert after[0] == before[0] and after[2:] == before[2:]
    assert lib.search("monthly rent", 3, resolve=False).passages[0].clause_ref == "1.1"
    rep = lib.add([d])  # resumable
    assert len(lib) == 3 and not rep.failed
