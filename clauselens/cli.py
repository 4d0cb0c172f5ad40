"""Command line (typer + rich).

``clauselens ask FILE... "QUESTION"`` answers a question with a cited report (printed as
Markdown; written as MD/HTML/JSON + transcript with ``--out``); ``clauselens ingest FILE...``
parses files and shows their clause structure. Every :class:`~clauselens.errors.ClauselensError`
is printed as its message (in red) and the process exits with the error's ``exit_code``;
no traceback for a user mistake.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

import typer
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from clauselens import events as ET
from clauselens.config import Settings
from clauselens.errors import ClauselensError, ConfigError, IngestError
from clauselens.interfaces.consoles import err_console as make_err_console
from clauselens.interfaces.consoles import out_console

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="clauselens: grounded, cited answers about contracts, from local open models.")
console = out_console()  # piped output is not wrapped at 80 columns (interfaces/consoles.py)
err_console = make_err_console()


def _fail(e: ClauselensError) -> None:
    err_console.print(f"[bold red]Error:[/bold red] [red]{escape(str(e))}[/red]")
    raise typer.Exit(code=e.exit_code)


@app.callback()
def _check_environment() -> None:
    """Refuse invalid ``CLAUSELENS_*`` settings with one message instead of a pydantic traceback."""
    from pydantic import ValidationError

    try:
        Settings()
    except ValidationError as e:
        bad = "; ".join("CLAUSELENS_" + "__".join(str(x).upper() for x in er["loc"] if not isinstance(x, int))
                        + f": {er['msg']}" for er in e.errors())
        _fail(ConfigError(f"invalid setting: {bad}"))


def _print_failures(failures: list[tuple[Path | None, str]], total: int, verb: str) -> None:
    """``N of M file(s) <verb>:`` and one line per file (its message, which names the file)."""
    err_console.print(f"[bold red]{len(failures)} of {total} file(s) {verb}:[/bold red]")
    for f, msg in failures:
        line = msg if f is None or f.name in msg else f"{f}: {msg}"
        err_console.print(f"  [red]- {escape(line)}[/red]")


def _settings(*, model: str | None, base_url: str | None, api_key: str | None, max_turns: int | None,
              password: str | None, tools: str | None, ocr: bool, timeout: float | None = None) -> Settings:
    s = Settings()
    upd: dict[str, Any] = {}
    if timeout is not None:
        if timeout <= 0:
            raise ConfigError(f"--timeout must be a positive number of seconds (got {timeout:g})")
        upd["request_timeout_s"] = float(timeout)
    if base_url:
        upd.update(backend="openai", base_url=base_url)
        if model:
            upd["model"] = model
        elif s.researcher_model.model.startswith("qwen2.5-coder"):
            upd["model"] = "local"
        if api_key:
            upd["api_key"] = api_key
    elif model:
        upd.update(backend="llamacpp", model=model)
    if upd:
        s = s.with_model(**upd)
    top: dict[str, Any] = {"ocr": ocr}
    if max_turns is not None:
        if max_turns < 1:
            raise ConfigError(f"--max-turns must be at least 1 (got {max_turns})")
        top["max_turns"] = max_turns
    if password is not None:
        top["pdf_password"] = password
    if tools:
        from clauselens.retrieval.registry import check_tool_names

        top["retrieval"] = s.retrieval.model_copy(update={"tools": check_tool_names(tools.split(","))})
    return s.model_copy(update=top)


class _Progress:
    """Prints the lines of :func:`clauselens.interfaces.progress.progress_lines` for each graph
    update, timed, and keeps the spinner on what runs next."""

    _STYLE = {"info": "", "warning": "yellow", "error": "red"}

    def __init__(self, status: Any) -> None:
        self.status = status
        self.t0 = time.perf_counter()

    def _line(self, text: str) -> None:
        console.print(f"[dim]{time.perf_counter() - self.t0:6.1f}s[/dim] {text}")

    def __call__(self, node: str, upd: dict[str, Any]) -> None:
        from clauselens.interfaces.progress import draft_preview, progress_lines, progress_status

        if node == ET.DRAFT_TEXT:  # the draft's answer as the model writes it (pipeline.DraftWatcher)
            label = "answer" if upd.get("field") == "answer" else "draft"
            self.status.update(f"Interrogator writing the {label} ({time.perf_counter() - self.t0:.0f}s): "
                               f"[italic]{escape(draft_preview(upd['text']))}[/italic]")
            return
        for line in progress_lines(node, upd):
            style = self._STYLE[line.level]
            label = f"[bold {style}]{escape(line.label)}[/bold {style}]" if style else f"[bold]{escape(line.label)}[/bold]"
            text = f"[{style}]{escape(line.text)}[/{style}]" if style and not line.indent else escape(line.text)
            self._line(("  " if line.indent else "") + (f"{label}: {text}" if line.label else text))
        status = progress_status(node, upd)
        if status:
            self.status.update(status)


#: ``ask --mode`` values that pin the Researcher to one retrieval tool (issue #4: the
#: "Inject or Navigate?" modes, plus hybrid and LightRAG).
RETRIEVAL_MODES = ("hybrid", "navindex", "navembed", "inject", "lightrag")


def _tools_for_mode(mode: str, tools: str | None) -> str | None:
    """``--tools`` value implied by ``--mode``; raises ``ConfigError`` for an unknown mode or
    a mode that contradicts ``--tools``."""
    if mode in ("report", "nli"):
        return tools
    if mode not in RETRIEVAL_MODES:
        raise ConfigError(f"--mode must be one of report, nli, {', '.join(RETRIEVAL_MODES)} (got {mode!r})")
    if tools and [t.strip() for t in tools.split(",") if t.strip()] != [mode]:
        raise ConfigError(f"--mode {mode} pins the Researcher to the {mode} tool; it conflicts with --tools {tools}")
    return mode


@app.command()
def ask(
    files_and_question: Annotated[list[str], typer.Argument(metavar="[FILE...] QUESTION",
                                                            help="Contract files, then the question (only the question with --library).")],
    out: Annotated[Optional[Path], typer.Option("--out", help="Write report.md/.html/.json/.docx and the transcript here.")] = None,
    max_turns: Annotated[Optional[int], typer.Option("--max-turns", help="Research rounds at most (default 3).")] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Bundled model name or .gguf path; with --base-url the server's model "
                                                                 "name.")] = None,
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible server, e.g. http://localhost:8000/v1.")] = None,
    api_key: Annotated[Optional[str], typer.Option("--api-key", help="API key for --base-url (default 'none').")] = None,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds to wait for each model server reply before reporting it "
                                                                       "timed out (default 300; setting request_timeout_s).")] = None,
    context: Annotated[Optional[str], typer.Option("--context", help='Your situation/instructions, e.g. "I am the receiving party".')] = None,
    password: Annotated[Optional[str], typer.Option("--password", help="Password of an encrypted PDF.")] = None,
    tools: Annotated[Optional[str], typer.Option("--tools", help="Comma-separated retrieval tools (default: hybrid).")] = None,
    mode: Annotated[str, typer.Option("--mode", help="How the Researcher reads the documents: 'hybrid', 'navindex', 'navembed', 'inject' "
                                                     "or 'lightrag' pins that one tool (same as --tools NAME); 'report' (default) uses "
                                                     "--tools or the configured tools; 'nli' is --nli.")] = "report",
    nli: Annotated[bool, typer.Option("--nli", help="Also answer entailment / contradiction / not_mentioned.")] = False,
    ocr: Annotated[bool, typer.Option("--ocr/--no-ocr", help="OCR image-only pages with Tesseract.")] = True,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Parse every file afresh (don't use or fill the document store).")] = False,
    precedents: Annotated[Optional[Path], typer.Option("--precedents", help="Labelled precedent bank (ContractNLI-format JSON, e.g. "
                                                                            "../shared/data/contractnli/dev.json): adds the 'precedents' "
                                                                            "tool; with --nli its vote joins the label.")] = None,
    library: Annotated[Optional[str], typer.Option("--library", "-l", help="Answer from this library (see `clauselens library add`) "
                                                                           "instead of files: the agreement is resolved from the question.")] = None,
    reading: Annotated[bool, typer.Option("--reading/--no-reading", help="Let the model write a short reading under the clauses quoted "
                                                                         "by rule (default), or show the quotes alone with no model call.")] = True,
    depth: Annotated[str, typer.Option("--depth", help="'quick' (default): quote retrieval's best clauses for the question and "
                                                       "write one reading; 'full': the agent loop (decompose, search plan, "
                                                       "draft, verify), for a stronger model on a server.")] = "",
) -> None:
    """Answer QUESTION about FILE(s) with a grounded, cited report."""
    from clauselens.pipeline import ask as run_ask
    from clauselens.pipeline import save_result, write_run_ledger
    from clauselens.reports.render import to_markdown, verification_banner

    try:
        if library is None and len(files_and_question) < 2:
            raise ConfigError('give at least one file and a question: clauselens ask FILE... "QUESTION" '
                              '(or ask a library: clauselens ask --library NAME "QUESTION")')
        *paths, question = files_and_question
        if library is not None and paths:
            raise ConfigError("give either files or --library, not both (add the files first: clauselens library add FILES)")
        if library is not None:  # a library answers through its own index: --mode / --tools / --precedents say otherwise
            from clauselens.library.opening import check_library_tools

            check_library_tools([mode] if mode in RETRIEVAL_MODES else [], "--mode")
            check_library_tools((tools or "").split(","), "--tools")
            check_library_tools(["precedents"] if precedents is not None else [], "--precedents")
        tools = _tools_for_mode(mode, tools)
        settings = _settings(model=model, base_url=base_url, api_key=api_key, max_turns=max_turns,
                             password=password, tools=tools, ocr=ocr, timeout=timeout)
        if no_cache:
            settings = settings.model_copy(update={"use_store": False})
        if not reading:
            settings = settings.model_copy(update={"reading": False})
        if depth:
            if depth not in ("quick", "full"):
                raise ConfigError(f"--depth must be 'quick' or 'full', not {depth!r}")
            settings = settings.model_copy(update={"depth": depth})
        if precedents is not None:
            settings = settings.with_precedent_bank(precedents)
        answer_form: Literal["report", "nli"] = "nli" if (nli or mode == "nli") else "report"
        lib_tools, lib_docs = None, None
        labels: dict[str, str] = {}
        if library is not None:
            from clauselens.agents.resources import ModelPool
            from clauselens.library.opening import for_question, open_library

            lib = open_library(settings, library, chat_model=ModelPool(settings).researcher)
            asked = for_question(lib, question)
            lib_tools, lib_docs = asked.tools(), [dict(d) for d in asked.documents()]
            labels = {a.doc_id: a.label for a in lib.agreements()}
            chosen = asked.labels()
            if asked.status == "resolved":
                console.print(f"[dim]Library {escape(lib.root.name)}: the question names[/dim] {escape(chosen[0])}")
            elif chosen:
                console.print(f"[yellow]Library {escape(lib.root.name)}: the question could mean {len(chosen)} agreements; "
                              f"searching them all (name one to narrow it):[/yellow] " + escape("; ".join(chosen)))
            elif unknown := lib.unknown_names(question):
                console.print(f"[yellow]Library {escape(lib.root.name)}: no agreement in it names "
                              f"{escape(' or '.join(repr(n) for n in unknown))}; searching all {len(labels)} -- "
                              "what is quoted comes from other agreements[/yellow]")
            else:
                console.print(f"[dim]Library {escape(lib.root.name)}: no agreement named; searching all {len(labels)}[/dim]")
        with console.status("Archivist: reading the documents...") as status:
            result = run_ask(paths, question, settings, context=context, progress=_Progress(status), mode=answer_form,
                             tools=lib_tools, documents=lib_docs)
    except ClauselensError as e:
        _fail(e)
        return
    console.print()
    console.print(Markdown(to_markdown(result.report)))
    if library is not None and not lib_docs and len(labels) > 1:  # the question named no agreement (tryout finding)
        used = list(dict.fromkeys(labels.get(c.doc_id) or c.doc_title or c.doc_id for c in result.report.citations))
        if used:
            console.print(f"[yellow]The question named no agreement, so all {len(labels)} were searched; the quotes above "
                          f"come from {escape('; '.join(used[:3]))}{' and others' if len(used) > 3 else ''}. "
                          "Name the agreement (its parties or title) to ask about one.[/yellow]")
    if verification_banner(result.report):  # issue #19: say it again below the report, where the eye lands
        console.print(f"[bold red]{escape(verification_banner(result.report))}[/bold red]")
    tu = result.transcript["token_usage"]  # the run's ledger: every model call, the tools' own included
    console.print(f"[dim]wall {result.transcript['wall_seconds']:.1f}s; {tu['llm_calls']} model calls; "
                  f"{tu['input_tokens']} prompt + {tu['output_tokens']} output tokens; "
                  f"{tu['output_tokens_per_s'] or '-'} output tokens per second of model-call time "
                  "(reading the prompt included; generation alone is faster)[/dim]")
    if out is not None:
        written = save_result(result, out)
        console.print("Wrote " + ", ".join(escape(str(p)) for p in written.values()))
    else:
        lp = write_run_ledger(result, settings.cache_dir)
        if lp is not None:
            console.print(f"[dim]Token ledger: {escape(str(lp))}[/dim]")
    if result.report.left_out:  # the report covers the readable files; still a failure for the batch
        _print_failures([(None, m) for m in result.report.left_out], len(paths), "were left out of the answer")
        raise typer.Exit(code=IngestError.exit_code)


@app.command()
def ingest(
    files: Annotated[list[Path], typer.Argument(help="Contract files (.txt, .md, .pdf, .docx).")],
    password: Annotated[Optional[str], typer.Option("--password", help="Password of an encrypted PDF.")] = None,
    ocr: Annotated[bool, typer.Option("--ocr/--no-ocr", help="OCR image-only pages with Tesseract.")] = True,
    show: Annotated[int, typer.Option("--show", help="Clauses listed per document.")] = 15,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Parse every file afresh (don't use or fill the document store).")] = False,
) -> None:
    """Parse FILE(s) and show each clause tree ("cached" when re-used from the document store).
    Continues past a bad file; lists every failure at the end and exits != 0 if any file failed."""
    from clauselens.agents.archivist import document_summary, load_one
    from clauselens.parsing import DocumentStore

    upd: dict[str, Any] = {"ocr": ocr, "pdf_password": password}
    if no_cache:
        upd["use_store"] = False
    settings = Settings().model_copy(update=upd)
    store = DocumentStore(settings.store_dir / "documents") if settings.use_store else None
    failures: list[tuple[Path, ClauselensError]] = []
    for f in files:
        hits = store.hits if store is not None else 0
        t0 = time.perf_counter()
        try:
            doc = load_one(f, settings, store=store)
        except ClauselensError as e:
            err_console.print(f"[bold red]Error:[/bold red] [red]{escape(str(e))}[/red]")
            failures.append((f, e))
            continue
        source = "cached" if store is not None and store.hits > hits else f"parsed in {time.perf_counter() - t0:.1f}s"
        s = document_summary(doc)
        console.print(f"[bold]{escape(s['title'] or f.name)}[/bold]  [dim]{escape(str(f))}[/dim]")
        pages = f"{s['pages']} pages ({s['ocr_pages']} OCR)" if s["pages"] else "plain text, no pages"
        console.print(f"  {source}; {s['chars']:,} chars, {pages}, {s['nodes']} nodes, "
                      f"{s['numbered_clauses']} numbered clauses, {s['defined_terms']} defined terms")
        for w in s["warnings"]:
            console.print(f"  [yellow]warning:[/yellow] {escape(w)}")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column("clause")
        table.add_column("heading")
        table.add_column("page", justify="right")
        numbered = [n for n in doc.nodes if n.ref]
        for n in numbered[:show]:
            table.add_row(escape(n.ref or ""), escape((n.heading or "")[:60]), str(n.page_start or ""))
        console.print(table)
        if len(numbered) > show:
            console.print(f"  [dim]… {len(numbered) - show} more clauses (--show {len(numbered)} lists them all)[/dim]")
    if failures:
        if len(files) > 1:  # one file's error was printed above already
            _print_failures([(f, str(e)) for f, e in failures], len(files), "could not be read")
        raise typer.Exit(code=failures[0][1].exit_code)


@app.command()
def review(
    files: Annotated[Optional[list[Path]], typer.Argument(metavar="FILE", help="Contract file(s) (.pdf .docx .txt .md).")] = None,
    playbook: Annotated[Optional[Path], typer.Option("--playbook", "-p", help="Playbook YAML (see examples/playbooks/).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder: review.md/.html/.xlsx/.json and redlined DOCX.")] = Path("review"),
    library: Annotated[Optional[str], typer.Option("--library", "-l", help="Review a library's agreements instead of files.")] = None,
    agreement: Annotated[Optional[list[str]], typer.Option("--agreement", "-a", help="With --library: only this agreement "
                                                                                      "(doc id, file name or title words; repeatable).")] = None,
    reading: Annotated[bool, typer.Option("--reading/--no-reading", help="Add the model's reading of each quoted clause "
                                                                        "(--no-reading: no model call at all).")] = True,
    redline: Annotated[bool, typer.Option("--redline/--no-redline", help="Write a redlined DOCX (tracked changes) per agreement.")] = True,
    our_party: Annotated[Optional[list[str]], typer.Option("--our-party", help="Our party: a name or defined term (positions about "
                                                                             "'us' / the counterparty; repeatable).")] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Reading model: bundled name or .gguf path.")] = None,
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="OpenAI-compatible server for the reading.")] = None,
    api_key: Annotated[Optional[str], typer.Option("--api-key", help="API key for --base-url.")] = None,
) -> None:
    """Check agreement(s) against a playbook of standard positions: per position compliant / deviation /
    missing / unclear, with the clause quoted word for word, the value read and the rule that decided."""
    from clauselens.playbook.model import load_playbook
    from clauselens.playbook.run import open_library_for_review, review_inputs
    from clauselens.playbook.sources import from_library, load_file

    try:
        if playbook is None:
            raise ConfigError("give the playbook: --playbook P.yaml (examples in examples/playbooks/)")
        if bool(files) == (library is not None):
            raise ConfigError("give contract FILE(s) or --library NAME (one of them)")
        if agreement and library is None:
            raise ConfigError("--agreement picks agreements of a --library")
        pb = load_playbook(playbook)
        settings = Settings()
        if library is not None:
            inputs = from_library(open_library_for_review(settings, library), agreement or [])
        else:
            inputs = [load_file(f, settings) for f in files or []]
        reader = None
        if reading:
            from clauselens.interfaces.grid_commands import grid_model_settings
            from clauselens.llm import get_chat_model
            from clauselens.playbook.reading import make_reader

            ms = grid_model_settings(settings, model=model, base_url=base_url, api_key=api_key)
            reader = make_reader(get_chat_model(ms, settings.models_dir))
        run = review_inputs(inputs, pb, out, reading=reader, redlines=redline, our_party=our_party or [])
    except ClauselensError as e:
        _fail(e)
        return
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    for col in ("agreement", "compliant", "deviation", "missing", "unclear"):
        table.add_column(col)
    for rv in run.reviews:
        c = rv.counts()
        table.add_row(escape(rv.agreement[:60]), *(str(c[k]) for k in ("compliant", "deviation", "missing", "unclear")))
    console.print(table)
    console.print(f"Wrote {escape(str(run.reports['md']))} (+ .html .xlsx .json)" +
                  (f" and {len(run.redlines)} redlined DOCX" if run.redlines else "") + f" in {run.seconds:.1f}s.")
    failed = [rv for rv in run.reviews if rv.error]
    if failed:
        _print_failures([(None, f"{rv.agreement}: {rv.error}") for rv in failed], len(run.reviews), "could not be reviewed")
        raise typer.Exit(code=IngestError.exit_code)


# Interactive interfaces (issue #5): terminal chat, MCP server, web UI.
from clauselens.interfaces.commands import chat_cmd, mcp_cmd, serve_cmd  # noqa: E402
from clauselens.interfaces.grid_commands import grid_cmd  # noqa: E402
from clauselens.interfaces.library_commands import library_app  # noqa: E402

app.add_typer(library_app, name="library")
app.command("chat")(chat_cmd)
app.command("mcp")(mcp_cmd)
app.command("serve")(serve_cmd)
app.command("grid")(grid_cmd)


def main() -> None:  # pragma: no cover - console entry point alias
    """Entry point (``python -m clauselens.cli``)."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
