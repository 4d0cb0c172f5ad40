"""One call from files and a question to a report: :func:`ask`, the one runner of the agents
for the CLI, the benchmarks, the chat REPL, the web UI and the MCP server. It runs the graph of :mod:`clauselens.graph`, reports progress,
and assembles the run's transcript (questions, passages with scores, drafts, decisions,
token usage and timings) for auditing; :func:`save_result` writes report + transcript.
"""

from __future__ import annotations

import platform
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Collection, Literal, Mapping, Sequence

from clauselens import __version__
from clauselens import events as ET
from clauselens.agents.resources import ModelPool, ModelsArg, ToolsArg
from clauselens.config import AgentName, ModelSettings, Settings
from clauselens.graph.builder import build_graph
from clauselens.reports.model import NO_MODEL_CALLED, NOTICE_NO_MODEL, Report, RunInfo, SourceDocument
from clauselens.reports.render import write_json, write_report
from clauselens.retrieval.ledger import GRAPH_NODE_STAGE, Ledger

#: ``progress(node, update)`` is called after each graph step with the node name
#: (``archivist``, ``interrogator``, ``researcher``, ``report``) and that node's state update.
ProgressFn = Callable[[str, dict[str, Any]], None]


@dataclass
class AskResult:
    """A finished run: the :class:`Report`, the JSON-ready ``transcript`` and the run's
    token ``ledger`` (:class:`~clauselens.retrieval.ledger.Ledger`, one entry: every LLM
    call of the run, tool-internal calls such as navindex's index scan included)."""

    report: Report
    transcript: dict[str, Any]
    ledger: Ledger | None = None


def token_usage(ledger: Ledger, agent_stages: Collection[str]) -> dict[str, Any]:
    """The run's token usage, read off its token ledger -- the one count of the run's model calls
    (issue #18): the transcript's ``token_usage`` and what the CLI prints.

    ``llm_calls``, ``input_tokens`` and ``output_tokens`` are the ledger's totals (every model
    call of the run, the tools' own calls such as navindex's index scan included; a retried
    call counts each time), ``llm_seconds`` those calls' wall time. ``output_tokens_per_s`` is the
    agents' generation speed: output tokens per second over the calls the ledger recorded under
    an agent's graph node (a stage in ``agent_stages``; a tool's own ledger forwards its calls as
    ``<tool>:<stage>``). It includes prompt reading, so it is a lower bound on decode speed;
    ``None`` without such calls or time.
    """
    totals = ledger.totals()
    calls = [c for e in ledger.entries for c in e.calls]
    agents = [c for c in calls if c.stage in agent_stages]
    out, secs = sum(c.output_tokens for c in agents), sum(c.wall_s for c in agents)
    return {
        "llm_calls": totals["llm_calls"], "input_tokens": totals["input_tokens"],
        "output_tokens": totals["output_tokens"], "llm_seconds": round(sum(c.wall_s for c in calls), 2),
        "output_tokens_per_s": round(out / secs, 2) if secs and out else None,
    }


#: Agents in the order a report's header lists their models.
AGENTS: tuple[AgentName, ...] = ("archivist", "researcher", "interrogator")


def describe_settings(ms: ModelSettings) -> str:
    """A model as a report's reader should see it: ``"qwen2.5-coder-1.5b (in-process
    llama.cpp)"`` or ``"Qwen/Qwen2.5-7B-Instruct (OpenAI-compatible server at http://...)"``."""
    if ms.backend == "openai":
        return f"{ms.model} (OpenAI-compatible server at {ms.base_url})"
    return f"{Path(ms.model).name} (in-process llama.cpp)"


def describe_model(model: Any) -> str:
    """A chat model passed in by the caller (not built from the settings): its model name
    where it has one (``model_name`` / ``model`` / ``model_path``), else its LangChain type."""
    for attr in ("model_name", "model", "model_path"):
        v = getattr(model, attr, None)
        if isinstance(v, str) and v:
            return Path(v).name if attr == "model_path" else v
    kind = getattr(model, "_llm_type", None)
    return f"{kind if isinstance(kind, str) else type(model).__name__} (supplied by the caller)"


def run_models(settings: Settings, models: ModelsArg | ModelPool, events: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Agent -> description of the model it used, for the agents that called a model in the
    run (``{NO_MODEL_CALLED: the Interrogator's model}`` when none did): the caller's model when one was passed
    in (:class:`ModelPool` or ``models``), else the agent's :class:`ModelSettings`."""
    pool = models if isinstance(models, ModelPool) else ModelPool(settings, models)
    called = {e.get("agent") for e in events if e.get("type") == ET.LLM_CALL}
    if not called:  # answered by rule (a definition, --no-reading, declined): say so, and what is configured
        given = pool.supplied("interrogator")
        return {NO_MODEL_CALLED: describe_model(given) if given is not None else describe_settings(settings.model_for("interrogator"))}
    out: dict[str, str] = {}
    for agent in AGENTS:
        if agent not in called and (called or agent == "archivist"):
            continue
        given = pool.supplied(agent)
        out[agent] = describe_model(given) if given is not None else describe_settings(settings.model_for(agent))
    return out


def clauselens_version() -> str:
    """``"0.1.0"``, with the git commit when run from a checkout (``"0.1.0 (commit 11b835c)"``,
    ``+ local changes`` when ``clauselens/`` has uncommitted changes)."""
    from clauselens.provenance import run_provenance

    prov = run_provenance([], dirty_paths=("clauselens",))
    sha = str(prov.get("clauselens_commit") or "")
    if not sha:
        return __version__
    return f"{__version__} (commit {sha[:7]}{' + local changes' if prov.get('dirty') else ''})"


def source_documents(summaries: Sequence[dict[str, Any]], report: Report) -> list[SourceDocument]:
    """The run's documents for the report's header (the Archivist's summaries, or the pinned
    library agreements); when the run had none listed (a search over a whole library), the
    documents the citations come from."""
    out = [SourceDocument(doc_id=str(d.get("doc_id") or ""), title=d.get("title"),
                          file_name=Path(str(d["source_path"])).name if d.get("source_path") else None,
                          effective_date=d.get("effective_date"), parties=list(d.get("parties") or []),
                          pages=d.get("pages") or None, year=d.get("year"), doc_type=d.get("doc_type"))
           for d in summaries]
    if not out:
        seen: dict[str, SourceDocument] = {}
        for c in report.citations:
            seen.setdefault(c.doc_id, SourceDocument(doc_id=c.doc_id, title=c.doc_title,
                                                     file_name=Path(c.source_path).name if c.source_path else None))
        out = list(seen.values())
    return out


#: Draft fields shown while a draft is written, the first non-empty one (the answer once it starts).
DRAFT_FIELDS = ("answer", "topic_summary", "title")
#: Seconds between two draft-text progress calls (a token arrives every ~0.1 s on this CPU).
DRAFT_TEXT_INTERVAL_S = 0.5


class DraftWatcher:
    """Turns the model's tokens (LangGraph ``stream_mode="messages"``: ``(chunk, metadata)``
    per token) into ``progress("draft_text", {"text", "field"})`` calls while a report draft is
    written: the tokens of each call are joined and read as partial JSON
    (``langchain_core.utils.json.parse_partial_json``); a call whose object has a draft field
    (:data:`DRAFT_FIELDS`) is a draft, and its answer so far (or topic summary, or title) is
    passed on at most every :data:`DRAFT_TEXT_INTERVAL_S` seconds and once more when it ends.
    Other calls (plans, stop decisions, support verdicts) show nothing."""

    def __init__(self, progress: ProgressFn) -> None:
        self.progress = progress
        self.text: dict[str, str] = {}
        self.shown: dict[str, str] = {}
        self.last = 0.0

    def feed(self, chunk: Any, metadata: Mapping[str, Any] | None = None) -> None:
        """One streamed token (a message chunk) of any model call in the graph."""
        from langchain_core.utils.json import parse_partial_json

        key = str(getattr(chunk, "id", None) or (metadata or {}).get("langgraph_checkpoint_ns", ""))
        piece = chunk.content if isinstance(getattr(chunk, "content", None), str) else ""
        self.text[key] = self.text.get(key, "") + piece
        done = not piece and bool(getattr(chunk, "usage_metadata", None))  # the call's last chunk
        now = time.perf_counter()
        if not done and now - self.last < DRAFT_TEXT_INTERVAL_S:
            return
        try:
            obj = parse_partial_json(self.text[key])
        except Exception:  # not JSON (yet): nothing to show
            return
        if not isinstance(obj, dict):
            return
        field = next((f for f in DRAFT_FIELDS if isinstance(obj.get(f), str) and obj[f].strip()), None)
        if field is None or self.shown.get(key) == obj[field]:
            return
        self.last, self.shown[key] = now, obj[field]
        self.progress(ET.DRAFT_TEXT, {"text": obj[field], "field": field})


def ask(
    paths: Sequence[str | Path],
    question: str,
    settings: Settings,
    *,
    context: str | None = None,
    progress: ProgressFn | None = None,
    mode: Literal["report", "nli"] = "report",
    max_turns: int | None = None,
    models: ModelsArg | ModelPool = None,
    tools: ToolsArg = None,
    checkpointer: Any | None = None,
    thread_id: str | None = None,
    documents: Sequence[dict[str, Any]] | None = None,
    left_out: Sequence[str] = (),
) -> AskResult:
    """Answer ``question`` about the files in ``paths``.

    ``paths`` may be empty only when ``tools`` are passed already indexed; ``documents`` are
    then the summaries (``doc_id``, ``title``, ``source_path``, ...) of what they index, for the
    Researcher (several documents: agreement-prefixed queries) and the transcript, and
    ``left_out`` one message per file the caller could not read (listed in the report as
    files left out, as the Archivist's own failures are when it reads ``paths``). ``max_turns``
    overrides ``settings.max_turns``; ``models``/``tools``/``checkpointer`` are passed to
    :func:`clauselens.graph.build_graph`. Raises the project's ``ClauselensError`` s
    (``IngestError``, ``ModelUnavailableError``, ``ModelResponseError``, ``ConfigError``,
    ``RetrievalError``); a question that nothing answers is not an error (the report says so).
    """
    from clauselens.errors import ConfigError, IngestError

    if not question or not question.strip():
        raise ConfigError("the question is empty")
    if not paths and tools is None:
        raise IngestError("(none)", "no files given")
    turns = max_turns if max_turns is not None else settings.max_turns
    if turns < 1:
        raise ConfigError(f"max turns must be at least 1 (got {turns})")
    graph = build_graph(settings, models=models, tools=tools, checkpointer=checkpointer)
    inputs: dict[str, Any] = {"question": question.strip(), "paths": [str(p) for p in paths], "context": context,
                              "mode": mode, "max_turns": turns}
    if documents:
        inputs["documents"] = [dict(d) for d in documents]
    if left_out:
        inputs["left_out"] = list(left_out)
    config: dict[str, Any] = {"recursion_limit": 4 * turns + 10}
    tid = thread_id or uuid.uuid4().hex
    if checkpointer is not None:
        config["configurable"] = {"thread_id": tid}
    t0 = time.perf_counter()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    tool_names = sorted(tools) if tools is not None else list(settings.retrieval.tools)
    ledger = Ledger(run_info={"question": question, "started_utc": started, "thread_id": tid,
                              "tools": tool_names, "mode": mode})
    entry = ledger.start(tid, "+".join(tool_names))
    final: dict[str, Any] = {}
    watcher = DraftWatcher(progress) if progress is not None else None
    modes = ["updates", "values", "messages"] if watcher is not None else ["updates", "values"]
    with ledger.recording(entry, GRAPH_NODE_STAGE):
        for chunk in graph.stream(inputs, config=config, stream_mode=modes):
            kind, data = chunk
            if kind == "values":
                final = data
            elif kind == "messages":
                if watcher is not None:
                    watcher.feed(*data)
            elif progress is not None:
                for node, upd in data.items():
                    progress(node, upd or {})
    wall = time.perf_counter() - t0
    report = Report.model_validate(final["report"])
    events = list(final.get("events") or [])
    report.run = RunInfo(generated_utc=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                         clauselens_version=clauselens_version(), models=run_models(settings, models, events),
                         documents=source_documents(final.get("documents") or [], report))
    if NO_MODEL_CALLED in report.run.models:  # answered by rule: the notice says no model wrote it
        report.notice = NOTICE_NO_MODEL
    drafts = [e for e in events if e.get("type") == ET.LLM_CALL and e.get("step") == "draft"]
    if drafts:  # the answering context: what the call that wrote the final draft read
        entry.answering_context_tokens = int(drafts[-1].get("usage", {}).get("input_tokens", 0))
    transcript = {
        "clauselens_version": __version__, "thread_id": tid, "started_utc": started,
        "wall_seconds": round(wall, 2), "python": platform.python_version(),
        "question": question, "context": context, "mode": mode, "max_turns": turns,
        "models": {a: settings.model_for(a).model_dump(mode="json") for a in ("researcher", "interrogator")},
        "models_used": report.run.models,
        "retrieval": settings.retrieval.model_dump(mode="json"),
        "documents": final.get("documents") or [], "sub_questions": final.get("sub_questions") or [],
        "asked": final.get("asked") or [], "turns": final.get("turn"), "stop_reason": final.get("stop_reason"),
        "passages": final.get("passages") or {}, "token_usage": token_usage(ledger, agent_stages=graph.nodes),
        "ledger": ledger.totals(), "events": events,
    }
    return AskResult(report=report, transcript=transcript, ledger=ledger)


def save_result(result: AskResult, out_dir: Path, stem: str = "report") -> dict[str, Path]:
    """Write ``<stem>.md/.html/.json/.docx``, ``<stem>.transcript.json`` and (when the result has
    one) the token ledger ``<stem>.ledger.json`` into ``out_dir``."""
    paths = write_report(result.report, out_dir, stem)
    paths["transcript"] = write_json(result.transcript, out_dir / f"{stem}.transcript.json")
    if result.ledger is not None:
        paths["ledger"] = result.ledger.write(out_dir / f"{stem}.ledger.json")
    return paths


def write_run_ledger(result: AskResult, cache_dir: Path) -> Path | None:
    """Write the run's ledger to ``<cache_dir>/ledgers/<UTC start>_<thread id>.json`` (for runs
    whose report is not saved with :func:`save_result`) and return the path; ``None`` if
    the result has no ledger."""
    if result.ledger is None:
        return None
    stamp = str(result.transcript.get("started_utc", "")).replace(":", "").replace("-", "").replace("+0000", "Z")
    return result.ledger.write(Path(cache_dir) / "ledgers" / f"{stamp}_{result.transcript['thread_id']}.json")
