"""``clauselens mcp``: an MCP server (official ``mcp`` Python SDK) over stdio.

Tools (every result is structured JSON; a :class:`~clauselens.errors.ClauselensError` comes
back as an MCP tool error, ``is_error`` set, carrying its user-facing message — the SDK turns
exceptions raised by a tool into such results, never a traceback):

* ``ingest(paths, session_id=None)`` — parse contracts into a session (created if needed); a
  file that cannot be read is left out and named (``left_out``), the others are added, and the
  session's later reports list the files left out (as ``clauselens chat`` and ``ask`` do).
* ``search_clauses(query, k=5, session_id=None)`` — ranked passages with clause references,
  pages and character spans ``[start, end)`` into the parsed text.
* ``ask(question, session_id=None)`` — one chat turn: the Archivist may return a clarifying
  question (``kind="clarify"``); otherwise the report as JSON plus its Markdown.
* ``fetch_clause(ref, doc_id=None, session_id=None)`` — the text and span of clause ``ref``.
* ``start_grid(questions=None, preset=None, agreements=None, session_id=None)`` — a clause grid
  (issue #21): the session's agreements (all, or the ones named by doc id or file name) × the
  questions (one per item, optionally ending ``| TYPE``) or a preset (``cuad``), filled in the
  background by :class:`~clauselens.interfaces.grids.GridRuns` (the web UI's grid runner); returns
  the ``grid_id`` at once.
* ``grid_progress(grid_id, include_cells=True)`` — done / total, ETA, counts per status, and the
  cells filled so far.
* ``grid_cell(grid_id, agreement, question_id)`` — one cell: answer, verified quote, clause, page,
  status (``pending`` while not filled) and the quote's character spans.
* ``resume_grid(grid_id, session_id)`` — run an ``interrupted`` grid (the server stopped while it ran;
  its file and stored cells are read back from the session's folder) or a ``failed`` one again, as the
  web UI's Resume does (:meth:`~clauselens.interfaces.grids.GridRuns.resume`): the stored cells are
  reused, only the missing ones computed; returns at once, like ``start_grid``.

With a library the server also has the library tools (issue #46), over
:class:`~clauselens.library.service.LibraryService` (one writer across processes; a reader sees an
agreement whole or not at all):

* ``library_list(filter="", sort="added", descending=False, offset=0, limit=50)`` — the catalogue,
  filtered (words; ``party:`` ``type:`` ``year:`` ``title:`` ``file:``), sorted and paged.
* ``library_search(query, k=5, agreement=None)`` — clause search (no model call): hits with
  agreement, clause, page, score, text, spans and the matched words.
* ``library_add(paths)`` — files or folders under the roots, as ``clauselens library add``.
* ``library_remove(keys)`` — by doc id, file name or path.

With a library (``clauselens mcp --library NAME``) the tools answer from the library: ``ingest``
is refused (use ``clauselens library add``), ``search_clauses`` and ``ask`` resolve the agreement
the question names (``resolution`` in the result), an ambiguous question makes ``ask`` return
``kind="clarify"`` with the ``candidates`` (doc id + label; answer with a number or a name, or ask
again naming one), and ``fetch_clause`` needs the ``doc_id`` of an agreement.

Without ``session_id`` the tools use the server's default session (one per server
process; its id is returned by every tool). Documents are read only from the ``roots``
folders given at start (default: the current folder); other paths are refused.
"""

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from clauselens.errors import ClauselensError, IngestError
from clauselens.interfaces.grids import GridRun, GridRuns
from clauselens.interfaces.mcp_library import AgreementOut, ResolutionOut  # shared with the library tools
from clauselens.interfaces.session import ChatSessions
from clauselens.interfaces.store import StoreError
from clauselens.reports.render import to_markdown

try:  # mcp >= 2: FastMCP was renamed MCPServer
    from mcp.server.mcpserver import MCPServer as _Server
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # pragma: no cover - mcp 1.x
    from mcp.server.fastmcp import FastMCP as _Server  # type: ignore[no-redef, attr-defined, unused-ignore]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef, attr-defined, unused-ignore]


@contextmanager
def user_errors() -> Iterator[None]:
    """Re-raise a :class:`ClauselensError` as the SDK's ``ToolError`` so its message reaches
    the client (the SDK reports any other exception only as "Error executing tool")."""
    try:
        yield
    except ClauselensError as e:
        raise ToolError(str(e)) from None

class DocumentOut(BaseModel):
    """One ingested document."""

    doc_id: str
    title: str | None = None
    file_name: str
    chars: int
    warnings: list[str] = Field(default_factory=list)


class IngestOut(BaseModel):
    """Result of ``ingest``: the session and all its documents, one message per file that could
    not be read (``left_out``, naming the file and its problem; the other files were added, and
    the session records these for its reports), and ``message`` saying both in one line."""

    session_id: str
    documents: list[DocumentOut]
    left_out: list[str] = Field(default_factory=list)
    message: str = ""


class PassageOut(BaseModel):
    """One search hit; ``spans`` are ``[start, end)`` character offsets into the parsed text."""

    rank: int
    doc_id: str
    doc_title: str | None = None
    clause_ref: str | None = None
    heading_path: list[str] = Field(default_factory=list)
    page_start: int | None = None
    page_end: int | None = None
    spans: list[list[int]]
    score: float
    text: str


class SearchOut(BaseModel):
    """Result of ``search_clauses``; ``abstained``/``reason`` when nothing matched;
    ``resolution`` in a library session."""

    session_id: str
    query: str
    abstained: bool
    reason: str | None = None
    passages: list[PassageOut]
    resolution: ResolutionOut | None = None


class AskOut(BaseModel):
    """Result of ``ask``: a clarifying question (``kind="clarify"``; in a library session
    ``candidates`` lists the agreements it could mean) or a report (JSON + Markdown, and where
    its transcript and token ledger were written)."""

    session_id: str
    kind: str
    text: str
    report: dict[str, Any] | None = None
    markdown: str | None = None
    candidates: list[AgreementOut] = Field(default_factory=list)
    files: dict[str, str] = Field(default_factory=dict)


class ClauseOut(BaseModel):
    """Result of ``fetch_clause``; ``text == parsed_text[span[0]:span[1]]``."""

    session_id: str
    doc_id: str
    doc_title: str | None = None
    clause_ref: str
    heading: str | None = None
    path: list[str] = Field(default_factory=list)
    span: list[int]
    page_start: int | None = None
    page_end: int | None = None
    text: str


class GridRowOut(BaseModel):
    """One agreement (row) of a grid; ``error`` when its contract could not be read."""

    row: int
    agreement: str
    file: str = ""
    doc_id: str = ""
    error: str = ""


class GridQuestionOut(BaseModel):
    """One question (column) of a grid."""

    id: str
    question: str
    type: str
    label: str


class GridProgressOut(BaseModel):
    """How far a grid is: ``state`` preparing / running / done / failed (``error`` says why) /
    interrupted (the server stopped while it ran; ``resume_grid`` or the web UI resumes it),
    cells ``done`` of ``total``, ``counts`` per status, ``eta_s`` (seconds left; None before the first
    computed cell and once finished), ``cells_per_minute``, and cells ``computed`` / ``reused``
    (from an earlier grid of the session)."""

    state: str
    done: int
    total: int
    counts: dict[str, int]
    eta_s: float | None = None
    cells_per_minute: float = 0.0
    seconds: float = 0.0
    computed: int = 0
    reused: int = 0
    error: str = ""


class GridCellOut(BaseModel):
    """One grid cell: ``status`` answered / not found / unverified / error (``pending`` while not
    filled); ``quote`` is verbatim in the agreement (``quote_spans``: ``[start, end)`` into its parsed
    text), with its ``clause`` and ``page``; ``reason`` explains a cell without a quote."""

    grid_id: str
    row: int
    agreement: str
    question_id: str
    question: str
    status: str
    answer: str = ""
    quote: str = ""
    clause: str = ""
    page: int | None = None
    reason: str = ""
    doc_id: str = ""
    quote_spans: list[list[int]] = Field(default_factory=list)


class GridOut(BaseModel):
    """Result of ``start_grid``, ``resume_grid`` and ``grid_progress``: the grid's rows, questions, progress and
    (``grid_progress`` with ``include_cells``) its filled cells; ``message`` says it in one line."""

    session_id: str
    grid_id: str
    rows: list[GridRowOut]
    questions: list[GridQuestionOut]
    progress: GridProgressOut
    cells: list[GridCellOut] = Field(default_factory=list)
    message: str = ""


def _cell_out(grid: GridRun, row: int, question_id: str, c: Any) -> GridCellOut:
    q = next(x for x in grid.questions if x.id == question_id)
    base: dict[str, Any] = {"grid_id": grid.id, "row": row, "agreement": grid.rows[row].agreement, "question_id": question_id,
                            "question": q.shown, "doc_id": grid.rows[row].doc_id}
    if c is None:
        return GridCellOut(**base, status="pending")
    return GridCellOut(**base, status=c.status, answer=c.answer, quote=c.quote, clause=c.clause, page=c.page,
                       reason=c.reason, quote_spans=c.quote_spans)


def _grid_out(grid: GridRun, *, cells: bool) -> GridOut:
    snap = grid.snapshot(cells=False)
    p = snap["progress"]
    with grid._guard:
        filled = sorted(grid.cells.items(), key=lambda kv: kv[0])
    msg = f"grid {grid.id}: {p['done']} of {p['total']} cells, {p['state']}" + (f"; {p['error']}" if p["error"] else "")
    return GridOut(session_id=grid.session_id, grid_id=grid.id, rows=[GridRowOut(**r) for r in snap["rows"]],
                   questions=[GridQuestionOut(**q) for q in snap["questions"]], progress=GridProgressOut(**p),
                   cells=[_cell_out(grid, r, qid, c) for (r, qid), c in filled] if cells else [], message=msg)


INSTRUCTIONS = (
    "clauselens answers questions about contracts with grounded, cited reports, using local models only. "
    "Call ingest with contract file paths first, then ask questions (ask) or search clauses (search_clauses); "
    "fetch_clause returns a clause's exact text by reference (e.g. '14.3(b)'). For a review table of many "
    "agreements × questions, start_grid, then poll grid_progress and read cells with grid_cell; resume_grid runs an interrupted "
    "grid again."
)


def _norm_ref(ref: str) -> str:
    from clauselens.retrieval.analyzer import clause_key

    r = re.sub(r"^(clause|section|sec\.|§)\s*", "", ref.strip(), flags=re.IGNORECASE)
    return clause_key(r)  # "1.1" finds the clause printed "1.01"


def grid_tools(server: Any, grid_runs: GridRuns, sid_of: Callable[[str | None], str]) -> None:
    """Register the grid tools on ``server``: ``start_grid``, ``grid_progress``, ``grid_cell`` and
    ``resume_grid`` over ``grid_runs`` (``sid_of``: a tool's session id, or the server's default)."""

    @server.tool()
    def start_grid(questions: list[str] | None = None, preset: str | None = None, agreements: list[str] | None = None,
                   session_id: str | None = None) -> GridOut:
        """Start a review grid: one row per agreement of the session (all, or those named by doc id or file name),
        one column per question (each may end with "| yes_no", "| date", "| duration", "| amount", "| party" or
        "| text") or per question of a preset ("cuad": CUAD's 41 clause categories). Each cell gets a short answer
        with a verified quote, clause and page. Runs in the background: returns the grid_id at once; poll
        grid_progress, read cells with grid_cell."""
        with user_errors():
            sid = sid_of(session_id)
            ids = None
            if agreements:
                have = grid_runs.agreements(sid)
                named = {k: a["doc_id"] for a in have for k in (a["doc_id"], a["file_name"])}
                unknown = [a for a in agreements if a not in named]
                if unknown:
                    raise ClauselensError(f"unknown agreement(s) {', '.join(unknown)}; the session's: "
                                          + (", ".join(f"{a['doc_id']} ({a['file_name']})" for a in have[:20]) or "none (call ingest)"))
                ids = [named[a] for a in agreements]
            grid = grid_runs.prepare(sid, doc_ids=ids, preset=preset, questions=list(questions or []))
            grid_runs.start(grid)
            return _grid_out(grid, cells=False)

    @server.tool()
    def grid_progress(grid_id: str, include_cells: bool = True) -> GridOut:
        """A grid's progress (cells done of total, ETA, counts per status, state) and, with include_cells, the cells
        filled so far (answer, quote, clause, page, status)."""
        with user_errors():
            return _grid_out(grid_runs.get(grid_id.strip()), cells=include_cells)

    @server.tool()
    def grid_cell(grid_id: str, agreement: str, question_id: str) -> GridCellOut:
        """One cell of a grid: agreement by row number, doc id or file name; question by id (from start_grid).
        Returns its answer, verified quote, clause, page, status (pending while not filled) and the quote's spans."""
        with user_errors():
            grid = grid_runs.get(grid_id.strip())
            row, cell = grid.cell(agreement.strip(), question_id.strip())
            return _cell_out(grid, row, question_id.strip(), cell)

    @server.tool()
    def resume_grid(grid_id: str, session_id: str) -> GridOut:
        """Resume an interrupted grid (the server stopped while it ran) or a failed one of the session (its session_id
        from start_grid or grid_progress): the cells already stored are reused, only the missing ones are computed.
        Runs in the background: returns at once; poll grid_progress."""
        with user_errors():
            sid = session_id.strip()
            if not grid_runs.grids_dir(sid).is_dir():  # raises for an invalid id; a session with grids has this folder
                raise ClauselensError(f"no session {sid!r} with grids on this server")
            grid = grid_runs.resume(grid_id.strip(), sid)
            stored = grid.done  # the cells read back (or kept) before the run
            grid_runs.start(grid)
            out = _grid_out(grid, cells=False)
            out.message = (f"resumed grid {grid.id}: {stored} of {grid.total} cells already stored, "
                           f"computing the {grid.total - stored} missing")
            return out


def create_mcp_server(service: ChatSessions, *, roots: tuple[Path, ...] = (), session_id: str | None = None,
                      grids: GridRuns | None = None) -> Any:
    """The MCP server object (call ``.run()`` for stdio).

    Args:
        service: the chat-session service (its ``interrogate`` must be a
            :class:`~clauselens.interfaces.engine.GraphInterrogate` for ``search_clauses``).
        roots: folders documents may be read from.
        session_id: the default session (a new one if None).
        grids: the grid runner (default: one on ``service``, answering with its Interrogator's model).
    """
    from clauselens import __version__

    server = _Server("clauselens", instructions=INSTRUCTIONS, version=__version__)  # the client sees the version
    grid_runs = grids or GridRuns(service)
    default_sid = session_id or service.new_session()
    allowed = tuple(Path(r).resolve() for r in roots)

    def sid_of(session_id: str | None) -> str:
        return session_id or default_sid

    def admit(path: Path) -> Path:
        """The file at ``path`` if it lies under the server's roots; else an IngestError naming it
        (so the path is left out and named like a file that cannot be read)."""
        try:
            return service.store.resolve(path, allowed_roots=allowed)
        except StoreError as e:
            raise IngestError(str(path), str(e)) from None

    @server.tool()
    def ingest(paths: list[str], session_id: str | None = None) -> IngestOut:
        """Parse contract files (.pdf .docx .txt .md) into the session. Returns the session id, its documents, and
        one message per file left out (cannot be read: empty, damaged, encrypted, not a contract format); the
        readable files are added, and later reports of the session name the files left out."""
        with user_errors():
            service.check_can_ingest()
            sid = sid_of(session_id)
            if not paths:
                raise ClauselensError("no paths given")
            # as chat: a bad file is left out, named and recorded in the session (its reports list it)
            docs, failed = service.add_files(sid, paths, admit=admit)
            left_out = [str(e) for e in failed]
            added = len(paths) - len(failed)
            message = f"read {added} of {len(paths)} file(s)" + (
                f"; left out (cannot be read): {'; '.join(left_out)}" if left_out else "")
            return IngestOut(session_id=sid, documents=[DocumentOut(**{k: d[k] for k in DocumentOut.model_fields}) for d in docs],
                             left_out=left_out, message=message)

    @server.tool()
    def search_clauses(query: str, k: int = 5, session_id: str | None = None) -> SearchOut:
        """Search the session's contracts. Returns ranked passages with clause reference, page and character spans."""
        with user_errors():
            sid = sid_of(session_id)
            resolution = None
            res = service.search(sid, query, max(1, min(k, 50)))
            if service.library is not None:
                r = res.trace.get("resolution") or {}
                labels = {a.doc_id: a.label for a in service.library.agreements()}
                resolution = ResolutionOut(status=r.get("status", "unnamed"), chosen=[
                    AgreementOut(doc_id=d, label=labels.get(d, d)) for d in r.get("chosen", [])])
            return SearchOut(session_id=sid, query=query, abstained=res.abstained, reason=res.reason, resolution=resolution, passages=[
                PassageOut(rank=i + 1, doc_id=p.doc_id, doc_title=p.doc_title, clause_ref=p.clause_ref,
                           heading_path=p.heading_path, page_start=p.page_start, page_end=p.page_end,
                           spans=[[s.start, s.end] for s in p.spans], score=p.score, text=p.text)
                for i, p in enumerate(res.passages)])

    @server.tool()
    def ask(question: str, session_id: str | None = None) -> AskOut:
        """Ask a question about the session's contracts (follow-ups build on earlier answers).
        Returns kind="clarify" with a question for the user, or kind="report" with the report as JSON and Markdown."""
        with user_errors():
            sid = sid_of(session_id)
            result = service.turn(sid, question)
            rep = result.report
            return AskOut(session_id=sid, kind=result.kind, text=result.text,
                          report=rep.model_dump(mode="json") if rep is not None else None,
                          markdown=to_markdown(rep) if rep is not None else None,
                          candidates=[AgreementOut(**c) for c in result.candidates], files=result.files)

    @server.tool()
    def fetch_clause(ref: str, doc_id: str | None = None, session_id: str | None = None) -> ClauseOut:
        """The exact text of clause `ref` (e.g. "3.2", "14.3(b)", "Article V") with its character span."""
        with user_errors():
            sid = sid_of(session_id)
            want = _norm_ref(ref)
            if service.library is not None:
                if doc_id is None:
                    raise ClauselensError("in a library session fetch_clause needs doc_id (an agreement's id, "
                                          "from search_clauses or ask)")
                docs = [service.library_document(doc_id)]
            else:
                docs = [d for d in service.parsed_documents(sid) if doc_id is None or d.id == doc_id]
            if not docs:
                raise ClauselensError("no such document in this session" if doc_id else "no documents in this session yet: call ingest first")
            for d in docs:
                for n in d.nodes:
                    if n.ref and _norm_ref(n.ref) == want:
                        return ClauseOut(session_id=sid, doc_id=d.id, doc_title=d.title, clause_ref=n.ref,
                                         heading=n.heading, path=n.path, span=[n.span.start, n.span.end],
                                         page_start=n.page_start, page_end=n.page_end,
                                         text=d.text[n.span.start:n.span.end])
            raise ClauselensError(f"clause {ref} not found in {', '.join(d.title or d.id for d in docs)}")

    grid_tools(server, grid_runs, sid_of)
    from clauselens.interfaces.mcp_review import review_tools  # review_agreement (issue #44: playbook review)

    review_tools(server, service, admit, user_errors)
    if service.library is not None:
        from clauselens.interfaces.mcp_library import library_tools

        library_tools(server, service, allowed, user_errors)
    return server
