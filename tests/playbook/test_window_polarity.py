"""The presence head's windows that name a category only in its negated form (issue #44: a
"non-exclusive" licence scored as an exclusivity grant). Real CUAD sentences, quoted verbatim from
``legalbench-rag/corpus/cuad``."""

from __future__ import annotations

from clauselens.playbook.stack import negated_windows

NON_EXCLUSIVE = [
    "each Party hereby grants to the other Party a perpetual, irrevocable, non-exclusive, worldwide, royalty-free, fully paid-up "
    "license, transferable and sublicensable, under such Party's",
    "Miltenyi has got the right to grant non-exclusive sublicenses to third parties utilizing cytokines",
    "Subject to the terms and conditions of this Agreement, Array hereby grants to Ono a worldwide non-exclusive license under "
    "the Array Patents",
    "Sponsor will be a non-exclusive co-presenting sponsor of the Event",
    "During the term of the non-exclusive license agreement, Licensor shall receive from Licensee one third (33%)",
    "grants Distributor a NONEXCLUSIVE right to resell the Products",
]
EXCLUSIVE = [
    "MD Anderson also hereby grants to Adaptimmune Limited an exclusive option to negotiate an",
    "Subject to the terms and conditions of this Agreement, PivX hereby grants to Detto a non-transferable, exclusive license "
    "to distribute PivX's Qwik-Fix Pro",
    "AIRSOPURE hereby grants to You the exclusive right to solicit customers for the Products by direct mail advertising",
    "a non-exclusive license in the Territory and an exclusive license in Canada",  # both: the exclusive grant counts
    "Company appoints Distributor as its sole distributor in the Territory",  # no word on the stem: the head decides
]


def test_only_negated_windows_are_set_aside():
    got = negated_windows(NON_EXCLUSIVE + EXCLUSIVE, "Exclusivity")
    assert got.tolist() == [True] * len(NON_EXCLUSIVE) + [False] * len(EXCLUSIVE)


def test_categories_named_by_a_negation_or_a_short_stem_are_not_read():
    assert not negated_windows(["Licensee agrees to a non-compete covenant"], "Non-Compete").any()
    assert not negated_windows(["This Agreement is non-assignable"], "Anti-Assignment").any()
    assert not negated_windows(["no audit of the books"], "Audit Rights").any()
    assert negated_windows([], "Exclusivity").shape == (0,)
