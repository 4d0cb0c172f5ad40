"""The support head (issue #40) and the verdict hook of ``clauselens.agents.verdicts``.

Always run: quotes are cut into whole-sentence windows the NLI head can read; with no head installed the
hook returns no verdict (one notice) and ``check_support(verdict="head")`` asks the model as before; with
``verdict="llm"`` the head is never consulted; a support head chosen for another NLI head is refused.

Run once a support head is committed (none is: the one measured passed more unsupported claims than the
1.5B; see ``clauselens.heads.support``): on a real CUAD clause (Accuray's distributor agreement, clause
12.1 Governing Law; not in train_allowed.txt) the true claim passes, a claim on another topic and the
negated claim fail, and the hook gives that verdict without a model call.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clauselens.errors import ClauselensError
from clauselens.heads import base
from clauselens.heads import support as S

# ACCURAYINC_09_01_2010-EX-10.31-DISTRIBUTOR AGREEMENT.txt, clause 12.1 (verbatim)
GOVERNING_LAW = ("12.1. Governing Law. This Agreement shall be governed by, and construed in accordance with, the laws of "
                 "the Federal Republic of Germany excluding the United Nations Convention on Contracts of International "
                 "Sale of Goods (CISG) and the provisions of German private international law.")
TRUE_CLAIM = "This Agreement is governed by the laws of the Federal Republic of Germany."
OTHER_TOPIC = "Either party may terminate this Agreement for convenience on thirty days' written notice."
NEGATED = "This Agreement is not governed by the laws of the Federal Republic of Germany."
CUAD = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "cuad" / "full_contract_txt"
needs_head = pytest.mark.skipif(not (base.head_dir(S.NAME) / S.META_FILE).is_file(),
                                reason="no support head committed (see the module docstring)")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture
def no_heads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(base, "WEIGHTS", tmp_path)
    monkeypatch.setattr(base, "_NOTICED", set())
    S.load.cache_clear()
    yield
    S.load.cache_clear()


def _report_and_passages():  # type: ignore[no-untyped-def]
    from clauselens.parsing.types import Span
    from clauselens.reports import ReportDraft, build_report
    from clauselens.reports.model import DraftFinding
    from clauselens.retrieval.types import Passage

    text = (CUAD / "DRIVENDELIVERIES,INC_05_22_2020-EX-10.4-CONSULTING AGREEMENT.txt").read_text(encoding="utf-8")
    s = text.index("4.3 Non-Solicitation.")
    e = text.index("4.4 Non-Circumvention", s)
    passages = {"P1": Passage(chunk_id="dd-4.3", doc_id="dd", node_id="n-4.3", text=text[s:e], spans=[Span(start=s, end=e)],
                              clause_ref="4.3", doc_title="DD", score=0.9)}
    draft = ReportDraft(title="t", answer="a", findings=[
        DraftFinding(statement="The Consultant will not hire away any person employed by the Company for five years "
                               "without the Company's prior written consent.", passage_ids=["P1"],
                     quote="Consultant expressly agrees that he will not, without the prior written consent of the Company")])
    r0 = build_report(draft, passages, question="q")
    assert [f.support for f in r0.key_findings] == ["unchecked"]
    return r0, passages


def test_quotes_are_cut_into_whole_sentence_windows() -> None:
    long = " ".join([GOVERNING_LAW] * 6)
    wins = S.quote_windows(long)
    assert len(wins) > 1 and all(len(w.split()) <= S.WINDOW_WORDS for w in wins)
    assert " ".join(wins) == " ".join(long.split())  # nothing lost, nothing repeated
    assert S.quote_windows(GOVERNING_LAW) == [" ".join(GOVERNING_LAW.split())]
    one_long_sentence = " ".join(f"w{i}" for i in range(150))
    pieces = S.quote_windows(one_long_sentence)
    assert pieces[0].startswith("w0 ") and pieces[-1].endswith("w149") and all(len(p.split()) <= S.WINDOW_WORDS for p in pieces)


def test_without_a_head_the_hook_asks_the_model(no_heads: None, capsys: pytest.CaptureFixture[str]) -> None:
    from clauselens.agents.verdicts import check_support, head_verdict
    from tests.fakes import ScriptedChat

    assert head_verdict(TRUE_CLAIM, GOVERNING_LAW, "head") is None
    assert head_verdict(TRUE_CLAIM, GOVERNING_LAW, "head") is None
    assert capsys.readouterr().err.count("support head not installed") == 1  # said once
    r0, passages = _report_and_passages()
    model = ScriptedChat(script={"SupportVerdict": [{"reason": "the clause says so", "verdict": "supports"}]})
    r, calls, log = check_support(r0, passages, model=model, verdict="head")
    assert len(calls) == 1 and [e["source"] for e in log] == ["model"] and r.key_findings[0].support == "supported"


def test_llm_setting_never_consults_the_head(monkeypatch: pytest.MonkeyPatch) -> None:
    from clauselens.agents.verdicts import head_verdict
    from clauselens.config import Settings

    def boom(*a, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the head must not be loaded with support_verdict=llm")

    monkeypatch.setattr(S, "load_or_none", boom)
    assert head_verdict(TRUE_CLAIM, GOVERNING_LAW, "llm") is None
    assert Settings().support_verdict == "llm"
    monkeypatch.setenv("CLAUSELENS_SUPPORT_VERDICT", "head")
    assert Settings().support_verdict == "head"


def test_support_head_chosen_for_another_nli_head_is_refused(tmp_path: Path) -> None:
    with pytest.raises(base.HeadMissingError, match="support head not installed"):
        S.load_head(tmp_path)
    (tmp_path / S.NAME).mkdir()
    (tmp_path / S.NAME / S.META_FILE).write_text(json.dumps({"threshold": 0.5, "nli_sha256": "0" * 64}))
    with pytest.raises(base.HeadMissingError, match="nli head not installed"):  # its NLI head is missing too
        S.load_head(tmp_path)


@needs_head
def test_real_cuad_clause_true_claim_passes_other_topic_and_negation_fail() -> None:
    t = S.threshold()
    assert 0.0 < t < 1.0
    assert S.support(TRUE_CLAIM, GOVERNING_LAW) >= t
    assert S.support(OTHER_TOPIC, GOVERNING_LAW) < t
    assert S.support(NEGATED, GOVERNING_LAW) < t
    with pytest.raises(ClauselensError, match="non-empty"):
        S.support("", GOVERNING_LAW)


@needs_head
def test_installed_head_gives_the_verdict_without_a_model_call(tmp_path: Path) -> None:
    from clauselens.agents.verdicts import check_support, head_verdict
    from tests.fakes import ScriptedChat

    ok = head_verdict(TRUE_CLAIM, GOVERNING_LAW, "head")
    bad = head_verdict(NEGATED, GOVERNING_LAW, "head")
    assert ok is not None and ok.verdict == "supports" and bad is not None and bad.verdict == "unrelated"
    r0, passages = _report_and_passages()
    model = ScriptedChat(script={})
    r, calls, log = check_support(r0, passages, model=model, verdict="head")
    assert calls == [] and [e["source"] for e in log] == ["head"] and "support head" in r.key_findings[0].support_note
    shutil.copytree(base.head_dir("nli"), tmp_path / "nli")
    (tmp_path / S.NAME).mkdir()
    meta = json.loads((base.head_dir(S.NAME) / S.META_FILE).read_text())
    (tmp_path / S.NAME / S.META_FILE).write_text(json.dumps({**meta, "nli_sha256": "0" * 64}))
    with pytest.raises(base.HeadChecksumError):
        S.load_head(tmp_path)
