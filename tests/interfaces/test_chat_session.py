"""Chat sessions: memory across turns, one clarifying question, restart + resume, the REPL."""

import io
import threading
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from rich.console import Console

from clauselens.agents.archivist_dialogue import DialogueExtraction, find_ambiguity
from clauselens.errors import IngestError
from clauselens.interfaces.chat import run_chat
from clauselens.interfaces.commands import build_service
from clauselens.parsing.types import DocumentSummary
from tests.fakes import ContractFakeChatModel

from .conftest import ROBUST, make_settings

CONTRACT = ROBUST / "four_clause_contract.txt"


def _quote_in_source(report, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for c in report.citations:
        assert "\n".join(text[s.start:s.end] for s in c.spans) == c.quote


def test_two_related_questions_then_restart_and_resume(tmp_path, service, fake_model):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    r1 = service.turn(sid, "How can this agreement be terminated?")
    assert r1.kind == "report"
    assert "60 days' written notice" in r1.report.answer
    _quote_in_source(r1.report, CONTRACT)
    assert any(e["type"] == "round" for e in r1.events)  # rounds were streamed

    r2 = service.turn(sid, "And which law governs it?")
    assert r2.kind == "report"
    # the follow-up was rewritten with the earlier question, and the earlier finding was in the prompt
    assert "terminated" in r2.report.question and "law" in r2.report.question
    assert "60 days' written notice" in r2.report.context  # the earlier finding reached the Interrogator
    _quote_in_source(r2.report, CONTRACT)

    # "restart": a new service object on the same SQLite file sees the same session
    again = build_service(make_settings(tmp_path), models=ContractFakeChatModel(calls=[]))
    assert again.exists(sid)
    h1 = [(type(m).__name__, m.content) for m in service.history(sid)]
    h2 = [(type(m).__name__, m.content) for m in again.history(sid)]
    assert h1 == h2 and len(h2) == 4
    assert [r.question for r in again.reports(sid)] == [r1.report.question, r2.report.question]
    # and a third turn after the restart still uses the stored documents
    r3 = again.turn(sid, "Who indemnifies the Client?")
    assert r3.kind == "report" and r3.report.citations


def test_one_clarifying_question_when_party_unknown(service):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    r1 = service.turn(sid, "What must I indemnify?")
    assert r1.kind == "clarify" and "which party are you" in r1.text.lower()
    r2 = service.turn(sid, "I am the Client")
    assert r2.kind == "report"
    assert r2.report.question == "What must I indemnify?"
    assert "Client" in (r2.report.context or "")
    msgs = service.history(sid)
    assert isinstance(msgs[1], AIMessage) and msgs[1].additional_kwargs.get("clarify")


def test_ambiguity_rules():
    a = DocumentSummary(doc_id="a", title="Supply Agreement", file_name="supply.pdf", parties=["Acme Ltd", "Beta plc"])
    b = DocumentSummary(doc_id="b", title="Licence Agreement", file_name="licence.pdf")
    amend = DocumentSummary(doc_id="c", title="First Amendment", file_name="amend.pdf", doc_type="amendment", amends=["a"])
    ex = DialogueExtraction(question="What is the notice period?")
    kind, q = find_ambiguity(ex, "What is the notice period?", ["What is the notice period?"], [a, b])
    assert kind == "document" and "Supply Agreement" in q and "Licence Agreement" in q
    assert find_ambiguity(ex, "notice period in the supply agreement?", ["x"], [a, b]) is None
    kind, q = find_ambiguity(ex, "Can we terminate early?", ["Can we terminate early?"], [a])
    assert kind == "party" and "Acme Ltd" in q and "Beta plc" in q
    assert find_ambiguity(ex, "Can we terminate early?", ["We are Acme Ltd.", "Can we terminate early?"], [a]) is None
    kind, _ = find_ambiguity(ex, "What is the notice period?", ["What is the notice period?"], [a, amend])
    assert kind == "version"
    assert find_ambiguity(ex, "What is the notice period as amended?", ["x"], [a, amend]) is None


def test_bad_file_leaves_session_usable(service):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    with pytest.raises(IngestError, match="whitespace_only.txt: no text found"):
        service.ingest(sid, [ROBUST / "whitespace_only.txt"])
    assert [d["file_name"] for d in service.documents(sid)] == ["four_clause_contract.txt"]
    assert service.turn(sid, "Which law governs this agreement?").kind == "report"


def test_model_down_then_retry(service, fake_model):
    from clauselens.errors import ModelUnavailableError

    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    fake_model.down = True
    with pytest.raises(ModelUnavailableError):
        service.turn(sid, "Which law governs this agreement?")
    assert service.pending(sid)
    fake_model.down = False
    events = list(service.retry(sid))
    assert events[-1]["type"] == "report"
    msgs = service.history(sid)
    assert [type(m).__name__ for m in msgs] == ["HumanMessage", "AIMessage"]  # the message was not lost or doubled


def test_concurrent_turns_on_one_session_do_not_interleave(service):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    errors = []

    def ask(q):
        try:
            service.turn(sid, q)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=ask, args=(q,)) for q in ("Which law governs this agreement?", "How can it be terminated?")]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert not errors
    msgs = service.history(sid)
    assert [type(m).__name__ for m in msgs] == ["HumanMessage", "AIMessage"] * 2
    assert len(service.reports(sid)) == 2


def test_repl_report_sources_quit_and_resume(tmp_path, service):
    sid = service.new_session()
    service.ingest(sid, [CONTRACT])
    buf = io.StringIO()
    lines = iter(["How can this agreement be terminated?", "/sources", "/report", "/quit"])
    run_chat(service, sid, console=Console(file=buf, width=120), input_fn=lambda _: next(lines))
    out = buf.getvalue()
    assert "Round 1" in out  # progress of the round was shown
    assert "60 days' written notice" in out
    assert "[C1] SERVICES AGREEMENT, clause 3" in out  # /sources
    assert "Cited sources" in out  # /report rendered the Markdown report
    assert f"clauselens chat --resume {sid}" in out

    again = build_service(make_settings(tmp_path), models=ContractFakeChatModel(calls=[]))
    buf2 = io.StringIO()
    run_chat(again, sid, console=Console(file=buf2, width=120), input_fn=lambda _: "/quit", resumed=True)
    out2 = buf2.getvalue()
    assert "you> How can this agreement be terminated?" in out2
    assert "resumed: 2 earlier message(s)" in out2


def test_sanitize_drops_what_the_user_never_said():
    from clauselens.agents.archivist_dialogue import sanitize_extraction

    # what the 1.5B model returned for a plain question (seen in a real run)
    q = "How can either party terminate this agreement, and how much notice is required?"
    junk = DialogueExtraction(question=q, user_context="The user is the Consultant", user_party="Driven Deliveries, Inc.",
                              instructions="length, format, focus", version="original")
    clean = sanitize_extraction(junk, [q])
    assert (clean.question, clean.user_context, clean.user_party, clean.instructions, clean.version) == (q, None, None, None, None)
    said = ["I am the Consultant. Answer briefly, in a list: can I terminate the original agreement?"]
    kept = sanitize_extraction(junk.model_copy(update={"user_party": "Consultant", "user_context": "I am the Consultant",
                                                      "instructions": "briefly, in a list"}), said)
    assert (kept.user_party, kept.user_context, kept.instructions, kept.version) == (
        "Consultant", "I am the Consultant", "briefly, in a list", "original")


def test_follow_up_not_rewritten_by_model_still_carries_finding_and_naming_a_party_is_not_claiming_it():
    from langchain_core.messages import HumanMessage

    from clauselens.agents.archivist_dialogue import archivist_dialogue
    from tests.fakes import FixedJSONChatModel

    # what the 1.5B model returned in a real run: the follow-up unchanged, and a party the user only named
    model = FixedJSONChatModel(reply={"question": "And what is the Consultant paid for work done before termination?",
                                      "user_party": "Consultant", "user_context": "The user is the Consultant"})
    conv = [HumanMessage(content="How can either party terminate?"), AIMessage(content="On 30 days' notice."),
            HumanMessage(content="And what is the Consultant paid for work done before termination?")]
    out = archivist_dialogue(model, conv, [DocumentSummary(doc_id="d", file_name="c.pdf")],
                             findings=[("How can either party terminate?", "On 30 days' notice.")])
    req = out.request
    assert req is not None and req.user_party is None
    assert "30 days' notice" in req.context and "The user is the Consultant" not in req.context


def test_add_files_continues_past_a_bad_file_and_forgets_it_once_read(service, tmp_path):
    """Issue #22: a session reads the good files, records the bad one for the reports, and drops
    that record when the file is added again and read."""
    bad = tmp_path / "later.txt"
    bad.write_text("   \n")
    sid = service.new_session()
    docs, failed = service.add_files(sid, [bad, CONTRACT])
    assert [d["file_name"] for d in docs] == [CONTRACT.name] and [str(e) for e in failed] == ["later.txt: no text found"]
    assert service.left_out(sid) == ["later.txt: no text found"]
    bad.write_text((ROBUST / "two_clause_contract.txt").read_text())
    docs, failed = service.add_files(sid, [bad])
    assert len(docs) == 2 and failed == [] and service.left_out(sid) == []
