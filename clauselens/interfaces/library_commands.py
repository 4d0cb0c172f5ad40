"""``clauselens library add | list | remove | search`` (a typer sub-app that
``clauselens.cli`` mounts). Opening a library and pinning it to a question's agreements is the
library layer's (:mod:`clauselens.library.opening`); this module only prints.

Libraries live under ``~/.cache/clauselens/libraries/<name>`` (``--library NAME``; a path
works too). Every long step shows a rich progress bar with ETA; a bad file is reported and
skipped, never stops the batch, and leaves the library as it was; the exit code is non-zero
when any file failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from clauselens.config import Settings
from clauselens.errors import ClauselensError, IngestError
from clauselens.interfaces.consoles import add_progress, fail, out_console
from clauselens.interfaces.consoles import err_console as make_err_console
from clauselens.parsing.furniture import EDGAR_BANNER
from clauselens.parsing.metadata import shown_date
from clauselens.parsing.numbering import clause_label

if TYPE_CHECKING:
    from clauselens.library import Library

library_app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                          help="A persistent library of agreements: add once, ask across all of them.")
console = out_console()  # piped output gets a full row's width (interfaces/consoles.py)
err_console = make_err_console()

LibraryOpt = Annotated[Optional[str], typer.Option("--library", "-l", help="Library name (under ~/.cache/clauselens/libraries/) or a "
                                                                           "folder path; default 'default'.")]


def _open(settings: Settings, name: str | None, **kw: Any) -> Library:
    """:func:`clauselens.library.opening.open_library` with the Researcher's model from the
    settings for an LLM reranker (created only when ``retrieval.library_rerank`` is ``llm``)."""
    from clauselens.library.opening import open_library

    def researcher() -> Any:
        from clauselens.agents.resources import ModelPool

        return ModelPool(settings).researcher()

    return open_library(settings, name, chat_model=researcher, **kw)


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("ETA"), TimeRemainingColumn(), TextColumn("[dim]{task.fields[detail]}"),
                    console=err_console, transient=False)


@library_app.command("add")
def add_cmd(
    paths: Annotated[list[Path], typer.Argument(help="Contract files and folders (searched recursively for .pdf .docx .txt .md).")],
    library: LibraryOpt = None,
    prune: Annotated[bool, typer.Option("--prune", help="Also drop agreements whose files no longer exist.")] = False,
    ocr: Annotated[bool, typer.Option("--ocr/--no-ocr", help="OCR image-only pages with Tesseract.")] = True,
    password: Annotated[Optional[str], typer.Option("--password", help="Password of the encrypted PDFs among the files (one for "
                                                                       "all; a PDF it does not open is listed as failed).")] = None,
    backend: Annotated[Optional[str], typer.Option("--backend", help="Storage of a new library: 'local' (default: SQLite + bm25s + NumPy) "
                                                                     "or 'milvus'.")] = None,
    uri: Annotated[Optional[str], typer.Option("--uri", help="Milvus: a Milvus Lite file (./library.db, the default is inside the library "
                                                             "folder) or a server, http://host:19530 (credentials: "
                                                             "CLAUSELENS_MILVUS_TOKEN).")] = None,
) -> None:
    """Add agreements to a library (incremental: unchanged files are skipped by sha256,
    changed ones re-indexed). Bad files are listed at the end; the others are added.
    The library remembers its backend and URI: later commands need only --library."""
    from clauselens.agents.archivist import load_one
    from clauselens.parsing import DocumentStore

    settings = Settings().model_copy(update={"ocr": ocr, "pdf_password": password})
    try:
        lib = _open(settings, library, create=True, backend=backend, uri=uri)
    except ClauselensError as e:
        fail(e)
        return
    store = DocumentStore(settings.store_dir / "documents") if settings.use_store else None
    with _progress() as bar:
        progress = add_progress(bar)

        try:
            rep = lib.add(paths, load=lambda p: load_one(p, settings, store=store), prune=prune, progress=progress)
        except ClauselensError as e:
            fail(e)
            return
    console.print(f"Library [bold]{escape(lib.root.name)}[/bold] ({escape(str(lib.root))}): {len(lib)} agreement{'' if len(lib) == 1 else 's'}. "
                  f"This run: {len(rep.added)} added, {len(rep.updated)} re-indexed, {len(rep.unchanged)} unchanged, "
                  f"{len(rep.pruned)} pruned, {rep.passages:,} passages indexed in {rep.seconds:.1f}s.")
    for path, original in rep.copies:
        console.print(f"  {escape(Path(path).name)} looks like the same agreement as {escape(Path(original).name)}: "
                      "listed as a copy, left out of search results")
    if rep.failed:
        err_console.print(f"[bold red]{len(rep.failed)} file(s) could not be added (the library is unchanged for them):[/bold red]")
        for path, msg in rep.failed:
            name = Path(path).name
            err_console.print(f"  [red]- {escape(msg if name in msg else f'{path}: {msg}')}[/red]")
        raise typer.Exit(code=IngestError.exit_code)


@library_app.command("list")
def list_cmd(library: LibraryOpt = None) -> None:
    """List the agreements of a library: title, parties, date, type, pages ("–" for a text file, which
    has none), passages."""
    try:
        lib = _open(Settings(), library)
    except ClauselensError as e:
        fail(e)
        return
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    for col in ("#", "title", "parties (short names)", "date", "type", "pages", "passages", "file"):
        table.add_column(col, overflow="fold")
    copies = lib.copies()
    names = {r.doc_id: Path(r.path).name for r in lib.agreements()}
    for i, r in enumerate(lib.agreements(), start=1):
        parties = " / ".join(r.parties[:3]) + (f" ({', '.join(r.short_names[:4])})" if r.short_names else "")
        table.add_row(str(i), escape(r.title or ""), escape(parties), escape(shown_date(r.date) if r.date else (str(r.year) if r.year else "")),
                      escape(r.kind), str(r.pages) if r.pages else "–", str(r.passages),
                      escape(Path(r.path).name + (f" (copy of {names.get(copies[r.doc_id], copies[r.doc_id])})"
                                                  if r.doc_id in copies else "")))
    console.print(table)
    console.print(f"{len(lib)} agreement{'' if len(lib) == 1 else 's'} in {escape(str(lib.root))}")


@library_app.command("remove")
def remove_cmd(
    agreements: Annotated[list[str], typer.Argument(help="Agreements to remove: file path, file name or document id.")],
    library: LibraryOpt = None,
) -> None:
    """Remove agreements from a library."""
    try:
        lib = _open(Settings(), library)
        removed = lib.remove(agreements)
    except ClauselensError as e:
        fail(e)
        return
    for p in removed:
        console.print(f"Removed {escape(p)}")


@library_app.command("search")
def search_cmd(
    question: Annotated[str, typer.Argument(help="The question, naming the agreement in ordinary words if you like.")],
    library: LibraryOpt = None,
    k: Annotated[int, typer.Option("--k", help="Passages to show.")] = 5,
    party: Annotated[Optional[str], typer.Option("--party", help="Only agreements with this party (or short name).")] = None,
    doc_type: Annotated[Optional[str], typer.Option("--type", help="Only this type: agreement, amendment, side_letter, schedule, other, or "
                                                                   "words of the title (supply, 'joint venture').")] = None,
    year: Annotated[Optional[int], typer.Option("--year", help="Only agreements dated in this year.")] = None,
) -> None:
    """Top passages for a question (no model call): agreement, clause, page, score, quote."""
    try:
        lib = _open(Settings(), library)
        res = lib.search(question, k, party=party, doc_type=doc_type, year=year)
    except ClauselensError as e:
        fail(e)
        return
    r = res.trace.get("resolution", {})
    labels = {a.doc_id: a.label for a in lib.agreements()}
    if r.get("status") in ("ambiguous", "uncertain"):
        console.print(f"[yellow]The question could mean {len(r['chosen'])} agreements; searched them all:[/yellow] "
                      + "; ".join(escape(labels.get(d, d)) for d in r["chosen"]))
    elif r.get("status") == "resolved":
        console.print(f"Agreement: [bold]{escape(labels.get(r['chosen'][0], r['chosen'][0]))}[/bold]")
    elif unknown := lib.unknown_names(question):
        console.print(f"[yellow]No agreement in the library names {escape(' or '.join(repr(n) for n in unknown))}: "
                      "searched the whole library; the passages below come from other agreements.[/yellow]")
    else:
        console.print("No agreement named: searched the whole library.")
    if res.abstained:
        console.print(f"[bold]{escape(res.reason or 'no matching clause found')}[/bold]")
        return
    if res.trace.get("lay_terms"):
        console.print("[dim]Read as contract wording: " + escape("; ".join(res.trace["lay_terms"]))
                      + " (lay phrases of the question; only the ranking used them)[/dim]")
    for i, p in enumerate(res.passages, start=1):
        where = " · ".join(x for x in (labels.get(p.doc_id, p.doc_title or ""), clause_label(p.clause_ref) if p.clause_ref else "",
                                       f"p. {p.page_start}" if p.page_start else "") if x)
        console.print(f"[bold]{i}.[/bold] {escape(where)}  [dim]{p.method} {p.score:.4f}[/dim]")
        console.print("   " + escape(snippet(p.text, res.trace.get("defined_term") if p.method == "exact" else None)))
        for n in p.notes:
            console.print(f"   [dim yellow]{escape(n)}[/dim yellow]")


#: The page banner SEC EDGAR prints on every page of a filed exhibit: page furniture, left out of a snippet.
_EDGAR_SOURCE = EDGAR_BANNER


def snippet(text: str, term: str | None = None, width: int = 400) -> str:
    """About the first ``width`` characters of a passage on one line, EDGAR page banners left out,
    cut between words and marked ``…`` where cut; for a definition hit (``term``) that would not show the definition, ``"… "`` and
    the text from a little before the quoted term ("How is 'Territory' defined": the passage of a
    definitions clause holds it 780 characters in)."""
    flat = " ".join(_EDGAR_SOURCE.sub(" ", text).split())
    lead = ""
    if term:
        low = flat.lower()
        at = next((i for q in ('"', "“", "") if (i := low.find(f"{q}{term.lower()}")) >= 0), -1)
        if at > width - 120:
            start = max(0, at - 40)
            space = flat.find(" ", start, at)
            flat, lead = flat[space + 1 if space >= 0 else start:], "… "
    if len(flat) <= width:
        return lead + flat
    cut = flat.rfind(" ", 0, width + 1)
    return lead + flat[:cut if cut > width // 2 else width].rstrip(" ,;:") + " …"


__all__ = ["library_app", "snippet"]
