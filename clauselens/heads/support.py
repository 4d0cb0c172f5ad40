"""The support head (issue #40): does a quoted text support a claim? ``support(claim, quote) -> P(supports)``.

The claim is the hypothesis and the quote the premise of the NLI head (:mod:`clauselens.heads.nli`,
a cross-encoder trained on ContractNLI dev spans; Koreeda & Manning 2021): the quote is cut into
windows of whole sentences that fit the head's length, and P(supports) is the largest P(Entailment)
over the windows (an entailing sentence anywhere in a quote supports the claim; the same max
aggregation the span-NLI decision uses). The threshold that turns it into a verdict was chosen by
``benchmarks/support_verdicts.py --head`` with cross-validation by hand-label file and is read from
``clauselens/heads/weights/support/head.json`` (with the sha256 of the NLI head it was chosen for:
a different NLI head makes this one "not installed").

No support head is committed: with the NLI head trained so far, P(supports) ranked the hand-labelled
unsupported claims *above* the supported ones (cross-validated by label file: 25/31 unsupported claims
passed, 23/131 supported rejected; the 1.5B passed 15/21 and rejected 6/102 on its items;
``benchmarks/results/support_verdicts_head.json``), so the model's verdict stays the default
(``Settings.support_verdict = "llm"``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from clauselens.errors import ClauselensError
from clauselens.heads import nli
from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir, load_or_notice

NAME = "support"
META_FILE = "head.json"
#: Words per premise window (the NLI head reads 128 word pieces: claim + window).
WINDOW_WORDS = 60
_SENT = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\d])")


def quote_windows(quote: str, words: int = WINDOW_WORDS) -> list[str]:
    """``quote`` as consecutive windows of whole sentences of at most ``words`` words (a longer
    sentence is cut into ``words``-word pieces with half overlap)."""
    out: list[str] = []
    cur: list[str] = []
    for sent in _SENT.split(" ".join(quote.split())):
        w = sent.split()
        if len(w) > words:
            if cur:
                out.append(" ".join(cur))
                cur = []
            step = words // 2
            out += [" ".join(w[i:i + words]) for i in range(0, max(1, len(w) - step), step)]
            continue
        if len(cur) + len(w) > words and cur:
            out.append(" ".join(cur))
            cur = []
        cur += w
    if cur:
        out.append(" ".join(cur))
    return out


@dataclass
class SupportHead:
    """The NLI head plus the chosen threshold (``head.json``)."""

    head: nli.NLIHead
    meta: dict[str, Any]

    @property
    def threshold(self) -> float:
        return float(self.meta["threshold"])

    def support(self, claim: str, quote: str) -> float:
        """P(the quote supports the claim): the largest P(Entailment) over the quote's windows."""
        if not claim.strip() or not quote.strip():
            raise ClauselensError("support head: the claim and the quote must both be non-empty")
        wins = quote_windows(quote)
        p = self.head.probs([(w, claim) for w in wins])
        return float(p[:, 0].max())

    def supports(self, claim: str, quote: str) -> bool:
        return self.support(claim, quote) >= self.threshold


def load_head(root: Path | None = None) -> SupportHead:
    """The installed support head (raises ``HeadMissingError`` / ``HeadChecksumError``)."""
    f = head_dir(NAME, root) / META_FILE
    if not f.is_file():
        raise HeadMissingError(f"support head not installed: {f} missing")
    meta = json.loads(f.read_text(encoding="utf-8"))
    head = nli.NLIHead(root).load()
    if meta.get("nli_sha256") != head.meta.get("sha256"):
        raise HeadChecksumError(f"support head: chosen for NLI head {str(meta.get('nli_sha256'))[:12]}, "
                                f"installed {str(head.meta.get('sha256'))[:12]}")
    return SupportHead(head, meta)


@lru_cache(maxsize=1)
def load() -> SupportHead:
    return load_head()


def load_or_none(feature: str = "the support verdict from the head (the model's verdict is used)") -> SupportHead | None:
    """The installed head, or None after one notice that ``feature`` is off."""
    return load_or_notice(NAME, feature, load)


def support(claim: str, quote: str) -> float:
    """P(``quote`` supports ``claim``) from the installed head (see the module docstring)."""
    return load().support(claim, quote)


def threshold() -> float:
    """The installed head's verdict threshold on :func:`support`."""
    return load().threshold
