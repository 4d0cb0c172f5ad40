"""Grid questions: one column of the review table each.

A question has an ``id`` (the column key), the ``question`` the model answers, an optional
``search`` text in contract wording (what the library is searched with; the question itself
when empty) and an answer ``type``: ``yes_no``, ``date``, ``duration``, ``amount`` (money or a
percentage), ``party``, ``jurisdiction`` (a state or country: governing law, courts, venue) or
``text``. Load them from YAML (a list of mappings, or ``{questions: [...]}``) or CSV (header
``id,question,type[,search][,terms]``), or use the built-in ``cuad`` preset (:data:`CUAD`).

``terms`` (optional; a list, or one string separated by ``;``) are the words a quote must use to
be about the question's topic: each is a word *prefix* ("exclusiv" matches "exclusive" and
"exclusively"; "first refusal" matches the phrase). A cell whose verified quote, widened to its
sentence, contains none of them is not shown as answered (:func:`clauselens.grid.answer.topic_check`):
a small model answers "Yes" and copies a sentence that is verbatim but about something else
(an exclusivity cell citing the governing-law clause). A question without terms gets them
derived from its own words (:func:`clauselens.grid.topic.derive_terms`, issue #45).

The CUAD preset has one question per category of CUAD v1's 41 clause categories. Each was
written from the category's *description* in CUAD's own ``CUAD_v1_README.txt`` ("Category
List"), never from the annotated clauses; the ``search`` texts restate the description in the
words contracts use. ``benchmarks/cuad_grid.py`` tunes them on a named subset of contracts and
reports on the rest.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from clauselens.errors import ConfigError
from clauselens.retrieval.shorthand import expand

AnswerType = Literal["yes_no", "date", "duration", "amount", "party", "jurisdiction", "text"]
ANSWER_TYPES: tuple[str, ...] = ("yes_no", "date", "duration", "amount", "party", "jurisdiction", "text")
_TYPE_ALIASES = {"yes/no": "yes_no", "yesno": "yes_no", "bool": "yes_no", "boolean": "yes_no", "free text": "text",
                 "string": "text", "money": "amount", "period": "duration", "parties": "party",
                 "law": "jurisdiction", "governing law": "jurisdiction", "governing_law": "jurisdiction", "place": "jurisdiction",
                 "percentage": "amount", "percent": "amount"}


def split_terms(v: str | list | tuple) -> list[str]:
    """Topic terms from a list or a ``;``-separated string: lower-cased, whitespace collapsed."""
    items = v.split(";") if isinstance(v, str) else v
    return [" ".join(str(t).lower().split()) for t in items if str(t).strip()]


_AFTER_THE_QUESTION = re.compile(r"\?\s+[^?\s][^?]*[.!]\s*$")  # a statement after it, not "... or them ours? any secrecy rules in here"


class GridQuestion(BaseModel):
    """One column of the grid (see the module docstring)."""

    id: str = Field(min_length=1, max_length=80)
    question: str = Field(min_length=3)
    type: AnswerType = "text"
    search: str = ""
    #: Where the question comes from (e.g. the CUAD category name); shown in exports.
    category: str = ""
    #: The answer usually sits in the preamble (title, parties, the agreement's date): the
    #: agreement's first passages are read first (:func:`clauselens.grid.answer.retrieve`).
    front_matter: bool = False
    #: Word prefixes a supporting quote uses (see the module docstring); empty: not checked.
    terms: list[str] = Field(default_factory=list)
    #: The question as the user typed it, when its business shorthand was written out in ``question``
    #: ("assign w/o consent? y/n pls"; :func:`clauselens.retrieval.shorthand.expand`); empty otherwise.
    written: str = ""

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: object) -> object:
        if isinstance(data, dict) and isinstance(data.get("question"), str) and not data.get("written"):
            # a remark after the question is the user's context, not what is asked ("Can either party terminate early for convenience,
            # on notice and without cause? It affects how we treat the commitment.": a keyed dev set required "affect" and "treat")
            full = _AFTER_THE_QUESTION.sub("?", expand(data["question"]))
            if full != data["question"]:
                return {**data, "question": full, "written": data["question"]}
        return data

    @field_validator("terms", mode="before")
    @classmethod
    def _terms(cls, v: object) -> object:
        return split_terms(v) if isinstance(v, (str, list, tuple)) else v

    @field_validator("type", mode="before")
    @classmethod
    def _type(cls, v: object) -> object:
        if isinstance(v, str):
            k = v.strip().lower().replace("-", "_")
            return _TYPE_ALIASES.get(k, k) if k else "text"
        return v

    @property
    def shown(self) -> str:
        """The question as the user typed it (for tables and exports)."""
        return self.written or self.question

    @property
    def search_text(self) -> str:
        """What the library is searched with."""
        return self.search.strip() or self.question


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:60] or "q"


def _validate(rows: list[dict], source: str) -> list[GridQuestion]:
    out: list[GridQuestion] = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise ConfigError(f"{source}: question {i} is not a mapping (expected id, question, type)")
        row = {str(k).strip().lower(): v for k, v in row.items() if k is not None}
        if not row.get("question") and row.get("text"):
            row["question"] = row.pop("text")
        if not row.get("id") and row.get("question"):
            row["id"] = _slug(str(row["question"]))
        try:
            out.append(GridQuestion.model_validate({k: v for k, v in row.items() if v not in (None, "")}))
        except ValidationError as e:
            bad = "; ".join(f"{'.'.join(map(str, er['loc']))}: {er['msg']}" for er in e.errors())
            raise ConfigError(f"{source}: question {i} is invalid ({bad}); types are {', '.join(ANSWER_TYPES)}") from None
    if not out:
        raise ConfigError(f"{source}: no questions found (expected id, question, type per question)")
    dup = sorted({q.id for q in out if sum(1 for x in out if x.id == q.id) > 1})
    if dup:
        raise ConfigError(f"{source}: question ids must be unique; repeated: {', '.join(dup)}")
    return out


def parse_questions(text: str, fmt: str, source: str = "questions") -> list[GridQuestion]:
    """Questions from YAML (``fmt="yaml"``) or CSV (``fmt="csv"``) text."""
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        return _validate(rows, source)
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(f"{source}: not valid YAML ({e})") from None
    if isinstance(data, dict) and "questions" in data:
        data = data["questions"]
    if not isinstance(data, list):
        raise ConfigError(f"{source}: expected a list of questions (or a mapping with 'questions:')")
    return _validate(data, source)


def load_questions(path: str | Path) -> list[GridQuestion]:
    """Questions from a ``.yaml``/``.yml`` or ``.csv`` file. Raises :class:`ConfigError`."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ConfigError(f"questions file not found: {path}")
    suffix = p.suffix.lower()
    if suffix not in (".yaml", ".yml", ".csv"):
        raise ConfigError(f"questions file must be .yaml, .yml or .csv, not {p.name}")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read questions file {p}: {e}") from None
    return parse_questions(text, "csv" if suffix == ".csv" else "yaml", p.name)


def _q(cat: str, type_: str, question: str, search: str, front_matter: bool = False, terms: str = "") -> GridQuestion:
    return GridQuestion(id=_slug(cat), category=cat, type=type_, question=question, search=search,  # type: ignore[arg-type]
                        front_matter=front_matter, terms=terms)  # type: ignore[arg-type]


#: CUAD v1's 41 categories (names as in ``master_clauses.csv``), questions from CUAD_v1_README.txt's descriptions.
CUAD: list[GridQuestion] = [
    _q("Document Name", "text", "What is the name (title) of this contract?", "agreement title name of this agreement", front_matter=True),
    _q("Parties", "party", "Which parties signed this contract?", "by and between parties entered into agreement", front_matter=True),
    _q("Agreement Date", "date", "What is the date of this contract?", "agreement dated as of made and entered into this day of", front_matter=True),
    _q("Effective Date", "date", "On what date does this contract become effective?", "effective date shall become effective commence"),
    _q("Expiration Date", "date", "On what date does the contract's initial term expire?",
       "initial term shall expire continue in effect until years from the effective date term of this agreement"),
    _q("Renewal Term", "duration", "What is the renewal term after the initial term expires, including automatic extensions?",
       "automatically renew renewed for successive additional renewal term periods unless notice"),
    _q("Notice Period To Terminate Renewal", "duration", "What notice period is required to terminate renewal (prevent the contract from renewing)?",
       "notice of non-renewal days prior to the expiration of the then current term not to renew"),
    _q("Governing Law", "jurisdiction", "Which state's or country's law governs the interpretation of this contract?",
       "governed by and construed in accordance with the laws of the state governing law"),
    _q("Most Favored Nation", "yes_no",
       "If a third party gets better terms on the licensing or sale of the technology, goods or services, is the buyer under this contract "
       "entitled to those better terms?",
       "more favorable terms prices than those offered to any other customer most favored"),
    _q("Competitive Restriction Exception", "yes_no",
       "Are there exceptions or carve-outs to a non-compete, exclusivity or no-solicit of customers restriction?",
       "notwithstanding the foregoing restriction shall not prohibit except that non-competition exclusivity exception"),
    _q("Non-Compete", "yes_no",
       "Is a party restricted from competing with the counterparty or from operating in a certain geography, business or technology sector?",
       "shall not directly or indirectly compete engage in any business competitive with non-competition"),
    _q("Exclusivity", "yes_no",
       "Is there an exclusive dealing commitment: buying all requirements from one party, or a prohibition on selling or licensing to, or "
       "working with, third parties?",
       "exclusive exclusively shall not sell distribute license to any third party sole supplier all requirements"),
    _q("No-Solicit Of Customers", "yes_no",
       "Is a party restricted from soliciting or contracting with the counterparty's customers or partners?",
       "shall not solicit customers clients of the other party divert business non-solicitation"),
    _q("No-Solicit Of Employees", "yes_no",
       "Is a party restricted from soliciting or hiring the counterparty's employees or contractors?",
       "shall not solicit hire employ employees personnel of the other party non-solicitation"),
    _q("Non-Disparagement", "yes_no", "Is a party required not to disparage the counterparty?",
       "shall not disparage make any negative derogatory statements reputation"),
    _q("Termination For Convenience", "yes_no",
       "Can a party terminate this contract without cause, solely by giving notice?",
       "may terminate this agreement at any time without cause for convenience upon days prior written notice"),
    _q("Rofr/Rofo/Rofn", "yes_no",
       "Does a party have a right of first refusal, first offer or first negotiation to buy, license or distribute equity, technology, "
       "assets, products or services?",
       "right of first refusal right of first offer first negotiation"),
    _q("Change Of Control", "yes_no",
       "Can a party terminate, or is consent or notice required, if the other party undergoes a change of control (merger, sale of stock "
       "or of substantially all assets)?",
       "change of control merger acquisition sale of all or substantially all of its assets controlling interest"),
    _q("Anti-Assignment", "yes_no", "Is consent or notice required for a party to assign this contract to a third party?",
       "may not assign transfer this agreement without the prior written consent assignment"),
    _q("Revenue/Profit Sharing", "yes_no",
       "Is a party required to share revenue or profit with the counterparty?",
       "percentage of net sales revenue profits royalty share of revenues paid to"),
    _q("Price Restrictions", "yes_no", "Is there a restriction on a party's ability to raise or reduce prices?",
       "prices shall not increase price increase fixed prices may not change pricing"),
    _q("Minimum Commitment", "yes_no",
       "Must a party buy a minimum order size, amount or number of units per time period from the counterparty?",
       "minimum purchase order quantity commitment shall purchase at least minimum annual"),
    _q("Volume Restriction", "yes_no",
       "Is there a fee increase or consent requirement if a party's use of the products or services exceeds a threshold?",
       "in excess of exceeds the maximum number of users units volume additional fees charges overage usage limit"),
    _q("Ip Ownership Assignment", "yes_no",
       "Does intellectual property created by one party become the property of the counterparty?",
       "hereby assigns all right title and interest in intellectual property shall be the sole property of work product inventions"),
    _q("Joint Ip Ownership", "yes_no", "Do the parties jointly own any intellectual property?",
       "jointly owned joint ownership intellectual property owned jointly by the parties"),
    _q("License Grant", "yes_no", "Does one party grant a license to its counterparty?",
       "hereby grants a license right to use license grant"),
    _q("Non-Transferable License", "yes_no", "Is the licensee's ability to transfer the granted license to a third party limited?",
       "non-transferable non-assignable license may not sublicense transfer"),
    _q("Affiliate License-Licensor", "yes_no",
       "Is a license granted by the licensor's affiliates, or does it include intellectual property of the licensor's affiliates?",
       "licensor and its affiliates grant license to intellectual property owned by affiliates of licensor"),
    _q("Affiliate License-Licensee", "yes_no",
       "Is the license granted to the licensee and to the licensee's affiliates?",
       "license to licensee and its affiliates subsidiaries sublicense to affiliates"),
    _q("Unlimited/All-You-Can-Eat-License", "yes_no", "Is a party granted an enterprise, all-you-can-eat or unlimited usage license?",
       "unlimited number of copies users enterprise-wide license unlimited use"),
    _q("Irrevocable Or Perpetual License", "yes_no", "Is a license granted that is irrevocable or perpetual?",
       "perpetual irrevocable license fully paid-up"),
    _q("Source Code Escrow", "yes_no",
       "Must a party deposit its source code in escrow with a third party, for release to the counterparty on events such as bankruptcy?",
       "source code escrow agent deposit release condition"),
    _q("Post-Termination Services", "yes_no",
       "Does a party have obligations after termination or expiration, such as transition, payment, transfer, wind-down or last-buy commitments?",
       "upon termination or expiration shall continue survive transition wind-down sell-off period return"),
    _q("Audit Rights", "yes_no", "Does a party have the right to audit the counterparty's books, records or premises to check compliance?",
       "right to audit inspect books and records accounts upon reasonable notice examination"),
    _q("Uncapped Liability", "yes_no",
       "Is a party's liability uncapped for a breach of its obligations (for example for IP infringement or breach of confidentiality)?",
       "limitation of liability shall not apply to breach of confidentiality indemnification gross negligence willful misconduct"),
    _q("Cap On Liability", "yes_no",
       "Is there a cap on liability for breach: a maximum amount recoverable, or a time limit for bringing claims?",
       "in no event shall liability exceed the total amount paid aggregate liability limited to"),
    _q("Liquidated Damages", "yes_no", "Does a party get liquidated damages for breach, or a fee on termination (termination fee)?",
       "liquidated damages termination fee penalty shall pay"),
    _q("Warranty Duration", "duration", "How long does the warranty against defects or errors in the products or services last?",
       "warrants free from defects in materials and workmanship for a period of months warranty period"),
    _q("Insurance", "yes_no", "Must a party maintain insurance for the benefit of the counterparty?",
       "shall maintain insurance coverage liability insurance policy named as additional insured"),
    _q("Covenant Not To Sue", "yes_no",
       "Is a party restricted from contesting the validity of the counterparty's intellectual property or from bringing claims against it?",
       "shall not contest challenge the validity of ownership covenant not to sue bring any claim"),
    _q("Third Party Beneficiary", "yes_no",
       "Is a non-party a beneficiary of the contract who can enforce rights against a party?",
       "third party beneficiary beneficiaries no person other than the parties enforce"),
]

#: The CUAD preset's topic terms (:attr:`GridQuestion.terms`), written from the same category
#: descriptions as the questions, in the words contracts use for each topic; checked against the
#: annotated clauses of the tune split only (``benchmarks/cuad_grid.py --part topic``). Title,
#: parties and the agreement's date have none (the preamble answers them).
CUAD_TERMS: dict[str, str] = {
    "Effective Date": "effective; commence; begin; start; in force; execution; executed; date; day of; as of; entered into; made",
    "Expiration Date": "term; expir; until; terminat; continue; perpetual; year; month; period; end; through",
    "Renewal Term": "renew; extend; extension; successive; automatic; perpetual; continue; thereafter; month to month",
    "Notice Period To Terminate Renewal": "renew; extend; extension; expir; non-renewal; successive; continue; thereafter",
    "Governing Law": "govern; laws of; law of; construed; jurisdiction",
    "Most Favored Nation": "favo; better; lower; lowest; best; no less; no greater; no higher; higher; equal; comparable; same; "
                           "other customers; other clients",
    "Competitive Restriction Exception": "notwithstanding; except; exclud; provided that; provided, however; shall not prohibit; "
                                         "shall not restrict; nothing; not apply; permitted; may; not constitute; subject to; unless",
    "Non-Compete": "compet; engage; rival; similar; territor; restrict; assist; not research; not develop; not manufacture; not sell; "
                   "not market; not distribute",
    "Exclusivity": "exclusiv; sole; solely; only; requirements; not appoint; any other; competing; not license; not sell; not grant; "
                   "not enter; prohibit",
    "No-Solicit Of Customers": "solicit; customer; client; divert; interfere; entice; induce",
    "No-Solicit Of Employees": "solicit; hire; employ; recruit; personnel; entice; induce",
    "Non-Disparagement": "disparag; derogator; negative; reputation; defam; critici; harm; goodwill; adverse; impair; attack",
    "Termination For Convenience": "terminat; cancel",
    "Rofr/Rofo/Rofn": "refusal; first offer; first right; right of first; negotiat; option; offer",
    "Change Of Control": "control; merge; merger; acqui; substantially all; consolidat; reorgani; operation of law; owner; sale of; transfer",
    "Anti-Assignment": "assign; transfer; delegat; subcontract; sub-contract",
    "Revenue/Profit Sharing": "revenue; profit; royalt; percent; %; share; commission; net sales; proceeds; gross",
    "Price Restrictions": "price; pricing; rate; fee; increase; decrease; adjust; discount; charge",
    "Minimum Commitment": "minimum; at least; not less than; no less than; commit; quota; target; shortfall; guarantee; forecast",
    "Volume Restriction": "exceed; excess; threshold; maximum; limit; additional fee; overage; cap; more than; above; usage; volume; up to",
    "Ip Ownership Assignment": "assign; own; property; title; vest; belong; work made for hire; work for hire; copyright",
    "Joint Ip Ownership": "joint; co-own; both parties; in common; shared",
    "License Grant": "licen; grant; right to use; sublicen; permit",
    "Non-Transferable License": "transfer; assign; sublicen; personal",
    "Affiliate License-Licensor": "affiliat; subsidiar; parent; related compan; group compan",
    "Affiliate License-Licensee": "affiliat; subsidiar; parent; related compan; group compan",
    "Unlimited/All-You-Can-Eat-License": "unlimited; enterprise; any number; all-you-can-eat; without limit; unrestricted",
    "Irrevocable Or Perpetual License": "irrevocab; perpetu; fully paid; paid-up; paid up; indefinite",
    "Source Code Escrow": "escrow; source code; deposit",
    "Post-Termination Services": "terminat; expir; surviv; after; following; wind; transition; sell-off; sell off; return; thereafter",
    "Audit Rights": "audit; inspect; examin; books; records; access; review",
    "Uncapped Liability": "liab; limitation; unlimited; damages; indemn",
    "Cap On Liability": "liab; limit; exceed; damages; maximum; cap; in no event; aggregate; remed; no action; brought",
    "Liquidated Damages": "liquidat; damages; penalt; termination fee; break-up; breakup; early termination; reimburs; amount equal",
    "Warranty Duration": "warrant; guarant; defect; free from",
    "Insurance": "insur; coverage; polic; underwrit",
    "Covenant Not To Sue": "contest; challeng; dispute; sue; suit; claim; action; validity; attack; impair; oppose; petition; proceeding",
    "Third Party Beneficiary": "beneficiar; third part; third-part; enforce; rights",
}
CUAD = [q.model_copy(update={"terms": split_terms(CUAD_TERMS.get(q.category, ""))}) for q in CUAD]

PRESETS: dict[str, list[GridQuestion]] = {"cuad": CUAD}


def preset(name: str) -> list[GridQuestion]:
    """A built-in question set (``cuad``). Raises :class:`ConfigError` for an unknown name."""
    try:
        return [q.model_copy() for q in PRESETS[name.lower()]]
    except KeyError:
        raise ConfigError(f"unknown question preset {name!r}; available: {', '.join(PRESETS)}") from None


__all__ = ["ANSWER_TYPES", "CUAD", "GridQuestion", "load_questions", "parse_questions", "preset"]
