"""Yes/no grid cells read by rule from the agreement's sentences (issue #45): the polar question read as the claim
it asks about, checked against each sentence on its topic with the negation and party checks of
:mod:`clauselens.reports.support` (the support rules of issue #19); split from :mod:`clauselens.grid.extract`, whose
topic term groups it uses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from clauselens.grid.evidence import MAY_ASK
from clauselens.grid.extract import DEFINITION, asks_convenience, contract_vocabulary, required_hits, sentences_of, term_hits, topic_groups
from clauselens.grid.roles import RECIPIENT_ROLES
from clauselens.grid.whose import ENDS_OWN, at_will, ends_agreement, names_condition, only_by_consent
from clauselens.retrieval.lay_terms import content_stems

#: A right to end it, a party's ("Theismann shall have the right to terminate", "may be terminated by Anixa"), not an end on an
#: event ("this Agreement shall terminate upon the Trust's payment ...").
_RIGHT_TO_END = re.compile(r"\b(?:may|can|(?:(?:shall|will)\s+)?(?:has|have)\s+the\s+(?:(?:sole|unilateral|absolute|unconditional)\s+)?right"
                           # "shall have the right at any time prior to December 31, 2010 to terminate this Agreement" (a tryout)
                           r"(?:,?\s+at\s+any\s+time\b[^.;]{0,50}?)?\s+to|(?:is|are|shall\s+be)\s+"
                           r"entitled\s+to|reserves?\s+the\s+right\s+to)"
                           # "ENERGOUS may, at any time after the third anniversary of the Effective Date, terminate" (a keyed dev set)
                           r"(?:,\s+(?:at\s+any\s+time|after|following|upon|during)\b[^.;,]{0,70},)?,?\s+(?:(?:in|at)\s+(?:its|their|his|her)\s+(?:sole\s+|own\s+|absolute\s+|unfettered\s+)?"
                           r"(?:(?:and\s+)?(?:sole|absolute)\s+)?(?:discretion|option|election),?\s+(?:and\s+|or\s+)?){0,2}(?:\w+\s+){0,3}?(?:be\s+)?"
                           r"(?:terminat|cancel)\w*", re.IGNORECASE)
#: Ending something other than the agreement: "QIWI may terminate its obligation under this Clause 4.1 at any time" (a tryout
#: quoted it as the "No" to "can we get out of this early?"), "may cancel any Purchase Order", "terminate the License".
_ENDS_OTHER = re.compile(r"\b(?:terminat|cancel)\w*\s+(?:its|their|his|her|the|any|such|all|an|a)\s+(?:[\w-]+\s+){0,2}?(?:obligations?|"
                         r"licen[cs]es?|(?:purchase\s+)?orders?|statements?\s+of\s+work|SOWs?|warrant\w*|options?|exclusivity|"
                         r"covenants?|restrictions?|insurance|polic(?:y|ies)|coverage)\b", re.IGNORECASE)
#: The agreement ending on an event, as what the sentence says ("This Agreement shall terminate on the expiry of the Cooperation
#: Period"), not in a condition ("unless this Agreement is terminated as provided herein prior to such date": an option's clause).
_ENDS_ON_EVENT = re.compile(r"(?<!\bunless\s)(?<!\bif\s)(?<!\bwhen\s)(?<!\buntil\s)\b[Tt]his\s+(?:[A-Z][\w-]*\s+){0,2}(?:[Aa]greement|[Cc]ontract|"
                            r"[A-Z]{2,})\s+(?:shall|will)\s+(?:\w+\s+){0,2}?(?:be\s+)?(?:terminat|expir|end)\w*")
#: A person's right to step down at any time ("Maimon shall have the right to resign at any time upon 30 days prior written
#: notice"): in a services or employment agreement, that party's way to end it at will (a new user's tryout read it as "No").
_RESIGNS = re.compile(r"\b(?:may|can|(?:shall|will)\s+have\s+the\s+right\s+to|(?:has|have)\s+the\s+right\s+to|(?:is|are|shall\s+be)\s+"
                      r"entitled\s+to)\s+resign\b(?:\s+\w+){0,4}?\s+(?:at\s+any\s+time|upon|on|by\s+giving|with)\b", re.IGNORECASE)
#: The agreement (or a party's rights or duties under it) as what is assigned or transferred: "assign this Agreement",
#: "this Agreement may not be assigned", "transfer any of its rights or obligations hereunder" (a tryout read "a different
#: meaning is explicitly assigned to the term in this IP Agreement" as a "No" to "can either party transfer the agreement?").
_ASSIGNS_AGREEMENT = re.compile(
    r"\b(?:assign|transfer|delegat|novat)\w*(?:\W+(?!(?:to|of|under|in|within|outside|pursuant|hereunder)\b)\w+){0,5}?\W+(?:this|the)\s+"
    r"(?:[A-Z][\w-]*\s+){0,3}Agreement\b"
    # the agreement as the subject, not a place ("nothing in this Agreement will serve to transfer to Distributor any patent")
    r"|(?<!\bin\sthis\s)(?<!\bin\sthe\s)(?<!\bunder\sthis\s)(?<!\bunder\sthe\s)(?<!\bby\sthis\s)(?<!\bof\sthis\s)\bAgreement\b\s*"
    r"(?:\([^)]*\)\s*)?,?\s*(?:(?:nor|or|and)\s+[^.;]{0,60}?\s+)?(?:shall|may|will|can|cannot|is|are)\s+(?:not\s+)?"
    r"(?:\w+\s+){0,2}?(?:be\s+)?(?:assign|transfer|delegat|novat)\w*"
    # its rights or duties under this agreement ("may assign its rights hereunder"), not any right ("hereby assigns to the Company his
    # entire right, title and interest in all Intellectual Property Rights", "shall be construed to assign or license any rights to DD")
    r"|\b(?:assign|transfer|delegat|novat)\w*(?:\W+\w+){0,6}?\W+(?<!monetary\s)(?<!financial\s)(?<!economic\s)(?:rights?|obligations?|duties|"
    r"interests?|benefits?)\b"  # not "assigning the monetary benefits of this Agreement" (its payments: a tryout)
    r"(?:\s+(?:and|or)\s+(?:rights?|obligations?|duties|interests?|benefits?))?\s+(?:hereunder|under\s+(?:this|the)\b|of\s+(?:this|the)\s+"
    r"(?:[A-Z][\w-]*\s+){0,3}Agreement)", re.IGNORECASE)
#: What a party is free to do unless a clause restricts it (an audit or an early exit must be granted instead).
_FREEDOM = re.compile(r"\b(?:assign\w*|transfer\w*|pass\w*|hand\w*|sell\w*|compet\w*|rivals?|work\s+with|deal\s+with|do\s+business\s+with|"
                      r"hire|hiring|poach\w*|solicit\w*|recruit\w*)\b", re.IGNORECASE)
#: A condition of another's say: "with the prior written consent", "approval", "permission", "agreed in writing".
_CONSENT = re.compile(r"\b(?:consent\w*|approv\w*|permission|authori[sz]\w*|agree(?:s|d|ing)?)\b", re.IGNORECASE)
#: A permission to assign only to a party's own group or successor: the carve-out of a rule that needs consent ("McDATA may assign
#: this Agreement to any entity controlled by ... or to any successor by merger"), not a free right to pass it on.
_CARVE_OUT = re.compile(r"\b(?:affiliates?|subsidiar\w+|successors?|merger|merges?|acquir\w+|acquisition|reorgani[sz]\w+|consolidat\w+|"
                        r"(?:all|substantially\s+all)\s+(?:of\s+)?(?:its|the|their)\s+(?:assets|business)|controlled\s+by|common\s+control|"
                        # its own group by ownership: "to any entity of which Exxon Mobil Corporation owns ... at least fifty percent"
                        r"entit(?:y|ies)\s+(?:of\s+which|in\s+which|that|which)\b[^.;]{0,60}?\b(?:owns?|controls?|holds?)\b)\b", re.IGNORECASE)
#: A free transfer in so many words: "This Agreement is fully transferable by us and will inure to the benefit of ... any other legal
#: successor to our interests" (a keyed dev set: its "successor" was read as a carve-out from a consent rule).
_FREELY = re.compile(r"\b(?:fully|freely)\s+(?:transferable|assignable)\b", re.IGNORECASE)
#: A question that names the buyer of a party's business (a keyed dev set: "pass this deal on to another business - say a buyer of the
#: company - without getting the other side's sign-off?"): the carve-out for a sale of the business is what it asks.
_BUYER_ASKED = re.compile(r"\b(?:buyers?|purchasers?|acquirers?|new\s+owners?|takes?\s+(?:it\s+|them\s+|us\s+)?over|"
                          r"(?:buys?|bought|buying)\s+(?:out\s+)?(?:the|our|their|its|us|them|one\s+of)\b|bought\s+(?:out|by))", re.IGNORECASE)
#: A term that runs "until terminated by either party giving the other ... notice" (a notice-only end, whatever follows):
#: either party's way to end it at will (Theravance's service agreement was read as "No": its sentence ends in a list).
_UNTIL_NOTICE = re.compile(r"\buntil\s+terminated\s+(?:by\s+mutual\s+agreement\s+of\s+the\s+parties(?:\s+hereto)?\s+or\s+)?"
                           r"by\s+(?:either|any|each|a)\s+"
                           r"party\s+(?:by\s+|upon\s+|on\s+|with\s+)?(?:(?:not\s+|no\s+)?less\s+than\s+|at\s+least\s+)?"
                           r"(?:(?:giving|serving|providing|"
                           r"written|prior|advance|notice)\b|(?:at\s+least\s+)?[\w-]+\s+(?:\(\d+\)\s+)?(?:days|months|weeks)['’]?\s)[^.;]{0,80}?\bnotice\b",
                           re.IGNORECASE)  # "... upon thirty (30) days' prior written notice"
#: Ending this agreement itself (not "the Service" it provides): "terminate this Agreement", "terminate the License Agreement".
_THIS_AGREEMENT = re.compile(r"\b(?:terminat|cancel)\w*\s+(?:this|the)\s+(?:[A-Z][\w-]*\s+){0,2}(?:[Aa]greement|[Cc]ontract)\b|" + ENDS_OWN.pattern)
#: Words after the action that start an adverbial, not its object.
_NO_OBJECT = frozenset("without for at upon on in by early immediately before after within during unless if when".split())
_CLAIM_SKIP = frozenset("the a an this that its their his her our your my other other's others any all such or and to from with "
                         "whole entire full complete same existing current".split())  # "hand this whole deal to another company"


#: What an asker calls the agreement itself.
_AGREEMENT_STEMS = frozenset(content_stems("agreement contract deal"))
#: The agreement, or a party's rights or duties under it, as what is assigned ("assign our rights": "assign this Agreement").
_RIGHTS_STEMS = frozenset({"agreement", *content_stems("right rights obligations duties interest")})
#: What an asker calls a party's staff ("Can they poach our people?": "any present employee of UTEK").
_PEOPLE_STEMS = frozenset(content_stems("people employee employees staff personnel workers team"))
#: Who a restriction on assigning binds, when it names one party: the subject ("Licensee shall not assign"), the holder of the
#: rights ("the rights ... of Developer ... shall not be assigned") or a passive's agent ("may not be assigned or delegated by
#: Affiliate"); not "either party", "each Party", "the Parties".
_BY_AGENT = re.compile(r"\b(?:assign|transferr?|delegat|sold|convey)\w*(?:\s*,?\s+(?:or|and)\s+\w+ed)*(?:\s*,\s*[^,;.]{1,40},)?\s+by\s+"
                       r"(?:the\s+)?((?:[A-Z][\w&.'-]*\s+){0,3}[A-Z][\w&.'-]*)")
_NEGATED = re.compile(r"\b(?:not|never|no)\b|n't\b", re.IGNORECASE)
#: A sentence that makes the agreement assignable by a party: "is fully assignable by El Pollo Loco", "freely transferable by Licensor".
_ASSIGNABLE_BY = re.compile(r"\b(?:assignable|transferable|transferrable)\s+(?:in\s+whole\s+or\s+in\s+part\s+)?by\s+(?:the\s+)?[A-Z]")
_ANY_PARTY = re.compile(r"^(?:neither|either|each|any|no|both|all|every)\b|^(?:the\s+)?part(?:y|ies)$", re.IGNORECASE)
#: A topic word written in its negated form ("non-exclusive"): it says the opposite.
_NON_AT = re.compile(r"\bnon[\s-]?$", re.IGNORECASE)
#: A sentence that makes a party's right depend on someone's consent, and one that lets it act without.
_NEEDS_CONSENT = re.compile(r"\b(?:with|upon|subject\s+to|after\s+obtaining|having\s+obtained|requir\w*)\s+(?:\w+\s+){0,3}?"
                            r"(?:consent|approval|permission)\b", re.IGNORECASE)
_WITHOUT_CONSENT = re.compile(r"\bwithout\b[^.;]{0,40}?\b(?:consent|approval|permission)\b", re.IGNORECASE)
#: Words after a bare "this" that make it the object itself ("assign this without consent"), not a determiner ("this licence").
_AFTER_PRONOUN = frozenset({"without", "to", "over", "away", "on", "unless", "if", "freely", "at", "in", "for", "with", "by", "before", "or",
                            "and", "yes", "whenever", "anytime"})


def claim_object(claim: str) -> str:
    """The stem of what a claim's action is done to ("a party may transfer or assign *the agreement*
    ..." -> ``agreement``; "may inspect or audit the other's *books*" -> ``book``), or ``""``."""
    from clauselens.reports.support import ACTIONS

    words = re.findall(r"[A-Za-z][\w'’-]*", claim)
    acts = [i for i, w in enumerate(words) if any(re.fullmatch(v, w.lower()) for v in ACTIONS.values())]
    if not acts:
        return ""
    rest = words[max(acts) + 1:]
    for k, w in enumerate(rest):
        if w.lower() == "it" or w.lower() == "this" and (k == len(rest) - 1 or rest[k + 1].lower() in _AFTER_PRONOUN):
            # "Are they allowed to assign it?", "assign this w/o the other's consent?": the agreement the grid asks about (a tryout
            # quoted an IP assignment; a keyed dev set, "a Party is allowed to assign two (2) half STM-l circuits")
            return "agreement"
        if w.lower() in _NO_OBJECT:
            return ""  # "terminate without cause", "terminate early": no object named
        if w.lower() in _CLAIM_SKIP or w.lower().endswith(("'s", "’s")):
            continue
        st = content_stems(w)
        # "hand the contract over", "pass the deal on": the agreement itself, whatever the asker calls it
        return "agreement" if st and st[0] in _AGREEMENT_STEMS else st[0] if st else ""
    return ""


def asks_freedom(question: str) -> bool:
    """Does ``question`` ask whether a party may do what it is free to do unless a clause restricts it ("Can they work with
    our competitors?", "Can they hire our staff?")? Such a question gets no "No" from finding nothing on its topic."""
    return bool(MAY_ASK.search(question) and _FREEDOM.search(question)) and not asks_convenience(question)


@dataclass
class YesNoReading:
    """The evidence for a yes/no cell: ``answer`` ("Yes", "No" or "" when the evidence does not
    decide), the sentence that shows it (``passage``, ``start``, ``end``), whether any sentence was
    on topic, and the ``reason``."""

    answer: str = ""
    passage: int = -1
    start: int = 0
    end: int = 0
    on_topic: bool = False
    reason: str = ""


#: A question whether the agreement renews of itself: "Does it renew by itself?", "Does it auto-renew?", "Does it roll over
#: automatically?", "Is there an automatic renewal?" (a tryout left it to the model for every agreement).
_AUTO_RENEW_Q = re.compile(r"\b(?:auto-?renew\w*|evergreen|(?:(?:renew|roll|extend)\w*(?:\s+over)?|renewal|extension)\b[^?]{0,30}\b(?:automatic\w*|"
                           r"by\s+itself|on\s+its\s+own|itself)|automatic\w*\s+(?:renew\w*|roll\w*|extend\w*|extension))\b", re.IGNORECASE)
#: A sentence in which this agreement or its term renews of itself: "shall automatically renew for successive 5-year terms",
#: "will be automatically renewed for additional one (1) year terms", "shall be renewed automatically", "automatically extend".
_AUTO_RENEWS = re.compile(r"\bautomatic(?:ally)?\s+(?:be\s+)?(?:renew|extend)\w*|\b(?:renew|extend)\w*\s+automatically\b|\bauto-?renew\w*|"
                          r"\bautomatic\s+(?:renewal|extension)s?\b", re.IGNORECASE)
#: ... and one in which it does not ("shall not be automatically renewed", "no automatic renewal"; not "its intention not to renew").
_NOT_AUTO = re.compile(r"\b(?:shall|will|does|may|would)\s+not\s+(?:be\s+)?(?:automatically\s+)?(?:renew|extend)\w*|"
                       r"\bno\s+automatic\s+(?:renewal|extension)|"
                       r"\bnot\s+(?:be\s+)?automatically\b", re.IGNORECASE)
_TERM_SUBJECT = re.compile(r"\b(?:this\s+agreement|the\s+agreement|(?:initial\s+|then[\s-]current\s+)?term)\b", re.IGNORECASE)


#: A question whether anyone must keep things confidential: "Any NDA-type stuff in here about keeping things hush-hush?", "Is there a
#: duty to keep each other's info under wraps?" (the topic head reads them as exclusivity: no CUAD kind is confidentiality).
#: ... or "is anyone bound to keep the other side's information quiet and not share it?" (a keyed dev set: read as non-disparagement).
_SECRET_Q = re.compile(r"\b(?:confiden\w*|secre\w*|nda|non-?disclosure|hush|under\s+wraps|keep\w*\s+(?:[\w'’-]+\s+){0,5}?(?:quiet|private|"
                       r"secret|confidential)|(?:not|never|n't|without)\s+(?:\w+\s+){0,2}(?:shar|disclos|reveal|leak|divulg)\w*\s+"
                       r"(?:\w+\s+){0,4}?(?:info\w*|details|data|secrets|plans|pricing|know-?how|business))\b", re.IGNORECASE)
#: A party's duty of confidence: "shall keep ... confidential", "shall hold in confidence", "shall not disclose ... Confidential Information",
#: "Neither Party may disclose ...".
#: A party barred from disclosing: "shall not disclose", "is not allowed to disclose", "Neither Party may disclose" (an agreement that
#: says so speaks of secrecy, whatever its words: a "No" needs none; not a representation that nothing "has not been disclosed").
_BARS_DISCLOSING = (r"(?:\b(?:shall|will|must|may)\s+not\b|\b(?:is|are)\s+not\s+(?:allowed|permitted|entitled|authori[sz]ed)\s+to\b)"
                    r"[^.;]{0,60}?\bdisclos\w*|\bnot\s+to\s+disclose\b|\b(?:neither|no)\s+part(?:y|ies)\s+(?:shall|will|may|must)\b[^.;]{0,40}?\bdisclos")
_NO_DISCLOSING = re.compile(_BARS_DISCLOSING, re.IGNORECASE)
_KEEPS_SECRET = re.compile(r"\b(?:shall|will|must|agrees?\s+to|undertakes?\s+to)\b[^.;]{0,100}?\b(?:keep|hold|maintain|treat|protect|preserve)\w*\b"
                           r"[^.;]{0,100}?\b(?:confiden\w*|secre\w*)|\b(?:shall|will|must)\s+not\b[^.;]{0,60}?\bdisclos\w*[^.;]{0,120}?\bconfiden|"
                           r"\b(?:neither|no)\s+part(?:y|ies)\s+(?:shall|will|may|must)\b[^.;]{0,40}?\bdisclos|"
                           # "JHU shall not disclose the financial terms of this Agreement to third parties", "Party B is not allowed to
                           # disclose the intellectual property to the other third party" (keyed dev sets)
                           r"(?:" + _BARS_DISCLOSING + r")[^.;]{0,120}?\bto\s+(?:any\s+|the\s+other\s+|other\s+|a\s+)?third\s+part",
                           re.IGNORECASE)


def asks_secrecy(question: str) -> bool:
    """Does a yes/no ``question`` ask whether anyone must keep information confidential (not for how long)?"""
    return bool(_SECRET_Q.search(question)) and not re.search(r"\bhow\s+long\b", question, re.IGNORECASE)


def confidentiality(passages: Sequence[str]) -> YesNoReading | None:
    """Must a party keep the other's information confidential? "Yes" quoting the first sentence that says so (:data:`_KEEPS_SECRET`);
    "No" when the agreement never speaks of confidentiality or secrecy at all, nor bars a disclosure; else ``None`` (the other readings decide)."""
    for i, s, e, text in sentences_of(passages):
        if _KEEPS_SECRET.search(text) and not re.match(r"\W*WHEREAS\b", text):
            return YesNoReading("Yes", i, s, e, on_topic=True, reason="the clause makes a party keep information confidential (no model)")
    if not any(re.search(r"confiden|secre|non-?disclos", t, re.IGNORECASE) or _NO_DISCLOSING.search(t) for t in passages):
        return YesNoReading("No", reason="no sentence of the agreement speaks of confidentiality or secrecy")
    return None


#: A question whether what is delivered is promised to be of quality: "Any warranty on the goods/svcs?", "If what we get is junk, is
#: there a warranty we can point to?", "is there any promise in here about it being good quality or working properly?" (keyed dev sets).
_WARRANTY_Q = re.compile(r"\bwarrant\w*|\bquality\b|\bdefect\w*|\bworkmanlike|\bfit\s+for\s+(?:the\s+)?purpose|\bjunk\b|\bdud\b|"
                         r"\bup\s+to\s+scratch|\bstand\s+behind|\bwork\s+(?:right|properly|ok)\b|\bperform\s+as\s+(?:pitched|promised|described)",
                         re.IGNORECASE)
#: A promise of quality, in the words warranties and service standards are written with: workmanlike, free from defects,
#: merchantable, fit for its purpose, conforming to (or performing, providing in accordance with) specifications or documentation,
#: a professional and competent manner, due skill and care, "warrants that ... will perform", repairing or replacing what is
#: defective, a quality "commensurate with" or "at least equal to" a standard.
_QUALITY_PROMISE = re.compile(
    r"\bworkmanlike\b|\bfree\s+(?:from|of)\s+(?:any\s+)?(?:material\s+)?(?:defects?|errors?)\b|\bmerchantab\w*|"
    r"\bfit(?:ness)?\s+for\s+(?:the|its|their|a|any)\s+(?:particular\s+|intended\s+|ordinary\s+)?(?:purposes?|use)\b|"
    r"\b(?:conform|comply)\w*\s+(?:in\s+all\s+material\s+respects\s+)?(?:to|with)\s+(?:the\s+|its\s+|their\s+|all\s+)?(?:[\w'-]+\s+){0,3}?specifications?\b|"
    r"\b(?:perform|provid|render|deliver|suppl)\w*\s+(?:substantially\s+)?(?:in\s+(?:substantial\s+|material\s+|full\s+)?accordance\s+with|as\s+described\s+in)\s+(?:the\s+|its\s+|"
    r"relevant\s+)?(?:[\w'-]+\s+){0,3}?(?:documentation|specifications?)\b|\bin\s+a\s+(?:good|professional|competent|diligent)\s+manner\b|\b(?:perform|provid|render)\w*\s+(?:[\w-]+\s+){0,6}?in\s+a\s+commercially\s+reasonable\s+manner\b|"
    r"\brepair\s+or\s+replace\b[^.;]{0,40}?\bdefective\b|\b(?:shall|will)\s+warrant\s+the\b|"
    # a service level guaranteed: "Includes a 99 percent server uptime guarantee" (a keyed dev set's hosting agreement)
    r"\b(?:uptime|availability|service[\s-]levels?)\s+(?:guarantee|warranty|commitment)\b|\bguarantee\w*\s+(?:[\w.%]+\s+){0,4}?(?:uptime|availability)\b|"
    r"\bquality\s+(?:commensurate|consistent|at\s+least\s+equal|equal)\b|\bmeet\w*\s+(?:[\w-]+\s+){0,3}?quality\s+standards?\b|"
    r"\b(?:good|professional|competent|diligent|skill?ful|timely)\s*(?:,|and)\s*(?:\w+\s+){0,2}?(?:workmanlike|competent|professional|diligent)\s+"
    r"(?:manner|fashion)|\bwith\s+(?:all\s+)?due\s+(?:skill|care|diligence)\b|\bwarrant\w*\s+that\s+[^.;]{0,160}?\b(?:will|shall)\s+(?:\w+\s+){0,3}?(?:perform|function)\w*|"
    r"\bwarrant\w*\s+that\s+[^.;]{0,80}?\bquality\b|"
    # "EIT guarantees that the services ... will be rendered in accordance with the best practice", "warrants that the ... Content will
    # comply, in all material respects, with the description and technical specifications", "... can fulfil the technological goals"
    r"\b(?:warrant|guarantee)\w*\s+that\s+[^.;]{0,160}?\b(?:compl(?:y|ies)|conform\w*|in\s+(?:substantial\s+|material\s+|full\s+)?accordance\s+with|fulfil\w*|meets?|satisf(?:y|ies))\b"
    r"(?![^.;]{0,60}?\b(?:laws?|regulations?|statutes?|rules|ordinances|legal)\b)"
    # ... not a party's own obligations ("represents and warrants that it is not a party to any agreement that would prevent it from
    # fulfilling its obligations under this Agreement", a keyed dev set: a warranty of no conflict)
    r"(?!\s+(?:\w+\s+){0,2}?(?:obligations|duties|covenants|commitments|undertakings)\b)"
    # ... not the agreement's own terms ("warrants that it has the right ... to grant the License ... to use the Trademarks ... in
    # accordance with the terms of this Agreement", a keyed dev set: an authority warranty)
    r"(?!\s+(?:the\s+)?(?:terms|provisions)\s+(?:and\s+conditions\s+)?(?:of\s+(?:this|the)\s+(?:Agreement|Contract)|hereof))|"
    # "will be performed in accordance with applicable industry standards", "perform the Services in accordance with the Performance Standards"
    r"\b(?:perform|provid|render)\w*\s+(?:[\w-]+\s+){0,3}?in\s+(?:substantial\s+|material\s+|full\s+)?accordance\s+with\s+(?:the\s+|all\s+|applicable\s+|generally\s+accepted\s+)*"
    r"(?:[\w-]+\s+){0,2}?(?:standards?|service\s+levels?|best\s+practices?)\b",
    re.IGNORECASE)
#: A promise made before a disclaimer's words in the same sentence ("Commerce One warrants that the Software ... will perform ... for a
#: period of sixty (60) days ... but in no event ... (the "Warranty Period")").
_WARRANTS_FIRST = re.compile(r"\b(?:warrants?|guarantees?)\s+that\b", re.IGNORECASE)
#: A sentence that disclaims or excludes warranties ("MAKES NO WARRANTY ... OF MERCHANTABILITY", "AS IS", "in lieu of all implied ...").
_DISCLAIMS = re.compile(r"\b(?:no|not|never|neither|nor|disclaim\w*|waive\w*|without)\b[^.;]{0,80}\b(?:warrant|represent|guarant)|"
                        r"\bas\s+is\b|\bin\s+lieu\s+of\b|\bimplied\b|\bdisclaim", re.IGNORECASE)
#: The promise's words under a condition or a negation: "if APCN 2 does not perform in accordance with the technical specifications".
_UNLESS_BEFORE = re.compile(r"\b(?:not|fails?\s+to|failure\s+to|unless|if)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
#: A sentence whose subject is the receiving side ("Franchisee shall comply with ... the standards prescribed by Franchisor",
#: "Licensee shall ensure that the Licensed Products are of a quality ..."): the buyer's own duty, no promise about what it gets.
_RECIPIENT_SUBJECT = re.compile(r"^\W*(?:[\w.()]{1,8}\s+)?(?:the\s+|each\s+)?(?:" + "|".join(sorted(RECIPIENT_ROLES)) + r")s?\b(?!\s+of\b)",
                                re.IGNORECASE)


def asks_warranty(question: str) -> bool:
    """Does a yes/no ``question`` ask whether what is delivered is promised to be of quality (a warranty, not its length)?"""
    return bool(_WARRANTY_Q.search(question)) and not re.search(r"\bhow\s+long\b", question, re.IGNORECASE)


def quality_warranty(passages: Sequence[str]) -> YesNoReading | None:
    """Is anything delivered promised to be of quality? "Yes" quoting the first sentence that promises it in a warranty's or a
    service standard's words (:data:`_QUALITY_PROMISE`) and neither disclaims warranties nor puts the words under "if" / "not";
    else ``None`` (no "No": an agreement may promise quality in words no pattern knows; the other readings decide)."""
    buyers_own = False
    for i, s, e, text in sentences_of(passages):
        m = _QUALITY_PROMISE.search(text)
        disclaims = _DISCLAIMS.search(text)
        if disclaims is not None and (first := _WARRANTS_FIRST.search(text)) is not None and first.end() <= disclaims.start() and not (
                re.search(r"\b(?:not|no|never)\b", text[:first.start()], re.IGNORECASE)):
            disclaims = None  # the promise stands first; the later "no event ... Warranty Period" limits it
        if m is None or disclaims or _UNLESS_BEFORE.search(text[:m.start()]) or re.match(r"\W*WHEREAS\b", text):
            continue
        if DEFINITION.match(text):
            continue  # '"Hedge Position Value" means the value ... determined ... in a commercially reasonable manner': a definition
        if _RECIPIENT_SUBJECT.match(text):
            buyers_own = True  # the receiving side's own standard (a keyed dev set's franchisee bound to its franchisor's standards)
            continue
        return YesNoReading("Yes", i, s, e, on_topic=True, reason="the clause promises the quality of what is delivered (no model)")
    if buyers_own:  # on topic, but whose promise it is decides the answer: not "nothing on topic"
        return YesNoReading("", on_topic=True, reason="only the receiving side promises a standard of quality")
    return None


def auto_renewal(passages: Sequence[str]) -> YesNoReading | None:
    """Does the agreement renew of itself? "Yes" quoting the first sentence in which this agreement or its term renews or
    extends automatically (:data:`_AUTO_RENEWS`), "No" quoting one that says it does not; ``None`` when no sentence says
    either (the other readings decide)."""
    for i, s, e, text in sentences_of(passages):
        if _AUTO_RENEWS.search(text) and _TERM_SUBJECT.search(text) and not re.match(r"\W*WHEREAS\b", text):
            if _NOT_AUTO.search(text):
                return YesNoReading("No", i, s, e, on_topic=True, reason="the clause says the agreement does not renew of itself (no model)")
            return YesNoReading("Yes", i, s, e, on_topic=True, reason="the clause renews the agreement of itself (no model)")
    return None


#: Ending the agreement or getting out of it, in the contract's words or everyday ones ("bail early", "walk away", "end this early",
#: "give notice and leave", "stop the contract before the end").
_EXIT_WORDS = re.compile(r"\b(?:terminat\w*|cancel\w*|end|ending|ends|stop|stopping|leave|leaving|walk|walking|bail\w*|quit\w*|exit\w*|"
                         r"(?:get|pull|back|drop|opt|want)\s+out)\b", re.IGNORECASE)


def _claim(question: str) -> tuple[str | None, set[str]]:
    """The claim a polar question asks about and its actions (:func:`clauselens.grid.evidence.question_claim`); a checklist's
    "Termination for convenience allowed?" (no modal to read one from) asks whether a party may end the agreement."""
    from clauselens.grid.evidence import question_claim
    from clauselens.reports.support import assertions

    claim = question_claim(question)
    if claim is None and asks_convenience(question) and _EXIT_WORDS.search(question):
        return "a party may terminate or cancel the agreement", {"terminate", "cancel"}
    return claim, {a.action for a in assertions(claim)} if claim else set()


def _by_kind(question: str, passages: Sequence[str]) -> YesNoReading | None:
    """Questions with no modal to read a claim from, decided by their kind's own wording: "Does it renew by itself?" (an
    automatic renewal), "Any NDA-type stuff in here?" (a duty of confidence), "Any warranty on the goods?" (a promise of quality);
    ``None`` for the others or when undecided."""
    if _AUTO_RENEW_Q.search(question):
        return auto_renewal(passages)
    if asks_secrecy(question):
        return confidentiality(passages)
    return quality_warranty(passages) if asks_warranty(question) else None


def _assignment_first(asked: set[str], text: str) -> str:
    """For an assignment question, what a sentence decides before its claim is checked: ``"yes"`` for "This Agreement ... is fully
    assignable by El Pollo Loco" (a keyed dev set read only the franchisee's bar), else ``""``."""
    if not asked & {"assign", "transfer"} or text.rstrip().endswith(":"):
        return ""
    return "yes" if _ASSIGNABLE_BY.search(text) and not _CONSENT.search(text) and not _NEGATED.search(text) else ""


def read_yes_no(question: str, passages: Sequence[str]) -> YesNoReading:
    """Yes / No from the agreement's sentences (issue #45). The polar question is read as the claim it asks about
    (:func:`clauselens.grid.evidence.question_claim`); a sentence covering the question's topic (:func:`required_hits`) that asserts the
    claim's action for a compatible party with the question's polarity (:func:`clauselens.reports.support.check_claim`: negation and party
    checks) shows "Yes" (and, when the question asks "without" a condition, keeps it); one that negates the action, or sets the condition
    the question excludes, shows "No". One answer shown and the other not: that answer, quoted. No sentence on topic at all: "No" (nothing
    in the agreement speaks of it) -- only when the question has contract vocabulary (:func:`contract_vocabulary`); a sentence is on topic
    when it covers half of that vocabulary (half the required groups when the question has none), since a lay question's everyday words
    may never occur in the agreement. Otherwise (mixed evidence, a question with no action of the lexicon, or topic sentences that assert
    nothing): undecided, for the model. A question about "a party" / "either party" is answered "Yes" when one party has the right, though
    the other has not ("Company may assign without consent"; "Consultant may not assign"). A "Yes" sentence covers all the required term
    groups (the condition a question sets with "without" may be met by the sentence's own wording, "for convenience")."""
    from clauselens.grid.evidence import KEEPS_WITHOUT

    by_kind = _by_kind(question, passages)
    if by_kind is not None:
        return by_kind
    from clauselens.reports.support import assertions, check_claim

    groups = topic_groups(question)
    need = required_hits(groups)
    claim, asked = _claim(question)
    without = bool(re.search(r"\bwithout\b", question, re.IGNORECASE))
    # "can a party end it without giving a reason?": a termination on notice alone is that right (Yes, whatever words it
    # uses: :func:`clauselens.grid.whose.at_will`); one only for a breach or an insolvency is a No, as a negated one is; a
    # party's at-will right outweighs the others' conditions (a new user's tryout: notice-only clauses were read as "No")
    at_will_q = bool(asked & {"terminate", "cancel"}) and asks_convenience(question)
    existential_q = bool(claim and re.match(r"(?:a|an|any|either|one)\s", claim, re.IGNORECASE))
    # "pass the agreement to an affiliate or buyer without asking us?", "- say a buyer of the company -": the carve-out asked
    carve_asked = bool(_CARVE_OUT.search(question) or _BUYER_ASKED.search(question))
    obj = claim_object(claim) if claim else ""
    asks_non = bool(re.search(r"\b(?:non|anti|no)\b", question, re.IGNORECASE))  # "Is the licence non-exclusive?" asks the negated word
    yes: list[tuple[int, int, int]] = []
    no: list[tuple[int, int, int]] = []
    on_topic = False
    half = (need + 1) // 2
    vocab = contract_vocabulary(groups)
    named = False  # a sentence says a thesaurus concept the question names ("bought out": "sale of all or substantially all")
    for i, s, e, text in sentences_of(passages):
        hits = term_hits(groups, text)
        if not asks_non:  # "a non-exclusive ... license to ... sell such Item" is no exclusivity (a tryout read it as one)
            hits = {k: v for k, v in ((k, [o for o in v if not _NON_AT.search(text[max(0, o - 5):o])]) for k, v in hits.items()) if v}
        named = named or any(g.name.startswith("concept:") and g.name in hits for g in vocab)
        # an at-will question: a right to end this agreement on notice is on its topic, in whatever words ("may be terminated without the
        # payment of any penalty by either party upon sixty (60) days' written notice": a tryout answered "No" for nothing on topic)
        ends_at_will = at_will_q and bool(_RIGHT_TO_END.search(text)) and at_will(text)
        if vocab and 2 * sum(1 for g in vocab if g.name in hits) < len(vocab) and not ends_at_will:
            continue  # the topic is what the contract's own words say; everyday words ("whenever") neither prove nor refute it
        if not vocab and groups and sum(1 for g in groups if g.required and g.name in hits) < half:
            continue
        on_topic = True  # covers half the question's topic at least: "No" is no longer "nothing on topic"
        # an at-will question: a party's right to end it counts however it is worded ("reserves the right to terminate this
        # Agreement ... for any reason", "shall have the right to resign at any time"), the action lexicon's words or not
        # ... not after a fixed first term ("until the end of the fifteenth Contract Year, and thereafter until terminated by
        # either Party by providing thirty days' notice": an evergreen renewal, CUAD's Renewal Term, not a free exit)
        until_notice = (at_will_q and bool(_UNTIL_NOTICE.search(text)) and not re.search(r"\bthereafter\b[^.;]{0,60}\buntil\s+terminated", text, re.I)
                        and not names_condition(_UNTIL_NOTICE.sub(" ", text)))
        granted = at_will_q and _RIGHT_TO_END.search(text) is not None
        resign = at_will_q and _RESIGNS.search(text) is not None
        resigns = resign and not names_condition(text) or until_notice  # a resignation on a condition is no free exit
        right_to_end = granted and bool(_THIS_AGREEMENT.search(text)) or resign or until_notice
        first = _assignment_first(asked, text)
        if first:
            yes.extend([(i, s, e)] if first == "yes" else [])
            continue
        if claim is None or not ({a.action for a in assertions(text)} & asked or right_to_end):
            continue
        if asked & {"terminate", "cancel"} and only_by_consent(text):
            continue  # "may be terminated at any time ... by unanimous written agreement of the Parties": a new bargain, no one's right
        objects = {obj} | (_AGREEMENT_STEMS if obj == "agreement" else _PEOPLE_STEMS if obj in _PEOPLE_STEMS else set())  # by any of its names
        # at will: whose.at_will checks it ends *this agreement*; "assign any of its rights or obligations hereunder" is the agreement
        if obj and not at_will_q and not objects & set(content_stems(text)) and not (obj in _RIGHTS_STEMS and _ASSIGNS_AGREEMENT.search(text)):
            continue  # the action on something else ("the goodwill shall be transferred" for "transfer the agreement")
        if obj == "agreement" and asked & {"assign", "transfer"} and not _ASSIGNS_AGREEMENT.search(text):
            continue  # "a different meaning is assigned to the term in this Agreement", "any transfer of the Shares"
        if re.match(r"\W*WHEREAS\b", text):
            continue  # a recital tells the background, not what a party may or must do
        issue = check_claim(claim, text)
        covered = sum(1 for g in groups if g.required and g.name in hits)
        if at_will_q:
            if issue is not None and issue.kind == "party" and existential_q:
                issue = None  # "Can either party terminate early for convenience?": one party's free exit answers it (the sets' convention)
            if issue is None and (at_will(text) or resigns):  # a party's right; an end on no condition but no one's decides nothing
                if granted or resigns:
                    yes.append((i, s, e))  # "Either Party may terminate this Agreement by giving thirty (30) days' prior written notice"
            elif (granted or _ENDS_ON_EVENT.search(text)) and (issue is None or issue.kind == "negation") and not (
                    _ENDS_OTHER.search(text) and not ends_agreement(text)):
                # a party's right only for a breach, an insolvency, ...; an end on an event; or "may not terminate" -- not a term
                # clause's "unless sooner terminated" nor a licence granted "unless the license is earlier terminated" (a tryout quoted both)
                no.append((i, s, e))
            continue
        if issue is None and without and asked & {"assign", "transfer"} and _NEEDS_CONSENT.search(text) and not _WITHOUT_CONSENT.search(text):
            no.append((i, s, e))  # "A Party may at any time, with the prior written consent of the Management Committee, assign ..."
            continue  # (a keyed dev set: "at any time" read as the freedom asked about)
        if issue is None:
            keeps = bool(KEEPS_WITHOUT.search(text))
            free = bool(_FREELY.search(text)) or not _CONSENT.search(text) and (carve_asked or not _CARVE_OUT.search(text))
            if without and not keeps and asked & {"assign", "transfer"} and free:
                yes.append((i, s, e))  # "may be assigned by the Provider upon written notice to the Company": no one's consent needed
            elif without and not keeps:
                no.append((i, s, e))  # "may assign with consent" answers "without consent?" with No
            elif asked & {"assign", "transfer"} and _CARVE_OUT.search(text):
                continue  # may assign only to its affiliates or a successor: the exception to a consent rule, no free right
            elif covered >= need - (1 if without else 0) and (any(a.party for a in assertions(text) if a.action in asked)
                                                              or asked & {"assign", "transfer"} and _BY_AGENT.search(text)):
                # a passive's agent is a party too: "This agreement may be assigned or delegated, in whole or in part, by NETWORK 1
                # without the prior written consent of the other party" (a keyed dev set: read as the "No" of the sentence after it)
                yes.append((i, s, e))  # "for convenience" stands for "without a reason"; a passive grants no one a right
        elif issue.kind == "negation":
            no.append((i, s, e))
    if not on_topic:
        return _nothing_on_topic(question, bool(vocab), named or _kind_used(question, passages))
    # "can a party ...": one party's right is a yes; so is one at-will right, however the question names who ends it ("Can the
    # contract be terminated at any time on notice?")
    got = _decision(passages, yes, no, existential_q or at_will_q, asked)
    return _exit_unproven(got) if at_will_q and got.answer == "No" else got


def _exit_unproven(got: YesNoReading) -> YesNoReading:
    """An at-will question's "No" read from clauses that end the agreement only on a condition, left for a reviewer: a free exit is
    worded in too many ways to prove its absence ("(iii) election to terminate and notice thereof given by Programmer", a remarketing
    agent's resignation): on the keyed development sets a "No" read so was wrong on 7 of 27 cells, a "Yes" read from the clause
    that grants it on 1 of 9."""
    return YesNoReading(on_topic=True, reason="the clauses read end the agreement only on a condition; whether it has no free exit "
                                              "elsewhere is left for a reviewer")


def _decision(passages: Sequence[str], yes: list[tuple[int, int, int]], no: list[tuple[int, int, int]], existential: bool,
              asked: set[str]) -> YesNoReading:
    """The answer from the sentences on topic that show "Yes" (``yes``) and "No" (``no``), as ``(passage, start, end)``. A list's
    lead-in shows no "Yes" to an assignment question ("A Party may at any time assign ... the whole of its rights and obligations under
    this Agreement to:" -- to whom comes next, a keyed dev set)."""
    if asked & {"assign", "transfer"}:
        yes = [(i, s, e) for i, s, e in yes if not passages[i][s:e].rstrip().endswith(":")]
    if yes and (not no or existential):  # "can a party ...": one party's right is a yes
        return YesNoReading("Yes", *yes[0], on_topic=True, reason="the clause states the right or duty asked about (no model)")
    if no and not yes:
        bound = {bound_party(passages[i][s:e], asked) for i, s, e in no} if existential and asked & {"assign", "transfer"} else {None}
        if None not in bound and len(bound) == 1:
            # "Can either party assign this w/o the other's consent?" over "may not be assigned ... by Affiliate without prior written
            # consent from Network 1" alone: one side is bound, and whether the other is free the sentence does not say (two keyed dev
            # sets: "Yes", the franchisor's or processor's own right elsewhere)
            return YesNoReading(on_topic=True, reason=f"the clause restricts only {bound.pop()}; whether the other party may do it is left "
                                                      "for a reviewer")
        return YesNoReading("No", *no[0], on_topic=True, reason="the clause states the opposite of what is asked (no model)")
    why = "clauses state both" if yes and no else "no clause about the topic states the right or duty asked about"
    return YesNoReading(on_topic=True, reason=why)


def bound_party(text: str, actions: set[str]) -> str | None:
    """The one party a sentence restricting ``actions`` binds (:data:`_BY_AGENT`), lower-cased; None when it binds every party or
    names none ("Neither party may assign", "This Agreement may not be assigned without consent")."""
    from clauselens.reports.support import assertions

    named = {str(a.party).lower() for a in assertions(text) if a.action in actions and a.party}
    if not named:
        m = _BY_AGENT.search(text)
        named = {m.group(1).lower()} if m else set()
    if len(named) != 1:
        return None
    party = next(iter(named))
    return None if _ANY_PARTY.search(party) else party


#: The clause kinds whose word family a question may name (:data:`clauselens.heads.category_words.ASKED_WORDS`) that decide no
#: "nothing on topic" "No" when the agreement uses the family (exclusivity unnegated: "non-exclusive" grants the opposite).
_KIND_FAMILIES = ("exclusiv", "compet", "solicit")
_UNNEGATED = re.compile(r"(?<!non)(?<!non-)(?<!non )(?<!not )\b", re.IGNORECASE)


def _kind_used(question: str, passages: Sequence[str]) -> bool:
    """Does the question name a clause kind by its word family ("exclusive", "non-compete") that the agreement uses, unnegated? Then
    no sentence covering the question's other words proves nothing ("7. Exclusivity. During the term of this Agreement, Sabco will not
    ... any other company reasonably deemed to be competitive": a keyed dev set's "No")."""
    from clauselens.heads.category_words import ASKED_WORDS

    return any(re.search(rf"\b{ASKED_WORDS[w]}", question, re.IGNORECASE)
               and any(re.search((_UNNEGATED.pattern if w == "exclusiv" else r"\b") + ASKED_WORDS[w], t, re.IGNORECASE) for t in passages)
               for w in _KIND_FAMILIES)


def _nothing_on_topic(question: str, vocab: bool, named: bool) -> YesNoReading:
    """The reading when no sentence of the agreement covers the question's topic (``vocab``: the question has contract
    vocabulary; ``named``: a sentence says a thesaurus concept the question names)."""
    if not vocab:  # everyday words only ("walk away whenever they like"): their absence proves nothing
        return YesNoReading(reason="the question's words are not the contract's; no sentence could be matched to its topic")
    if asks_freedom(question):
        # "Can they work with our competitors?", "Can they hire our staff?": nothing in the agreement restricts it, which answers
        # no permission question with "No"
        return YesNoReading(reason="no sentence of the agreement is about the question's topic; whether a party may do what nothing "
                                   "restricts is left for a reviewer")
    if named:
        # "If someone buys one of us out, ... can the deal be ended or need sign-off because of it?": a sentence names the topic's
        # concept ("upon the sale ... of all or substantially all") without the rest of the question's words (a keyed dev set's "No")
        return YesNoReading(reason="a sentence uses the topic's contract wording but no sentence covers the question; left for a reviewer")
    return YesNoReading("No", reason="no sentence of the agreement is about the question's topic")


__all__ = ["YesNoReading", "asks_freedom", "asks_secrecy", "bound_party", "claim_object", "read_yes_no"]
