"""Answerability and reranking data from the library's own ranking (issue #39).

For every ``train_allowed.txt`` agreement in a built library (the benchmark's 462-contract CUAD
library: read, never rebuilt) and every CUAD category of
``clauselens/heads/data/cuad_category_phrasings.json``, one generic phrasing per register (lay and
legal; no question file is read) is searched in that agreement alone exactly as a question is
(:meth:`Library.search` pinned to the agreement, top :data:`TOP`, no reranker, no absent-topic
rule), and the search is written with its label:

* ``present``: the agreement's CUAD annotation for the category is non-empty (Hendrycks et al.
  2021); an empty annotation means no passage answers the question -- its retrieved passages are the
  "neighbouring clause" negatives an abstention decision must reject;
* per passage: its text as the reranker reads it (``rerank_text``), its retrieval scores (dense
  cosine, BM25, fused rank) and ``gold`` -- whether it overlaps an annotated clause of the category
  (located by ``head_pairs.locate``) -- plus ``other``: the categories whose annotated clauses it
  overlaps (topic-mismatch negatives for this question).

Agreements are split as ``head_pairs`` splits them (seeded, by agreement), so the answerability
model (``clauselens.heads.train_answerability``) is fitted and its threshold chosen on agreements
the reranker head never saw. Resumable: searches already in the output file are skipped.

    .venv/bin/python -m clauselens.library.answerability_data
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from clauselens.library.head_pairs import CACHE, DATA, allowed_rows, clause_texts, locate, name_key, passages_or_skip, phrasings, split_keys, squash
from clauselens.library.library import Library, rerank_text

LIBRARY = Path.home() / ".cache" / "clauselens" / "bench" / "clause_qa" / "cuad462-minilm"
OUT = CACHE / "answerability" / "searches.jsonl"
#: The reranker head's training data manifest (``head_pairs``): its train agreements are left out here.
HEAD_MANIFEST = CACHE / "pairs" / "manifest.json"
TOP = 10


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1] and min(a[1], b[1]) - max(a[0], b[0]) >= 40


def gold_spans(row: dict[str, str], text: str, cats: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Category -> located spans of its annotated clauses in ``text`` (absent categories: [])."""
    sq = squash(text)
    return {c: [s for s in (locate(text, t, sq) for t in clause_texts(row.get(c, ""))) if s is not None] for c in cats}


def search_record(lib: Library, doc_id: str, query: str, gold: dict[str, list[tuple[int, int]]],
                  category: str) -> dict[str, Any]:
    """One search of ``query`` in agreement ``doc_id`` with its passages labelled."""
    t0 = time.perf_counter()
    res = lib.search(query, TOP, doc_ids=[doc_id], resolve=False, absent_topics=False)
    ms = (time.perf_counter() - t0) * 1000
    out = []
    for rank, p in enumerate(res.passages):
        span = (p.spans[0].start, p.spans[-1].end)
        out.append({"rank": rank, "span": list(span), "method": p.method, "text": rerank_text(p),
                    "dense": p.scores.get("dense"), "bm25": p.scores.get("bm25"),
                    "gold": any(_overlap(span, g) for g in gold.get(category, [])),
                    "other": sorted(c for c, gs in gold.items() if c != category and any(_overlap(span, g) for g in gs))})
    return {"abstained": res.abstained, "ms": round(ms, 1), "passages": out}


def build(out: Path = OUT, library: Path = LIBRARY, *, seed: int = 39, val_share: float = 0.1,
          limit: int | None = None, both_registers: bool = False, exclude: set[str] | frozenset[str] = frozenset(),
          only: set[str] | None = None) -> int:
    """Append the searches of every allowed agreement of ``library`` (except the ``exclude`` keys) to
    ``out``: per category one phrasing of a register drawn at random (both registers with
    ``both_registers``); with ``only``, those agreements alone. Returns how many were written this run."""
    phr = phrasings()
    cats = list(phr)
    rows = allowed_rows()
    val = split_keys([name_key(r["Filename"]) for r, _ in rows], val_share, seed)
    random.Random(seed).shuffle(rows)  # a run stopped early still covers the collection evenly
    lib = Library.open(library, embedder_name="minilm", abstain_threshold=0.0)
    by_key = {name_key(Path(r.path).name): r.doc_id for r in lib.agreements()}
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(d["contract"], d["category"], d["register"]) for d in
            (json.loads(x) for x in out.read_text().splitlines())} if out.exists() else set()
    written = 0
    t0 = time.perf_counter()
    with open(out, "a", encoding="utf-8") as f:
        for n, (row, path) in enumerate(rows[:limit], 1):
            key = name_key(row["Filename"])
            if key not in by_key or key in exclude or (only is not None and key not in only):
                continue
            gold = gold_spans(row, path.read_text(encoding="utf-8"), cats)
            rng = random.Random(f"{seed}:{key}:answerability")
            for cat in cats:
                present = bool(clause_texts(row.get(cat, "")))
                if present and not gold[cat]:
                    continue  # annotated but not located in the text: no label for its passages
                regs = ["lay", "legal"] if both_registers else [rng.choice(["lay", "legal"])]
                for reg in regs:
                    if (key, cat, reg) in done:
                        continue
                    query = rng.choice(phr[cat][reg])
                    rec = search_record(lib, by_key[key], query, gold, cat)
                    f.write(json.dumps({"contract": key, "file": path.name, "split": "val" if key in val else "train",
                                        "category": cat, "register": reg, "query": query, "present": present,
                                        **rec}) + "\n")
                    written += 1
            f.flush()
            if n % 10 == 0:
                print(f"[answerability_data] {n}/{len(rows)} agreements, {written} searches, "
                      f"{time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    return written


SYNTH = Path.home() / ".cache" / "clauselens" / "synth"
#: Categories whose clause is a bare value (a date, a name): a client asks about them, but the
#: passage is mostly a heading or a signature line, a poor source for a question.
SYNTH_SKIP = frozenset({"Document Name", "Parties", "Agreement Date"})


def sample_synthetic(out: Path = SYNTH / "items.jsonl", *, seed: int = 39, annotated: int = 3, other: int = 1,
                     min_chars: int = 250) -> dict[str, int]:
    """Passages of ``train_allowed.txt`` agreements for the synthetic question writer
    (``clauselens.heads.synthetic``): per agreement up to ``annotated`` passages that overlap an
    annotated CUAD clause (one per category, categories drawn at random; the category is recorded)
    and ``other`` substantive passages (at least ``min_chars``) overlapping no annotation. Items are
    interleaved across agreements (round robin, agreements shuffled) so any prefix covers the
    collection evenly. Each item: id, contract key, file, span, category (or null), text."""
    rows = allowed_rows()
    random.Random(seed).shuffle(rows)
    per_contract: list[list[dict[str, Any]]] = []
    counts = {"agreements": 0, "annotated": 0, "other": 0}
    cats = [c for c in phrasings() if c not in SYNTH_SKIP]
    for row, path in rows:
        key = name_key(row["Filename"])
        text = path.read_text(encoding="utf-8")
        cp = passages_or_skip(path, "sample_synthetic")
        if cp is None:
            continue
        gold = gold_spans(row, text, cats)
        rng = random.Random(f"{seed}:{key}:synthetic")
        items: list[dict[str, Any]] = []
        used: set[int] = set()
        for cat in rng.sample(cats, len(cats)):
            if len([i for i in items if i["category"]]) >= annotated:
                break
            hits = [i for i, sp in enumerate(cp.spans) if i not in used and any(_overlap(sp, g) for g in gold[cat])
                    and len(cp.texts[i]) >= 80]
            if hits:
                i = rng.choice(hits)
                used.add(i)
                items.append({"category": cat, "i": i})
        any_gold = [g for gs in gold.values() for g in gs]
        rest = [i for i, sp in enumerate(cp.spans) if i not in used and len(cp.texts[i]) >= min_chars
                and not any(_overlap(sp, g) for g in any_gold)]
        for i in rng.sample(rest, min(other, len(rest))):
            items.append({"category": None, "i": i})
        recs = [{"id": f"{key}:{cp.spans[it['i']][0]}", "contract": key, "file": path.name,
                 "span": list(cp.spans[it["i"]]), "category": it["category"], "text": cp.texts[it["i"]]} for it in items]
        if recs:
            counts["agreements"] += 1
            counts["annotated"] += sum(1 for r in recs if r["category"])
            counts["other"] += sum(1 for r in recs if not r["category"])
            per_contract.append(recs)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for j in range(max((len(x) for x in per_contract), default=0)):
            for recs in per_contract:
                if j < len(recs):
                    f.write(json.dumps(recs[j]) + "\n")
    return counts


#: How deep the source passage may sit in its own agreement's ranking and still pass the round-trip
#: filter (InPars keeps the queries whose source the retriever finds; loose, so the hard lay
#: questions the head must learn are not all filtered away).
ROUND_TRIP_K = 30
#: A question written for this many passages or more is generic ("what happens if they breach?"):
#: dropped, whatever its source.
GENERIC_REPEATS = 3


def _synthetic_questions(questions: Path) -> tuple[list[tuple[dict[str, Any], int, str]], dict[str, int]]:
    """(item, index, question) of every kept synthetic question, generic ones dropped, with counts."""
    recs = [json.loads(x) for x in questions.read_text(encoding="utf-8").splitlines() if x.strip()]
    seen: dict[str, set[str]] = {}
    for r in recs:
        for q in r["questions"]:
            seen.setdefault(q.lower(), set()).add(r["id"])
    out = []
    counts = {"passages": len(recs), "bad_replies": sum(1 for r in recs if r.get("error")),
              "questions": sum(len(r["questions"]) for r in recs), "near_copies": 0, "generic": 0}
    for r in recs:
        counts["near_copies"] += len(r["questions"]) - len(r["kept"])
        for j, q in enumerate(r["kept"]):
            if len(seen[q.lower()]) >= GENERIC_REPEATS:
                counts["generic"] += 1
                continue
            out.append((r, j, q))
    return out, counts


def synthetic_searches(questions: Path = SYNTH / "questions.jsonl", out: Path = SYNTH / "searches.jsonl",
                       library: Path = LIBRARY, *, seed: int = 39, val_share: float = 0.5,
                       k: int = ROUND_TRIP_K, head_manifest: Path | None = HEAD_MANIFEST) -> dict[str, Any]:
    """Library searches of the synthetic questions (``clauselens.heads.synthetic``), in the format of
    :func:`build`'s searches so ``train_reranker --synthetic`` and ``train_answerability`` read them:

    * each kept question is searched in its own agreement (top ``k``); it passes the round-trip
      filter when a passage overlapping its source passage is in that top ``k``; the search is
      written with its top :data:`TOP` passages, gold = overlaps the source passage or an annotated
      clause of the source's CUAD category (``present``: true);
    * an **abstention search** per passing question whose source has a CUAD category C: the same
      question searched in another agreement of the same split whose annotation for C is empty
      (``present``: false, every passage a negative).

    Split by agreement: ``val`` = a seeded ``val_share`` of the agreements the CUAD-trained head
    stages never saw (not in ``head_manifest``'s train split), so the answerability model can be
    fitted on searches in agreements no head stage trained on. Rewritten from scratch each run
    (searching is seconds). Returns the counts of each filter."""
    kept, counts = _synthetic_questions(questions)
    rows = {name_key(r["Filename"]): (r, p) for r, p in allowed_rows()}
    seen = ({name_key(x) for x in json.loads(head_manifest.read_text())["train"]["agreement_files"]}
            if head_manifest is not None and head_manifest.exists() else set())
    val = split_keys([k for k in rows if k not in seen], val_share, seed)
    cats = list(phrasings())
    lib = Library.open(library, embedder_name="minilm", abstain_threshold=0.0)
    by_key = {name_key(Path(r.path).name): r.doc_id for r in lib.agreements()}
    golds: dict[str, dict[str, list[tuple[int, int]]]] = {}

    def gold_of(key: str) -> dict[str, list[tuple[int, int]]]:
        if key not in golds:
            row, path = rows[key]
            golds[key] = gold_spans(row, path.read_text(encoding="utf-8"), cats)
        return golds[key]

    absent_in: dict[tuple[str, str], list[str]] = {}
    for key, (row, _) in rows.items():
        if key in by_key:
            for c in cats:
                if not clause_texts(row.get(c, "")):
                    absent_in.setdefault(("val" if key in val else "train", c), []).append(key)
    rng = random.Random(f"{seed}:synthetic-searches")
    counts.update({"kept_after_generic": len(kept), "not_in_library": 0, "round_trip_dropped": 0, "round_trip_kept": 0,
                   "abstention_searches": 0, "source_rank_top5": 0})
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for item, j, q in kept:
            key = item["contract"]
            if key not in by_key or key not in rows:
                counts["not_in_library"] += 1
                continue
            split = "val" if key in val else "train"
            gold = dict(gold_of(key))
            cat: str | None = item.get("category")
            src = (int(item["span"][0]), int(item["span"][1]))
            label = cat or "_source"
            gold[label] = [src] + (gold.get(cat, []) if cat else [])
            res_k = lib.search(q, k, doc_ids=[by_key[key]], resolve=False, absent_topics=False)
            rank = next((i for i, p in enumerate(res_k.passages)
                         if _overlap((p.spans[0].start, p.spans[-1].end), src)), None)
            if rank is None:
                counts["round_trip_dropped"] += 1
                continue
            counts["round_trip_kept"] += 1
            counts["source_rank_top5"] += rank < 5
            rec = search_record(lib, by_key[key], q, gold, label)
            reg = f"synthetic:{item['id']}:{j}"
            f.write(json.dumps({"contract": key, "file": item["file"], "split": split, "category": label,
                                "register": reg, "query": q, "present": True, "source_rank": rank,
                                "source": "synthetic", **rec}) + "\n")
            pool = [x for x in absent_in.get((split, cat), []) if x != key] if cat else []
            if pool and cat:
                other = rng.choice(pool)
                rec = search_record(lib, by_key[other], q, {cat: []}, cat)
                f.write(json.dumps({"contract": other, "file": Path(rows[other][1]).name, "split": split,
                                    "category": cat, "register": reg + ":absent", "query": q, "present": False,
                                    "source": "synthetic-absent", **rec}) + "\n")
                counts["abstention_searches"] += 1
    return counts


def heldout_searches(synthetic: Path, cuad: Path, out: Path) -> dict[str, int]:
    """The answerability model's data for a head trained with ``--synthetic``: the synthetic searches
    of the held-out (``val``) agreements plus the CUAD-phrasing searches (:func:`build`) of those same
    agreements -- none of which any head stage trained on. Returns counts."""
    syn = [json.loads(x) for x in synthetic.read_text(encoding="utf-8").splitlines() if x.strip()]
    val = [x for x in syn if x["split"] == "val"]
    keys = {x["contract"] for x in val}
    cu = [json.loads(x) for x in cuad.read_text(encoding="utf-8").splitlines() if x.strip()] if cuad.exists() else []
    cu = [x for x in cu if x["contract"] in keys]
    out.write_text("".join(json.dumps(x) + "\n" for x in val + cu), encoding="utf-8")
    return {"agreements": len(keys), "synthetic": len(val), "synthetic_present": sum(x["present"] for x in val),
            "cuad_phrasings": len(cu), "cuad_present": sum(x["present"] for x in cu)}


def write_manifest(path: Path, counts: dict[str, Any], inputs: list[Path]) -> None:
    """The synthetic data's manifest: filter counts, split sizes and the sha256 of every input."""
    import hashlib

    searches = [json.loads(x) for x in inputs[2].read_text(encoding="utf-8").splitlines() if x.strip()]
    splits: dict[str, dict[str, Any]] = {}
    for sx in searches:
        d = splits.setdefault(sx["split"], {"agreements": set(), "present": 0, "absent": 0})
        d["agreements"].add(sx["contract"])
        d["present" if sx["present"] else "absent"] += 1
    man = {"counts": counts, "generic_repeats": GENERIC_REPEATS,
           "splits": {k: {**v, "agreements": len(v["agreements"])} for k, v in splits.items()},
           "inputs": {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in inputs if p.exists()},
           "generator": "clauselens.heads.synthetic (qwen2.5-coder-1.5b Q4_K_M, llama-cpp, JSON schema)",
           "made_by": "python -m clauselens.library.answerability_data --sample-synthetic ITEMS; "
                      "python -m clauselens.heads.synthetic; "
                      "python -m clauselens.library.answerability_data --synthetic-searches QUESTIONS"}
    path.write_text(json.dumps(man, indent=2) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--library", type=Path, default=LIBRARY)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--val-share", type=float, default=0.1)
    ap.add_argument("--limit", type=int, default=None, help="first N allowed agreements only (a quick check)")
    ap.add_argument("--both-registers", action="store_true", help="a lay and a legal phrasing per category")
    ap.add_argument("--exclude-manifest", type=Path, default=HEAD_MANIFEST,
                    help="skip the agreements of this head_pairs manifest's train split (the reranker head's own "
                         "training agreements: its scores there are not those of an unseen agreement)")
    ap.add_argument("--only-manifest", type=Path, default=None,
                    help="search only the agreements of this manifest's train split (the head's own: reranker "
                         "training data from the library's ranking); --exclude-manifest is then ignored")
    ap.add_argument("--sample-synthetic", type=Path, default=None, metavar="ITEMS",
                    help="write the passages for the synthetic question writer to ITEMS and stop")
    ap.add_argument("--synthetic-searches", type=Path, default=None, metavar="QUESTIONS",
                    help="search the synthetic questions of QUESTIONS (clauselens.heads.synthetic) in the library, "
                         "filter them by round trip and write SEARCHES_OUT and its manifest, then stop")
    ap.add_argument("--synthetic-val-share", type=float, default=0.5,
                    help="share of the agreements no head stage trained on held out (val) from the synthetic searches")
    ap.add_argument("--searches-out", type=Path, default=SYNTH / "searches.jsonl")
    ap.add_argument("--round-trip-k", type=int, default=ROUND_TRIP_K)
    ap.add_argument("--heldout", type=Path, default=None, metavar="OUT",
                    help="with --synthetic-searches: also write OUT, the held-out agreements' synthetic and CUAD-phrasing "
                         "searches (--out) for train_answerability")
    args = ap.parse_args(argv)
    if args.synthetic_searches is not None:
        counts = synthetic_searches(args.synthetic_searches, args.searches_out, args.library, seed=args.seed,
                                    val_share=args.synthetic_val_share, head_manifest=args.exclude_manifest,
                                    k=args.round_trip_k)
        counts["round_trip_k"] = args.round_trip_k
        if args.heldout is not None:
            counts["heldout"] = heldout_searches(args.searches_out, args.out, args.heldout)
        write_manifest(args.searches_out.with_name("manifest.json"), counts,
                       [args.synthetic_searches, args.synthetic_searches.with_name("items.jsonl"), args.searches_out,
                        DATA / "cuad" / "master_clauses.csv", DATA / "cuad" / "train_allowed.txt"])
        print(json.dumps(counts))
        return
    if args.sample_synthetic is not None:
        print(json.dumps(sample_synthetic(args.sample_synthetic, seed=args.seed)))
        return
    if not (args.library / "library.json").exists():
        raise SystemExit(f"no library at {args.library}: build it with python -m benchmarks.clause_qa --setting cuad462")
    exclude: set[str] = set()
    only = None
    if args.only_manifest is not None:
        only = {name_key(x) for x in json.loads(args.only_manifest.read_text())["train"]["agreement_files"]}
    elif args.exclude_manifest and args.exclude_manifest.exists():
        exclude = {name_key(x) for x in json.loads(args.exclude_manifest.read_text())["train"]["agreement_files"]}
    n = build(args.out, args.library, seed=args.seed, val_share=args.val_share, limit=args.limit,
              both_registers=args.both_registers, exclude=exclude, only=only)
    print(f"wrote {n} searches to {args.out} (data: {DATA / 'cuad'})")


if __name__ == "__main__":
    main()
