"""Library scale benchmark core at a tiny size (synthetic agreements, ~500 passages)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.library_scale import RandomUnitEmbedder, plan_size, run  # noqa: E402

TOPICS = ["Definitions", "Term", "Payment", "Confidentiality", "Termination", "Insurance", "Indemnification",
          "Governing Law", "Assignment", "Notices", "Warranties", "Audit", "Exclusivity", "Force Majeure"]


NAMES = [("Acme", "Zephyr"), ("Borealis", "Yarrow"), ("Cobalt", "Xenon")]


def _agreement(i: int) -> str:
    a, b = NAMES[i]
    lines = [(f"SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 1 March 2015 between {a} Holdings Inc. "
              f"(\"{a}\") and {b} Trading LLC (\"{b}\").\n")]
    for s, topic in enumerate(TOPICS, start=1):
        lines.append(f"{s}. {topic.upper()}\n")
        for j in range(1, 4):
            lines.append(f"{s}.{j} {topic} obligation {j} of {a}: the parties agree that the {topic.lower()} "
                         f"terms in this clause apply to every order placed by {b} under this Agreement, and that "
                         f"notice of any change shall be given in writing no later than {10 * j} days before it takes "
                         f"effect, subject to the other provisions of Section {s}.\n")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    base = tmp_path_factory.mktemp("scale")
    corpus = base / "corpus"
    (corpus / "synthetic").mkdir(parents=True)
    for i in range(3):
        (corpus / "synthetic" / f"agreement_{i}.txt").write_text(_agreement(i))
    qfile = base / "questions.jsonl"
    qs = [{"id": f"q{j}", "type": "exact", "question": f"What does Section {j}.2 of the Acme / Zephyr supply agreement say?",
           "agreement_file": "synthetic/agreement_0.txt"} for j in range(1, 8)]
    qfile.write_text("\n".join(json.dumps(q) for q in qs) + "\n")
    out = base / "library_scale.json"
    kw = {"corpus": corpus, "cache": base / "cache", "out": out, "questions": qfile,
          "generic": ["Which law governs the agreement?", "What insurance must be maintained?",
                      "How can a party terminate?"],
          "open_trials": 1, "n_whole": 3, "profile_n": 2, "query_encoding": False, "command": "pytest"}
    res = run([500], **kw)
    return base, kw, res, json.loads(out.read_text())


def test_stand_in_embedder_is_reproducible_unit_vectors():
    e = RandomUnitEmbedder()
    a = e.embed_passages(["x", "y"])
    assert a.shape == (2, 384) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(a, RandomUnitEmbedder().embed_passages(["x", "y"]))
    assert not np.array_equal(a[0], a[1])
    assert not np.array_equal(e.embed_queries(["x"])[0], a[0])


def test_plan_pins_dev_agreements_and_replicates_the_rest():
    manifest = {"docs": {"a.txt": {"passages": 100}, "b.txt": {"passages": 40}, "c.txt": {"passages": 60}}}
    plan = plan_size(manifest, 450, ["a.txt"])
    assert plan[0] == {"rel": "a.txt", "copy": 0, "passages": 100}
    assert all(p["rel"] != "a.txt" for p in plan[1:])  # never replicated
    assert sum(p["passages"] for p in plan) >= 450
    assert sum(p["passages"] for p in plan[:-1]) < 450  # stops as soon as the target is reached
    assert len({(p["rel"], p["copy"]) for p in plan}) == len(plan) and max(p["copy"] for p in plan) >= 3


def test_result_json_fields_are_present_and_sane(tiny):
    _, _, _, data = tiny
    assert data["benchmark"] == "library_scale" and data["command"] == "pytest" and data["date"]
    assert data["versions"]["python"] and data["versions"]["bm25s"]
    assert "random-unit-384" in data["method"]["dense_vectors"] and "replicated" in data["method"]["replication"]
    r = data["sizes"]["500"]
    assert r["passages"] >= 500 and r["agreements"] > 3 and r["replicated"] is True and r["copies_max"] >= 1
    add = r["add"]
    assert add["seconds"] > 0 and add["passages_per_s"] > 0 and add["agreements_per_s"] > 0
    top = {k: v for k, v in add["breakdown_s"].items() if not k.startswith("rebuild_lexical.")}  # parts of the rebuild
    assert sum(top.values()) == pytest.approx(add["wall_s_incl_suspended"], abs=0.05) and min(top.values()) >= 0
    assert add["peak_rss_mb"] > 10 and add["cpu_s"] > 0
    assert add["seconds"] == pytest.approx(add["wall_s_incl_suspended"] - add["suspended_s"], abs=0.02)
    disk = r["disk"]["bytes"]
    assert disk["vectors.f32"] >= r["passages"] * 384 * 4 and disk["catalogue.sqlite"] > 0 and disk["total"] > 0
    assert 0 < r["open"]["open_s_median"] < 30 and r["open"]["rss_after_open_mb_median"] > 10
    q = r["queries"]
    assert set(q["groups"]) == {"named", "unnamed", "whole_library"}
    assert q["groups"]["named"]["n"] == 7 and q["groups"]["unnamed"]["n"] == 3 and q["groups"]["whole_library"]["n"] == 3
    for g in q["groups"].values():
        assert 0 < g["p50_ms"] <= g["p95_ms"] <= g["max_ms"]
    assert q["groups"]["whole_library"]["status_counts"] == {"unnamed": 3}
    assert q["groups"]["named"]["status_counts"].get("resolved", 0) >= 5  # the pinned agreement is never copied
    assert q["rss_after_queries_mb"] > 10 and q["micro_ms"]["vectors.scores(q, None)"] >= 0
    assert q["profile"]["whole_library"]["top_cumulative"]
    inc = r["incremental"]
    assert inc["add_one_s"] > 0 and inc["removed"] == 1
    row = data["table"]["500"]
    assert row["passages"] == r["passages"] and row["named_p95_ms"] == q["groups"]["named"]["p95_ms"]


def test_library_holds_what_the_json_reports(tiny):
    from clauselens.library import Library

    base, _, _, data = tiny
    r = data["sizes"]["500"]
    lib = Library.open(base / "cache" / "lib_500", embedder=RandomUnitEmbedder(), create=False)
    assert len(lib.agreements()) == r["agreements"]
    assert len(lib.catalogue.rows_of(None)) == r["passages"]
    ids = [a.doc_id for a in lib.agreements()]
    assert len(set(ids)) == len(ids) and any(i.endswith("-r1") for i in ids)
    res = lib.search("What does Section 3.2 of the Acme / Zephyr supply agreement say?", 5)
    assert res.passages and res.passages[0].clause_ref == "3.2"


def test_rerun_reuses_every_step(tiny):
    base, kw, _, data = tiny
    build = base / "cache" / "steps" / "500_build.json"
    mtime = build.stat().st_mtime
    again = run([500], **kw)
    assert build.stat().st_mtime == mtime
    assert again["sizes"]["500"]["add"] == data["sizes"]["500"]["add"]


def test_gap_watch_counts_a_sigstop():
    import signal
    import subprocess
    import time

    code = (f"import sys, time; sys.path.insert(0, {str(REPO)!r}); from benchmarks.library_scale import GapWatch; "
            "w = GapWatch(); print('ready', flush=True); time.sleep(3); print(round(w.settle(), 2), w.events)")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    p.send_signal(signal.SIGSTOP)
    time.sleep(1.5)
    p.send_signal(signal.SIGCONT)
    suspended, events = p.stdout.readline().split()
    p.wait(10)
    assert 1.2 <= float(suspended) <= 2.5 and int(events) == 1


def test_gap_watch_ignores_a_long_call_holding_the_gil():
    import math
    import time

    from benchmarks.library_scale import GapWatch

    w = GapWatch()
    t0, c0 = time.perf_counter(), time.process_time()
    math.factorial(250_000)  # C code holding the GIL: the tick thread waits, but CPU time advances
    busy, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert cpu > 0.3  # the call itself used CPU; only the part of its wall time with no CPU may count
    # (on a loaded machine the process also waits for a core: that share is genuinely lost)
    assert w.settle() <= max(busy - cpu, 0.0) + 0.3
    w.close()
