"""Clause numbers of the 462 CUAD texts (LegalBench-RAG corpus), before and after a change to the
clause-marker rules (issue #41 item 5 may only change the numbers the issue names).

``--save NAME`` writes, per text, the (ref, kind) of every node of its clause tree
(:func:`clauselens.parsing.load_document`, as the library builds it) to
``~/.cache/clauselens/numbering_<NAME>.json``; ``--compare A B`` lists the texts whose trees
differ and writes the differences to ``benchmarks/results/robustness_numbering.json``.

Run: ``nice -n 5 .venv/bin/python -m benchmarks.robustness_numbering --save before`` (minutes).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
CACHE = Path.home() / ".cache" / "clauselens"
OUT = REPO / "benchmarks" / "results" / "robustness_numbering.json"


def save(name: str) -> None:
    from clauselens.parsing import load_document

    out = {}
    for p in sorted(CORPUS.rglob("*.txt")):
        doc = load_document(p)
        out[p.name] = [[n.ref, n.kind] for n in doc.nodes]
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / f"numbering_{name}.json").write_text(json.dumps(out))
    print(len(out), "texts,", sum(len(v) for v in out.values()), "nodes")


def compare(a: str, b: str) -> None:
    before = json.loads((CACHE / f"numbering_{a}.json").read_text())
    after = json.loads((CACHE / f"numbering_{b}.json").read_text())
    diffs = {}
    for name, nodes in before.items():
        if after.get(name) != nodes:
            old = {tuple(x) for x in nodes}
            new = {tuple(x) for x in after.get(name, [])}
            diffs[name] = {"removed": sorted(map(str, old - new))[:20], "added": sorted(map(str, new - old))[:20]}
    summary = {"texts": len(before), "texts_changed": len(diffs),
               "refs_before": sum(1 for v in before.values() for r, _ in v if r),
               "refs_after": sum(1 for v in after.values() for r, _ in v if r)}
    OUT.write_text(json.dumps({"summary": summary, "changed": diffs}, indent=1) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--save")
    ap.add_argument("--compare", nargs=2)
    args = ap.parse_args()
    if args.save:
        save(args.save)
    if args.compare:
        compare(*args.compare)
