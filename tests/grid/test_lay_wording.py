"""Grid rules on everyday wording (issue #45, the blind grid set): a yes/no question whose words are not
the contract's is not answered "No" just because no sentence uses them, a question with contract
vocabulary still is when the agreement lacks the topic, and a party question about one party's role is not
answered with the list of parties."""

from __future__ import annotations

from pathlib import Path

from clauselens.agents.archivist import load_one
from clauselens.config import Settings
from clauselens.grid.extract import contract_vocabulary, term_hits, topic_groups
from clauselens.grid.rule import asks_all_parties
from clauselens.grid.yes_no import read_yes_no
from clauselens.parsing.chunks import build_chunks

PDF = Path(__file__).resolve().parents[2] / "examples" / "contracts" / "driven_deliveries_consulting_agreement.pdf"


def _texts() -> list[str]:
    doc = load_one(PDF, Settings(use_store=False))
    return [c.text for c in build_chunks(doc)]


def test_everyday_words_alone_prove_no_absence() -> None:
    q = "Can someone just bail whenever they like?"
    assert not contract_vocabulary(topic_groups(q))
    assert read_yes_no(q, _texts()).answer != "No"  # either party may terminate on 30 days' notice (7.2)


def test_contract_vocabulary_decides_the_topic_and_its_absence_says_no() -> None:
    q = "Is insurance required?"
    assert [g.name for g in contract_vocabulary(topic_groups(q))] == ["insur"]
    groups = topic_groups(q)
    texts = [t for t in _texts() if "insur" not in term_hits(groups, t)]
    assert len(texts) > 10
    r = read_yes_no(q, texts)  # the agreement's clauses that use none of the insurance wording: nothing on topic
    assert r.answer == "No" and not r.on_topic


def test_party_questions_list_or_role() -> None:
    assert asks_all_parties("Who are the parties to this agreement?")
    assert asks_all_parties("Which companies signed this?")
    assert not asks_all_parties("Which side is providing the goods, services or rights?")
    assert not asks_all_parties("Who is the licensor?")
