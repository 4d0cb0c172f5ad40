"""Agreement profile tokens of a tantivy library stored as ids (issue #42,
:class:`clauselens.library.lexical_tantivy.ProfileTokens`): the bm25s profile index built from
the ids scores exactly as one built from the token strings, a removed agreement's words leave the
vocabulary, the store round-trips without pickle, and a library written with the older
``profile_tokens.json`` is read and converted at its next commit."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tantivy")

from clauselens.library import Library  # noqa: E402
from clauselens.library.lexical_tantivy import ProfileTokens  # noqa: E402
from clauselens.library.storage import Bm25sLexical  # noqa: E402

PROFILES = {
    "a": "supply agreement acme corp beta llc term termination payment".split(),
    "b": "non disclosure agreement gamma delta confidential information term".split(),
    "c": "equipment lease omega sigma rent insurance rent".split(),
}


def _scores(ix: Bm25sLexical, queries: list[list[str]]) -> list[dict[str, float]]:
    return [ix.profile_scores(q) for q in queries]


def test_ids_build_scores_like_strings(tmp_path: Path) -> None:
    pt = ProfileTokens()
    for d, t in PROFILES.items():
        pt.put(d, t)
    pt.put("gone", ["unique", "words", "only", "here"])
    pt.pop("gone")
    ids, lists, vocab = pt.compact(["c", "a", "b"])
    assert ids == ["c", "a", "b"] and "unique" not in vocab and len(vocab) == len({w for t in PROFILES.values() for w in t})
    assert [[pt.words[i] for i in li] for li in lists] == [PROFILES[d] for d in ids]
    by_ids, by_str = Bm25sLexical(tmp_path / "ids"), Bm25sLexical(tmp_path / "str")
    by_ids.build(np.zeros(0, np.int64), [], ids, lists, 1, profile_vocab=vocab)
    by_str.build(np.zeros(0, np.int64), [], ids, [PROFILES[d] for d in ids], 1)
    qs = [["rent", "insurance"], ["agreement", "term"], ["confidential", "acme"], ["unique"]]
    got, want = _scores(by_ids, qs), _scores(by_str, qs)
    assert got == want and got[0] and set(got[1]) == {"a", "b"} and got[3] == {}


def test_round_trip_and_legacy_json(tmp_path: Path) -> None:
    pt = ProfileTokens()
    for d, t in PROFILES.items():
        pt.put(d, t)
    pt.save(tmp_path / "p.npz")
    back = ProfileTokens.load(tmp_path / "p.npz")
    assert {d: back.tokens(d) for d in PROFILES} == PROFILES
    (tmp_path / "old.json").write_text(json.dumps(PROFILES))
    legacy = ProfileTokens.load(tmp_path / "missing.npz", tmp_path / "old.json")
    assert {d: legacy.tokens(d) for d in PROFILES} == PROFILES
    assert len(ProfileTokens.load(tmp_path / "missing.npz", tmp_path / "missing.json")) == 0


def test_library_converts_json_profiles(tmp_path: Path) -> None:
    d = tmp_path / "agreements"
    d.mkdir()
    (d / "supply.txt").write_text("SUPPLY AGREEMENT\nbetween Acme Corp and Beta LLC.\n1. Term\n1.1 Five years.\n",
                                  encoding="utf-8")
    (d / "lease.txt").write_text("EQUIPMENT LEASE\nbetween Omega Leasing and Sigma Foods.\n1. Rent\n1.1 Monthly rent.\n",
                                 encoding="utf-8")
    lib = Library.open(tmp_path / "lib", embedder_name="none", lexical="tantivy")
    lib.add([d / "supply.txt"])
    root = lib.lexical.root  # type: ignore[attr-defined]
    before = lib.lexical.profile_scores(lib.analyzer.tokenize("Acme supply agreement"))
    pt = ProfileTokens.load(root / "profile_tokens.npz")
    (root / "profile_tokens.json").write_text(json.dumps({k: pt.tokens(k) for k in pt.docs}))  # as written before
    (root / "profile_tokens.npz").unlink()
    lib = Library.open(tmp_path / "lib", create=False)
    assert lib.lexical.profile_scores(lib.analyzer.tokenize("Acme supply agreement")) == before
    lib.add([d / "lease.txt"])
    assert (root / "profile_tokens.npz").exists() and not (root / "profile_tokens.json").exists()
    names = {Path(r.path).name: r.doc_id for r in lib.agreements()}
    assert set(lib.lexical.profile_scores(lib.analyzer.tokenize("Omega leasing rent"))) == {names["lease.txt"]}
    assert names["supply.txt"] in lib.lexical.profile_scores(lib.analyzer.tokenize("Acme supply"))


def test_compact_keeps_only_the_listed_agreements() -> None:
    pt = ProfileTokens()
    for d, t in PROFILES.items():
        pt.put(d, t)
    ids, _, vocab = pt.compact(["b"])
    assert ids == ["b"] and set(pt.docs) == {"b"} and set(vocab) == set(PROFILES["b"])
    assert pt.compact([]) == ([], [], {}) and len(pt) == 0 and pt.words == []


@pytest.mark.parametrize("n_vocab", [40, 70_000])  # 70,000 words: the sort by token cannot use 16-bit keys
def test_vectorised_profile_index_is_bm25s_bit_for_bit(n_vocab: int) -> None:
    from clauselens.library.lexical_tantivy import profile_index

    rng = np.random.default_rng(n_vocab)
    lists = [rng.integers(0, n_vocab, int(rng.integers(0, 60))).astype(np.int32) for _ in range(50)]
    lists[3] = np.zeros(0, np.int32)  # a profile without tokens
    lists.append(np.arange(n_vocab, dtype=np.int32))  # every word used (the vocabulary is compacted)
    vocab = {f"w{i}": i for i in range(n_vocab)}
    want = Bm25sLexical._index([x.tolist() for x in lists], dict(vocab))
    got = profile_index(lists, dict(vocab))
    for k in ("data", "indices", "indptr"):
        assert got.scores[k].dtype == want.scores[k].dtype and np.array_equal(got.scores[k], want.scores[k]), k
    assert got.scores["num_docs"] == want.scores["num_docs"] == 51 and got.vocab_dict == want.vocab_dict
    q = [f"w{i}" for i in rng.integers(0, n_vocab, 5)]
    assert np.array_equal(got.get_scores(q), want.get_scores(q)) and got.get_scores(q).any()
    assert profile_index([np.zeros(0, np.int32)] * 3, {}) is None and Bm25sLexical._index([[]] * 3, {}) is None
