"""Train the heading-topic head (:mod:`clauselens.heads.heading_topic`, issue #39) from the clause
headings of ``train_allowed`` CUAD agreements.

Stages (each cached under ``~/.cache/clauselens/heading_topics/``, so a rerun resumes):

1. ``topics`` -- every heading label of every ``train_allowed`` agreement of the benchmark's
   462-contract library (the Archivist's parse), normalised to its analysed words
   (:func:`clauselens.library.heading_topics.heading_key`); keys headed by at least
   :data:`MIN_AGREEMENTS` agreements are grouped by agglomerative clustering (average linkage) of the
   MiniLM vectors of their commonest spelling, cosine distance below :data:`CLUSTER_DISTANCE`.
2. ``probe`` -- 100-word windows of each agreement's text, heading words removed; a window is a
   positive of topic T when most of its words are in clauses under T's headings. TF-IDF features,
   one logistic regression per topic; 5-fold out-of-fold contract scores (maximum over windows) give
   ``absent_below`` (at most :data:`PRESENT_MISS` of the agreements with T's heading below it) and the
   coverage (share of agreements without the heading below it); eligible: at least
   :data:`MIN_POSITIVES` agreements with the heading and coverage at least :data:`MIN_COVERAGE`.
3. ``generate`` -- everyday questions about each eligible topic, written by the bundled 1.5B for
   clauses under its headings (:mod:`clauselens.heads.topic_questions`' prompt and resumable runner;
   LLM slot, ``--minutes``).
4. ``fit`` -- the question-topic vote's clause bank (every passage of the ``train_allowed`` agreements,
   its stored MiniLM vector, labelled by the most specific eligible topic of its headings, else
   ``Other``), the final probe, and the synthetic validation curve (the 1.5B's questions per topic, the
   topic head's questions and the synthetic passage questions, one item in five, put to every
   ``train_allowed`` agreement); ``absent_mass`` is :data:`ABSENT_MASS`, chosen on the clause-QA dev
   sets (``benchmarks/heading_absence_sweep.py``). Writes ``clauselens/heads/weights/heading_topic/``.

No question file of any evaluation or development set is read.

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.library.train_heading_topics topics probe
    flock /tmp/clauselens-llm.lock nice -n 5 .venv/bin/python -m clauselens.library.train_heading_topics generate --minutes 25
    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.library.train_heading_topics fit
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import zlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.heading_topic import OTHER, clean_heading, heading_key, knn_shares, strip_headings
from clauselens.heads.presence import STRIDE_WORDS, WINDOW_WORDS

CACHE = Path.home() / ".cache" / "clauselens" / "heading_topics"
LIBRARY = Path.home() / ".cache" / "clauselens" / "bench" / "clause_qa" / "cuad462-minilm"
TRAIN_ALLOWED = Path("/work/shared/data/cuad/train_allowed.txt")
MIN_AGREEMENTS = 8
CLUSTER_DISTANCE = 0.25
#: Topics whose clause texts are this close (cosine distance of the mean MiniLM vector of the passages
#: under their headings, average linkage) are one topic ("Governing Law", "Applicable Law", "Choice Of Law").
CONTENT_DISTANCE = 0.15
MIN_POSITIVES = 10
MIN_WINDOWS = 20
MIN_COVERAGE = 0.6
PRESENT_MISS = 0.03
MAX_WRONG_ABSTAIN = 0.03
FOLDS = 5
PROBE_C = 4.0
#: Share of the windows not under a topic's headings that its probe is fitted on.
NEGATIVE_SAMPLE = 0.15
MIN_WINDOW_SHARE = 0.5
VECTORIZER: dict[str, Any] = {"ngram_range": [1, 2], "sublinear_tf": True, "min_df": 3, "max_features": 40000}
COMMAND = ("nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m clauselens.library.train_heading_topics "
           "topics probe fit  (~2.5 CPU-min; generate: LLM slot)")


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", Path(name).stem.lower())


def open_library() -> Any:
    from clauselens.library import Library

    return Library.open(LIBRARY, embedder_name="minilm", abstain_threshold=0.0)


def train_records(lib: Any) -> list[Any]:
    """The library's agreements listed in ``train_allowed.txt`` (matched by name without punctuation)."""
    allowed = {_norm(line.strip()) for line in TRAIN_ALLOWED.read_text().splitlines() if line.strip()}
    return [r for r in lib.agreements() if _norm(r.path) in allowed]


def agreement_chunks(lib: Any, doc_id: str) -> list[Any]:
    chunks = lib.catalogue.passages(lib.catalogue.rows_of([doc_id]))
    return sorted(chunks, key=lambda c: c.spans[0].start)


# ---------------------------------------------------------------- stage 1: topics

def stage_topics(lib: Any) -> dict[str, Any]:
    """Heading keys per agreement, grouped into topics (module docstring, stage 1)."""
    from sklearn.cluster import AgglomerativeClustering

    from clauselens.retrieval.embedders import get_embedder

    tok = lib.analyzer.tokenize
    per_doc: dict[str, list[str]] = {}
    spell: dict[str, Counter[str]] = defaultdict(Counter)
    for r in train_records(lib):
        keys = set()
        for c in agreement_chunks(lib, r.doc_id):
            for lab in c.heading_path:
                k = heading_key(lab, tok)
                if k:
                    keys.add(k)
                    spell[k][clean_heading(lab).title()] += 1
        per_doc[r.doc_id] = sorted(keys)
    counts = Counter(k for ks in per_doc.values() for k in ks)
    common = sorted(k for k, n in counts.items() if n >= MIN_AGREEMENTS)
    names = [spell[k].most_common(1)[0][0] for k in common]
    vecs = get_embedder("minilm").embed_queries(names)
    labels = AgglomerativeClustering(n_clusters=None, metric="cosine", linkage="average",
                                     distance_threshold=CLUSTER_DISTANCE).fit_predict(vecs)
    groups: dict[int, list[str]] = defaultdict(list)
    for k, g in zip(common, labels):
        groups[int(g)].append(k)
    merged = merge_by_content(lib, list(groups.values()), per_doc)
    topics: list[dict[str, Any]] = []
    for ks in merged:
        ks.sort(key=lambda k: -counts[k])
        docs = sorted({d for d, dk in per_doc.items() if set(dk) & set(ks)})
        topics.append({"name": spell[ks[0]].most_common(1)[0][0], "keys": ks, "agreements": len(docs),
                       "spellings": [s for k in ks for s, _ in spell[k].most_common(3)]})
    topics.sort(key=lambda t: -t["agreements"])
    seen: Counter[str] = Counter()
    for t in topics:  # unique display names
        seen[t["name"]] += 1
        if seen[t["name"]] > 1:
            t["name"] = f"{t['name']} ({seen[t['name']]})"
    out = {"agreements": len(per_doc), "doc_keys": per_doc, "topics": topics}
    CACHE.mkdir(parents=True, exist_ok=True)
    (CACHE / "topics.json").write_text(json.dumps(out, indent=1))
    return out


def merge_by_content(lib: Any, groups: list[list[str]], per_doc: dict[str, list[str]]) -> list[list[str]]:
    """Key groups whose clauses read alike merged: the mean stored MiniLM vector of the passages headed by
    each group's keys, agglomerative clustering (average linkage) at cosine distance :data:`CONTENT_DISTANCE`."""
    from sklearn.cluster import AgglomerativeClustering

    tok = lib.analyzer.tokenize
    group_of = {k: i for i, ks in enumerate(groups) for k in ks}
    mat = lib.vectors._map()
    sums = np.zeros((len(groups), mat.shape[1]), dtype=np.float64)
    for d in per_doc:
        rows = lib.catalogue.rows_of([d])
        for r, c in zip(rows, lib.catalogue.passages(rows)):
            k = heading_key(c.heading_path[-1], tok) if c.heading_path else None
            if k in group_of:
                sums[group_of[k]] += mat[int(r)]
    cent = sums / (np.linalg.norm(sums, axis=1, keepdims=True) + 1e-9)
    labels = AgglomerativeClustering(n_clusters=None, metric="cosine", linkage="average",
                                     distance_threshold=CONTENT_DISTANCE).fit_predict(cent)
    out: dict[int, list[str]] = defaultdict(list)
    for ks, g in zip(groups, labels):
        out[int(g)] += ks
    return list(out.values())


# ---------------------------------------------------------------- stage 2: probe

def labelled_windows(chunks: list[Any], chunk_topics: list[set[int]]) -> tuple[list[str], list[set[int]]]:
    """100-word windows (stride 60, as the presence probe) over an agreement's chunks with their heading
    words removed; a window's topics are those of which at least :data:`MIN_WINDOW_SHARE` of its words are."""
    words: list[str] = []
    tags: list[set[int]] = []
    for c, ts in zip(chunks, chunk_topics):
        w = strip_headings(c.text, c.heading_path).split()
        words += w
        tags += [ts] * len(w)
    texts, labels = [], []
    for start in range(0, max(1, len(words) - WINDOW_WORDS + STRIDE_WORDS), STRIDE_WORDS):
        seg = slice(start, start + WINDOW_WORDS)
        if not words[seg]:
            break
        texts.append(" ".join(words[seg]))
        cnt = Counter(t for ts in tags[seg] for t in ts)
        n = len(words[seg])
        labels.append({t for t, c in cnt.items() if c >= MIN_WINDOW_SHARE * n})
        if start + WINDOW_WORDS >= len(words):
            break
    return texts, labels


def training_windows(lib: Any, topics: dict[str, Any]) -> tuple[list[str], np.ndarray, np.ndarray, list[str], np.ndarray]:
    """Every ``train_allowed`` agreement's labelled windows: texts, topic labels (windows x topics),
    each window's agreement index, the agreements, and which topics' headings each agreement has."""
    tok = lib.analyzer.tokenize
    key_topic = {k: i for i, t in enumerate(topics["topics"]) for k in t["keys"]}
    docs = sorted(topics["doc_keys"])
    texts: list[str] = []
    ylab: list[set[int]] = []
    doc_of: list[int] = []
    has = np.zeros((len(docs), len(topics["topics"])), dtype=bool)
    for di, d in enumerate(docs):
        chunks = agreement_chunks(lib, d)
        cts = [{key_topic[k] for k in (heading_key(h, tok) for h in c.heading_path) if k in key_topic} for c in chunks]
        for ts in cts:
            has[di, list(ts)] = True
        t, y = labelled_windows(chunks, cts)
        texts += t
        ylab += y
        doc_of += [di] * len(t)
    Y = np.zeros((len(texts), len(topics["topics"])), dtype=bool)
    for i, ts in enumerate(ylab):
        Y[i, list(ts)] = True
    return texts, Y, np.asarray(doc_of), docs, has


def stage_probe(lib: Any, topics: dict[str, Any]) -> dict[str, Any]:
    """Out-of-fold contract scores per topic, thresholds and eligibility (module docstring, stage 2)."""
    texts, Y, doc_arr, docs, has = training_windows(lib, topics)
    n_topics = len(topics["topics"])
    fold = np.asarray([zlib.crc32(docs[d].encode()) % FOLDS for d in doc_arr])
    oof = np.zeros((len(docs), n_topics), dtype=np.float32)
    cand = [j for j in range(n_topics) if has[:, j].sum() >= MIN_POSITIVES and Y[:, j].sum() >= MIN_WINDOWS]
    t0 = time.perf_counter()
    x = make_vectorizer().fit_transform(texts)  # idf from every window (no labels): shared by the folds
    keep = np.random.default_rng(39).random(len(texts)) < NEGATIVE_SAMPLE
    for f in range(FOLDS):
        te = fold == f
        for j in cand:
            tr = (fold != f) & (Y[:, j] | keep)
            p = probe_model().fit(x[tr], Y[tr, j]).predict_proba(x[te])[:, 1]
            np.maximum.at(oof[:, j], doc_arr[te], p.astype(np.float32))
        print(f"[heading_topics] probe fold {f + 1}/{FOLDS} {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    stats = {}
    for j in cand:
        pos, neg = oof[has[:, j], j], oof[~has[:, j], j]
        thr = float(np.quantile(pos, PRESENT_MISS)) if len(pos) else 0.0
        cov = float((neg < thr).mean()) if len(neg) else 0.0
        stats[topics["topics"][j]["name"]] = {"positives": int(has[:, j].sum()), "threshold": round(thr, 4),
                                              "coverage": round(cov, 3), "windows": int(Y[:, j].sum()),
                                              "eligible": False}
        stats[topics["topics"][j]["name"]]["eligible"] = eligible(stats[topics["topics"][j]["name"]])
    out = {"stats": stats, "seconds": round(time.perf_counter() - t0, 1), "windows": len(texts)}
    (CACHE / "probe.json").write_text(json.dumps(out, indent=1))
    np.savez(CACHE / "probe_oof.npz", oof=oof, has=has, docs=np.asarray(docs))
    return out


# ---------------------------------------------------------------- stage 3: questions by the 1.5B

QUESTIONS = CACHE / "questions.jsonl"
ITEMS_PER_TOPIC = 5
EXCERPT_CHARS = 450


def eligible(st: dict[str, Any]) -> bool:
    """A topic whose absence can be trusted: enough agreements and windows with its heading, and a
    threshold that leaves out at least :data:`MIN_COVERAGE` of the agreements without it."""
    return st["positives"] >= MIN_POSITIVES and st["windows"] >= MIN_WINDOWS and st["coverage"] >= MIN_COVERAGE


def eligible_topics(probe: Path | None = None) -> list[str]:
    """The topics the probe stage found eligible (in ``probe``, default its cache file), most agreements first."""
    stats = json.loads((probe or CACHE / "probe.json").read_text())["stats"]
    return sorted((t for t, s in stats.items() if eligible(s)), key=lambda t: -stats[t]["positives"])


def generation_items(lib: Any, topics: dict[str, Any], names: list[str], per_topic: int = ITEMS_PER_TOPIC,
                     seed: int = 39) -> list[dict[str, Any]]:
    """(topic, clause excerpt, agreement type, asker) items, ``per_topic`` clauses of different
    ``train_allowed`` agreements per topic, in rounds so that any prefix covers every topic."""
    import random

    from clauselens.heads.topic_questions import AGREEMENT_TYPES, ASKERS

    rng = random.Random(seed)
    tok = lib.analyzer.tokenize
    by_name = {t["name"]: t for t in topics["topics"]}
    rounds: list[list[dict[str, Any]]] = [[] for _ in range(per_topic)]
    for name in names:
        keys = set(by_name[name]["keys"])
        docs = sorted(d for d, ks in topics["doc_keys"].items() if set(ks) & keys)
        rng.shuffle(docs)
        got = 0
        for d in docs:
            if got >= per_topic:
                break
            own = [c for c in agreement_chunks(lib, d) if c.heading_path and heading_key(c.heading_path[-1], tok) in keys]
            body = " ".join(" ".join(strip_headings(c.text, c.heading_path).split()) for c in own[:3])
            if len(body) < 80:
                continue
            excerpt = body[:EXCERPT_CHARS].rsplit(" ", 1)[0]
            rounds[got].append({"id": f"{name}|{got}", "topic": name, "label": name, "doc": d, "keys": sorted(keys),
                                "text": f"{name.lower()}, that is what a clause like this one says: \"{excerpt} ...\"",
                                "kind": rng.choice(AGREEMENT_TYPES), "asker": ASKERS[(got + zlib.crc32(name.encode())) % len(ASKERS)]})
            got += 1
    out = []
    for r in rounds:
        rng.shuffle(r)
        out += r
    return out


def stage_generate(lib: Any, topics: dict[str, Any], minutes: float, threads: int = 2,
                   probe: Path | None = None, per_topic: int = ITEMS_PER_TOPIC) -> dict[str, Any]:
    """Everyday questions per eligible topic by the bundled 1.5B (resumable; module docstring, stage 3;
    each item keeps its topic's heading keys, so ``fit`` finds its topic after a later regrouping)."""
    from clauselens.heads.synthetic import llama_complete
    from clauselens.heads.topic_questions import SCHEMA
    from clauselens.heads.topic_questions import run as topic_run

    todo = generation_items(lib, topics, eligible_topics(probe), per_topic)
    complete = llama_complete(n_threads=threads, temperature=0.8, max_tokens=260, schema=SCHEMA)
    stats = topic_run(todo, complete, QUESTIONS, minutes=minutes, log=lambda s: print(s, file=sys.stderr, flush=True))
    from clauselens.heads.synthetic import done_ids

    stats["remaining"] = len(todo) - len(done_ids(QUESTIONS) & {t["id"] for t in todo})
    return stats


# ---------------------------------------------------------------- stage 4: fit

PHRASINGS = Path(__file__).resolve().parents[1] / "heads" / "data" / "cuad_category_phrasings.json"
PASSAGE_QUESTIONS = Path.home() / ".cache" / "clauselens" / "synth" / "questions.jsonl"
#: A topic-head label (a CUAD category or an "Other" topic name) that is no heading topic's key but whose
#: name is this close (MiniLM cosine) to an eligible topic's name is left out of ``Other`` (it may be the
#: same topic in other words: "No-Solicit Of Employees" and "Non-Solicitation").
DROP_SIMILARITY = 0.6
#: Nearest clauses the question-topic vote reads, and the absent mass at which the search abstains (chosen
#: on the four clause-QA dev sets with benchmarks/heading_absence_sweep.py: 0.30 declined 3 more unanswerable
#: questions of 42 answered and abstained on no answerable one; 0.40 declined 1).
KNN_K = 20
ABSENT_MASS = 0.30


def _val(key: str) -> bool:
    return zlib.crc32(key.encode()) % 5 == 0


def question_examples(lib: Any, topics: dict[str, Any], names: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Training questions ``{"text", "label", "source", "val"}`` for the eligible topics ``names`` and
    ``Other`` (module docstring, stage 4), and how the topic head's labels were mapped."""
    from clauselens.heads.topic_questions import OUT as TOPIC_QUESTIONS
    from clauselens.heads.topic_questions import read
    from clauselens.retrieval.embedders import get_embedder

    tok = lib.analyzer.tokenize
    by_name = {t["name"]: t for t in topics["topics"]}
    key_topic = {k: n for n in names for k in by_name[n]["keys"]}
    rows: list[dict[str, Any]] = []
    for it in read(QUESTIONS):  # the item's heading keys find its topic after a regrouping
        label = next((key_topic[k] for k in it.get("keys", []) if k in key_topic), None)
        if label:
            rows += [{"text": q, "label": label, "source": "heading_questions", "val": _val(it["id"])}
                     for q in it.get("questions", [])]
    # the topic head's questions and the CUAD phrasings: label by their topic's own name
    topic_items = read(TOPIC_QUESTIONS) + read(TOPIC_QUESTIONS.with_name("topic_questions_b.jsonl"))
    raw_names = sorted({(it["topic"].split(":", 1)[1] if it["topic"].startswith("Other:") else it["topic"])
                        for it in topic_items})
    phr = {k: v for k, v in json.loads(PHRASINGS.read_text()).items() if not k.startswith("_")}
    raw_names = sorted(set(raw_names) | set(phr))
    emb = get_embedder("minilm")
    tv = emb.embed_queries([n.lower() for n in names])
    rv = emb.embed_queries([n.lower() for n in raw_names])
    mapping: dict[str, str | None] = {}
    for n, v in zip(raw_names, rv):
        k = " ".join(t for t in tok(n) if not any(c.isdigit() for c in t))
        if k in key_topic:
            mapping[n] = key_topic[k]
        elif names and float((tv @ v).max()) >= DROP_SIMILARITY:
            mapping[n] = None  # perhaps the same topic in other words: neither the topic nor Other
        else:
            mapping[n] = OTHER
    for it in topic_items:
        n = it["topic"].split(":", 1)[1] if it["topic"].startswith("Other:") else it["topic"]
        if mapping.get(n):
            rows += [{"text": q, "label": mapping[n], "source": "topic_questions", "val": _val(it["id"])}
                     for q in it.get("questions", [])]
    for cat, d in phr.items():
        if mapping.get(cat):
            rows += [{"text": q, "label": mapping[cat], "source": "phrasings", "val": _val(cat + q)}
                     for q in [*d.get("lay", []), *d.get("legal", [])]]
    # the 1.5B's questions for sampled passages: the most specific eligible topic the passage sits under
    recs = {_norm(r.path): r for r in lib.agreements()}
    for it in read(PASSAGE_QUESTIONS):
        r = recs.get(_norm(it.get("file", "")))
        if r is None:
            continue
        a, b = it["span"]
        under = {key_topic[k] for c in agreement_chunks(lib, r.doc_id) if c.spans[0].start < b and a < c.spans[-1].end
                 for k in (heading_key(h, tok) for h in c.heading_path) if k in key_topic}
        label = min(under, key=lambda n: by_name[n]["agreements"]) if under else OTHER
        rows += [{"text": q, "label": label, "source": "passage_questions", "val": _val(it["id"])}
                 for q in it.get("kept", [])]
    return rows, {"label_map": mapping}


def make_vectorizer() -> Any:
    """The probe's TF-IDF features (:data:`VECTORIZER`)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    vs = VECTORIZER
    return TfidfVectorizer(ngram_range=tuple(vs["ngram_range"]), sublinear_tf=vs["sublinear_tf"], min_df=vs["min_df"],
                           max_features=vs["max_features"], dtype=np.float32)


def probe_model() -> Any:
    """One topic's window classifier: logistic regression (liblinear, balanced classes), fitted on the
    topic's windows and a fixed :data:`NEGATIVE_SAMPLE` of the others (the fit's cost is its rows)."""
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=PROBE_C, class_weight="balanced", max_iter=300, solver="liblinear")


def fit_probe(lib: Any, topics: dict[str, Any], names: list[str]) -> tuple[Any, np.ndarray, np.ndarray]:
    """The final probe on every ``train_allowed`` agreement: the vectoriser and (coef, intercept) per topic."""
    texts, Y, _, _, _ = training_windows(lib, topics)
    idx = {t["name"]: j for j, t in enumerate(topics["topics"])}
    vec = make_vectorizer()
    x = vec.fit_transform(texts)
    coef = np.zeros((len(names), x.shape[1]), dtype=np.float32)
    icpt = np.zeros(len(names), dtype=np.float32)
    keep = np.random.default_rng(39).random(len(texts)) < NEGATIVE_SAMPLE
    for i, n in enumerate(names):
        rows = Y[:, idx[n]] | keep
        clf = probe_model().fit(x[rows], Y[rows, idx[n]])
        coef[i], icpt[i] = clf.coef_[0], clf.intercept_[0]
    return vec, coef, icpt


def clause_bank(lib: Any, topics: dict[str, Any], names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Every passage of the ``train_allowed`` agreements (its stored MiniLM vector) and its label: the
    most specific topic (fewest agreements) of its heading path when that is one of ``names``, else
    ``Other`` (index ``len(names)``)."""
    tok = lib.analyzer.tokenize
    key_topic = {k: t["name"] for t in topics["topics"] for k in t["keys"]}
    size = {t["name"]: t["agreements"] for t in topics["topics"]}
    mat = lib.vectors._map()
    rows: list[int] = []
    labels: list[int] = []
    for d in sorted(topics["doc_keys"]):
        rr = lib.catalogue.rows_of([d])
        for r, c in zip(rr, lib.catalogue.passages(rr)):
            ts = [key_topic[k] for k in (heading_key(h, tok) for h in c.heading_path) if k in key_topic]
            best = min(ts, key=lambda n: size[n]) if ts else None
            rows.append(int(r))
            labels.append(names.index(best) if best in names else len(names))
    return np.asarray(mat[rows], dtype=np.float32), np.asarray(labels, dtype=np.int16)


def mass_threshold(pv: np.ndarray, gold: list[str], labels: list[str], lacks: np.ndarray) -> tuple[float, dict[str, Any]]:
    """The least absent mass at which at most :data:`MAX_WRONG_ABSTAIN` of the answerable (question,
    agreement) pairs abstain; ``lacks`` is (agreements x labels) -- the topics each agreement lacks."""
    mass = pv @ lacks.T.astype(np.float32)  # (questions, agreements)
    g = np.asarray([labels.index(x) for x in gold])
    unans = lacks[:, g].T  # (questions, agreements): the question's own topic is absent
    curve = {}
    chosen = 1.0
    for m in np.round(np.arange(0.95, 0.19, -0.05), 2):
        ab = mass >= m
        wrong = float(ab[~unans].mean())
        right = float(ab[unans].mean()) if unans.any() else 0.0
        curve[f"{m:.2f}"] = {"answerable_abstained": round(wrong, 4), "unanswerable_abstained": round(right, 4)}
        if wrong <= MAX_WRONG_ABSTAIN and chosen <= float(m) + 0.051:
            chosen = float(m)  # the curve from the top down, stopping at the first mass over the bound
    return chosen, {"curve": curve, "answerable_pairs": int((~unans).sum()), "unanswerable_pairs": int(unans.sum())}


def stage_fit(lib: Any, topics: dict[str, Any], reader: str = "knn", root: Path | None = None) -> dict[str, Any]:
    """Build the head and write ``clauselens/heads/weights/heading_topic/`` (module docstring, stage 4); ``reader``
    "softmax": the question reader of :mod:`clauselens.library.heading_reader` instead of the clause-bank vote, its
    ``absent_mass`` chosen on the synthetic validation (:func:`mass_threshold`), not on a question file."""
    from safetensors.numpy import save_file

    from clauselens.heads.base import head_dir, sha256_file
    from clauselens.heads.heading_topic import META_FILE, NAME, VOCAB_FILE, WEIGHT_FILE
    from clauselens.retrieval.embedders import get_embedder

    t0 = time.perf_counter()
    probe = json.loads((CACHE / "probe.json").read_text())["stats"]
    names = eligible_topics()
    labels = [*names, OTHER]
    rows, mapping = question_examples(lib, topics, names)
    val = [r for r in rows if r["val"] and r["source"] != "clauses"]
    tensors: dict[str, np.ndarray] = {}
    if reader == "softmax":
        from clauselens.heads.topic_questions import SYSTEM
        from clauselens.library.heading_reader import fit_reader, parroted, prompt_examples

        emb = get_embedder("minilm")
        x = np.asarray(emb.embed_queries([r["text"] for r in rows]), dtype=np.float32)
        drop = parroted(x, np.asarray(emb.embed_queries(prompt_examples(SYSTEM)), dtype=np.float32))
        drop &= np.array([r["source"] in ("heading_questions", "topic_questions") for r in rows])
        rows, x = [r for r, d in zip(rows, drop) if not d], x[~drop]
        val = [r for r in rows if r["val"] and r["source"] != "clauses"]
        fit = fit_reader(x, [r["label"] for r in rows], np.array([bool(r["val"]) for r in rows]), labels)
        pv, bank_labels = fit["val_probs"], np.zeros(0, dtype=np.int16)
        tensors = {"q_coef": fit["coef"].astype(np.float16), "q_intercept": fit["intercept"].astype(np.float16)}
    else:  # validation only (the threshold is chosen on the dev sets): synthetic questions x train_allowed agreements
        bank, bank_labels = clause_bank(lib, topics, names)
        pv = knn_shares(get_embedder("minilm").embed_queries([r["text"] for r in val]), bank, bank_labels, len(labels), KNN_K)
        tensors = {"bank": bank.astype(np.float16), "bank_labels": bank_labels}
    oof = np.load(CACHE / "probe_oof.npz")
    idx = {t["name"]: j for j, t in enumerate(topics["topics"])}
    lacks = np.zeros((oof["oof"].shape[0], len(labels)), dtype=bool)
    for i, n in enumerate(names):
        j = idx[n]
        lacks[:, i] = ~oof["has"][:, j] & (oof["oof"][:, j] < probe[n]["threshold"])
    chosen_mass, mmetrics = mass_threshold(pv, [r["label"] for r in val], labels, lacks)
    absent_mass = chosen_mass if reader == "softmax" else ABSENT_MASS
    if reader == "softmax":
        mmetrics["reader"] = {"C": fit["C"], "C_curve": fit["C_curve"], "training_questions": len(rows),
                              "parroted_prompt_examples_dropped": int(drop.sum()),
                              "by_label": dict(Counter(r["label"] for r in rows))}
    vec, pcoef, picpt = fit_probe(lib, topics, names)
    d = head_dir(NAME, root)
    d.mkdir(parents=True, exist_ok=True)
    save_file({**tensors,
               "p_coef": pcoef.astype(np.float16), "p_intercept": picpt.astype(np.float16),
               "idf": vec.idf_.astype(np.float16)}, str(d / WEIGHT_FILE))
    vocab = {k: int(v) for k, v in vec.vocabulary_.items()}
    (d / VOCAB_FILE).write_text(json.dumps(vocab, sort_keys=True))
    by_name = {t["name"]: t for t in topics["topics"]}
    kind = ("softmax over the question's MiniLM vector" if reader == "softmax" else
            "kNN over a bank of headed clauses' MiniLM vectors") + " + TF-IDF window probe per heading topic"
    meta = {"name": NAME, "kind": kind, "reader": reader,
            "sha256": sha256_file(d / WEIGHT_FILE), "vocab_sha256": sha256_file(d / VOCAB_FILE),
            "size": (d / WEIGHT_FILE).stat().st_size, "labels": labels, "topics": names, "knn_k": KNN_K,
            "keys": {n: by_name[n]["keys"] for n in names},
            "absent_below": {n: probe[n]["threshold"] for n in names}, "absent_mass": absent_mass,
            "absent_mass_chosen_on": ("synthetic validation questions x train_allowed agreements (mass_threshold: at most "
                                      f"{MAX_WRONG_ABSTAIN:.0%} of answerable pairs abstained)") if reader == "softmax" else
                                     "clause-qa-dev, clause-qa-lay, clause_qa_lay_blind2, clause_qa_lay_blind3 "
                                     "(dev sets): benchmarks/heading_absence_sweep.py",
            "vectorizer": {"ngram_range": VECTORIZER["ngram_range"], "sublinear_tf": VECTORIZER["sublinear_tf"]},
            "training_command": COMMAND, "training_seconds": round(time.perf_counter() - t0, 1),
            "manifest": {"agreements": topics["agreements"], "agreement_list": "train_allowed.txt agreements of the "
                         "462-contract library (benchmarks' cuad462-minilm)", "bank_clauses": int(len(bank_labels)),
                         "bank_labels": {lab: int((bank_labels == i).sum()) for i, lab in enumerate(labels)} if len(bank_labels) else {},
                         "validation_questions": len(val), "by_source": dict(Counter(r["source"] for r in val)),
                         "label_map": mapping["label_map"]},
            "metrics": {"synthetic_validation": mmetrics, "probe": {n: probe[n] for n in names},
                        "ineligible": {n: v for n, v in probe.items() if not v["eligible"]}}}
    (d / META_FILE).write_text(json.dumps(meta, indent=1) + "\n")
    return {"labels": len(labels), "bank": int(len(bank_labels)), "seconds": meta["training_seconds"], "absent_mass": absent_mass,
            "synthetic_validation_at_absent_mass": mmetrics["curve"].get(f"{absent_mass:.2f}")}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stages", nargs="+", choices=("topics", "probe", "generate", "fit"))
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--threads", type=int, default=2, help="llama.cpp threads for generate")
    ap.add_argument("--per-topic", type=int, default=ITEMS_PER_TOPIC, help="generate: clauses (items) per topic")
    ap.add_argument("--reader", choices=("knn", "softmax"), default="knn", help="fit: the question reader")
    ap.add_argument("--root", type=Path, default=None, help="fit: write the head under this weights root (default: the package's)")
    ap.add_argument("--topics-file", type=Path, default=None, help="generate: the topics (default: the cached stage 1)")
    ap.add_argument("--probe-file", type=Path, default=None, help="generate: the probe stats (default: the cached stage 2)")
    args = ap.parse_args(argv)
    lib = open_library()
    tfile = args.topics_file or CACHE / "topics.json"
    topics = json.loads(tfile.read_text()) if tfile.exists() else None
    if "topics" in args.stages or topics is None:
        topics = stage_topics(lib)
        print(json.dumps([(t["name"], t["agreements"], t["keys"]) for t in topics["topics"]]))
    if "probe" in args.stages:
        res = stage_probe(lib, topics)
        print(json.dumps(res["stats"], indent=0))
    if "generate" in args.stages:
        print(json.dumps(stage_generate(lib, topics, args.minutes, args.threads, args.probe_file, args.per_topic)))
    if "fit" in args.stages:
        print(json.dumps(stage_fit(lib, topics, args.reader, args.root), indent=1))


if __name__ == "__main__":
    main()
