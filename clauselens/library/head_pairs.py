"""Training pairs for the relevance reranker head, from CUAD clause annotations (issue #39).

Data (``../shared/data/``, read only): ``cuad/master_clauses.csv`` (CUAD v1, Hendrycks et al.
2021: per contract and category, the annotated clause texts) for the contracts of
``cuad/train_allowed.txt`` only (``cuad/TRAINING.md``), with their text from
``legalbench-rag/corpus/cuad/``. Questions are the generic per-category phrasings of
``clauselens/heads/data/cuad_category_phrasings.json`` (lay and legal wording, written from the
category definitions of ``CUAD_v1_README.txt``; no question file is read).

Each contract is parsed and cut into passages exactly as the library does
(``parsing.store.parse_file`` -> :func:`~clauselens.library.passages.library_passages`), and a
passage is shown to the model as the library's reranker shows it
(:func:`~clauselens.library.library.rerank_text`). Per (contract, category):

* annotated: one phrasing; positives = passages overlapping an annotated clause (located in the
  text by whitespace-insensitive search), hard negatives = the contract's other passages ranked
  highest for the phrasing by BM25 (bm25s, Lucene variant, the library's analyser) -- near misses
  as in Karpukhin et al. 2020 (DPR) -- plus one random passage;
* absent (empty annotation): one phrasing, all its BM25 top passages negative: a group in which
  nothing is relevant, which teaches the abstention threshold.

Contracts are split by agreement (seeded): a validation share is held out for the threshold and
early checks. Parsed passages are cached under ``~/.cache/clauselens/heads/reranker/passages/``.

    .venv/bin/python -m clauselens.library.head_pairs --out ~/.cache/clauselens/heads/reranker/pairs
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clauselens.library.library import rerank_text
from clauselens.library.passages import library_passages
from clauselens.retrieval.analyzer import LegalAnalyzer
from clauselens.retrieval.types import Passage

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
PHRASINGS = Path(__file__).resolve().parents[1] / "heads" / "data" / "cuad_category_phrasings.json"
CACHE = Path.home() / ".cache" / "clauselens" / "heads" / "reranker"
HARD_NEGATIVES = 4
MAX_POSITIVES = 2


def name_key(name: str) -> str:
    """A contract name without extension, lower-cased, punctuation dropped (``TRAINING.md``'s match)."""
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\.(pdf|txt)$", "", name.strip(), flags=re.I).lower())


def phrasings(path: Path = PHRASINGS) -> dict[str, dict[str, list[str]]]:
    return {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if not k.startswith("_")}


def allowed_rows(data: Path = DATA) -> list[tuple[dict[str, str], Path]]:
    """(master_clauses row, corpus text file) of every ``train_allowed.txt`` contract with a corpus file."""
    csv.field_size_limit(1 << 30)
    allowed = {name_key(x) for x in (data / "cuad" / "train_allowed.txt").read_text().splitlines() if x.strip()}
    corpus = {name_key(p.name): p for p in (data / "legalbench-rag" / "corpus" / "cuad").glob("*.txt")}
    with open(data / "cuad" / "master_clauses.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [(r, corpus[name_key(r["Filename"])]) for r in rows
            if name_key(r["Filename"]) in allowed and name_key(r["Filename"]) in corpus]


def clause_texts(cell: str) -> list[str]:
    """The annotated clause texts of one master_clauses cell (a Python list literal; ``[]`` = absent)."""
    cell = (cell or "").strip()
    if not cell:
        return []
    try:
        val = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        return [cell]
    return [str(x) for x in val] if isinstance(val, list) else [str(val)]


def squash(text: str) -> tuple[str, list[int]]:
    """``text`` with whitespace runs as one space, and each kept character's offset in ``text``."""
    out, where, prev_space = [], [], False
    for i, ch in enumerate(text):
        if ch.isspace():
            if prev_space:
                continue
            ch, prev_space = " ", True
        else:
            prev_space = False
        out.append(ch)
        where.append(i)
    return "".join(out), where


def locate(text: str, clause: str, squashed: tuple[str, list[int]] | None = None) -> tuple[int, int] | None:
    """The span of ``clause`` in ``text``, whitespace-insensitive; a long clause found by its first
    and last 60 characters. None when not found."""
    s, where = squashed or squash(text)
    c = squash(clause.strip())[0]
    if len(c) < 12:
        return None
    i = s.find(c)
    if i >= 0:
        return where[i], where[i + len(c) - 1] + 1
    if len(c) > 160:
        a, b = s.find(c[:60]), -1
        if a >= 0:
            b = s.find(c[-60:], a)
        if a >= 0 and b > a and b + 60 - a <= 1.2 * len(c):  # the same clause, not a later repeat of its end
            return where[a], where[b + 59] + 1
    return None


@dataclass
class ContractPassages:
    key: str
    texts: list[str]
    spans: list[tuple[int, int]]


def passages_or_skip(path: Path, who: str) -> ContractPassages | None:
    """:func:`contract_passages`, or ``None`` with one line on stderr naming the file when the parser refuses
    it (a training script skips that contract and goes on)."""
    try:
        return contract_passages(path)
    except Exception as e:  # noqa: BLE001 - a contract the parser refuses is skipped and said
        print(f"[{who}] skip {path.name}: {e}", file=sys.stderr)
        return None


def contract_passages(path: Path, cache: Path = CACHE / "passages") -> ContractPassages:
    """The library passages of one contract as the reranker reads them (cached)."""
    key = name_key(path.name)
    f = cache / f"{hashlib.sha1(key.encode()).hexdigest()[:16]}.json"
    if f.exists():
        d = json.loads(f.read_text())
        return ContractPassages(key, d["texts"], [(int(a), int(b)) for a, b in d["spans"]])
    from clauselens.parsing.store import parse_file

    chunks = library_passages(parse_file(path))
    out = ContractPassages(key, [rerank_text(Passage.from_chunk(c, 0.0, "library")) for c in chunks],
                           [(c.spans[0].start, c.spans[-1].end) for c in chunks])
    cache.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps({"texts": out.texts, "spans": out.spans}))
    return out


def bm25_order(passages: list[str], query: str, analyzer: LegalAnalyzer) -> list[int]:
    """Passage positions by BM25 (bm25s, Lucene k1 1.5, b 0.75) of ``query``, best first."""
    import bm25s
    import numpy as np

    corpus = analyzer.tokenize_many(passages)
    ix = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    ix.index(corpus, show_progress=False)
    ids = [ix.vocab_dict[t] for t in analyzer.tokenize(query) if t in ix.vocab_dict]
    scores = np.asarray(ix.get_scores(ids), dtype=np.float32) if ids else np.zeros(len(passages), np.float32)
    return [int(i) for i in np.argsort(-scores, kind="stable")]


def overlaps(span: tuple[int, int], gold: list[tuple[int, int]]) -> bool:
    return any(span[0] < b and a < span[1] and min(span[1], b) - max(span[0], a) >= 40 for a, b in gold)


def _share(span: tuple[int, int], gold: list[tuple[int, int]]) -> float:
    """Share of ``span`` covered by the gold spans."""
    return sum(max(0, min(span[1], b) - max(span[0], a)) for a, b in gold) / max(1, span[1] - span[0])


def contract_groups(row: dict[str, str], cp: ContractPassages, text: str, phr: dict[str, dict[str, list[str]]],
                    rng: random.Random, analyzer: LegalAnalyzer) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Training groups of one contract (one per category) and counts of what was skipped."""
    groups, skipped = [], {"not_located": 0}
    squashed = squash(text)
    n = len(cp.texts)
    for cat, ph in phr.items():
        clauses = clause_texts(row.get(cat, ""))
        register = rng.choice(["lay", "legal"])
        query = rng.choice(ph[register])
        order = bm25_order(cp.texts, query, analyzer)
        if not clauses:
            neg = order[:HARD_NEGATIVES]
            groups.append({"category": cat, "register": register, "query": query, "absent": True,
                           "pairs": [{"text": cp.texts[i], "label": 0.0, "kind": "absent"} for i in neg]})
            continue
        gold = [s for s in (locate(text, c, squashed) for c in clauses) if s is not None]
        pos = [i for i in range(n) if overlaps(cp.spans[i], gold)]
        if not pos:
            skipped["not_located"] += 1
            continue
        pos = sorted(pos, key=lambda i: -_share(cp.spans[i], gold))[:MAX_POSITIVES]  # mostly the clause itself first
        gold_any = {i for i in range(n) if overlaps(cp.spans[i], gold)}
        hard = [i for i in order if i not in gold_any][:HARD_NEGATIVES - 1]
        rest = [i for i in range(n) if i not in gold_any and i not in hard]
        rand = [rng.choice(rest)] if rest else []
        groups.append({"category": cat, "register": register, "query": query, "absent": False,
                       "pairs": [{"text": cp.texts[i], "label": 1.0, "kind": "positive"} for i in pos]
                       + [{"text": cp.texts[i], "label": 0.0, "kind": "hard"} for i in hard]
                       + [{"text": cp.texts[i], "label": 0.0, "kind": "random"} for i in rand]})
    return groups, skipped


def split_keys(keys: list[str], val_share: float, seed: int) -> set[str]:
    """The validation agreements (seeded sample of ``val_share`` of the sorted ``keys``)."""
    keys = sorted(keys)
    return set(random.Random(seed).sample(keys, max(1, round(len(keys) * val_share))))


def build(out: Path, *, val_share: float = 0.1, seed: int = 39, limit: int | None = None) -> dict[str, Any]:
    """Write ``groups.jsonl`` (one training group per line, with ``split``) and ``manifest.json``
    under ``out``; resumable (contracts already in ``groups.jsonl`` are skipped)."""
    phr = phrasings()
    rows = allowed_rows()[:limit]
    val = split_keys([name_key(r["Filename"]) for r, _ in rows], val_share, seed)
    out.mkdir(parents=True, exist_ok=True)
    gfile = out / "groups.jsonl"
    done = {json.loads(x)["contract"] for x in gfile.read_text().splitlines()} if gfile.exists() else set()
    analyzer = LegalAnalyzer()
    skipped = 0
    with open(gfile, "a", encoding="utf-8") as f:
        for n, (row, path) in enumerate(rows, 1):
            key = name_key(row["Filename"])
            if key in done:
                continue
            text = path.read_text(encoding="utf-8")
            cp = passages_or_skip(path, "head_pairs")
            if cp is None:
                continue
            rng = random.Random(f"{seed}:{key}")
            groups, sk = contract_groups(row, cp, text, phr, rng, analyzer)
            skipped += sk["not_located"]
            for g in groups:
                f.write(json.dumps({"contract": key, "file": path.name, "split": "val" if key in val else "train", **g}) + "\n")
            f.flush()
            if n % 20 == 0:
                print(f"[head_pairs] {n}/{len(rows)} contracts", file=sys.stderr, flush=True)
    manifest = summarise(gfile)
    manifest.update({"seed": seed, "val_share": val_share, "phrasings": str(PHRASINGS.name),
                     "source": {"annotations": "cuad/master_clauses.csv", "allowed": "cuad/train_allowed.txt",
                                "texts": "legalbench-rag/corpus/cuad/"}})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def summarise(gfile: Path) -> dict[str, Any]:
    """Counts per split: agreements, groups (annotated / absent), pairs per kind, and the agreements."""
    out: dict[str, Any] = {}
    for line in gfile.read_text().splitlines():
        g = json.loads(line)
        s = out.setdefault(g["split"], {"agreements": set(), "groups_annotated": 0, "groups_absent": 0, "pairs": {}})
        s["agreements"].add(g["file"])
        s["groups_absent" if g["absent"] else "groups_annotated"] += 1
        for p in g["pairs"]:
            s["pairs"][p["kind"]] = s["pairs"].get(p["kind"], 0) + 1
    for s in out.values():
        s["agreement_files"] = sorted(s.pop("agreements"))
        s["agreements"] = len(s["agreement_files"])
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=CACHE / "pairs")
    ap.add_argument("--val-share", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--limit", type=int, default=None, help="first N allowed contracts only (a quick check)")
    args = ap.parse_args(argv)
    m = build(args.out, val_share=args.val_share, seed=args.seed, limit=args.limit)
    print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "agreement_files"} for k, v in m.items()
                      if isinstance(v, dict) and "pairs" in v}, indent=2))


if __name__ == "__main__":
    main()
