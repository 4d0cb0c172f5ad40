"""LegalBench-RAG through the library (issue #17): library passages become the benchmark's
snippets, are scored by the benchmark's own code, and resolution is counted against the
gold document (real queries, a three-agreement library built in a temp dir)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.legalbench_rag import (  # noqa: E402
    DATA,
    aggregate,
    bm25_statistics,
    build_library,
    corpus_files,
    library_backend,
    library_differences,
    library_doc_map,
    library_local_idf,
    library_options,
    library_query,
    library_ranked,
    load_tests,
    record_build_time,
    resolution_summary,
    score_query,
)
from clauselens.parsing.types import Span  # noqa: E402
from clauselens.retrieval.types import Passage  # noqa: E402

DISTRACTOR = "contractnli/AGProjects-NDA.txt"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Two ContractNLI queries on one NDA and one PrivacyQA query (the first of the mini
    selection), in a library of their two gold documents plus a distractor NDA."""
    path_map = json.loads((DATA / "corpus_path_map.json").read_text())["map"]
    tests = load_tests(["contractnli", "privacy_qa"], "mini", None)
    picked = {"contractnli": tests["contractnli"][:2], "privacy_qa": tests["privacy_qa"][:1]}
    files = corpus_files(picked, "selection", path_map)
    assert sorted(files) == ["contractnli/ceii-and-nda.txt", "privacy_qa/Fiverr.txt"]
    files[DISTRACTOR] = DATA / "corpus" / DISTRACTOR
    lib, _, rep = build_library(tmp_path_factory.mktemp("lib") / "tiny-none", files, log=False)
    assert not rep.failed and len(lib) == 3
    doc_map = library_doc_map(lib, files)
    texts = {d: p.read_text(encoding="utf-8") for d, p in files.items()}
    return lib, files, picked, doc_map, texts


def test_library_passages_become_benchmark_snippets(tiny):
    lib, files, picked, doc_map, texts = tiny
    assert sorted(doc_map.values()) == sorted(files)
    for _, t in picked["contractnli"] + picked["privacy_qa"]:
        res = lib.search(t["query"], k=64)
        ranked = library_ranked(res.passages, doc_map)
        assert len(ranked) == len(res.passages) > 8
        for p, r in zip(res.passages, ranked):
            assert r["doc"] == str(Path(p.source_path).resolve().relative_to((DATA / "corpus").resolve()))
            (s, e), = r["spans"]
            assert (s, e) == (p.spans[0].start, p.spans[0].end)
            assert texts[r["doc"]][s:e] == p.text  # offsets into the file as read (what gold spans index)


def test_scores_and_resolution_of_real_queries(tiny):
    lib, files, picked, doc_map, texts = tiny
    inv = {v: k for k, v in doc_map.items()}
    done = {}
    for s, ts in picked.items():
        for i, t in ts:
            row = library_query(lib, t["query"], doc_map, inv)
            done[(s, i)] = row
            gold_doc = t["snippets"][0]["file_path"]
            # in a 3-document library the short "Consider ..." description may leave the resolver
            # "uncertain" (the best few searched together); the gold document must rank first
            assert row["resolution"]["first"] == gold_doc and gold_doc in row["resolution"]["chosen"]
            assert row["resolution"]["status"] in ("resolved", "uncertain")
            gold = [(sn["file_path"], *sn["span"]) for sn in t["snippets"]]
            m = score_query(row["ranked"], gold)
            # P@1 / R@1 by hand: characters of the top passage inside gold spans
            (a, b), = row["ranked"][0]["spans"]
            inside = sum(max(0, min(b, e) - max(a, st)) for f, st, e in gold if f == row["ranked"][0]["doc"])
            assert m["P"][0] == pytest.approx(inside / (b - a))
            assert m["R"][0] == pytest.approx(inside / sum(e - st for _, st, e in gold))
            if row["resolution"]["status"] == "resolved":
                assert m["DRM"][3] == 0.0  # every top-8 passage from the (resolved) gold document
            assert m["Rm"][-1] >= 0.5, t["query"]  # the gold clause text is retrieved by k = 64
    per_set, macro, lats = aggregate(picked, done)
    assert per_set["contractnli"]["queries"] == 2 and per_set["privacy_qa"]["queries"] == 1 and len(lats) == 3
    assert macro["recall_merged"]["64"] == pytest.approx(
        (per_set["contractnli"]["recall_merged"]["64"] + per_set["privacy_qa"]["recall_merged"]["64"]) / 2, abs=0.01)
    golds = [t["snippets"][0]["file_path"] for ts in picked.values() for _, t in ts]
    summary = resolution_summary(list(done.values()), golds)
    assert summary["gold_ranked_first"] == 100.0 and summary["gold_among_searched"] == 100.0


def test_resolution_summary_counts_wrong_and_shared_resolutions():
    rows = [{"resolution": {"status": "resolved", "chosen": ["a.txt"], "first": "a.txt"}},
            {"resolution": {"status": "resolved", "chosen": ["b.txt"], "first": "b.txt"}},
            {"resolution": {"status": "ambiguous", "chosen": ["b.txt", "a.txt"], "first": "b.txt"}},
            {"resolution": {"status": "uncertain", "chosen": ["a.txt", "c.txt"], "first": "a.txt"}},
            {"resolution": {"status": "unnamed", "chosen": [], "first": None}, "abstained": True}]
    r = resolution_summary(rows, ["a.txt"] * 5)
    assert r["resolved_to_gold_alone"] == 20.0 and r["gold_among_searched"] == 60.0 and r["gold_ranked_first"] == 40.0
    assert r["status_counts"] == {"ambiguous": 1, "resolved": 2, "uncertain": 1, "unnamed": 1} and r["abstained"] == 1


def test_library_method_flags():
    """``-milvus`` picks the backend, ``-globalidf`` turns off the local backend's per-agreement
    BM25 statistics (and means nothing on Milvus, so it is refused there)."""
    assert library_options("library", "minilm") == (False, "none")
    assert library_options("library-filenames-dense", "minilm") == (True, "minilm")
    assert library_options("library-nolay", "minilm") == library_options("library", "minilm")  # same library, no lay terms
    assert library_backend("library-milvus") == "milvus" and library_backend("library-globalidf") == "local"
    assert library_local_idf("library") and library_local_idf("library-milvus")
    assert not library_local_idf("library-globalidf") and not library_local_idf("library-filenames-globalidf")
    assert "library-wide" in bm25_statistics("library-globalidf") and "Milvus" in bm25_statistics("library-milvus")
    for bad in ("library-milvus-globalidf", "library-bm42", "bm25-library"):
        with pytest.raises(SystemExit):
            library_options(bad, "minilm")


def test_library_differences_query_by_query(tiny):
    """Two rows of one run compared per query: identical rows differ nowhere; a changed
    resolution, abstention and first passage are each counted and the query is listed with
    both rows' merged recall."""
    lib, files, picked, doc_map, texts = tiny
    inv = {v: k for k, v in doc_map.items()}
    rows = [{"set": s, "idx": i, **library_query(lib, t["query"], doc_map, inv)} for s, ts in picked.items() for i, t in ts]
    same = library_differences(rows, rows, picked)
    assert same["queries"] == [] and same["counts"]["queries"] == 3
    assert all(v == 0 for k, v in same["counts"].items() if k.endswith("differs"))
    assert same["counts"]["recall_merged@64"] == {"a_better": 0, "b_better": 0}
    other = [dict(r) for r in rows]
    other[0] = {**rows[0], "ranked": rows[0]["ranked"][::-1][:1], "abstained": not rows[0]["abstained"],
                "resolution": {"status": "unnamed", "chosen": [], "first": None}}
    d = library_differences(rows, other, picked)
    c = d["counts"]
    assert c["resolution_differs"] == c["abstention_differs"] == c["first_passage_differs"] == c["top64_set_differs"] == 1
    assert c["recall_merged@64"] == {"a_better": 1, "b_better": 0}  # one passage of 64 recalls less
    (q,) = d["queries"]
    assert (q["set"], q["idx"]) == (rows[0]["set"], rows[0]["idx"]) and q["n_ranked"] == [len(rows[0]["ranked"]), 1]
    assert q["recall_merged@64"][0] > q["recall_merged@64"][1] and not q["same_first_passage"]
    with pytest.raises(ValueError):
        library_differences(rows, rows[::-1], picked)


def test_a_passage_with_several_spans_is_refused():
    p = Passage(chunk_id="x:1:0", doc_id="x", node_id="1", text="ab", spans=[Span(start=0, end=1), Span(start=5, end=6)],
                score=0.0, method="library")
    with pytest.raises(ValueError):
        library_ranked([p], {"x": "contractnli/x.txt"})


def test_build_time_sums_resumed_builds_but_not_a_full_reindex(tmp_path):
    """A resumed build adds to the recorded build time; a run that re-indexed every file (the
    library it found was stale, e.g. an older record format) starts the count again; a
    file-name variant copied from a seed starts from the seed's time."""
    src = [DATA / "corpus" / DISTRACTOR, DATA / "corpus" / "contractnli" / "ceii-and-nda.txt"]
    files = {}
    for p in src:
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
        files[p.name] = tmp_path / p.name
    root = tmp_path / "t-none"
    side = tmp_path / "t-none.build.json"
    first = dict(list(files.items())[:1])
    _, s1, rep = build_library(root, first, log=False)
    assert rep.added and json.loads(side.read_text()) == {"seconds": round(s1, 1), "runs": 1, "seeded_from": None}
    side.write_text(json.dumps({"seconds": 1000.0, "runs": 1, "seeded_from": None}))
    _, s2, rep = build_library(root, files, log=False)  # resumed: one file kept, one added
    assert len(rep.unchanged) == 1 and len(rep.added) == 1
    assert json.loads(side.read_text()) == {"seconds": round(1000.0 + s2, 1), "runs": 2, "seeded_from": None}
    seeded = tmp_path / "t-none-filenames"
    _, s3, rep = build_library(seeded, files, file_names=True, seed=root, log=False)
    assert not rep.added and not rep.updated and len(rep.unchanged) == 2
    assert json.loads((tmp_path / "t-none-filenames.build.json").read_text()) == {
        "seconds": round(round(1000.0 + s2, 1) + s3, 1), "runs": 1, "seeded_from": str(root)}
    for p in files.values():  # every file changes: the next run re-indexes all of them
        p.write_text(p.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _, s4, rep = build_library(root, files, log=False)
    assert len(rep.updated) == 2 and not rep.unchanged
    assert json.loads(side.read_text()) == {"seconds": round(s4, 1), "runs": 1, "seeded_from": None}


def test_build_time_of_a_stale_seed_is_not_carried(tmp_path):
    seed_side = tmp_path / "s.build.json"
    seed_side.write_text(json.dumps({"seconds": 50.0, "runs": 1, "seeded_from": None}))
    side = tmp_path / "v.build.json"
    side.write_text(json.dumps({"seconds": 7.0, "runs": 3, "seeded_from": "old"}))  # a deleted library's leftover
    assert record_build_time(side, 2.0, carried=True, seed_side=seed_side, seed=tmp_path / "s") == {
        "seconds": 52.0, "runs": 1, "seeded_from": str(tmp_path / "s")}
    assert record_build_time(side, 2.0, carried=False, seed_side=seed_side, seed=tmp_path / "s") == {
        "seconds": 2.0, "runs": 1, "seeded_from": str(tmp_path / "s")}
