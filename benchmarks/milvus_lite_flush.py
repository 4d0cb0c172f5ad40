"""Why a Milvus Lite BM25 query took ~1 s at 10k passages, and what fixes it (issue #20).

Milvus Lite 3.x is pure Python: rows that have not been flushed live in a memtable (up to
128 MB, ``MILVUS_LITE_MEMTABLE_MEMORY_LIMIT_BYTES``), and ``Collection._search_sparse``
rebuilds the memtable's BM25 inverted index *at every search*; a flushed (sealed) segment
builds its index once per process and caches it. A library written without ``flush`` (10k
passages with text and a 384-d vector fit in the memtable) therefore re-indexes every passage
per query. This benchmark inserts the same passages into two collections (same schema as the
library's passages: BM25 function over a VARCHAR field, sparse inverted index, FLAT dense
index), flushes one of them, and times BM25, dense and ``hybrid_search`` (RRFRanker(60))
queries on both, with and without a ``doc_id`` filter.

Passages: the first N rows of the 10k library that ``benchmarks/library_scale.py`` builds
(``~/.cache/clauselens/bench/library_scale/lib_10000/catalogue.sqlite``: text and analysed
tokens); vectors are seeded random unit vectors (cost, not quality).

    nice -n 10 .venv/bin/python -m benchmarks.milvus_lite_flush --n 10000
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SRC = Path.home() / ".cache" / "clauselens" / "bench" / "library_scale" / "lib_10000" / "catalogue.sqlite"
WORK = Path.home() / ".cache" / "clauselens" / "bench" / "milvus_lite_flush"
OUT = REPO / "benchmarks" / "results" / "milvus_lite_flush.json"
QUERIES = ["termin agreement notic", "confidenti inform disclos", "govern law", "assign consent", "insur coverag"]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    from pymilvus import AnnSearchRequest, DataType, Function, FunctionType, MilvusClient, RRFRanker

    from clauselens.library.milvus import milvus_text
    from clauselens.provenance import run_provenance

    db = sqlite3.connect(str(SRC))
    rows = db.execute(f"SELECT row, doc_id, text, tokens FROM passages ORDER BY row LIMIT {int(a.n)}").fetchall()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    client = MilvusClient(str(WORK / "lite.db"))
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((len(rows), 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    docs = sorted({r[1] for r in rows})
    one_doc = docs[len(docs) // 2]
    qv = rng.standard_normal(384).astype(np.float32)
    qv = (qv / np.linalg.norm(qv)).tolist()
    result: dict = {"benchmark": "milvus_lite_flush", "issue": 20, "passages": len(rows), "agreements": len(docs),
                    "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                    "command": " ".join(["python -m benchmarks.milvus_lite_flush", *(argv if argv is not None else sys.argv[1:])]),
                    "versions": run_provenance(["pymilvus", "milvus-lite", "numpy"]),
                    "load_avg_1min_start": round(os.getloadavg()[0], 2), "repeats": a.repeats, "collections": {}}
    for name, flush in (("unflushed", False), ("flushed", True)):
        s = client.create_schema(auto_id=False)
        s.add_field("row", DataType.INT64, is_primary=True)
        s.add_field("doc_id", DataType.VARCHAR, max_length=512)
        s.add_field("text", DataType.VARCHAR, max_length=65535)
        s.add_field("tokens", DataType.VARCHAR, max_length=65535, enable_analyzer=True, analyzer_params={"tokenizer": "standard"})
        s.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        s.add_field("dense", DataType.FLOAT_VECTOR, dim=384)
        s.add_function(Function(name="bm25", function_type=FunctionType.BM25, input_field_names=["tokens"],
                                output_field_names=["sparse"]))
        ip = client.prepare_index_params()
        ip.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        ip.add_index(field_name="dense", index_type="FLAT", metric_type="IP")
        ip.add_index(field_name="doc_id", index_type="INVERTED")
        client.create_collection(name, schema=s, index_params=ip)
        t0 = time.perf_counter()
        for i in range(0, len(rows), 1000):
            client.insert(name, [{"row": r, "doc_id": d, "text": t, "tokens": milvus_text(tk.split()), "dense": vecs[i + j].tolist()}
                                 for j, (r, d, t, tk) in enumerate(rows[i:i + 1000])])
        insert_s = time.perf_counter() - t0
        flush_s = None
        if flush:
            t0 = time.perf_counter()
            client.flush(name)
            flush_s = time.perf_counter() - t0

        def timed(fn) -> list[float]:
            out = []
            for _ in range(a.repeats):
                t = time.perf_counter()
                fn()
                out.append(round((time.perf_counter() - t) * 1000, 1))
            return out

        cases: dict[str, list[float]] = {}
        for flt_name, flt in (("whole", ""), ("one_agreement", f'doc_id == "{one_doc}"')):
            cases[f"bm25_{flt_name}"] = [ms for q in QUERIES for ms in timed(
                lambda q=q, flt=flt, name=name: client.search(name, data=[q], anns_field="sparse", limit=50, filter=flt, output_fields=["row"]))]
            cases[f"dense_{flt_name}"] = timed(
                lambda flt=flt, name=name: client.search(name, data=[qv], anns_field="dense", limit=50, filter=flt, output_fields=["row"]))
            cases[f"hybrid_{flt_name}"] = timed(lambda flt=flt, name=name: client.hybrid_search(name, [
                AnnSearchRequest(data=[QUERIES[0]], anns_field="sparse", param={}, limit=50, expr=flt or None),
                AnnSearchRequest(data=[qv], anns_field="dense", param={}, limit=50, expr=flt or None)],
                RRFRanker(60), limit=50, output_fields=["row"]))
        result["collections"][name] = {
            "insert_s": round(insert_s, 2), "insert_rows_per_s": round(len(rows) / insert_s, 1),
            "flush_s": round(flush_s, 2) if flush_s is not None else None,
            "first_query_ms": cases["bm25_whole"][0],
            "median_ms": {k: statistics.median(v) for k, v in cases.items()},
            "all_ms": cases}
        print(f"[milvus_lite_flush] {name}: {json.dumps(result['collections'][name]['median_ms'])}", file=sys.stderr, flush=True)
    client.close()
    result["load_avg_1min_end"] = round(os.getloadavg()[0], 2)
    OUT.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
