"""Question-topic head (issue #39): which CUAD clause category a question asks about, if any, and
whether an agreement clearly has no clause of it -- the category-absence abstention.

A question in everyday words ("is there a ceiling on what they could owe us?") about a topic an
agreement lacks used to get a neighbouring clause. The head answers two things:

1. **Topic**: multinomial logistic regression (softmax over the 41 CUAD categories of Hendrycks et
   al. 2021 and an ``Other`` class) on the question's all-MiniLM-L6-v2 embedding (Reimers &
   Gurevych 2019, mean-pooled and l2-normalised), trained by :mod:`clauselens.heads.train_topic` on
   synthetic everyday questions per topic (:mod:`clauselens.heads.topic_questions`), CUAD category
   phrasings and synthetic passage questions of ``train_allowed`` agreements.
2. **Absence**: the clause presence probe (:mod:`clauselens.heads.presence`) scores the agreement;
   a category counts as clearly absent when its contract score is below ``absent_below`` -- per
   category, the score under which at most :data:`~clauselens.heads.train_topic.PRESENT_MISS` of
   the ``train_allowed`` agreements that *have* such a clause fall (out-of-fold scores).

Only categories whose CUAD answer format is Yes/No (the category is a clause that is there or
not, not a date or a number) and whose threshold leaves out a useful share of the agreements
without one are eligible. The search abstains when the question's probability summed over the
eligible categories the agreement lacks (the *absent mass*) reaches ``absent_mass``, chosen on
validation questions put to every ``train_allowed`` agreement so that at most 3 % of answerable
pairs abstain. Files under ``weights/topic/``: ``model.safetensors`` (fp16 ``coef``,
``intercept``) and ``head.json`` (labels, sha256, thresholds, training command, data manifest,
metrics). Loading is offline, checks the checksum, and happens on first use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir, sha256_file

NAME = "topic"
WEIGHT_FILE = "model.safetensors"
META_FILE = "head.json"
OTHER = "Other"


@dataclass(frozen=True)
class AbsentTopic:
    """The head's reading of one question against one or more agreements: the probability that the
    question asks about a category all of them clearly lack (``mass``), the categories that make it
    up, most probable first, and the threshold at which the search abstains."""

    mass: float
    categories: list[tuple[str, float]]
    threshold: float

    @property
    def absent(self) -> bool:
        return self.mass >= self.threshold


#: CUAD categories that qualify another clause rather than name a topic of their own (the category definitions of
#: Hendrycks et al. 2021: a *cap* on liability, liability left *uncapped*, a licence that is *not transferable*,
#: *irrevocable*, extended to *affiliates*, an *exception* to a restriction, IP created by one party *assigned* to or
#: *jointly owned* with the other). An agreement without such a clause may still answer a question about the clause it
#: would qualify -- who pays when someone is hurt (an indemnity without a cap), whether a name may go on a product (a
#: consent clause without a licence) -- so their absence never declines a question. Chosen after the four clause-QA dev
#: sets' answerable questions the category check declined (cap on liability, uncapped liability, non-transferable
#: licence, IP ownership assignment: 4 of its 19 declines, none of its 15 right ones), widened to the categories of the
#: same kind by their definitions.
QUALIFIERS = frozenset({"Cap On Liability", "Uncapped Liability", "Non-Transferable License", "Irrevocable Or Perpetual License",
                        "Affiliate License-Licensee", "Affiliate License-Licensor", "Competitive Restriction Exception",
                        "Ip Ownership Assignment", "Joint Ip Ownership", "Unlimited/All-You-Can-Eat-License"})


class TopicHead:
    """The loaded head: :meth:`read` a question embedding against agreements' presence scores."""

    def __init__(self, root: Path | None = None) -> None:
        d = head_dir(NAME, root)
        missing = [n for n in (WEIGHT_FILE, META_FILE) if not (d / n).is_file()]
        if missing:
            raise HeadMissingError(f"topic head not installed: {', '.join(missing)} missing under {d}")
        meta = json.loads((d / META_FILE).read_text())
        if sha256_file(d / WEIGHT_FILE) != meta["sha256"]:
            raise HeadChecksumError(f"topic head: {WEIGHT_FILE} does not match the sha256 in head.json")
        from safetensors.numpy import load_file

        t = load_file(str(d / WEIGHT_FILE))
        self.coef = t["coef"].astype(np.float32)  # (labels, dim)
        self.intercept = t["intercept"].astype(np.float32)
        self.labels: list[str] = list(meta["labels"])
        self.absent_mass = float(meta["absent_mass"])
        self.absent_below: dict[str, float] = {c: float(v) for c, v in meta["absent_below"].items()}
        self.meta: dict[str, Any] = meta

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """Softmax probabilities, one row per question embedding."""
        z = np.atleast_2d(np.asarray(vectors, dtype=np.float32)) @ self.coef.T + self.intercept
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def ranked(self, vector: np.ndarray) -> list[tuple[str, float]]:
        """Every label with its probability for one question embedding, most probable first."""
        p = self.probabilities(vector)[0]
        return sorted(((c, float(x)) for c, x in zip(self.labels, p)), key=lambda cp: -cp[1])

    def read(self, vector: np.ndarray, presence: list[dict[str, float]]) -> AbsentTopic:
        """The absent mass of one question embedding against agreements given by their presence
        scores per category: the probability on eligible categories whose score is below
        ``absent_below`` in every one of them (a category without a score is not absent; a
        :data:`QUALIFIERS` category never counts)."""
        p = self.probabilities(vector)[0]
        parts = []
        for j, cat in enumerate(self.labels):
            thr = self.absent_below.get(cat)
            if thr is None or not presence or cat in QUALIFIERS:
                continue
            if all(sc.get(cat) is not None and sc[cat] < thr for sc in presence):
                parts.append((cat, float(p[j])))
        parts.sort(key=lambda cp: -cp[1])
        return AbsentTopic(float(sum(q for _, q in parts)), parts, self.absent_mass)


def absence_reason(reading: AbsentTopic, names: str, n_docs: int, best: float, threshold: float) -> str:
    """The user's words for an abstention by the heads (after "no matching clause found: ")."""
    cat = reading.categories[0][0].lower()
    return (f"the question reads as one about {cat} (the topic head: P {reading.mass:.2f} on clause kinds absent here), "
            f"and {names} {'has' if n_docs == 1 else 'have'} no such clause (the presence head's score {best:.2f} < "
            f"{threshold:.2f})")


@lru_cache(maxsize=1)
def load() -> TopicHead:
    """The installed head, loaded once (raises :class:`HeadMissingError` when absent)."""
    return TopicHead()
