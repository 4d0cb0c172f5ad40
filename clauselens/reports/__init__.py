"""Reports: the :class:`Report` model, quote verification, and renderers (MD, HTML, JSON, DOCX)."""

from clauselens.reports.build import build_report
from clauselens.reports.model import Citation, DraftFinding, DroppedQuote, Finding, Report, ReportDraft
from clauselens.reports.render import to_html, to_json, to_markdown, write_report
from clauselens.reports.render_docx import to_docx

__all__ = [
    "Citation", "DraftFinding", "DroppedQuote", "Finding", "Report", "ReportDraft",
    "build_report", "to_docx", "to_html", "to_json", "to_markdown", "write_report",
]
