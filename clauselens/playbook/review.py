"""Review one agreement against a playbook (issue #44): per position compliant / deviation / missing / unclear.

Inputs are an agreement's verbatim passages in document order (library passages: one span of
``Document.text`` each, with clause reference and page; :func:`clauselens.library.passages.library_passages`
for a parsed file, :func:`clauselens.library.library.chunks_of` for a library agreement).

**Presence.** A position with a CUAD category the clause presence head was trained to decide
(:mod:`clauselens.heads.presence`, issue #40: a TF-IDF logistic probe, max over 100-word windows)
is decided by the head: present when its score is above the category's threshold by more than
the category's band in log-odds (the logit distance is the probe's own scale: Cox 1958 / the
logistic model), absent when below by more than it, else **unclear** ("the presence head is not
sure"). For a category with a shipped stacker (:mod:`clauselens.playbook.stack`: Exclusivity)
the score decided is the head's score stacked with counts of the agreement's wording, on the
stacker's own threshold and band, and a weak best window is replaced by the wording that decided
as the clause quoted. Other thresholds and bands come from :mod:`clauselens.playbook.calibrate`
(cross-validated on ``train_allowed`` agreements only); a category it does not cover keeps the
head's threshold and a band of :data:`DEFAULT_MARGIN`; a playbook's ``unclear_margin`` sets one
band for every category. The clause quoted is the passage the head scores highest for the
category. A position without a category (or one the head never predicts) is found by BM25
over the agreement's passages (bm25s; Robertson & Zaragoza 2009) with the topic and its terms
(the position's ``terms``, else :func:`clauselens.grid.topic.derive_terms`); a passage counts
when it mentions at least two of the terms (one when there is one term).

**Outcome.** ``present``: compliant with the quote / missing. ``absent``: deviation with the
quote / compliant (no clause: the head's score says why). Value rules (:mod:`clauselens.playbook.rules`):
missing when the clause is absent, else the rule read on the head's passages above its threshold
(at most :data:`MAX_CLAUSES`, best first); clauses that disagree are **unclear** ("conflicting
clauses"), and so is a clause the rule cannot read a value from. A compliant outcome of a rule that
needs a clause always carries a quote (:func:`check_invariants`).

**Parties.** A position with ``party: us / counterparty / both`` is checked against the party the
quoted clause's sentences on the topic bind (:mod:`clauselens.playbook.parties`; "us" from
``our_party`` or the playbook's ``our_side``): ``present`` is compliant only when the clause binds
that party (binding another: deviation; not saying whom: unclear), ``absent`` is a deviation only
when it binds that party (binding only the other side: compliant, with the quote; not saying
whom: still a deviation, never a guessed compliant); a sentence limiting liability counts for the
party whose liability it limits; ``consent_required`` and ``cap_months_of_fees_at_least`` read each
sentence for its party (:mod:`clauselens.playbook.rules`).

The model's reading (optional; :mod:`clauselens.playbook.reading`) is added afterwards and labelled
as the model's; it never changes an outcome.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from clauselens.errors import ClauselensError
from clauselens.grid.heads import never_worded
from clauselens.heads.presence import STRIDE_WORDS, WINDOW_WORDS, Presence, windows
from clauselens.playbook.model import Playbook, Position
from clauselens.playbook.parties import ALL, Sides, bound, covers, describe, liable, resolve_us, target
from clauselens.playbook.rules import RuleResult, evaluate, mentions, sentences, topic_words
from clauselens.playbook.stack import first_match, load_stack, negated_windows, stacked_score

#: Clauses of one category read for a value rule (best first).
MAX_CLAUSES = 3
#: A quote shown in a report is at most this many characters (cut at a sentence end, still verbatim).
QUOTE_CHARS = 900
OUTCOMES = ("compliant", "deviation", "missing", "unclear")
#: The band (log-odds) of a category without a calibrated one, when the playbook sets none.
DEFAULT_MARGIN = 1.0


@dataclass
class Quote:
    """A verbatim clause: ``text == document text[start:end]``; clause reference, heading, page."""

    text: str
    start: int
    end: int
    clause: str = ""
    heading: str = ""
    page: int | None = None


@dataclass
class PositionResult:
    """One position's outcome for one agreement (see the module docstring)."""

    position_id: str
    topic: str
    severity: str
    rule: str
    outcome: str
    why: str
    decided_by: str  # "presence head", "topic search", "value rule"
    value: str = ""
    quotes: list[Quote] = field(default_factory=list)
    presence_score: float | None = None
    threshold: float | None = None
    preferred: str = ""
    reading: str = ""  # the model's reading (labelled as such), empty with --no-reading
    bound_party: str = ""  # whom the quoted sentence binds (positions with a party), e.g. "Consultant"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AgreementReview:
    """A playbook's review of one agreement."""

    agreement: str
    source_path: str
    doc_id: str
    results: list[PositionResult]
    seconds: float = 0.0
    error: str = ""

    def counts(self) -> dict[str, int]:
        return {o: sum(1 for r in self.results if r.outcome == o) for o in OUTCOMES}

    def to_dict(self) -> dict[str, Any]:
        return {"agreement": self.agreement, "source_path": self.source_path, "doc_id": self.doc_id,
                "seconds": round(self.seconds, 3), "error": self.error, "counts": self.counts(),
                "results": [r.to_dict() for r in self.results]}


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def quote_of(passage: Any, focus: tuple[int, int] | None = None, limit: int = QUOTE_CHARS, *, sentence: bool = False) -> Quote:
    """The passage as a :class:`Quote` (cut to ``limit`` characters around ``focus`` at sentence
    boundaries; a cut quote is still a contiguous substring of the document). ``sentence``: only the
    sentence(s) holding ``focus`` (:func:`clauselens.grid.extract.sentence_units`) -- a value's quote.
    Page furniture (an EDGAR banner, a page-number line; :mod:`clauselens.parsing.furniture`) is left
    out: a value's sentence is the stretch between furniture that holds the value; a clause has it
    trimmed off its ends (a page break inside a clause stays, the clause goes on after it)."""
    from clauselens.grid.extract import sentence_units
    from clauselens.parsing.furniture import clean_stretch, furniture_spans

    text = str(passage.text)
    spans = getattr(passage, "spans", None) or []
    base = spans[0].start if spans else 0
    a, b = 0, len(text)
    has_focus = bool(focus) and focus != (0, 0)
    units = sentence_units(text) if sentence and has_focus else []
    if units and focus is not None:
        held = [(x, y) for x, y in units if y > focus[0] and x < max(focus[1], focus[0] + 1)]
        if held:
            a, b = held[0][0], held[-1][1]
    elif len(text) > limit:
        f0, f1 = focus if focus and focus != (0, 0) else (0, 0)
        cut = text.rfind(". ", 0, f0 - limit // 3) if f0 > limit // 3 else -1
        a = cut + 2 if cut >= 0 else 0
        b = text.find(". ", max(f1, a + limit // 2), a + limit)
        b = b + 1 if b > 0 else min(len(text), a + limit)
    cuts = furniture_spans(text, a, b)
    if cuts and units and focus is not None:  # a value's sentence: the stretch between furniture that holds the value
        bounds = [a, *[x for c in cuts for x in c], b]
        parts = [(x, y) for x, y in zip(bounds[0::2], bounds[1::2]) if x <= focus[0] < y]
        a, b = clean_stretch(text, *parts[0]) if parts else clean_stretch(text, a, b)
    elif cuts:  # a clause: furniture trimmed off its ends (inside it, a page break stays: the clause goes on after it)
        for x, y in cuts:
            if not text[a:x].strip():
                a = y
        for x, y in reversed(cuts):
            if not text[y:b].strip():
                b = x
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b <= a:
            a, b = clean_stretch(text, 0, len(text))
    heading = " > ".join(getattr(passage, "heading_path", []) or [])
    return Quote(text=text[a:b], start=base + a, end=base + b, clause=getattr(passage, "clause_ref", None) or "",
                 heading=heading, page=getattr(passage, "page_start", None))


class Reviewer:
    """Reviews agreements against one playbook; the presence head and each agreement's passage
    scores are computed on first use."""

    def __init__(self, playbook: Playbook, head: Any = None, calibration: dict[str, dict[str, float]] | None = None,
                 our_party: str | Sequence[str] = "", stack: bool = True) -> None:
        """``calibration``: per category ``{"threshold", "margin"}`` (None: the shipped
        :func:`~clauselens.playbook.calibrate.load_calibration`; ``{}``: the head's own thresholds);
        ``our_party``: the name(s) or defined term(s) of "our" party (else the playbook's ``our_side``); ``stack``: a
        category with a shipped stacker (:mod:`clauselens.playbook.stack`) is decided by it."""
        self.playbook = playbook
        self.our_party = our_party
        self.stack = stack
        self._sides = Sides()
        self._head = head
        if calibration is None:
            from clauselens.playbook.calibrate import load_calibration

            calibration = load_calibration()
        self.calibration = calibration

    def _calibrated(self, category: str, head_threshold: float) -> float:
        return float(self.calibration.get(category, {}).get("threshold", head_threshold))

    def _stacked(self, category: str, head_score: float, texts: Sequence[str]) -> float | None:
        """The stacked presence probability (:mod:`clauselens.playbook.stack`), ``None`` without a stacker or with
        ``stack=False`` or a playbook band set for all categories (the head's own scale)."""
        if not self.stack or self.playbook.unclear_margin is not None or category not in load_stack():
            return None
        return stacked_score(category, head_score, " ".join(texts))

    def band(self, category: str, head_threshold: float, stacked: bool = False) -> tuple[float, float]:
        """The category's (threshold, band in log-odds) for this playbook (see the module docstring); ``stacked``: the
        stacker's own threshold and band."""
        if stacked:
            entry = load_stack()[category]
            return float(entry["threshold"]), float(entry["margin"])
        thr = self._calibrated(category, head_threshold)
        if self.playbook.unclear_margin is not None:
            return thr, float(self.playbook.unclear_margin)
        return thr, float(self.calibration.get(category, {}).get("margin", DEFAULT_MARGIN))

    @property
    def head(self) -> Any:
        if self._head is None:
            from clauselens.heads.presence import load

            self._head = load()
        return self._head

    def _head_decides(self, pos: Position) -> bool:
        if not pos.category or pos.category not in self.head.categories:
            return False
        return float(self.head.thresholds[self.head.categories.index(pos.category)]) < 1.0

    def review(self, passages: Sequence[Any], *, agreement: str, source_path: str = "", doc_id: str = "",
               reading: Callable[[Position, PositionResult], str] | None = None,
               parties: Mapping[str, Sequence[str]] | None = None) -> AgreementReview:
        """Every position of the playbook for one agreement's ``passages`` (see the module docstring);
        ``parties``: the agreement's parties, each with its defined terms (``Document.party_aliases``)."""
        t0 = time.perf_counter()
        table = dict(parties or {})
        self._sides = Sides(table, resolve_us(table, self.our_party, self.playbook.our_side))
        texts = [str(p.text) for p in passages]
        if not any(t.strip() for t in texts):
            raise ClauselensError(f"{agreement}: the agreement has no text to review")
        need_head = any(self._head_decides(p) for p in self.playbook.positions)
        wins = windows(" ".join(texts)) if need_head else []
        wprobs = self.head.window_probs(wins) if need_head else None
        probs = self.head.window_probs(texts) if need_head else None
        starts = np.cumsum([0] + [len(t.split()) for t in texts])
        results = []
        for pos in self.playbook.positions:
            if self._head_decides(pos) and wprobs is not None and probs is not None:
                j = self.head.categories.index(pos.category)
                col = wprobs[:, j] * ~negated_windows(wins, pos.category or "")
                best = int(col.argmax())
                verdict = Presence(pos.category or "", False, float(col[best]), float(self.head.thresholds[j]), wins[best])
                anchor = _window_passage(texts, starts, best, probs[:, j])
                head_thr = self._calibrated(pos.category or "", verdict.threshold)
                stacked = self._stacked(pos.category or "", verdict.score, texts)
                if stacked is not None:  # the head's score with the agreement's wording (playbook.stack)
                    found = first_match(pos.category or "", texts)
                    if found is not None and verdict.score < head_thr:  # the head's best window is weak: quote the wording
                        anchor = found
                    verdict = Presence(verdict.category, False, stacked, verdict.threshold, verdict.passage)
                res = self._by_head(pos, passages, verdict, probs[:, j], anchor, head_thr, stacked is not None)
            else:
                res = self._by_topic(pos, passages)
            if reading is not None and res.quotes:
                res.reading = reading(pos, res)
            results.append(res)
        check_invariants(self.playbook, results)
        return AgreementReview(agreement, source_path, doc_id, results, time.perf_counter() - t0)

    # ---------------------------------------------------------------- presence head
    def _by_head(self, pos: Position, passages: Sequence[Any], verdict: Any, pprobs: Any,
                 anchor: tuple[int, tuple[int, int]], head_thr: float, stacked: bool = False) -> PositionResult:
        """``anchor``: the passage holding the window that scored highest (or, for a stacked score, the wording that
        decided), and the characters in it (the clause quoted first; :func:`_window_passage`); ``head_thr``: the head's
        calibrated threshold, which picks further clauses by their passage scores; ``stacked``: ``verdict.score`` is
        the stacker's (:mod:`clauselens.playbook.stack`)."""
        thr, margin = self.band(pos.category or "", float(verdict.threshold), stacked)
        z = _logit(verdict.score) - _logit(thr)
        base = _result(pos, presence_score=round(float(verdict.score), 4), threshold=round(thr, 4))
        first, focus = anchor
        order = sorted(range(len(passages)), key=lambda i: -float(pprobs[i]))
        clauses = [first] + [i for i in order if float(pprobs[i]) >= head_thr and i != first][: MAX_CLAUSES - 1]
        who = "presence head with the agreement's wording" if stacked else "presence head"
        said = f"{who}: score {verdict.score:.2f} vs threshold {thr:.2f} (margin {margin:g} log-odds)"
        texts = [p.text for p in passages]
        word = never_worded(pos.category or "", texts) if z > -margin else ""
        if word:  # close to call or above it, but the agreement never uses the word such clauses are written with (grid.heads.NEVER_WORDED)
            outcome = "compliant" if pos.require.rule == "absent" else "missing"
            close = "too close to the threshold" if abs(z) < margin else "above the threshold"
            base.update(outcome=outcome, why=f"{said}: {close}, but the agreement never uses the word \"{word}\"...: "
                        "no such clause", decided_by="presence head and word census")
            return PositionResult(**base)
        if abs(z) < margin:
            base.update(outcome="unclear", why=f"{said}: too close to the threshold to decide", decided_by="presence head",
                        quotes=[quote_of(passages[first], focus)])
            return PositionResult(**base)
        if z < 0:  # absent
            outcome = "compliant" if pos.require.rule == "absent" else "missing"
            base.update(outcome=outcome, why=f"{said}: no such clause", decided_by="presence head")
            return PositionResult(**base)
        return self._present(pos, base, [passages[i] for i in clauses], said, "presence head", focus)

    # ---------------------------------------------------------------- topic search
    def _by_topic(self, pos: Position, passages: Sequence[Any]) -> PositionResult:
        from clauselens.grid.topic import derive_terms

        terms = pos.terms or list(derive_terms(pos.topic))
        base = _result(pos)
        need = 1 if len(terms) <= 1 else 2
        own = topic_words(terms)  # words of time ("year", "term") never show the topic on their own
        hits = []
        ranked = _bm25_order(f"{pos.topic} {' '.join(terms)}", [str(p.text) for p in passages])
        rest = sorted(set(range(len(passages))) - set(ranked))  # terms are word prefixes ("compet"): BM25 misses some
        for i in ranked + rest:
            low = str(passages[i].text)
            if len({t for t in terms if mentions(low, [t])}) >= need and (not own or mentions(low, own)):
                hits.append(i)
            if len(hits) >= MAX_CLAUSES:
                break
        said = f"topic search: passages mentioning at least {need} of {', '.join(terms[:6]) or 'the topic'}"
        if not terms:
            base.update(outcome="unclear", why="the topic has no distinctive words to search for; add terms", decided_by="topic search")
            return PositionResult(**base)
        if not hits:
            outcome = "compliant" if pos.require.rule == "absent" else "missing"
            base.update(outcome=outcome, why=f"{said}: none found", decided_by="topic search")
            return PositionResult(**base)
        return self._present(pos, base, [passages[i] for i in hits], said, "topic search")

    # ---------------------------------------------------------------- a clause is there
    def _present(self, pos: Position, base: dict[str, Any], clauses: list[Any], said: str, by: str,
                 focus: tuple[int, int] | None = None) -> PositionResult:
        rule = pos.require.rule
        if rule in ("present", "absent"):
            outcome = "compliant" if rule == "present" else "deviation"
            quote = quote_of(clauses[0], focus)
            base.update(outcome=outcome, why=f"{said}: the clause is there", decided_by=by, quotes=[quote])
            if pos.party != "any":
                self._party_check(pos, base, quote)
            return PositionResult(**base)
        from clauselens.grid.topic import derive_terms

        cues = pos.value_near or pos.terms or list(derive_terms(pos.topic))
        topic = pos.terms or pos.value_near or list(derive_terms(pos.topic))
        read: list[tuple[Any, RuleResult]] = [(c, evaluate(pos.require, str(c.text), cues, topic, party=pos.party, sides=self._sides))
                                              for c in clauses]
        decided = [(c, r) for c, r in read if r.outcome != "unclear"]
        if not decided:
            c, r = read[0]
            base.update(outcome="unclear", why=f"{r.why} ({said})", decided_by="value rule", value=r.value,
                        quotes=[quote_of(c, r.span, sentence=True)])
            return PositionResult(**base)
        kinds = {r.outcome for _, r in decided}
        if len(kinds) > 1:
            vals = "; ".join(f"{r.value} ({r.outcome})" for _, r in decided)
            base.update(outcome="unclear", why=f"conflicting clauses: {vals}", decided_by="value rule",
                        value=" / ".join(r.value for _, r in decided), quotes=[quote_of(c, r.span, sentence=True) for c, r in decided])
            return PositionResult(**base)
        c, r = decided[0]
        base.update(outcome=r.outcome, why=r.why, decided_by="value rule", value=r.value, quotes=[quote_of(c, r.span, sentence=True)])
        return PositionResult(**base)


    def _party_check(self, pos: Position, base: dict[str, Any], quote: Quote) -> None:
        """Compare the party the quoted clause binds with the position's (see the module docstring)."""
        from clauselens.grid.topic import derive_terms

        sides = self._sides
        topic = topic_words(pos.terms or list(derive_terms(pos.topic)))
        sents = [s for _, s in sentences(quote.text)]
        on = [s for s in sents if mentions(s, topic)] or sents
        got = [b for b in (liable(s, sides) or bound(s, sides) for s in on) if b is not None]  # a cap: whose liability
        who = target(pos.party, sides)
        binds: set[str] = set().union(*got) if got else set()
        if got:
            base["bound_party"] = describe(binds, sides)
        present = pos.require.rule == "present"
        if not got or (who is None and ALL not in binds):
            reason = ("the clause does not say which party it binds" if not got else
                      f"the clause binds {describe(binds, sides)}; which party is ours is not known (name it: --our-party, one of "
                      f"{', '.join(sides.label(n) for n in sides.names) or 'the parties'})")
            if present:
                base.update(outcome="unclear", why=f"{base['why']}; {reason}")
            else:
                base.update(why=f"{base['why']}; {reason} (read as binding us)")
            return
        hit = covers(binds, who or {ALL}) if present and pos.party == "both" else (ALL in binds or bool(binds & (who or set())))
        whose = "each party" if pos.party == "both" else describe(who or {ALL}, sides)
        if present and not hit:
            base.update(outcome="deviation", why=f"{base['why']}, but it binds {describe(binds, sides)}, not {whose}")
        elif not present and not hit:
            base.update(outcome="compliant", why=f"{base['why']}, but it binds {describe(binds, sides)} only, not {whose}")
        else:
            base.update(why=f"{base['why']}; it binds {describe(binds, sides)}")


def _window_passage(texts: list[str], starts: Any, window: int, pprobs: Any) -> tuple[int, tuple[int, int]]:
    """The passage holding the head's best window (``window``-th of :func:`~clauselens.heads.presence.windows`
    over the passages joined by spaces; ``starts``: each passage's first word there): of the passages the
    window overlaps, the one the head scores highest, and the window's character span inside it."""

    w0 = window * STRIDE_WORDS
    w1 = w0 + WINDOW_WORDS
    hit = [i for i in range(len(texts)) if starts[i] < w1 and starts[i + 1] > w0 and starts[i + 1] > starts[i]]
    if not hit:
        return int(np.argmax(pprobs)), (0, 0)
    i = max(hit, key=lambda k: (float(pprobs[k]), min(w1, starts[k + 1]) - max(w0, starts[k])))
    words = list(re.finditer(r"\S+", texts[i]))
    a = max(0, w0 - int(starts[i]))
    b = min(len(words), w1 - int(starts[i])) - 1
    return i, (words[a].start(), words[b].end())


def _result(pos: Position, **kw: Any) -> dict[str, Any]:
    return {"position_id": pos.id, "topic": pos.topic, "severity": pos.severity, "rule": pos.require.describe(),
            "preferred": pos.preferred, "outcome": "unclear", "why": "", "decided_by": "", **kw}


def _bm25_order(query: str, texts: list[str]) -> list[int]:
    """Passage indices by BM25 score (bm25s, English stop words), best first; zero scores dropped."""
    import bm25s
    import numpy as np

    corpus = bm25s.tokenize(texts, stopwords="en", show_progress=False)
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    words = bm25s.tokenize([query], stopwords="en", return_ids=False, show_progress=False)[0]
    if not words:
        return []
    scores = index.get_scores(words)
    return [int(i) for i in np.argsort(-scores) if scores[i] > 0]


def check_invariants(playbook: Playbook, results: list[PositionResult]) -> None:
    """Never a "compliant" without a quoted clause where the rule needs one (raises; a bug, not input)."""
    needs = {p.id: p.require.needs_clause for p in playbook.positions}
    for r in results:
        if r.outcome == "compliant" and needs.get(r.position_id, True) and not r.quotes:
            raise AssertionError(f"position {r.position_id}: compliant without a quoted clause")


__all__ = ["AgreementReview", "DEFAULT_MARGIN", "MAX_CLAUSES", "OUTCOMES", "PositionResult", "Quote", "Reviewer", "check_invariants", "quote_of"]
