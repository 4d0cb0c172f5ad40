"""``clauselens chat``: a terminal REPL over a persistent chat session.

Each line is a message to the Archivist (which may ask one clarifying question) and, once
the request is clear, to the Researcher/Interrogator; their rounds are printed as they
happen. Commands: ``/report`` (the last report, as Markdown), ``/sources`` (its verified
citations), ``/history``, ``/retry`` (re-run a turn that failed, e.g. the model server was
down), ``/quit``. The session id is printed at the start; ``clauselens chat --resume ID``
continues it after a restart with the same history and documents. Line editing and input
history come from the standard library's ``readline`` (history file
``<cache_dir>/chat_history``) when available.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from clauselens import events as ET
from clauselens.errors import ClauselensError, ModelUnavailableError
from clauselens.interfaces.consoles import out_console
from clauselens.interfaces.session import ChatSessions, Event, collect
from clauselens.reports.render import to_markdown

HELP = "Commands: /report  /sources  /history  /retry  /quit   (anything else is a question)"


def setup_readline(history_file: Path) -> None:
    """Enable line editing and persistent input history if ``readline`` is available."""
    try:
        import atexit
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return
    history_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        readline.read_history_file(str(history_file))
    except OSError:
        pass
    readline.set_history_length(1000)
    atexit.register(readline.write_history_file, str(history_file))


def print_history(service: ChatSessions, session_id: str, console: Console) -> int:
    """Print the session's conversation; returns the number of messages."""
    msgs = service.history(session_id)
    for m in msgs:
        if isinstance(m, HumanMessage):
            console.print(f"[bold cyan]you>[/] {m.content}")
        elif isinstance(m, AIMessage):
            console.print(f"[bold green]clauselens>[/] {m.content}")
    return len(msgs)


def print_sources(service: ChatSessions, session_id: str, console: Console) -> None:
    """The last report's verified citations with their quotes."""
    reps = service.reports(session_id)
    if not reps:
        console.print("No report yet: ask a question first.")
        return
    r = reps[-1]
    if not r.citations:
        console.print("The last report has no verified quotes.")
    for c in r.citations:
        spans = ", ".join(f"[{s.start}, {s.end})" for s in c.spans)
        console.print(f"[bold][{c.id}][/] {c.location} (chars {spans})")
        console.print(f"    \"{' '.join(c.quote.split())}\"", markup=False)


def _show_event(console: Console, ev: Event, status: Any = None) -> None:
    t = ev.get("type")
    if t == ET.DRAFT_TEXT:  # the answer as it is written: on the spinner line, not in the scrollback
        if status is not None:
            from clauselens.interfaces.progress import draft_preview

            status.update(f"[dim]Interrogator writing: [italic]{escape(draft_preview(ev['text']))}[/italic][/]")
        return
    if t in (ET.STATUS, ET.ROUND):
        console.print(f"  [dim]· {ev['text']}[/]")
    elif t == ET.RESOLUTION:
        labels = ev.get("labels") or []
        if not labels and ev.get("unknown_names"):
            console.print(f"  [yellow]· Library: no agreement in it names {escape(' or '.join(repr(n) for n in ev['unknown_names']))}; "
                          "searching the whole library -- what is quoted comes from other agreements[/]")
        elif not labels:
            console.print("  [dim]· Library: no agreement named; searching the whole library[/]")
        elif ev.get("status") == "clarified":
            console.print(f"  [dim]· Library: searching your choice: {escape('; '.join(labels))}[/]")
        elif len(labels) == 1:
            console.print(f"  [dim]· Library: the question names {escape(labels[0])}[/]")
        else:
            console.print(f"  [dim]· Library: searching {len(labels)} agreements: {escape('; '.join(labels))}[/]")
    elif t == ET.REQUEST:
        req = ev["request"]
        ctx = f" (context: {req['context']})" if req.get("context") else ""
        console.print(f"  [dim]· Archivist → Interrogator: {req['question']}{ctx}[/]")


def run_chat(service: ChatSessions, session_id: str, *, console: Console | None = None,
             input_fn: Callable[[str], str] = input, resumed: bool = False) -> None:
    """The REPL loop (returns on ``/quit`` or end of input).

    User errors (a failed turn, a model that is down) are printed and the loop continues;
    the session stays usable."""
    console = console or out_console()
    docs = service.documents(session_id)
    lib = service.library_info()
    resume = f"clauselens chat --resume {session_id}" + (f" --library {lib['ref']}" if lib else "")
    console.print(f"[bold]clauselens chat[/] — session [bold]{session_id}[/] (resume with: {escape(resume)})")
    if lib is not None:
        console.print(f"Library: {escape(lib['name'])} ({lib['agreements']} agreements): name the agreement in your "
                      "question, or ask across all of them")
    else:
        console.print("Documents: " + (", ".join(f"{d['file_name']} ({d.get('title') or 'untitled'})" for d in docs) or "none"))
        for m in service.left_out(session_id):  # as `clauselens ask`: named here and in every report
            console.print(f"[bold red]Left out[/] (cannot be read): [red]{escape(m)}[/]")
    if resumed:
        n = print_history(service, session_id, console)
        console.print(f"[dim]— resumed: {n} earlier message(s) —[/]")
    console.print(HELP)
    while True:
        try:
            line = input_fn("you> ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        if not line:
            continue
        if line in ("/quit", "/exit", "/q"):
            break
        if line == "/help":
            console.print(HELP)
            continue
        if line == "/report":
            reps = service.reports(session_id)
            console.print(Markdown(to_markdown(reps[-1])) if reps else "No report yet: ask a question first.")
            continue
        if line == "/sources":
            print_sources(service, session_id, console)
            continue
        if line == "/history":
            print_history(service, session_id, console)
            continue
        if line == "/retry" and not service.pending(session_id):
            console.print("Nothing to retry: the last turn finished.")
            continue
        if line.startswith("/") and line != "/retry":
            console.print(f"Unknown command {line}. {HELP}")
            continue
        try:
            with console.status("[dim]working…[/]") as status:
                def show(ev: Event) -> None:
                    _show_event(console, ev, status)

                result = (collect(service.retry(session_id), show) if line == "/retry"
                          else service.turn(session_id, line, show))
        except ModelUnavailableError as e:
            console.print(f"[red]The language model is not available:[/] {e}\nStart it, then type /retry.")
            continue
        except ClauselensError as e:
            console.print(f"[red]Error:[/] {e}")
            continue
        console.print(f"[bold green]clauselens>[/] {result.text}")
    console.print(f"Session saved. Resume with: {escape(resume)}")
