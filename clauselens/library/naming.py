"""Names in a question, once its agreement is known: which words only say *which* agreement
(left out of the ranking query: a party name repeated in the question pulls every clause that
repeats it -- the paraphrase levers measured on the dev set, docs/BENCHMARKS.md), and a name one
agreement alone holds settling an uncertain resolution. A mixin of
:class:`clauselens.library.library.Library` (it reads ``agreements()``, ``catalogue``,
``lexical`` and ``analyzer``)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from clauselens.library.catalogue import AgreementRecord, join_initialisms, naming_words, party_words, profile_front, question_names
from clauselens.library.parts import LibraryParts
from clauselens.library.resolver import MAX_AMBIGUOUS, UNCERTAIN_TOP, Resolution

#: A capitalised word of a question held by at most this share of the library's resolution
#: profiles (and by the resolved agreement's) names that agreement, not what is asked: left out
#: of the ranking query with the parties' names. 1 %: a party or person named in a handful of
#: agreements ("CPM": 7 of 462); at 10 agreements, only a name no other agreement has.
NAME_MAX_SHARE = 0.01
#: A question's capitalised word names an agreement as a party (:meth:`AgreementNames._party_holders`) only when at
#: most this share of the library's resolution profiles hold it (at least :data:`NAMED_MIN_HOLDERS`, so in a small
#: library only a name no other profile holds): "CPM" (7 of 462, the party of one) passes, "Acquisition" and
#: "Parent" (most merger agreements) do not.
NAMED_MAX_SHARE = 0.02
NAMED_MIN_HOLDERS = 1
#: A lower-case word of four letters or more: a party's name typed without its capital, when the party index holds it.
#: Company forms that say nothing about which company (left out when a name's words are looked up).
_COMPANY_FORMS = frozenset("inc inc. incorporated llc ltd ltd. limited corp corp. corporation co co. company plc lp llp".split())
#: Adjacent capitalised words ("Acme Widgets", "Blue Ridge Foods Inc.").
_CAPITALISED_RUN = re.compile(r"(?<![\w&])[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)+")
_LOWER_WORD = re.compile(r"(?<![\w.&'-])([a-z][a-z0-9&]{3,})(?![\w&])")


class AgreementNames(LibraryParts):
    """The naming-word and named-agreement checks of the library (see the module docstring)."""

    def _name_holders(self, name: str, copies: Collection[str] = ()) -> set[str]:
        """The agreements whose resolution profile holds the (first analysed token of) ``name``."""
        toks = self.analyzer.tokenize(name)
        if not toks:
            return set()
        return {d for d, s in self.lexical.profile_scores(toks[:1]).items() if s > 0 and d not in copies}

    def _front_holds(self, doc_id: str, name: str) -> bool:
        """Whether ``doc_id``'s title, parties or preamble (:func:`profile_front`) hold ``name`` as a word."""
        pattern = re.compile(rf"(?<!\w){re.escape(name.lower())}(?!\w)")
        return bool(pattern.search(profile_front(self.catalogue.profile(doc_id)).lower()))

    def _naming_index(self) -> dict[str, set[str]]:
        """Word -> the agreements whose record holds it among its parties and short names
        (:func:`party_words`), rebuilt when the catalogue changes."""
        gen = self.catalogue.generation()
        if getattr(self, "_naming_gen", None) != gen or getattr(self, "_naming_map", None) is None:
            index: dict[str, set[str]] = {}
            for r in self.agreements():
                for w in party_words(r):
                    index.setdefault(w, set()).add(r.doc_id)
            self._naming_map, self._naming_gen = index, gen
        return self._naming_map

    def _party_holders(self, name: str, copies: Collection[str], recs: dict[str, AgreementRecord],
                       typed_lower: bool = False) -> tuple[set[str], set[str]]:
        """The agreements that name ``name`` as a party -- a word of their record's parties or short
        names, or, for a record the parser left without parties, of its title, parties or preamble
        (:func:`profile_front`) -- and the agreements whose resolution profile holds it at all. A name a
        clause only mentions ("CPM" pricing in an advertising agreement, a "Signature Page") names no
        agreement; nor does a word many agreements use, unless every agreement that uses it names it as a
        party (an agreement and its amendments in a small library). A name the question typed without its
        capital (``typed_lower``) must pass that stricter test whatever its share: "green" names no agreement
        that another profile mentions it in."""
        out = {d for d in self._naming_index().get(name.lower().strip(".'"), ()) if d not in copies}
        if len(out) > MAX_AMBIGUOUS:
            return set(), set()  # a word of many parties' names ("services") points to no few agreements: not read further
        in_profiles = self._name_holders(name, copies)
        strict = typed_lower or len(in_profiles) > max(NAMED_MIN_HOLDERS, int(NAMED_MAX_SHARE * len(recs)))
        if strict and len(in_profiles) > MAX_AMBIGUOUS:
            return set(), in_profiles  # more agreements use it than a name may point to
        for d in in_profiles:
            rec = recs.get(d)
            if rec is None or d in out:
                continue
            if (not rec.parties and self._front_holds(d, name)) or (len(in_profiles) == 1 and self._names_party(d, name, recs)):
                out.add(d)  # where the agreement names its parties; or a word of its title no other profile holds
        if strict and not in_profiles <= out:
            return set(), in_profiles  # "Acquisition", "Parent", the "Signature" of a signature page
        return out, in_profiles

    def _named_alone(self, question: str, res: Resolution, copies: dict[str, str],
                     allowed: Collection[str] | None = None) -> Resolution:
        """A resolution settled by the parties the question names. Its capitalised words, and its lower-case words
        that are a party's (:meth:`_party_holders`; "can equidata walk away?"), each point to the one to
        :data:`MAX_AMBIGUOUS` agreements that name them as a party; when the agreements every such name points to
        agree, those are searched -- alone (resolved) or together (ambiguous: an agreement and its amendment) --
        instead of an uncertain, tied or unnamed reading ("Can Equidata put its prices up on the credit-report
        reseller?": the generic words score four reseller agreements near the one whose party is Equidata), and
        instead of an agreement the profile scores chose on the question's other words ("Is CPM the only company
        allowed to sell Signature's hip and knee implants?": an implant development agreement outscored the
        distributorship between Signature Orthopaedics and CPM). Not when another of the likeliest agreements'
        profiles holds one of those names too, nor outside ``allowed``; and lower-case words alone never overturn an
        agreement the profile scores chose ("does the hosting agreement cover medical records?" keeps the hosting
        agreement, whoever's name holds "medical"). Initials joined by "&" are one name however spaced
        (:func:`join_initialisms`)."""
        text = join_initialisms(question)
        names = [n for n in question_names(text) if len(n) > 1]  # "E" of "E.piphany" names nothing
        index = self._naming_index()
        lower = [w for w in dict.fromkeys(m.group(1) for m in _LOWER_WORD.finditer(text)) if w in index]
        if not names and not lower:
            return res
        recs = {r.doc_id: r for r in self.agreements()}
        named: set[str] | None = None
        profiles: set[str] = set()  # the agreements whose profiles hold a name that points to a few agreements
        capitalised = False
        for name, typed_lower in [*((n, False) for n in names), *((w, True) for w in lower)]:
            holders, in_profiles = self._party_holders(name, copies, recs, typed_lower)
            if 1 <= len(holders) <= MAX_AMBIGUOUS:
                named = holders if named is None else named & holders
                profiles |= in_profiles
                capitalised = capitalised or not typed_lower
        if not named or (allowed is not None and not named <= set(allowed)):
            return res
        if res.status == "resolved" and not capitalised:
            return res  # an ordinary lower-case word ("medical") does not overturn an agreement the question named
        if res.chosen and set(res.chosen) <= named:
            return res  # already there, or narrower
        rivals = ({d for d, _ in res.ranked[:UNCERTAIN_TOP]} | set(res.chosen)) - named
        if rivals & profiles:
            return res  # another likely agreement holds the name too (a party its record missed, "CEII" of its title)
        rank = {d: i for i, (d, _) in enumerate(res.ranked)}
        chosen = sorted(named, key=lambda d: (rank.get(d, len(rank)), d))
        return Resolution(ranked=res.ranked, chosen=chosen, status="resolved" if len(chosen) == 1 else "ambiguous")

    def _names_party(self, doc: str, name: str, recs: dict[str, AgreementRecord]) -> bool:
        """Whether ``doc``'s record names ``name`` among its parties, short names or title (where it lists no parties:
        its title, parties or preamble)."""
        rec = recs.get(doc)
        if rec is None:
            return False
        return name.lower().strip(".'") in naming_words(rec) if rec.parties else self._front_holds(doc, name)

    def _naming_words(self, question: str, docs: Sequence[str]) -> set[str]:
        """The words that only say *which* agreement ``question`` is about, once ``docs`` are
        resolved: their records' party names, short names and title words, and the question's
        capitalised words that an agreement's title, parties or preamble hold and at most
        :data:`NAME_MAX_SHARE` of the library's profiles do (a party the record missed,
        "KazakhOil"; a person the agreement names, "Ogle") -- never a word most agreements use
        ("Territory")."""
        recs = {r.doc_id: r for r in self.agreements()}
        words = set().union(*(naming_words(recs[d]) for d in docs if d in recs))
        limit = max(1, int(NAME_MAX_SHARE * len(recs)))
        for name in question_names(question):
            if name.lower() in words:
                continue
            holders = self._name_holders(name)
            if 0 < len(holders) <= limit and any(d in holders and self._front_holds(d, name) for d in docs):
                words.add(name.lower())  # named where the agreement names its parties, not in a clause ("Yahoo")
        return words

    def unknown_names(self, question: str) -> list[str]:
        """Names of two or more capitalised words the question uses that no agreement of the library holds anywhere in
        its record or resolution profile ("our NDA with Acme Widgets" asked of a library without Acme): a question
        that names no agreement of the library may name one it lacks, and the front ends say so instead of quietly
        answering from other agreements (a new user's tryout). Unknown means no one agreement holds every word of it
        (its company form -- "Inc.", "LLC" -- aside); one capitalised word alone ("Delaware", "NDA") is not read as a
        name here."""
        text = join_initialisms(question)
        names = {n for n in question_names(text) if len(n) > 1}
        index = self._naming_index()
        out: list[str] = []
        for m in _CAPITALISED_RUN.finditer(text):
            words = [w for w in m.group(0).split() if w.strip(".,'’") in names]
            if len(words) < 2 or len(words) != len(m.group(0).split()):
                continue
            bare = [w.strip(".,'’") for w in words]
            core = [w for w in bare if w.lower() not in _COMPANY_FORMS] or bare
            holders: set[str] | None = None
            for w in core:
                held = set(index.get(w.lower(), ())) | self._name_holders(w)
                holders = held if holders is None else holders & held
                if not holders:
                    break
            if not holders:  # no one agreement holds every word of the name
                out.append(" ".join(bare))
        return list(dict.fromkeys(out))
