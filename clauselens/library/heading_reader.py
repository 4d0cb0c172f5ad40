"""The heading-topic head's softmax question reader (issue #39), fitted by
:mod:`clauselens.library.train_heading_topics` ``fit --reader softmax``.

The kNN vote over headed clauses (the head's first reader) reads a question by the clauses nearest to it, and
almost every clause of an agreement sits under no eligible topic, so an everyday question ("will they teach our
sales reps how it works?") got ``Other`` 0.9-1.0 even when its topic was one of the head's. This reader is
multinomial logistic regression (scikit-learn ``LogisticRegression``, balanced class weights) over the question's
all-MiniLM-L6-v2 vector, trained on questions: the bundled 1.5B's everyday questions per heading topic (the
``generate`` stage), its questions for sampled passages of ``train_allowed`` agreements labelled by the heading
topic the passage sits under (else ``Other``), the topic head's questions and the CUAD category phrasings mapped
to heading topics by name, less the generated questions that copy the prompt's own examples
(:data:`PARROT_SIMILARITY`). ``C`` is chosen on the validation split (one generated item in five), the
probabilities it reports for validation questions come from the fit without them, and the head is refitted on
everything. The same recipe as the CUAD topic head (:mod:`clauselens.heads.train_topic`).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np

#: The regularisation grid (the vectors are l2-normalised, so useful values are large).
C_GRID = (3.0, 10.0, 30.0, 100.0, 300.0)
#: A generated question this close (MiniLM cosine) to one of the prompt's own example questions is a copy of the
#: example (the 1.5B repeats "If we pay Brightline a week late ..." for a force-majeure clause), not a question
#: about its item's topic: left out of training.
PARROT_SIMILARITY = 0.75


def prompt_examples(system_prompt: str) -> list[str]:
    """The example questions quoted in a generation prompt (its double-quoted sentences ending in "?")."""
    return re.findall(r'"([^"]+\?)"', system_prompt)


def parroted(x: np.ndarray, examples: np.ndarray) -> np.ndarray:
    """Rows of ``x`` (l2-normalised question vectors) within :data:`PARROT_SIMILARITY` of an example vector."""
    if not len(examples):
        return np.zeros(len(x), dtype=bool)
    return (np.asarray(x) @ np.asarray(examples).T).max(axis=1) >= PARROT_SIMILARITY


def fit_reader(x: np.ndarray, y: Sequence[str], val: np.ndarray, labels: Sequence[str]) -> dict[str, Any]:
    """Fit the reader on question vectors ``x`` with labels ``y`` (each one of ``labels``); ``val`` marks the
    validation rows. Returns ``coef`` / ``intercept`` in ``labels`` order (refitted on every row), the chosen
    ``C``, the validation accuracy per ``C`` and ``val_probs`` (validation rows x ``labels``, from the fit that
    did not see them)."""
    from sklearn.linear_model import LogisticRegression

    ys = np.asarray(list(y))
    val = np.asarray(val, dtype=bool)
    curve, fits = [], {}
    for c in C_GRID:
        clf = LogisticRegression(C=c, max_iter=3000, class_weight="balanced").fit(x[~val], ys[~val])
        acc = float((clf.predict(x[val]) == ys[val]).mean()) if val.any() else 0.0
        curve.append({"C": c, "val_accuracy": round(acc, 4)})
        fits[c] = clf
    best = max(curve, key=lambda r: (r["val_accuracy"], -r["C"]))["C"]
    order = [list(fits[best].classes_).index(lab) for lab in labels]
    val_probs = fits[best].predict_proba(x[val])[:, order] if val.any() else np.zeros((0, len(labels)))
    final = LogisticRegression(C=best, max_iter=3000, class_weight="balanced").fit(x, ys)
    fin = [list(final.classes_).index(lab) for lab in labels]
    return {"coef": np.ascontiguousarray(final.coef_[fin], dtype=np.float32),
            "intercept": np.ascontiguousarray(final.intercept_[fin], dtype=np.float32),
            "C": best, "C_curve": curve, "val_probs": val_probs}


__all__ = ["C_GRID", "PARROT_SIMILARITY", "fit_reader", "parroted", "prompt_examples"]
