"""The MCP tool ``review_agreement`` (issue #44): a contract or a library agreement checked against a playbook.

LLM-free (no model's reading): each position's outcome, the rule that decided, the value read and the
clause quoted word for word with its clause and page; the reports (MD/HTML/XLSX/JSON) and the redlined
DOCX are written under ``<cache_dir>/reviews/`` and their paths returned. Registered by
:func:`clauselens.interfaces.mcp_server.create_mcp_server`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from clauselens.errors import ClauselensError


class ReviewPositionOut(BaseModel):
    """One position's outcome for one agreement."""

    position_id: str
    topic: str
    severity: str
    outcome: str  # compliant / deviation / missing / unclear
    rule: str
    value: str = ""
    why: str
    decided_by: str
    quote: str = ""  # the clause, word for word ("" when none: missing, or a required-absent clause not found)
    clause: str = ""
    page: int | None = None


class ReviewAgreementOut(BaseModel):
    agreement: str
    counts: dict[str, int]
    positions: list[ReviewPositionOut]
    error: str = ""


class ReviewOut(BaseModel):
    """Result of ``review_agreement``."""

    playbook: str
    agreements: list[ReviewAgreementOut]
    reports: dict[str, str] = Field(default_factory=dict)
    redlines: dict[str, str] = Field(default_factory=dict)
    message: str


def review_tools(server: Any, service: Any, admit: Callable[[Path], Path], user_errors: Callable[[], Any]) -> None:
    """Register ``review_agreement`` on ``server``; ``admit`` checks a path lies under the server's roots."""

    @server.tool()
    def review_agreement(playbook: str, path: str | None = None, agreement: str | None = None) -> ReviewOut:
        """Check a contract (path, under the server's roots) or a library agreement (agreement: doc id, file name or
        title words) against a playbook YAML (path) of standard positions. Returns per position compliant /
        deviation / missing / unclear with the rule, the value read and the clause quoted word for word, and writes
        review.md/.html/.xlsx/.json plus a redlined DOCX (tracked changes) whose paths are returned. No model call."""
        from clauselens.config import Settings
        from clauselens.playbook.model import load_playbook
        from clauselens.playbook.run import review_inputs
        from clauselens.playbook.sources import from_library, load_file

        with user_errors():
            if bool(path) == bool(agreement):
                raise ClauselensError("give either path (a contract file) or agreement (of the session's library)")
            pb = load_playbook(admit(Path(playbook)))
            settings = service.settings if isinstance(service.settings, Settings) else Settings()
            if path:
                inputs = [load_file(admit(Path(path)), settings)]
            else:
                if service.library is None:
                    raise ClauselensError("this session has no library: pass path (a contract file) instead")
                inputs = from_library(service.library, [agreement or ""])
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
            run = review_inputs(inputs, pb, settings.cache_dir / "reviews" / stamp)
            out = []
            for rv in run.reviews:
                out.append(ReviewAgreementOut(agreement=rv.agreement, counts=rv.counts(), error=rv.error, positions=[
                    ReviewPositionOut(position_id=r.position_id, topic=r.topic, severity=r.severity, outcome=r.outcome, rule=r.rule,
                                      value=r.value, why=r.why, decided_by=r.decided_by,
                                      quote=r.quotes[0].text if r.quotes else "", clause=r.quotes[0].clause if r.quotes else "",
                                      page=r.quotes[0].page if r.quotes else None)
                    for r in rv.results]))
            counts = "; ".join(f"{a.agreement}: " + ", ".join(f"{n} {o}" for o, n in a.counts.items() if n) for a in out)
            return ReviewOut(playbook=pb.name, agreements=out, reports={k: str(v) for k, v in run.reports.items()},
                             redlines={k: str(v) for k, v in run.redlines.items()}, message=f"reviewed against {pb.name}: {counts}")


__all__ = ["ReviewOut", "review_tools"]
