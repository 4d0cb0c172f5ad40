"""The playbook format (issue #44): a firm's standard positions, in YAML, validated with pydantic.

A playbook is a mapping::

    name: Mutual NDA -- standard positions
    sources: [ ... where the positions come from ... ]
    unclear_margin: 1.0          # optional: one presence-head band (log-odds) read as "unclear";
                                 # default: each category's calibrated band
    positions:
      - id: governing_law
        topic: Which law governs the agreement?
        category: Governing Law  # optional: a CUAD v1 category (the presence head decides presence)
        require: {governing_law_in: [New York, Delaware]}
        severity: high           # low / medium / high / critical
        preferred: "This Agreement is governed by the laws of the State of New York."  # optional
        value_near: [govern, laws of]   # optional: words a value must stand near in the clause
        terms: [govern, laws of]        # optional: topic words (without a category: how the clause is found)
        note: why the firm takes this position   # optional
        party: any               # optional: whose obligation (or right) the position is about:
                                 # us / counterparty / both / any (default: parties not checked)

A playbook may name the roles "we" take in its kind of agreement (``our_side: [Customer, Buyer]``):
"us" is then the party whose defined term is one of them, unless the review names our party
(``clauselens review --our-party NAME``). With a ``party``, the review checks the party the quoted
sentence binds (:mod:`clauselens.playbook.parties`): a non-compete that binds only the other side
is compliant with "we must not be restricted" (``absent``, ``party: us``); an assignment clause that
restricts one party only is a deviation from ``consent_required`` with ``party: both``.

``require`` is one of (a string, or a mapping of one rule to its parameter):

* ``present`` / ``absent`` -- the clause must / must not be in the agreement;
* ``{governing_law_in: [..]}`` -- the governing law is one of these jurisdictions
  (:data:`clauselens.grid.values.JURISDICTIONS` spellings);
* ``{period_at_most: "30 days"}`` / ``{period_at_least: "12 months"}`` -- the clause's period
  (notice, term, renewal term, survival ...) compared in days (:mod:`clauselens.grid.values`);
* ``{cap_months_of_fees_at_least: 12}`` -- a liability cap stated as fees paid over at least N months;
* ``consent_required`` -- e.g. assignment only with the other party's consent.

:func:`load_playbook` reads a file and raises :class:`~clauselens.errors.ConfigError` naming the
file and the line of the offending entry (YAML's node marks), one message, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from clauselens.errors import ConfigError
from clauselens.grid.values import JURISDICTIONS, Period, durations_in, jurisdictions_in

Severity = Literal["low", "medium", "high", "critical"]
PartyKind = Literal["any", "us", "counterparty", "both"]
RuleKind = Literal["present", "absent", "governing_law_in", "period_at_most", "period_at_least",
                   "cap_months_of_fees_at_least", "consent_required"]
#: Rules that take no parameter (written as a plain string).
PLAIN_RULES = ("present", "absent", "consent_required")
#: Rules with one parameter (written as ``{rule: parameter}``).
VALUE_RULES = ("governing_law_in", "period_at_most", "period_at_least", "cap_months_of_fees_at_least")
#: CUAD v1's 41 clause categories (``master_clauses.csv`` column names; the presence head's categories).
CUAD_CATEGORIES: tuple[str, ...] = (
    "Document Name", "Parties", "Agreement Date", "Effective Date", "Expiration Date", "Renewal Term",
    "Notice Period To Terminate Renewal", "Governing Law", "Most Favored Nation", "Competitive Restriction Exception",
    "Non-Compete", "Exclusivity", "No-Solicit Of Customers", "No-Solicit Of Employees", "Non-Disparagement",
    "Termination For Convenience", "Rofr/Rofo/Rofn", "Change Of Control", "Anti-Assignment", "Revenue/Profit Sharing",
    "Price Restrictions", "Minimum Commitment", "Volume Restriction", "Ip Ownership Assignment", "Joint Ip Ownership",
    "License Grant", "Non-Transferable License", "Affiliate License-Licensor", "Affiliate License-Licensee",
    "Unlimited/All-You-Can-Eat-License", "Irrevocable Or Perpetual License", "Source Code Escrow",
    "Post-Termination Services", "Audit Rights", "Uncapped Liability", "Cap On Liability", "Liquidated Damages",
    "Warranty Duration", "Insurance", "Covenant Not To Sue", "Third Party Beneficiary")
_CATEGORY_BY_KEY = {c.lower(): c for c in CUAD_CATEGORIES}


class Requirement(BaseModel):
    """What a position requires: a rule and, for the value rules, its parameter."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: RuleKind
    allowed: tuple[str, ...] = ()  # governing_law_in: canonical jurisdiction names
    period: Period | None = None  # period_at_most / period_at_least
    months: float | None = None  # cap_months_of_fees_at_least

    @property
    def needs_clause(self) -> bool:
        """Compliance needs a quoted clause (every rule but ``absent``)."""
        return self.rule != "absent"

    def describe(self) -> str:
        """The rule in words (what the report says decided)."""
        if self.rule == "governing_law_in":
            return f"governing law is one of: {', '.join(self.allowed)}"
        if self.rule == "period_at_most":
            return f"period at most {self.period}"
        if self.rule == "period_at_least":
            return f"period at least {self.period}"
        if self.rule == "cap_months_of_fees_at_least":
            return f"liability cap at least {self.months:g} months of fees"
        return {"present": "clause present", "absent": "clause absent",
                "consent_required": "only with the other party's consent"}[self.rule]


def parse_requirement(v: object) -> Requirement:
    """A :class:`Requirement` from the YAML short forms (see the module docstring); ValueError on a bad one."""
    if isinstance(v, Requirement):
        return v
    if isinstance(v, str):
        rule = v.strip().lower().replace("-", "_").replace(" ", "_")
        if rule in PLAIN_RULES:
            return Requirement(rule=rule)  # type: ignore[arg-type]
        if rule in VALUE_RULES:
            raise ValueError(f"rule '{rule}' needs a value, e.g. {{{rule}: ...}}")
        raise ValueError(f"unknown rule '{v}'; rules: {', '.join(PLAIN_RULES + VALUE_RULES)}")
    if not isinstance(v, dict) or len(v) != 1:
        raise ValueError("require must be a rule name or a mapping of one rule to its value, e.g. {period_at_most: 30 days}")
    (rule, arg), = v.items()
    rule = str(rule).strip().lower()
    if rule in PLAIN_RULES:
        return Requirement(rule=rule)  # type: ignore[arg-type]
    if rule == "governing_law_in":
        names = [arg] if isinstance(arg, str) else arg
        if not isinstance(names, list) or not names:
            raise ValueError("governing_law_in needs a list of jurisdictions")
        canon: list[str] = []
        for n in names:
            found = jurisdictions_in(str(n))
            if not found:
                raise ValueError(f"unknown jurisdiction '{n}' (known: US states, Canadian provinces, countries such as "
                                 f"{', '.join(JURISDICTIONS[:3])} ...)")
            canon += sorted(found)
        return Requirement(rule="governing_law_in", allowed=tuple(dict.fromkeys(canon)))
    if rule in ("period_at_most", "period_at_least"):
        periods = durations_in(str(arg))
        if len(periods) != 1:
            raise ValueError(f"{rule} needs one period such as '30 days' or '2 years' (got {arg!r})")
        return Requirement(rule=rule, period=periods[0])  # type: ignore[arg-type]
    if rule == "cap_months_of_fees_at_least":
        if isinstance(arg, bool) or not isinstance(arg, (int, float)) or arg <= 0:
            raise ValueError(f"cap_months_of_fees_at_least needs a positive number of months (got {arg!r})")
        return Requirement(rule="cap_months_of_fees_at_least", months=float(arg))
    raise ValueError(f"unknown rule '{rule}'; rules: {', '.join(PLAIN_RULES + VALUE_RULES)}")


class Position(BaseModel):
    """One standard position of the playbook (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.-]+$")
    topic: str = Field(min_length=3)
    category: str = ""
    require: Requirement
    severity: Severity = "medium"
    preferred: str = ""
    value_near: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list)
    note: str = ""
    party: PartyKind = "any"

    @field_validator("party", mode="before")
    @classmethod
    def _party(cls, v: object) -> object:
        if isinstance(v, str):
            w = v.strip().lower().replace("-", "").replace(" ", "")
            return {"we": "us", "our": "us", "ours": "us", "them": "counterparty", "other": "counterparty",
                    "otherparty": "counterparty", "mutual": "both", "each": "both", "either": "both"}.get(w, w)
        return v

    @field_validator("require", mode="before")
    @classmethod
    def _require(cls, v: object) -> Requirement:
        return parse_requirement(v)

    @field_validator("category")
    @classmethod
    def _category(cls, v: str) -> str:
        if not v.strip():
            return ""
        c = _CATEGORY_BY_KEY.get(v.strip().lower())
        if c is None:
            raise ValueError(f"'{v}' is not a CUAD category (e.g. Anti-Assignment, Cap On Liability, Governing Law)")
        return c

    @field_validator("value_near", "terms", mode="before")
    @classmethod
    def _words(cls, v: object) -> object:
        if isinstance(v, str):
            v = v.split(";")
        return [" ".join(str(t).lower().split()) for t in v if str(t).strip()] if isinstance(v, list) else v

    @field_validator("severity", mode="before")
    @classmethod
    def _severity(cls, v: object) -> object:
        return v.strip().lower() if isinstance(v, str) else v


class Playbook(BaseModel):
    """A named list of positions, with the sources they were written from."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    description: str = ""
    sources: list[str] = Field(default_factory=list)
    #: Presence-head scores within this many log-odds of the category's threshold are "unclear"
    #: (None: each category's calibrated band, :mod:`clauselens.playbook.calibrate`).
    unclear_margin: float | None = Field(default=None, ge=0.0, le=10.0)
    #: The defined terms "we" go by in this kind of agreement ("Customer", "Buyer"): how "us" is
    #: found among an agreement's parties when the review names no ``--our-party``.
    our_side: list[str] = Field(default_factory=list)
    positions: list[Position] = Field(min_length=1)
    path: str = ""

    @model_validator(mode="after")
    def _unique(self) -> "Playbook":
        seen: set[str] = set()
        for p in self.positions:
            if p.id in seen:
                raise ValueError(f"position ids must be unique; repeated: {p.id}")
            seen.add(p.id)
        return self


# ------------------------------------------------------------------------------------ loading
def _line_of(node: Any, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the YAML node at ``loc`` (pydantic's error location), as deep as it goes."""
    import yaml

    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if getattr(k, "value", None) == str(part)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            nxt = node.value[part]
        else:
            nxt = None
        if nxt is None:
            break
        node, line = nxt, nxt.start_mark.line + 1
    return line


def parse_playbook(text: str, source: str = "playbook") -> Playbook:
    """A :class:`Playbook` from YAML ``text``; :class:`ConfigError` "<source>, line N: ..." on any problem."""
    import yaml

    try:
        root = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f", line {mark.line + 1}" if mark is not None else ""
        ctx = e.context_mark
        opened = f"; {e.context} on line {ctx.line + 1}" if e.context and ctx is not None and ctx is not mark and \
            ctx.line != getattr(mark, "line", None) else ""
        raise ConfigError(f"{source}{where}: not valid YAML ({e.problem or e.context}{opened})") from None
    except yaml.YAMLError as e:
        raise ConfigError(f"{source}: not valid YAML ({e})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{source}, line 1: a playbook is a mapping with 'name' and 'positions' (got "
                          f"{type(data).__name__ if data is not None else 'an empty file'})")
    try:
        return Playbook.model_validate({**data, "path": source})
    except ValidationError as e:
        er = e.errors()[0]
        loc = tuple(x for x in er["loc"] if x not in ("function-after[_unique()]",))
        line = _line_of(root, loc)
        what = ".".join(str(x) for x in loc) or "playbook"
        if len(loc) >= 2 and loc[0] == "positions" and isinstance(loc[1], int):
            item = (data.get("positions") or [{}])[loc[1]]
            pid = item.get("id") if isinstance(item, dict) else None
            rest = ".".join(str(x) for x in loc[2:])
            what = f"position {loc[1] + 1}" + (f" ({pid})" if pid else "") + (f", {rest}" if rest else "")
        msg = str(er["msg"]).removeprefix("Value error, ")
        more = f" (and {len(e.errors()) - 1} more problem(s))" if len(e.errors()) > 1 else ""
        raise ConfigError(f"{source}{f', line {line}' if line else ''}: {what}: {msg}{more}") from None


def load_playbook(path: str | Path) -> Playbook:
    """Read and validate a playbook file (see :func:`parse_playbook`)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ConfigError(f"playbook not found: {p}" if not p.exists() else f"playbook is not a file: {p}")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read playbook {p}: {e}") from None
    return parse_playbook(text, str(p))


__all__ = ["CUAD_CATEGORIES", "PartyKind", "Playbook", "Position", "Requirement", "Severity", "load_playbook", "parse_playbook",
           "parse_requirement"]
