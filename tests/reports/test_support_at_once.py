"""The "immediately / without notice" party rule (``reports.support.check_period``) judges only the claim's
sentences that say so: a right answer that gives either party's notice right in one sentence and the Company's
at-once right in the next is supported by clause 7.2 of the DRIVEN DELIVERIES consulting agreement (CUAD), and a
claim giving the at-once right to either party is still a party mismatch."""

from __future__ import annotations

from clauselens.reports.support import check_statement

CLAUSE_7_2 = ("7.2. Termination. Either Party may terminate this Agreement, with or without cause, upon giving the other "
              "party thirty (30) days prior written notice of such termination pursuant to Section 12.7 of this Agreement. "
              "The Company may terminate this Agreement immediately and without prior notice if Consultant refuses to or "
              "is unable to perform the Services or is in breach of any material provision of this Agreement.")


def test_each_party_right_in_its_own_sentence_is_supported():
    claim = ("Either party can terminate the agreement by giving the other party thirty days' written notice. The Company "
             "can terminate the agreement immediately and without notice if the Consultant refuses to or is unable to "
             "perform the Services.")
    assert check_statement(claim, CLAUSE_7_2) is None


def test_the_at_once_right_given_to_either_party_is_a_party_mismatch():
    issue = check_statement("Either party may terminate the agreement immediately and without notice.", CLAUSE_7_2)
    assert issue is not None and issue.kind == "party"
