"""The ``chat``, ``mcp`` and ``serve`` commands (plain functions with typer annotations;
``clauselens.cli`` registers them with ``app.command(...)``), and :func:`build_service`,
which wires settings, models, the checkpointer and the graph into a
:class:`~clauselens.interfaces.session.ChatSessions`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from clauselens.config import Settings
from clauselens.errors import ClauselensError, ConfigError
from clauselens.interfaces.consoles import out_console
from clauselens.interfaces.session import ChatSessions, default_sessions_db


def build_service(settings: Settings, *, models: Any = None, db_path: Path | None = None,
                  library: str | None = None) -> ChatSessions:
    """A chat-session service.

    Args:
        settings: project settings.
        models: one chat model for every agent, a ``{"archivist": m, ...}`` dict, or None
            (each agent's model from settings; an in-process GGUF is only loaded into memory
            on its first call, a server is only contacted on the first call).
        db_path: the SQLite session file (default ``<cache_dir>/sessions.sqlite``).
        library: answer from this library (name or folder, see ``clauselens library``)
            instead of the session's own documents. Raises ``ConfigError`` if it does not exist.
    """
    from clauselens.agents.archivist import load_one
    from clauselens.agents.resources import ModelPool
    from clauselens.interfaces.engine import GraphInterrogate

    pool = ModelPool(settings, models)  # one pool: the Archivist, the graph and the tools share models
    lib = None
    if library is not None:
        from clauselens.library.opening import open_library

        lib = open_library(settings, library, chat_model=pool.researcher)
    return ChatSessions(settings, archivist_model=pool.model("archivist"), interrogate=GraphInterrogate(settings, models=pool),
                        load_document=lambda p: load_one(p, settings), db_path=db_path or default_sessions_db(settings),
                        library=lib)


def _service_or_exit(settings: Settings, db_path: Path | None, library: str | None = None) -> ChatSessions:
    try:
        return build_service(settings, db_path=db_path, library=library)
    except ClauselensError as e:
        typer.echo(f"Error: {e}", err=True)
        raise typer.Exit(e.exit_code) from None


def _require_or_exit(extra: str, what: str) -> None:
    from clauselens.extras import require_extra

    try:
        require_extra(extra, what)
    except ClauselensError as e:
        typer.echo(f"Error: {e}", err=True)
        raise typer.Exit(e.exit_code) from None


def _settings(model: str | None, base_url: str | None, timeout: float | None = None) -> Settings:
    s = Settings()
    if base_url:  # same convention as `clauselens ask --base-url`: model name "local" unless given
        s = s.with_model(backend="openai", base_url=base_url, model=model or "local")
    elif model:
        s = s.with_model(model=model)
    if timeout is not None:
        s = s.with_model(request_timeout_s=float(timeout))
    return s


ModelOpt = Annotated[Optional[str], typer.Option("--model", help="Bundled model name (qwen2.5-coder-1.5b / -0.5b), a .gguf path, or the "
                                                                 "server's model name.")]
BaseUrlOpt = Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1 (default: "
                                                                      "in-process GGUF).")]
DbOpt = Annotated[Optional[Path], typer.Option("--sessions-db", help="Session store (default ~/.cache/clauselens/sessions.sqlite).")]
TimeoutOpt = Annotated[Optional[float], typer.Option("--timeout", min=0.1, help="Seconds to wait for each model server reply before "
                                                                                "reporting it timed out (default 300; setting request_timeout_s).")]
LibraryOpt = Annotated[Optional[str], typer.Option("--library", "-l", help="Answer from this library (see `clauselens library add`) "
                                                                           "instead of files: the agreement is resolved from each question.")]
GridConcurrencyOpt = Annotated[int, typer.Option("--grid-concurrency", min=1, max=64, help="Parallel model calls of a review grid "
                                                                                          "(an OpenAI-compatible server only).")]


def chat_cmd(
    files: Annotated[Optional[list[Path]], typer.Argument(help="Contracts to discuss (.pdf .docx .txt .md).")] = None,
    resume: Annotated[Optional[str], typer.Option("--resume", help="Continue session ID (same history and documents).")] = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    sessions_db: DbOpt = None,
    library: LibraryOpt = None,
    timeout: TimeoutOpt = None,
) -> None:
    """Chat about contracts in the terminal; the session is saved and can be resumed."""

    from clauselens.interfaces.chat import run_chat, setup_readline

    console = out_console()
    settings = _settings(model, base_url, timeout)
    try:
        if library is not None and files:
            raise ConfigError("give either files or --library, not both (add the files first: clauselens library add FILES)")
        service = build_service(settings, db_path=sessions_db, library=library)
        if resume:
            if not service.exists(resume):
                raise ClauselensError(f"no session {resume!r} in {service.db_path}")
            sid = resume
        else:
            if not files and library is None:
                raise ClauselensError("give at least one contract file, or --library NAME (or --resume ID)")
            sid = service.new_session()
        if files:
            with console.status("Archivist: reading the documents…"):
                service.add_files(sid, files)  # as `ask`: a bad file is left out and named, the others are read
    except ClauselensError as e:
        console.print(f"[red]Error:[/] {e}")
        raise typer.Exit(e.exit_code) from None
    setup_readline(settings.cache_dir / "chat_history")
    run_chat(service, sid, console=console, resumed=bool(resume), input_fn=_echoing_input)
    if files and service.left_out(sid):  # as `ask`: bad input ends in a non-zero exit, after the session it did not stop
        raise typer.Exit(2)


def _echoing_input(prompt: str) -> str:
    """``input()``, echoing the line when stdin is not a terminal (piped questions show up
    in the output, so a recorded session reads like the interactive one)."""
    import sys

    line = input(prompt)
    if not sys.stdin.isatty():
        print(line, flush=True)
    return line


def mcp_cmd(
    root: Annotated[Optional[list[Path]], typer.Option("--root", help="Folder the server may read documents from (repeatable; default: the "
                                                                      "current folder).")] = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    sessions_db: DbOpt = None,
    library: LibraryOpt = None,
    grid_concurrency: GridConcurrencyOpt = 1,
) -> None:
    """Run the MCP server over stdio (tools: ingest, search_clauses, ask, fetch_clause, start_grid, grid_progress, grid_cell, resume_grid)."""
    _require_or_exit("mcp", "clauselens mcp")
    from clauselens.interfaces.mcp_server import create_mcp_server

    settings = _settings(model, base_url)
    service = _service_or_exit(settings, sessions_db, library)
    from clauselens.interfaces.grids import GridRuns

    create_mcp_server(service, roots=tuple(root or [Path.cwd()]), grids=GridRuns(service, concurrency=grid_concurrency)).run()


def serve_cmd(
    host: Annotated[str, typer.Option(help="Address to bind (loopback by default; nothing is exposed unless you change it).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8765,
    docs_dir: Annotated[Optional[list[Path]], typer.Option("--docs-dir", help="Folder whose contracts can be picked without uploading "
                                                                              "(repeatable).")] = None,
    max_upload_mb: Annotated[int, typer.Option(help="Upload size limit in MiB.")] = 20,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    sessions_db: DbOpt = None,
    library: LibraryOpt = None,
    grid_concurrency: GridConcurrencyOpt = 1,
) -> None:
    """Serve the web UI (upload, ask, watch the rounds, read the cited report; review grids of agreements × questions)."""
    _require_or_exit("web", "clauselens serve")
    import uvicorn

    from clauselens.interfaces.web.app import create_app

    settings = _settings(model, base_url)
    service = _service_or_exit(settings, sessions_db, library)
    dirs = tuple(docs_dir or ([Path("examples/contracts")] if Path("examples/contracts").is_dir() else []))
    from clauselens.interfaces.grids import GridRuns

    app = create_app(service, pick_dirs=dirs, max_upload_bytes=max_upload_mb * 1024 * 1024,
                     grids=GridRuns(service, concurrency=grid_concurrency))
    typer.echo(f"clauselens web UI on http://{host}:{port}/  (Ctrl+C to stop)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
