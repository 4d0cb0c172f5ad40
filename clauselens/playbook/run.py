"""``clauselens review``'s work, front-end free (issue #44): agreements + playbook -> reports + redlines.

:func:`review_inputs` reviews each :class:`~clauselens.playbook.sources.AgreementInput` with one
:class:`~clauselens.playbook.review.Reviewer`, writes ``review.md/.html/.xlsx/.json`` into the
output folder and one ``<agreement>.redline.docx`` per agreement that has a change to make (a
deviation or missing clause with preferred wording). An agreement that fails is reported in its
row (``error``) and the others go on. :func:`open_library_for_review` opens a library without
its ranking set-up (a review reads passages, it does not search).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from clauselens.config import Settings
from clauselens.errors import ClauselensError, ConfigError
from clauselens.playbook.model import Playbook, Position
from clauselens.playbook.redline import Change, write_redline
from clauselens.playbook.report import write_reports
from clauselens.playbook.review import AgreementReview, PositionResult, Reviewer
from clauselens.playbook.sources import AgreementInput


@dataclass
class ReviewRun:
    """What a review run wrote."""

    reviews: list[AgreementReview]
    reports: dict[str, Path]
    redlines: dict[str, Path] = field(default_factory=dict)
    changes: dict[str, list[Change]] = field(default_factory=dict)
    seconds: float = 0.0


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:60] or "agreement"


def _text_and_cuts(a: AgreementInput) -> tuple[str, list[int]]:
    """The agreement's text and its clause boundaries (for a DOCX of the text)."""
    if a.document is not None:
        return a.document.text, [x for p in a.passages for s in p.spans for x in (s.start, s.end)]
    text, cuts = "", []
    for p in a.passages:
        cuts.append(len(text))
        text += str(p.text) + "\n\n"
    return text, cuts


def review_inputs(inputs: Sequence[AgreementInput], playbook: Playbook, out_dir: Path, *,
                  reading: Callable[[Position, PositionResult], str] | None = None, redlines: bool = True,
                  head: Any = None, info: dict[str, Any] | None = None,
                  on_agreement: Callable[[AgreementReview], None] | None = None,
                  our_party: str | Sequence[str] = "") -> ReviewRun:
    """Review every input and write the reports (see the module docstring); ``our_party``: the name or
    defined term of our party in the agreements (positions with ``party: us / counterparty``)."""
    t0 = time.perf_counter()
    _check_our_party(inputs, our_party)
    reviewer = Reviewer(playbook, head=head, our_party=our_party)
    reviews: list[AgreementReview] = []
    run = ReviewRun(reviews=reviews, reports={})
    used: set[str] = set()
    for a in inputs:
        try:
            rv = reviewer.review(a.passages, agreement=a.label, source_path=a.source_path, doc_id=a.doc_id, reading=reading,
                                 parties=a.parties)
        except ClauselensError as e:
            rv = AgreementReview(a.label, a.source_path, a.doc_id, [], error=str(e))
        reviews.append(rv)
        if on_agreement is not None:
            on_agreement(rv)
        wanted = [r for r in rv.results if r.preferred and r.outcome in ("deviation", "missing")]
        if redlines and wanted:
            name = _slug(Path(a.source_path).stem if a.source_path else a.label)
            while name in used:
                name += "_"
            used.add(name)
            out_dir.mkdir(parents=True, exist_ok=True)
            path = out_dir / f"{name}.redline.docx"
            text, cuts = _text_and_cuts(a)
            run.changes[a.label] = write_redline(path, rv, playbook, source_path=a.source_path, text=text, cuts=cuts)
            run.redlines[a.label] = path
    run.seconds = time.perf_counter() - t0
    meta = {"playbook": playbook.path or playbook.name, "agreements": len(reviews), "model reading": "on" if reading else "off",
            **({"our party": our_party if isinstance(our_party, str) else ", ".join(our_party)} if our_party else {}),
            "seconds": round(run.seconds, 2), **(info or {})}
    run.reports = write_reports(out_dir, playbook, reviews, meta)
    return run


def _check_our_party(inputs: Sequence[AgreementInput], our_party: str | Sequence[str]) -> None:
    """:class:`ConfigError` when a name given as our party names no party of any agreement reviewed."""
    from clauselens.playbook.parties import resolve_us

    for name in [our_party] if isinstance(our_party, str) else our_party:
        if name.strip() and not any(resolve_us(a.parties, name) for a in inputs):
            known = sorted({f"{n} ({', '.join(al)})" if al else n for a in inputs for n, al in a.parties.items()})
            raise ConfigError(f"--our-party {name!r} names no party of the agreement(s)" +
                              (f"; parties: {'; '.join(known[:8])}" if known else "; no parties were read from them"))


def open_library_for_review(settings: Settings, name: str) -> Any:
    """An existing library (by name under the cache, or a folder); :class:`ConfigError` when there is none."""
    from clauselens.library import library_root
    from clauselens.library.library import Library

    return Library.open(library_root(settings.cache_dir, name), embedder_name=settings.retrieval.embedder,
                        cache_dir=settings.cache_dir, create=False)


__all__ = ["ReviewRun", "open_library_for_review", "review_inputs"]
