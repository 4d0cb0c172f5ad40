"""The MCP server's library tools (issue #46): ``library_list``, ``library_search``, ``library_add``,
``library_remove`` with typed results, so an agent can work over the firm's library. They are thin
over :class:`clauselens.library.service.LibraryService` (catalogue pages, search with the matched
words, one writer across processes: a web server and this MCP server on one library see whole
agreements only). See :mod:`clauselens.interfaces.mcp_server` for the other tools.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from clauselens.errors import ClauselensError, IngestError
from clauselens.interfaces.session import ChatSessions


class AgreementOut(BaseModel):
    """A library agreement a question could mean."""

    doc_id: str
    label: str


class ResolutionOut(BaseModel):
    """Which library agreements a question names: ``status`` is ``resolved`` (one),
    ``ambiguous`` / ``uncertain`` (several searched), ``unnamed`` (the whole library)."""

    status: str
    chosen: list[AgreementOut] = Field(default_factory=list)


class LibraryAgreementOut(BaseModel):
    """One agreement of the library's catalogue; ``copies`` / ``amends`` / ``amended_by`` are doc ids
    of the same agreement filed again and of amendment links."""

    doc_id: str
    title: str | None = None
    file_name: str
    label: str
    parties: list[str] = Field(default_factory=list)
    short_names: list[str] = Field(default_factory=list)
    date: str | None = None
    year: int | None = None
    type: str
    pages: int
    passages: int
    added: str
    copies: list[str] = Field(default_factory=list)
    amends: str | None = None
    amended_by: list[str] = Field(default_factory=list)


class LibraryListOut(BaseModel):
    """Result of ``library_list``: ``total`` agreements match the filter, ``agreements`` are
    ``offset ..`` of them; ``library_total`` is the library's size."""

    library: str
    filter: str
    total: int
    offset: int
    library_total: int
    agreements: list[LibraryAgreementOut]


class LibraryHitOut(BaseModel):
    """One clause-search hit: ``spans`` index the agreement's parsed text, ``matched`` the words of
    ``text`` the query matched (``[start, end)`` offsets into ``text``)."""

    rank: int
    doc_id: str
    agreement: str
    clause_ref: str | None = None
    heading_path: list[str] = Field(default_factory=list)
    page: int | None = None
    score: float
    text: str
    spans: list[list[int]]
    matched: list[list[int]] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class LibrarySearchOut(BaseModel):
    """Result of ``library_search``; ``abstained``/``reason`` when nothing matched."""

    query: str
    abstained: bool
    reason: str | None = None
    resolution: ResolutionOut
    hits: list[LibraryHitOut]


class LibraryFailureOut(BaseModel):
    """A file ``library_add`` could not add (the others were added)."""

    path: str
    message: str


class LibraryAddOut(BaseModel):
    """Result of ``library_add`` (as ``clauselens library add``): file names per outcome."""

    added: list[str]
    updated: list[str]
    unchanged: list[str]
    failed: list[LibraryFailureOut]
    passages: int
    agreements: int
    message: str


class LibraryRemoveOut(BaseModel):
    """Result of ``library_remove``: the removed files and the library's size after."""

    removed: list[str]
    agreements: int



def library_tools(server: Any, service: ChatSessions, roots: tuple[Path, ...], user_errors: Callable[[], Any]) -> None:
    """``library_list``, ``library_search``, ``library_add``, ``library_remove`` (issue #46), over
    :class:`~clauselens.library.service.LibraryService` (one writer; readers see whole agreements), registered
    on ``server`` by :func:`clauselens.interfaces.mcp_server.create_mcp_server` in a library session; paths
    must lie under ``roots``; ``user_errors`` turns a ClauselensError into the SDK's tool error."""
    from clauselens.library.service import LibraryService

    assert service.library is not None  # registered for a library session only
    svc = LibraryService(service.library, load=service.load_document)

    def admit(path: Path) -> Path:  # a file or a folder under the roots (``library add`` takes folders)
        p = path.expanduser().resolve()
        if not any(p.is_relative_to(r) for r in roots):
            raise IngestError(str(path), f"{path}: refused, the path is outside the folders this server may read")
        return p

    @server.tool()
    def library_list(filter: str = "", sort: str = "added", descending: bool = False, offset: int = 0,
                     limit: int = 50) -> LibraryListOut:
        """The library's agreements (title, parties, date, type, pages, passages, added, copies and amendment links),
        filtered by words (title, party, type, year, file name) and party:/type:/year:/title:/file: terms, e.g.
        'party:mediwound supply', sorted by title, parties, date, type, pages, passages, added or file; paged."""
        with user_errors():
            pg = svc.page(filter, sort=sort, descending=descending, offset=offset, limit=limit)
            return LibraryListOut(library=svc.library.root.name, filter=filter, total=pg.total, offset=pg.offset,
                                  library_total=pg.library_total,
                                  agreements=[LibraryAgreementOut(**row.as_dict()) for row in pg.rows])

    @server.tool()
    def library_search(query: str, k: int = 5, agreement: str | None = None) -> LibrarySearchOut:
        """Clause search over the library (no model call): the agreement the query names is resolved, or pass
        agreement (a doc_id from library_list) to search only it. Returns hits with agreement, clause, page, score,
        the passage, its character spans and the matched words."""
        with user_errors():
            res, marks = svc.search(query, k, agreement=agreement or None)
            labels = {a.doc_id: a.label for a in svc.library.agreements()}
            rt = res.trace.get("resolution") or {}
            return LibrarySearchOut(
                query=query, abstained=res.abstained, reason=res.reason,
                resolution=ResolutionOut(status=rt.get("status", "unnamed"), chosen=[
                    AgreementOut(doc_id=d, label=labels.get(d, d)) for d in rt.get("chosen", [])]),
                hits=[LibraryHitOut(rank=i + 1, doc_id=p.doc_id, agreement=labels.get(p.doc_id, p.doc_title or p.doc_id),
                                    clause_ref=p.clause_ref, heading_path=p.heading_path, page=p.page_start,
                                    score=round(float(p.score), 4), text=p.text, spans=[[x.start, x.end] for x in p.spans],
                                    matched=m, notes=list(p.notes))
                      for i, (p, m) in enumerate(zip(res.passages, marks))])

    @server.tool()
    def library_add(paths: list[str]) -> LibraryAddOut:
        """Add contract files or folders (searched recursively for .pdf .docx .txt .md) under the server's roots to
        the library, as `clauselens library add` does: unchanged files are skipped (sha256), changed ones
        re-indexed; a file that cannot be read is listed in failed and skipped, the others are added."""
        with user_errors():
            if not paths:
                raise ClauselensError("no paths given")
            ok, failed = [], []
            for p in paths:
                try:
                    ok.append(admit(Path(p)))
                except IngestError as e:
                    failed.append(LibraryFailureOut(path=p, message=str(e)))
            rep = svc.add(ok) if ok else None
            if rep is not None:
                failed += [LibraryFailureOut(path=p, message=m) for p, m in rep.failed]
            n = len(svc.library)
            added = [Path(p).name for p in rep.added] if rep else []
            updated = [Path(p).name for p in rep.updated] if rep else []
            unchanged = [Path(p).name for p in rep.unchanged] if rep else []
            return LibraryAddOut(added=added, updated=updated, unchanged=unchanged, failed=failed,
                                 passages=rep.passages if rep else 0, agreements=n,
                                 message=f"{len(added)} added, {len(updated)} re-indexed, {len(unchanged)} unchanged, "
                                         f"{len(failed)} could not be added; the library has {n} agreements")

    @server.tool()
    def library_remove(keys: list[str]) -> LibraryRemoveOut:
        """Remove agreements from the library by doc_id, file name or path. An error names the keys that matched
        nothing (the others are removed)."""
        with user_errors():
            removed = svc.remove(keys)
            return LibraryRemoveOut(removed=[Path(p).name for p in removed], agreements=len(svc.library))
