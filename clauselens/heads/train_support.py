"""Train the support head (issue #40, :mod:`clauselens.heads.support`) on data under ``/work/shared/data`` only.

Training pairs (claim, quote, supports) -- never the hand labels of ``benchmarks/data/answers_e2e_labels*.json``:

1. **ContractNLI dev** (Koreeda & Manning 2021; ``contractnli/dev.json``, the train split is not available here,
   ``test.json`` is never read): a hypothesis vs one of its evidence spans / all of them joined = supports if the
   document's label is Entailment, not if Contradiction; vs two other spans of the same document = not.
2. **CUAD** (Hendrycks et al. 2021; ``master_clauses.csv``, agreements of ``train_allowed.txt`` only): a claim
   naming an annotated clause's category ("The agreement has a governing law clause.") vs that clause = supports,
   vs another category's clause of the same agreement = not.
3. **Claims made from CUAD clauses** (same agreements): a sentence of an annotated clause, with the clause as the
   quote. Supports: the sentence, the sentence after a reporting lead-in ("Under the agreement, ..."), its first
   part cut at a comma or semicolon, "shall" read as "must". Not: a party role swapped for another role of the
   same agreement, a number changed, a negation added or removed, "shall"/"may" swapped, a phrase of another
   agreement's sentence added, another clause's sentence. Generic edits, no question or category specific rule.

Documents are split 80/20 (by agreement / ContractNLI document, seeded): the logistic regression is fitted on
the 80 %, the threshold is chosen on the held-out 20 % (the highest threshold that rejects at most
:data:`MAX_REJECTED` of the held-out supporting pairs), and the final model is refitted on all pairs with that
threshold. MiniLM vectors are cached (resumable) under ``~/.cache/clauselens/support_head/``. ::

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
        .venv/bin/python -m clauselens.heads.train_support     # -> clauselens/heads/weights/support/
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
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from clauselens.heads import support as S

DATA = Path("/work/shared/data")
CNLI = DATA / "contractnli" / "dev.json"
CUAD = DATA / "cuad"
CACHE = Path.home() / ".cache" / "clauselens" / "support_head"
COMMAND = ("flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 "
           ".venv/bin/python -m clauselens.heads.train_support")
SEED = 0
MAX_REJECTED = 0.15
C = 1.0
#: Categories whose annotations are names or dates, not clauses (no sentence to make claims from).
_NOT_CLAUSES = {"Document Name", "Parties", "Agreement Date", "Effective Date"}
#: Party role words swapped for one another (capitalised in the text).
ROLES = ("Company", "Consultant", "Contractor", "Client", "Customer", "Supplier", "Vendor", "Seller", "Buyer", "Purchaser",
         "Licensor", "Licensee", "Distributor", "Reseller", "Manufacturer", "Provider", "Franchisor", "Franchisee",
         "Landlord", "Tenant", "Lessor", "Lessee", "Agent", "Principal", "Owner", "Developer", "Publisher", "Sponsor",
         "Investor", "Borrower", "Lender", "Partner", "Member", "Manager", "Operator", "Producer", "Retailer",
         "Employee", "Executive", "Servicer", "Affiliate", "Recipient", "Discloser")
_ROLE_RE = re.compile(r"\b(" + "|".join(ROLES) + r")\b")
_LEADS = ("Under the agreement, ", "The agreement provides that ", "The contract states that ")
_SENTS = re.compile(r"(?<=[.;:])\s+(?=[A-Z(])")


def key(name: str) -> str:
    """Match key of a CUAD file name (TRAINING.md): no extension, lower case, letters and digits only."""
    stem = re.sub(r"\.(pdf|txt)$", "", name.strip(), flags=re.I)
    return re.sub(r"[^a-z0-9]", "", stem.lower())


def _norm(t: str) -> str:
    return " ".join(t.split())


def contractnli_pairs(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Family 1 (module docstring); ``group`` is the document id."""
    d = json.loads(CNLI.read_text(encoding="utf-8"))
    hyps = {k: v["hypothesis"] for k, v in d["labels"].items()}
    for doc in d["documents"]:
        spans = [_norm(doc["text"][a:b]) for a, b in doc["spans"]]
        for hid, ann in doc["annotation_sets"][0]["annotations"].items():
            ev = [spans[i] for i in ann["spans"] if len(spans[i].split()) >= 4]
            label = ann["choice"]
            g = f"cnli:{doc['id']}"
            if ev and label in ("Entailment", "Contradiction"):
                y = int(label == "Entailment")
                yield {"claim": hyps[hid], "quote": rng.choice(ev), "y": y, "kind": f"cnli_{label.lower()}", "group": g}
                if len(ev) > 1:
                    yield {"claim": hyps[hid], "quote": " ".join(ev[:4]), "y": y, "kind": f"cnli_{label.lower()}_joined",
                           "group": g}
            others = [i for i, s in enumerate(spans) if i not in set(ann["spans"]) and len(s.split()) >= 8]
            for i in rng.sample(others, min(1 if label == "NotMentioned" else 2, len(others))):
                yield {"claim": hyps[hid], "quote": spans[i], "y": 0, "kind": "cnli_other_span", "group": g}


def cuad_clauses() -> dict[str, dict[str, list[str]]]:
    """Annotated clause texts per category of every ``train_allowed`` agreement (``master_clauses.csv``)."""
    csv.field_size_limit(10**9)
    allowed = {key(x) for x in (CUAD / "train_allowed.txt").read_text().splitlines() if x.strip()}
    out: dict[str, dict[str, list[str]]] = {}
    names.clear()
    with open(CUAD / "master_clauses.csv", newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if key(r["Filename"]) not in allowed:
                continue
            cats = {c: [_norm(str(s)) for s in ast.literal_eval(r[c] or "[]")] for c in r
                    if c != "Filename" and not c.strip().endswith("Answer") and c not in _NOT_CLAUSES}
            out[key(r["Filename"])] = {c: [s for s in v if 12 <= len(s.split()) <= 160] for c, v in cats.items() if v}
            names[key(r["Filename"])] = ([_norm(str(s)) for s in ast.literal_eval(r["Document Name"] or "[]")][:1],
                                         [x for x in (_norm(str(s)) for s in ast.literal_eval(r["Parties"] or "[]"))
                                          if re.fullmatch(r"[A-Z][\w .,&'-]{1,60}", x)][:4])
    return {k: {c: v for c, v in cs.items() if v} for k, cs in out.items()}


#: The agreement's document name and first party names (CUAD "Document Name" / "Parties"), filled by cuad_clauses.
names: dict[str, tuple[list[str], list[str]]] = {}


def framing(k: str, rng: random.Random) -> str:
    """How a reading names where it read the sentence ("Under Section 7.2 of the Distributor Agreement between
    Accuray and Siemens, "): the agreement's document name, parties and a clause number -- none of them in the
    quote, all of them label-neutral (put on supporting and non-supporting claims alike)."""
    doc, parties = names.get(k, ([], []))
    title = (doc[0].title() if doc else "agreement")
    between = f" between {parties[0]} and {parties[-1]}" if len(parties) >= 2 and rng.random() < 0.5 else ""
    ref = rng.choice([f"Section {rng.randint(1, 20)}.{rng.randint(1, 9)}", f"clause {rng.randint(1, 30)}",
                      f"Article {rng.randint(1, 15)}", f"Section {rng.randint(1, 20)}({rng.choice('abcd')})"])
    year = f"{rng.randint(1995, 2020)} " if rng.random() < 0.3 else ""
    return rng.choice([f"Under {ref} of the {year}{title}{between}, ", f"{ref} of the {year}{title}{between} provides that ",
                       f"The {year}{title}{between} states that "])


def _framed(prefix: str, c: str) -> str:
    return prefix + c[0].lower() + c[1:] if prefix and c[:2] not in ("A ", "I ") and not c[:2].isupper() else prefix + c


def _swap_role(s: str, roles: list[str], rng: random.Random) -> str | None:
    found = list(dict.fromkeys(_ROLE_RE.findall(s)))
    if not found:
        return None
    a = rng.choice(found)
    others = [r for r in roles if r != a and r not in found] or [r for r in roles if r != a]
    if not others:
        return None
    b = rng.choice(others)
    return re.sub(rf"\b{a}\b", b, s, count=1)


def _change_number(s: str, rng: random.Random) -> str | None:
    ms = list(re.finditer(r"\b\d+(?:,\d{3})*(?:\.\d+)?\b", s))
    if ms:
        m = rng.choice(ms)
        v = float(m.group(0).replace(",", ""))
        new = rng.choice([v * 2, v + rng.randint(1, 9), max(1.0, v / 2), v * 10])
        txt = f"{new:,.0f}" if "," in m.group(0) else (f"{new:g}" if "." in m.group(0) else str(int(new)))
        return None if txt == m.group(0) else s[:m.start()] + txt + s[m.end():]
    words = [w for w in S._NUMBER_WORDS if re.search(rf"\b{w}\b", s, re.I) and w not in ("zero", "one")]
    if not words:
        return None
    w = rng.choice(words)
    repl = rng.choice([x for x in ("two", "three", "five", "ten", "thirty", "sixty", "ninety") if x != w])
    return re.sub(rf"\b{w}\b", repl, s, count=1, flags=re.I)


def _flip_negation(s: str) -> str | None:
    if re.search(r"\b(?:shall|will|may|must)\s+not\b", s):
        return re.sub(r"\b(shall|will|may|must)\s+not\b", r"\1", s, count=1)
    if re.search(r"\b(?:shall|will|may|must)\b", s):
        return re.sub(r"\b(shall|will|may|must)\b", r"\1 not", s, count=1)
    return None


def _flip_modal(s: str) -> str | None:
    if re.search(r"\bmay\b", s):
        return re.sub(r"\bmay\b", "shall", s, count=1)
    if re.search(r"\bshall\b", s):
        return re.sub(r"\bshall\b", "may", s, count=1)
    return None


def _cut(s: str) -> str | None:
    ws = s.split()
    for i in range(len(ws) - 4, 7, -1):
        if ws[i].endswith((",", ";")):
            return " ".join(ws[: i + 1]).rstrip(",;") + "."
    return None


def claim_pairs(clauses: dict[str, dict[str, list[str]]], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Families 2 and 3 (module docstring); ``group`` is the agreement key."""
    keys = sorted(clauses)
    all_sents = [s for k in keys for v in clauses[k].values() for c in v for s in _SENTS.split(c) if len(s.split()) >= 8]
    for k in keys:
        cats = clauses[k]
        roles = sorted({r for v in cats.values() for c in v for r in _ROLE_RE.findall(c)})
        g = f"cuad:{k}"
        names = sorted(cats)
        for cat in rng.sample(names, min(4, len(names))):
            quote = rng.choice(cats[cat])
            yield {"claim": f"The agreement has a {cat.lower()} clause.", "quote": quote, "y": 1, "kind": "cuad_category", "group": g}
            other = [c for c in names if c != cat]
            if other:
                yield {"claim": f"The agreement has a {cat.lower()} clause.", "quote": rng.choice(cats[rng.choice(other)]),
                       "y": 0, "kind": "cuad_other_category", "group": g}
            sents = [s for s in _SENTS.split(quote) if 8 <= len(s.split()) <= 70]
            if not sents:
                continue
            s = rng.choice(sents)
            lead = rng.choice(_LEADS)
            pos = [("verbatim", s), ("lead_in", lead + s[0].lower() + s[1:]), ("cut", _cut(s)),
                   ("must", re.sub(r"\bshall\b", "must", s, count=1) if re.search(r"\bshall\b", s) else None)]
            neg = [("party_swap", _swap_role(s, roles or list(ROLES), rng)), ("number", _change_number(s, rng)),
                   ("negation", _flip_negation(s)), ("modal", _flip_modal(s)),
                   ("added_phrase", s.rstrip(".;:") + ", " + " ".join(rng.choice(all_sents).split()[:rng.randint(5, 10)]) + "."),
                   ("other_sentence", rng.choice([x for x in all_sents if x not in quote] or [None]))]
            frame = framing(k, rng) if rng.random() < 0.5 else ""  # the same framing on every claim of this sentence
            for kind, c in pos:
                if c and _norm(c) != "":
                    yield {"claim": _framed("" if kind == "lead_in" else frame, c), "quote": quote, "y": 1,
                           "kind": f"claim_{kind}", "group": g}
            for kind, c in neg:
                if c and _norm(c) != _norm(s):
                    yield {"claim": _framed(frame, c), "quote": quote, "y": 0, "kind": f"claim_{kind}", "group": g}


def build_pairs() -> list[dict[str, Any]]:
    rng = random.Random(SEED)
    return list(contractnli_pairs(rng)) + list(claim_pairs(cuad_clauses(), rng))


def embed_cached(texts: list[str], chunk: int = 1000) -> dict[str, np.ndarray]:
    """MiniLM vectors of ``texts``: a store under :data:`CACHE` keyed by the sha256 of each text, the missing ones
    embedded in chunks of ``chunk`` and saved after each (resumable; a changed training set re-embeds only its new texts)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    kf, vf = CACHE / "vectors_keys.json", CACHE / "vectors.npy"
    keys: list[str] = json.loads(kf.read_text()) if kf.is_file() and vf.is_file() else []
    vecs = np.load(vf) if keys else np.zeros((0, 384), dtype=np.float32)
    index = {k: i for i, k in enumerate(keys)}

    def h(t: str) -> str:
        return hashlib.sha256(t.encode()).hexdigest()[:24]

    todo = sorted({t for t in texts if h(t) not in index})
    for i in range(0, len(todo), chunk):
        part = todo[i:i + chunk]
        t0 = time.time()
        vecs = np.concatenate([vecs, S.embed(part)])
        for t in part:
            index[h(t)] = len(keys)
            keys.append(h(t))
        np.save(vf.with_suffix(".tmp.npy"), vecs)
        vf.with_suffix(".tmp.npy").replace(vf)
        kf.write_text(json.dumps(keys))
        print(f"[train_support] embedded {i + len(part)}/{len(todo)} ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    return {t: vecs[index[h(t)]] for t in set(texts)}


def feature_matrix(pairs: list[dict[str, Any]]) -> np.ndarray:
    """:data:`~clauselens.heads.support.FEATURES` of every pair (vectors from :func:`embed_cached`)."""
    wins = {p["quote"]: S.quote_windows(p["quote"]) for p in pairs}
    vec = embed_cached([p["claim"] for p in pairs] + [_norm(q) for q in wins] + [w for ws in wins.values() for w in ws])
    rows = []
    for p in pairs:
        ws = wins[p["quote"]]
        emb = S.embedding_features(vec[p["claim"]], vec[_norm(p["quote"])], np.stack([vec[w] for w in ws]))
        rows.append(S.lexical_features(p["claim"], p["quote"]) + emb)
    return np.asarray(rows, dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray) -> Any:
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=C, class_weight="balanced", max_iter=2000)).fit(x, y)


def choose_threshold(p: np.ndarray, y: np.ndarray, max_rejected: float = MAX_REJECTED) -> float:
    """The highest threshold that rejects at most ``max_rejected`` of the supporting pairs (``y == 1``)."""
    pos = np.sort(p[y == 1])
    return float(pos[int(max_rejected * len(pos))]) if len(pos) else 0.5


def _rates(p: np.ndarray, y: np.ndarray, t: float) -> dict[str, Any]:
    from sklearn.metrics import roc_auc_score

    ok = p >= t
    return {"n": int(len(y)), "auc": round(float(roc_auc_score(y, p)), 4) if 0 < y.sum() < len(y) else None,
            "accuracy": round(float((ok == (y == 1)).mean()), 4),
            "unsupported_passed": f"{int((ok & (y == 0)).sum())}/{int((y == 0).sum())}",
            "supported_rejected": f"{int((~ok & (y == 1)).sum())}/{int((y == 1).sum())}"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=None, help="write under this weights root (tests)")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    pairs = build_pairs()
    x = feature_matrix(pairs)
    y = np.asarray([p["y"] for p in pairs])
    groups = sorted({p["group"] for p in pairs})
    held = set(random.Random(SEED).sample(groups, len(groups) // 5))
    te = np.asarray([p["group"] in held for p in pairs])
    m = fit(x[~te], y[~te])
    p_te = m.predict_proba(x[te])[:, 1]
    t = choose_threshold(p_te, y[te])
    kinds = sorted({p["kind"] for p in pairs})
    by_kind = {}
    for kd in kinds:
        sel = np.asarray([p["kind"] == kd for p in pairs])[te]
        if sel.any():
            by_kind[kd] = {"n": int(sel.sum()), "passed": f"{int((p_te[sel] >= t).sum())}/{int(sel.sum())}",
                           "label": int(y[te][sel][0])}
    final = fit(x, y)
    sc, lr = final.named_steps["standardscaler"], final.named_steps["logisticregression"]
    manifest = {"contractnli": {"file": str(CNLI), "split": "dev (train not available here; test never read)",
                                "pairs": sum(p["group"].startswith("cnli:") for p in pairs)},
                "cuad": {"file": str(CUAD / "master_clauses.csv"), "agreements": "train_allowed.txt only",
                         "agreements_used": len({p["group"] for p in pairs if p["group"].startswith("cuad:")}),
                         "pairs": sum(p["group"].startswith("cuad:") for p in pairs)},
                "pairs": len(pairs), "supports": int(y.sum()), "not": int(len(y) - y.sum()),
                "by_kind": {kd: sum(p["kind"] == kd for p in pairs) for kd in kinds},
                "hand_labels_used": "none (benchmarks/data/answers_e2e_labels*.json only measure the head)"}
    meta = {"kind": "logistic regression over lexical + MiniLM-cosine pair features",
            "training_command": COMMAND, "threshold": round(t, 4),
            "threshold_rule": f"highest threshold rejecting at most {MAX_REJECTED:.0%} of the supporting pairs of the "
                              f"held-out 20% of documents (seed {SEED})",
            "model": f"StandardScaler + LogisticRegression(C={C}, class_weight=balanced)", "manifest": manifest,
            "metrics": {"held_out_documents": len(held), "held_out": _rates(p_te, y[te], t), "held_out_by_kind": by_kind,
                        "coef": {f: round(float(c), 3) for f, c in zip(S.FEATURES, lr.coef_[0])},
                        "cpu_s_total": round(time.process_time() - t0, 1)}}
    out = S.save(sc.mean_, sc.scale_, lr.coef_[0], float(lr.intercept_[0]), meta, args.root)
    print(json.dumps({k: out[k] for k in ("threshold", "metrics", "sha256")}, indent=1))


if __name__ == "__main__":
    main()
