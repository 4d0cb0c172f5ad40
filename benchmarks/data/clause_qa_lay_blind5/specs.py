"""Question specs for the blind lay-register set 5 (data only; see build_questions.py).

gold: (start anchor, end snippet, clause_ref as printed).  Unanswerable: terms are
case-insensitive regexes run over the whole file; reasons maps a term to why its hits
(listed with context in questions.jsonl) are not about the topic.  cuad_category says
whether the absent topic is one of CUAD's 41 clause categories (name) or not (None).
"""

AGREEMENTS = {
    "alco": ("ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt",
             "GE Capital (Lessor) - Duckwall-Alco Stores equipment-ordering Agency Agreement, Nov 2005"),
    "vis": ("KNOWLABS,INC_08_15_2005-EX-10-INTELLECTUAL PROPERTY AGREEMENT.txt",
            "Visualant - Kenneth Turpin Intellectual Property (invention assignment) Agreement, Jun 2004"),
    "wcop": ("WESTERN COPPER - NON-COMPETITION AGREEMENT.txt",
             "Glamis Gold - Western Copper Non-Competition Agreement and Right of First Offer (Mexico), May 2006"),
    "north": ("PerformanceSportsBrandsInc_20110909_S-1_EX-10.10_7220214_EX-10.10_Endorsement Agreement.txt",
              "Golfers Incorporated (F2 golf clubs) - Andy North Endorsement Agreement, Feb 2011"),
    "hyd": ("HYDRONTECHNOLOGIESINC_03_31_1997-EX-10.47-SPONSORSHIP AGREEMENT.txt",
            "Hydron Technologies (sunscreen) - Miami Dolphins Sponsorship Agreement, Jan 1997"),
    "brav": ("SIBANNAC,INC_12_04_2017-EX-2.1-Strategic Alliance Agreement.txt",
             "Bravatek Solutions - Sibannac (air-cylinder wheels) Strategic Alliance / lead-finder Agreement, Nov 2017"),
    "leo": ("WARNERCHILCOTTPLC_12_31_2003-EX-4.36-DEVELOPMENT AGREEMENT.txt",
            "LEO Pharma - Galen (Warner Chilcott) Development Agreement for the Dovobet combination ointment, 2003"),
    "pnc": ("BELLRINGBRANDS,INC_02_07_2020-EX-10.18-MASTER SUPPLY AGREEMENT.txt",
            "Premier Nutrition (BellRing) - Fonterra (USA) Master Supply Agreement for protein ingredients, Oct 2019"),
    "spin": ("RaeSystemsInc_20001114_10-Q_EX-10.57_2631790_EX-10.57_Co-Branding Agreement.txt",
             "Nettaxi - SpinRecords.com (Solutions Media) Co-Branding Agreement, Nov 1999"),
    "wgt": ("EUROPEANMICROHOLDINGSINC_03_06_1998-EX-10.6-DISTRIBUTOR AGREEMENT.txt",
            "WatchGuard Technologies - European Micro (firewall products, Europe) Distributor Agreement, Nov 1997"),
}


def P(id_, question, gold, answer):
    return {"id": id_, "type": "paraphrase", "question": question, "gold": gold, "answer": answer}


def U(id_, question, topic, cuad_category, terms, reasons, answer):
    return {"id": id_, "type": "unanswerable", "question": question, "topic": topic,
            "cuad_category": cuad_category, "terms": terms, "reasons": reasons, "answer": answer}


SPECS = [
    # ------------------------------------------------------------------ alco
    P("alco-para-1",
      "Does Duckwall-Alco earn anything for doing GE Capital's equipment buying for it?",
      [("Section 1.01 Appointment.", "as may from time to time be made by Lessor.", "Section 1.01")],
      "No. Duckwall-Alco is appointed GE Capital's agent for ordering and accepting the equipment without any fee."),
    P("alco-para-2",
      "Can GE Capital go through the retailer's paperwork on the gear it has been buying for the lease?",
      [("Section 2.04 Books and Records.", "during the Company's normal business hours.", "Section 2.04")],
      "Yes. Duckwall-Alco must keep full and accurate books and records of equipment orders and receipts in a form "
      "acceptable to GE Capital, open to inspection by GE Capital, its representatives and accountants during normal "
      "business hours."),
    P("alco-para-3",
      "If either GE Capital or Duckwall-Alco wants to stop the buying arrangement, how much heads-up is needed, and "
      "does that end the leases already running?",
      [("(a) So long as no default exists", "shall not act as a termination of any Equipment leased hereunder.",
        "Section 3.01(a)")],
      "While no default is continuing, either party may end the agency on 30 days' written notice; that does not "
      "terminate the lease of any equipment already leased under it."),
    P("alco-para-4",
      "Say the retailer has already paid a vendor out of its own pocket for a piece of equipment: when does GE "
      "Capital pay it back?",
      [("Section 2.03 Payment of Purchase Price.", "purchased hereunder in connection with such schedule.",
        "Section 2.03")],
      "Duckwall-Alco must give GE Capital purchase documentation (including evidence of the price paid and of title "
      "passing to GE Capital) by the Lease Commencement Date; GE Capital reimburses it on the later of receiving that "
      "documentation and satisfaction of all conditions precedent on or after the Lease Commencement Date."),
    U("alco-un-1",
      "Which state's law and which courts would decide a fight between GE Capital and Duckwall-Alco over the "
      "equipment-buying agency?",
      "governing law / forum", "Governing Law",
      [r"govern", r"\blaws?\b", r"jurisdiction", r"\bcourts?\b", r"\bvenue\b", r"arbitrat", r"disput"],
      {},
      "Not addressed: the agency agreement has no governing-law, forum or dispute clause; it only says that the "
      "Master Lease controls if the two conflict (Section 1.03)."),
    U("alco-un-2",
      "If GE Capital is slow paying a supplier or paying Duckwall-Alco back, does it owe interest or a late charge?",
      "late-payment interest / late charges", None,
      [r"interest", r"\blate\b", r"overdue", r"past\s+due", r"penalt", r"per\s+annum", r"finance\s+charge"],
      {},
      "Not addressed: Section 2.03 sets when GE Capital pays the supplier or reimburses Duckwall-Alco, but nothing "
      "provides interest, late fees or penalties for slow payment."),
    # ------------------------------------------------------------------ vis
    P("vis-para-1",
      "If Ken Turpin dreams up a new sensor trick at home on a Sunday and it ties into Visualant's colour-tech "
      "business, who owns it?",
      [("2.   Ownership  by the  Company.", "all moral  rights  Turpin may have in any and all Work      Product.",
        "Section 2"),
       ('(g)  "Work  Product"  means', "on or off the Company's premises.", "Section 1(g)")],
      "Visualant. Work Product includes anything Turpin conceives during his employment that relates to the "
      "company's business or R&D, whether or not made during working hours or on the premises; the company owns it "
      "exclusively and Turpin assigns it (and waives moral rights) as it is created."),
    P("vis-para-2",
      "When Turpin leaves Visualant, does he have to hand back the laptop, phone and notes he was using?",
      [("6.   Return of Company  Property.", "employment with the Company.", "Section 6"),
       ('(b)  "Company Property" means', "records, and the like;", "Section 1(b)")],
      "Yes. He must deliver all Work Product and Company Property (defined to include computers, laptops, phones, "
      "notes, papers and the like), originals and copies, on request or otherwise when his employment ends."),
    P("vis-para-3",
      "If Visualant later needs Turpin's signature on patent filings, does he get extra money for his time, and who "
      "covers the costs?",
      [("4.   Assistance.", "the Intellectual Property Rights in same.", "Section 4")],
      "He must assist and sign whatever is reasonably requested, during the term and afterwards, at Visualant's "
      "expense but without additional compensation."),
    P("vis-para-4",
      "Could Turpin ever dispute Visualant's claim to the inventions, or register them in his own name somewhere?",
      [("5.   Protection of Work Product.", "with respect to the Work Product and all Intellectual Property Rights therein.",
        "Section 5")],
      "No. He may never contest (or help anyone contest) the company's title, and may not apply to register any "
      "rights in Work Product anywhere without Visualant's express written approval."),
    U("vis-un-1",
      "Will Turpin get royalties or a cut of the profits if Visualant makes money from his inventions?",
      "royalties / revenue share to the inventor", "Revenue/Profit Sharing",
      [r"royalt", r"revenue", r"profit", r"bonus", r"compensat", r"percent|%", r"\bshare\b"],
      {},
      "Not addressed: the only money mentioned is the nominal $10 exchanged and that Turpin's further assistance is "
      "without additional compensation (Section 4); no royalty or profit share on the inventions is provided."),
    U("vis-un-2",
      "If an outside company sues Turpin over one of the inventions he handed over, will Visualant cover his legal "
      "bills?",
      "indemnification of the inventor / legal costs", None,
      [r"indemn", r"hold\s+harmless", r"\bdefen[cds]", r"legal\s+fees", r"attorney", r"lawsuit", r"\bsued?\b"],
      {},
      "Not addressed: the agreement gives Visualant an injunction remedy against Turpin (Section 8) but contains no "
      "indemnity or promise to pay Turpin's legal costs."),
    # ------------------------------------------------------------------ wcop
    P("wcop-para-1",
      "For how long, and in which part of Mexico, does Western Copper have to stay out of the mining business?",
      [("2.1 Western Copper covenants", "in the Area of Non-Competition.", "Section 2.1"),
       ("(b) Area of Non-Competition means", "as at the Effective Date,", "Section 1.1(b)")],
      "For 2 years after the Effective Date it may not carry on mining activities, or finance, advise or lend its "
      "name to anyone who does, in the State of Zacatecas and within 20 km of any Western Silver mineral property in "
      "Mexico."),
    P("wcop-para-2",
      "If Glamis decides to simply give up one of the Mexican claims it took over, can Western Copper pick it up, "
      "and what would it pay?",
      [("2.2 Glamis covenants and agrees with Western Copper", "reasonable costs of transfer incurred by Glamis.",
        "Section 2.2")],
      "Glamis must first send a Disposition Notice; for a property it intends to abandon it must, if Western Copper "
      "asks, transfer it to Western Copper at no cost apart from Glamis's reasonable transfer costs."),
    P("wcop-para-3",
      "Suppose Glamis goes broke: can Western Copper get out of this arrangement right away?",
      [("3.5 W'estem Copper may, at its option", "the protection of rights of  creditors.", "Section 3.5")],
      "Yes. Western Copper may end the agreement by written notice, effective immediately, if Glamis becomes "
      "insolvent, stops business in the normal course, assigns for creditors, has a receiver appointed or becomes "
      "subject to bankruptcy/insolvency proceedings."),
    P("wcop-para-4",
      "If Western Copper breaks its promise, does Glamis have to show it actually lost money before a judge can stop "
      "it?",
      [("3.1 Western Copper acknowledges and agrees", "available to Glamis at law or otherwise.", "Section 3.1")],
      "No. Glamis may seek an injunction or restraining order as of right and without proving damage, in addition to "
      "any other remedy."),
    U("wcop-un-1",
      "Is Western Copper barred from hiring away Glamis's mine staff or managers in Mexico?",
      "no-hire / non-solicitation of employees", "No-Solicit of Employees",
      [r"solicit", r"\bhir(e|es|ed|ing)\b", r"recruit", r"employ", r"\bstaff\b", r"personnel"],
      {},
      "Not addressed: the covenant restricts Western Copper's mining activities in the Area of Non-Competition "
      "(Section 2.1); nothing restricts hiring or soliciting Glamis's employees."),
    U("wcop-un-2",
      "Do Glamis and Western Copper have to keep the terms of this side deal secret?",
      "confidentiality of the agreement", None,
      [r"confiden", r"secre", r"disclos", r"public\s+announcement", r"press\s+release", r"proprietary"],
      {},
      "Not addressed: the agreement has no confidentiality, non-disclosure or announcement clause."),
    # ------------------------------------------------------------------ north
    P("north-para-1",
      "If Golfers Inc. drags its feet paying Andy North, does it owe anything extra?",
      [("f. Late Payments.", "commencing on the eleventh day.", "Paragraph 7.f")],
      "Yes. Amounts not received within 10 days of their due date bear a late charge of 1.5% per month of the "
      "overdue amount, from the eleventh day until paid."),
    P("north-para-2",
      "Once the deal with Andy North is over, can the F2 club company keep selling clubs with his picture on the box?",
      [("Upon the expiration or termination of this Agreement, Company shall be prohibited",
        "on the packaging upon the expiration or termination of this Agreement.", "Paragraph 3")],
      "Only what is already in the retail channel. The company must stop using advertising with his likeness, and may "
      "not sell or ship any new product with his likeness or endorsement on the packaging."),
    P("north-para-3",
      "Who pays for Andy's flights and hotels when he travels to shoot the commercials, and how soon is he paid back?",
      [("f. Expenses. If travel is necessary", "after receipt of the expense receipts.", "Paragraph 5.f")],
      "Golfers Inc. provides or reimburses all travel (first-class airfare on his chosen airline, first-class hotel, "
      "reasonable meals and ground transport); tickets are delivered 7 days ahead and other costs reimbursed within "
      "10 days of receiving receipts."),
    P("north-para-4",
      "Can North have someone look over Golfers Inc.'s sales figures to make sure his 1% cut is right, and who foots "
      "the bill?",
      [("(ii) Company shall keep, at its principal office", "for all such inspection costs.", "Paragraph 7.c(ii)")],
      "Yes. The company keeps GAAP books at its principal office for 2 years after the agreement ends and must make "
      "them available to North or his representative on reasonable notice; North pays for the inspection unless it "
      "reveals under-reporting or underpayment of more than 5% for a quarter, in which case the company reimburses "
      "him."),
    U("north-un-1",
      "If Golfers Inc. gets bought by a bigger golf company, can Andy North walk away from the deal?",
      "change of control / sale of the company", "Change of Control",
      [r"change\s+(of|in)\s+control", r"merge", r"acqui", r"\bcontrol\b", r"takeover|take-over", r"\bbought\b",
       r"\bownership\b"],
      {},
      "Not addressed: the agreement only forbids assignment without consent (Paragraph 19) and allows termination "
      "on an event of default (Paragraphs 12-13); a sale or change of control of Golfers Inc. gives North no exit "
      "right."),
    U("north-un-2",
      "Does Andy North get any shares or stock options in Golfers Inc. as part of the deal?",
      "equity / stock options for the endorser", None,
      [r"\bstock\b", r"\bshares?\b", r"equity", r"\boptions?\b", r"warrant"],
      {},
      "Not addressed: his pay is the Guaranteed Fee, a 1% royalty and appearance fees (Paragraph 7); no shares, "
      "options or other equity are granted."),
    # ------------------------------------------------------------------ hyd
    P("hyd-para-1",
      "Could the sunscreen maker bail out of the Dolphins deal after the first season, and by when would it have to "
      "say so?",
      [("1.2 Hydron shall have the right", "unless earlier terminated pursuant to Section 8 of this Agreement.",
        "Section 1.2")],
      "Yes: Hydron may give written notice between November 1 and December 15, 1997, ending the agreement after the "
      "Dolphins' last 1997 game; if it does not, it is bound for the whole four-year term."),
    P("hyd-para-2",
      "If the NFL makes the Dolphins pull some of the perks Hydron was promised, does Hydron still pay full price?",
      [("8.2 This Agreement may be terminated by the Dolphins or modified", "rules of the American Arbitration Association.",
        "Section 8.2")],
      "Not necessarily: the Dolphins must try in good faith to substitute a benefit of equal promotional value; "
      "failing that the parties negotiate a fee adjustment, and if they cannot agree the adjustment goes to "
      "binding AAA arbitration."),
    P("hyd-para-3",
      "Hydron misses its July payment: what extra does it owe, and how long does it get to fix things before the "
      "team can end the deal?",
      [("3.2 In the event that the consideration is not paid", "for breach of contract available to the Dolphins.",
        "Section 3.2")],
      "Non-payment is a material breach; the Dolphins may charge 1.5% per month on the overdue amount, and after "
      "written notice Hydron has five business days to cure before the Dolphins may terminate."),
    P("hyd-para-4",
      "If the Dolphins kick Hydron out for not keeping its side of the bargain, does Hydron get any money back?",
      [("8.3 Upon termination of this Agreement, all rights", "prior payments made to the Dolphins shall be refundable.",
        "Section 8.3")],
      "No. On termination by the Dolphins for Hydron's default all payments then or later due become payable "
      "immediately, and nothing already paid is refundable; all rights revert to the Dolphins."),
    U("hyd-un-1",
      "Is there a ceiling on how much Hydron or the Dolphins could end up owing each other if something goes wrong?",
      "limitation / cap on liability", "Cap on Liability",
      [r"limitation\s+of\s+liability", r"\bcap\b", r"in\s+no\s+event", r"consequential", r"not\s+exceed",
       r"aggregate\s+liability", r"\blimit"],
      {},
      "Not addressed: the agreement has mutual indemnities (Section 7.1) and minimum insurance of $1,000,000 each "
      "(Section 7.2) but no cap on or exclusion of either party's liability."),
    U("hyd-un-2",
      "Do the Dolphins have to send players or cheerleaders to show up at Hydron promotions?",
      "player / cheerleader appearances", None,
      [r"\bplayers?\b", r"cheerlead", r"autograph", r"appearance", r"\bcoach"],
      {},
      "Not addressed: the benefits in Exhibit A are advertising, signage, sampling booths, a sponsored 'Defensive "
      "Player of the Week' video feature and reasonable efforts to get endorsements from the training staff; no "
      "player or cheerleader appearances are promised."),
    # ------------------------------------------------------------------ brav
    P("brav-para-1",
      "How much does Bravatek make when a government buyer it found orders Sibannac's wheels, and when does that "
      "money arrive?",
      [("For any Product or Solution sold", "received at COMPANY's bank account.", "Section 4 (Compensation)")],
      "A lead-finder fee of 10% to 20% of project revenue (Sibannac decides the exact rate depending on margin and "
      "costs), payable net 30 days after each client payment reaches Sibannac's bank account."),
    P("brav-para-2",
      "Can either side simply quit the Bravatek-Sibannac tie-up whenever it likes, and does it roll over by itself?",
      [("7) Term The term of this Agreement", "upon ninety (90) days written notice.", "Section 7 (Term)")],
      "It runs 12 months and renews automatically once for another 12 months unless either side gives notice 90 days "
      "before expiry; either party may also terminate at any time on 90 days' written notice."),
    P("brav-para-3",
      "For how long after the partnership ends must the two companies keep each other's business information under "
      "wraps?",
      [("6) Term of Confidentiality", "abide by the terms of this Agreement.", "Section 6")],
      "Five years after termination, and each must make sure its employees, agents and assistants do the same."),
    P("brav-para-4",
      "If Sibannac's carelessness gets Bravatek dragged into a lawsuit by an outside company, who covers the lawyers?",
      [("10) Indemnification COMPANY shall indemnify Bravatek", "of any of its obligations under this Agreement.",
        "Section 10")],
      "Sibannac must indemnify Bravatek (and its directors, officers and employees) for damages, costs and reasonable "
      "attorney's fees and court costs from third-party claims arising from Sibannac's negligence, misconduct or "
      "breach."),
    U("brav-un-1",
      "Can Bravatek check Sibannac's books to confirm the project revenue its fee is based on?",
      "audit / inspection of the other side's books", "Audit Rights",
      [r"audit", r"inspect", r"\bbooks?\b", r"\brecords?\b", r"examin", r"accountant", r"statement"],
      {},
      "Not addressed: the fee is a percentage of project revenue decided by Sibannac (Section 4), but Bravatek gets "
      "no right to inspect or audit Sibannac's books or records."),
    U("brav-un-2",
      "Will Sibannac pay back Bravatek's travel costs for sales trips to government agencies?",
      "travel / expense reimbursement", None,
      [r"travel", r"reimburs", r"expense", r"out.of.pocket", r"per\s+diem", r"\btrips?\b"],
      {},
      "Not addressed: Bravatek is paid only the lead-finder fee (Section 4); nothing provides for reimbursing travel "
      "or other expenses."),
    # ------------------------------------------------------------------ leo
    P("leo-para-1",
      "Should US regulators demand a second big late-stage study of the two-ingredient ointment, how is that bill "
      "divided between LEO and Galen?",
      [("3.1 If the FDA mandates", "The payments are non-refundable.", "Article 3.1")],
      "Galen pays 50% of the reasonable costs of a second pivotal phase III trial, invoiced by LEO quarterly and "
      "non-refundable; LEO bears the rest (Article 2.1)."),
    P("leo-para-2",
      "What does Galen owe LEO right after signing, and can it ever get that money back?",
      [("3.3 Within thirty (30) days after the date hereof", "This payment is non-refundable.", "Article 3.3")],
      "US$5,000,000 within 30 days, reimbursing part of LEO's development costs; it is non-refundable."),
    P("leo-para-3",
      "If the LEO-Galen development deal falls apart, what does Galen have to give back or hand over?",
      [("7.4 In the event of termination", "the costs of transfers shall be split evenly between the parties.",
        "Article 7.4")],
      "Galen still pays amounts already due, returns all technical information, stops using the trademark and "
      "branding, transfers related patents (or licenses partly related ones royalty-free), data, the NDA/IND and "
      "registrations to LEO; free of charge if LEO terminated for Galen's breach or under 7.2, otherwise transfer costs "
      "are split."),
    P("leo-para-4",
      "How long after it is all over do LEO and Galen still have to keep each other's lab data quiet, and who may "
      "use it afterwards?",
      [("5.4 This Article V shall survive", "GALEN shall be free to use all GALEN Information.", "Article 5.4")],
      "The confidentiality article survives for ten years after termination, but after termination LEO may use all "
      "data on the combination product and Galen may use the information it generated."),
    U("leo-un-1",
      "Is Galen barred from selling a rival psoriasis cream that would compete with the combination product?",
      "non-compete on the distributor/partner", "Non-Compete",
      [r"compet", r"rival", r"non-?compet", r"exclusiv", r"refrain"],
      {},
      "Not addressed: the development agreement contains no non-compete or competing-product restriction (the "
      "recitals only mention that Galen is exclusive distributor under the separate License and Supply Agreements)."),
    U("leo-un-2",
      "Who pays if the ointment has to be pulled from pharmacy shelves because of a safety problem?",
      "product recall", None,
      [r"recall", r"withdraw", r"\bpull", r"shel(f|ves)", r"retriev"],
      {},
      "Not addressed: the agreement covers development costs, indemnities for third-party actions and termination, "
      "but says nothing about recalls or market withdrawals."),
    # ------------------------------------------------------------------ pnc
    P("pnc-para-1",
      "Is Premier Nutrition locked into buying any set amount of protein powder from Fonterra under the master deal?",
      [("1.8 This Agreement is nonexclusive", "conclude any business transaction with the other.", "Section 1.8")],
      "No. The master agreement is non-exclusive and guarantees no purchase or supply of any item or quantity; "
      "quantities come only from Master Purchase Commitments and purchase orders."),
    P("pnc-para-2",
      "How long does the Fonterra supply deal run, and how early must someone speak up to stop it carrying on?",
      [("6.1 This Agreement will commence on the Effective Date", "unless terminated as permitted under this Agreement.",
        "Section 6.1")],
      "Five years from 31 October 2019, renewing automatically for further five-year periods unless a party gives "
      "notice of non-renewal at least 12 months before the current term ends."),
    P("pnc-para-3",
      "If a drought or a dock strike keeps Fonterra from shipping, can Premier buy the powder somewhere else, and "
      "does that still count toward what it committed to buy?",
      [("10.3 Should Supplier be unable to comply", "from Supplier at a later time.", "Section 10.3")],
      "Yes. Premier may obtain the undelivered ingredients elsewhere, those quantities are credited against its "
      "Minimum Purchase Commitment, and it need not buy them from Fonterra later."),
    P("pnc-para-4",
      "Can Premier Nutrition send its own people to walk through Fonterra's plants?",
      [("2.6 PNC or its contracted third-party auditors", "with PNC during all such inspections.", "Section 2.6")],
      "Yes. Premier or its contracted auditors may enter and audit/inspect the facilities where the ingredients are "
      "made, stored or packed, on notice during business hours for routine visits and at any time when food safety "
      "is at issue; Fonterra must cooperate."),
    U("pnc-un-1",
      "Are Premier Nutrition and Fonterra barred from badmouthing each other in public?",
      "non-disparagement", "Non-Disparagement",
      [r"disparag", r"reputation", r"defam", r"critici", r"negative", r"derogator", r"goodwill", r"\bimage\b"],
      {},
      "Not addressed: the agreement has confidentiality (Section 5) and supplier-conduct rules (Sections 14-20), but "
      "no promise by either side not to disparage the other."),
    U("pnc-un-2",
      "Does Premier get any volume rebate or discount from Fonterra for buying in bulk?",
      "volume rebates / discounts", None,
      [r"rebate", r"discount", r"\bvolume\b", r"allowance", r"\btiers?\b", r"\bbulk\b"],
      {},
      "Not addressed: the agreement contains no rebate, discount or volume-pricing term."),
    # ------------------------------------------------------------------ spin
    P("spin-para-1",
      "What share of the ad money from the co-branded music pages does SpinRecords owe Nettaxi, and when?",
      [("5.5 SpinRecords.com Rate.", "except taxes based on NETTAXI's income.", "Exhibit C, 5.5"),
       ("5.7 Payment Schedule.", "invoiced during such calendar quarter.", "Exhibit C, 5.7")],
      "50% of the advertising revenue (at an average rate no lower than $6.50 CPM) attributable to visitors arriving "
      "from Nettaxi's co-branded pages (SpinRecords' Advertising Revenue times its AR Share), paid within 30 days "
      "after each calendar quarter."),
    P("spin-para-2",
      "If somebody buys a majority stake in SpinRecords, can Nettaxi pull the plug?",
      [("(b) Change of Control.", "terminate this Agreement upon written notice.", "Section 8.3(b)")],
      "Yes. A change of 50% or more of either party's equity ownership lets the other party terminate on written "
      "notice."),
    P("spin-para-3",
      "Can Nettaxi pull out of the music-site partnership without any cause, and how much warning must it give?",
      [("8.2 Convenience.", "days prior written notice to NETTAXI.", "Section 8.2")],
      "Yes, on 60 days' prior written notice; SpinRecords then keeps payments made or payable before termination. "
      "SpinRecords has the same 60-day right."),
    P("spin-para-4",
      "How quickly after the partnership ends must SpinRecords give back Nettaxi's logos and other materials?",
      [("8.5 Return of Materials Upon Termination.", "schematics in Nettaxi.com's possession", "Section 8.5")],
      "Within 10 days after termination, and Nettaxi must likewise return SpinRecords' confidential information and "
      "brand features."),
    U("spin-un-1",
      "Is there a fixed penalty if SpinRecords misses the launch dates for the co-branded site?",
      "liquidated damages / penalty for delay", "Liquidated Damages",
      [r"liquidated", r"penalt", r"\blate\b", r"forfeit", r"delay", r"\bdamages\b"],
      {},
      "Not addressed: the Statement of Work gives target dates for the roll-out phases, but no penalty or liquidated "
      "damages are attached to missing them."),
    U("spin-un-2",
      "What rules cover protecting the personal details of the music-site members the two companies share?",
      "data privacy / personal data", None,
      [r"privacy", r"personal\s+(data|information|details)", r"data\s+protection", r"opt.?out", r"personally",
       r"\bconsent\b"],
      {},
      "Not addressed: the Statement of Work has SpinRecords hand over its member list and the two registrations "
      "synchronised, but the agreement has no privacy or personal-data provision (the confidentiality clause covers "
      "information marked confidential between the parties, not members' privacy)."),
    # ------------------------------------------------------------------ wgt
    P("wgt-para-1",
      "If European Micro wants out of the WatchGuard deal early just because it wants to, what does that cost?",
      [("(c) for convenience whether or not extended", "cumulative Guaranteed Minimum Purchase amounts.",
        "Section 5.4(c)")],
      "It may terminate on 30 days' advance written notice but must, within that period, pay WatchGuard a lump sum "
      "of 50% of the unpaid balance of the cumulative Guaranteed Minimum Purchases."),
    P("wgt-para-2",
      "What happens if European Micro doesn't buy enough WatchGuard gear by the quarterly targets?",
      [("5.3 Failure to Make Guaranteed Minimum Purchases.", "in lieu of WGT's claim for actual damages from such breach.",
        "Section 5.3")],
      "WatchGuard may terminate on notice, and European Micro must pay 50% of the unpaid balance of the cumulative "
      "Guaranteed Minimum Purchase amounts as liquidated damages."),
    P("wgt-para-3",
      "How much warning does WatchGuard have to give before raising what European Micro pays for its boxes?",
      [("3.2 Price.", "after WGT gives Distributor written notices of the change.", "Section 3.2")],
      "A price-list change takes effect for European Micro only 45 days after WatchGuard gives written notice; "
      "orders are priced at the list in effect when WatchGuard receives them, less the Exhibit A discount."),
    P("wgt-para-4",
      "How fast does WatchGuard have to get back to European Micro when the firewall software stops working "
      "altogether?",
      [('"P-1" - respond within two (2) hours', "considering the nature of the problem.", "Exhibit C, B.4 (P-1)"),
       ('Priority One ("P-1") is reserved', "causes the Software to be unusable.", "Exhibit C, B.3 (P-1)")],
      "For a P-1 problem (software fails or is unusable) WatchGuard responds within two hours, subject to its normal "
      "business hours, and uses all commercially reasonable and diligent efforts to provide a fix or work-around as "
      "soon as practicable."),
    U("wgt-un-1",
      "Does European Micro have to carry product liability insurance while it sells WatchGuard firewalls?",
      "insurance", "Insurance",
      [r"insur", r"underwrit", r"\bpolic(y|ies)\b", r"certificate", r"additional\s+insured"],
      {},
      "Not addressed: apart from paying freight-insurance premiums on shipments (Exhibit B, 5), European Micro has no "
      "obligation to carry liability or any other insurance."),
    U("wgt-un-2",
      "Does WatchGuard chip in any marketing money or co-op advertising funds for European Micro's promotions?",
      "marketing development funds / co-op advertising", None,
      [r"co-?op", r"marketing\s+(development\s+)?funds?", r"\bMDF\b", r"advertising\s+allowance", r"rebate",
       r"reimburse"],
      {},
      "Not addressed: WatchGuard only furnishes demonstration product and promotional literature as it deems "
      "appropriate (Section 4.2(c)); European Micro runs and pays for its own marketing programme, and no marketing "
      "funds or co-op money are provided."),
]


# Reviewed hits of the absence searches: term -> why its hits are not about the asked topic.
REASONS = {
    "vis-un-1": {
        r"compensat": "Section 4: Turpin assists 'without additional compensation' (no pay for assistance); Section 8: "
                      "damages would be inadequate to 'compensate the Company' - neither gives Turpin a royalty or share.",
    },
    "north-un-1": {
        r"merge": "matches inside 'emergency' in the force-majeure definition (Paragraph 29), not a merger.",
        r"\bownership\b": "heading 'Ownership' (table of contents and Paragraph 9: the company owns the advertising "
                           "materials), not ownership of Golfers Inc.",
    },
    "north-un-2": {
        r"\bstock\b": "'stock photographs of North' (Paragraph 8.b), not company stock.",
        r"equity": "'at law or in equity' (Paragraph 13, remedies), not an equity stake.",
        r"warrant": "'representation and warranty' / 'represents and warrants' (Paragraphs 8.c, 15.c, 25, 27), not "
                    "share warrants.",
    },
    "hyd-un-1": {
        r"\blimit": "'limited partnership', 'without limitation/limiting', 'subject to any limitations' (use of marks) "
                     "and the insurance minimum 'limits of liability of at least One Million Dollars' (Section 7.2) - a "
                     "minimum cover amount, not a cap on what a party owes.",
    },
    "hyd-un-2": {
        r"\bplayers?\b": "'Pro Player Stadium' (stadium name) and the 'Defensive Player of the Week' Jumbotron video "
                          "feature Hydron sponsors (Exhibit A) - no player appearance is promised.",
    },
    "brav-un-2": {
        r"expense": "Section 10 indemnities cover 'damages, costs, expenses' from third-party claims, not travel or "
                    "sales expenses.",
    },
    "leo-un-1": {
        r"compet": "'a competent Governmental or Regulatory Authority' (Section 5.2), not competition.",
        r"exclusiv": "recitals: Galen appointed 'exclusive distributor' under the separate Dovobet/Dovonex agreements "
                     "(a grant to Galen, not a restriction on rival products); Article XIII 'exclusive jurisdiction'.",
    },
    "spin-un-1": {
        r"liquidated": "'either party is liquidated or dissolved' (insolvency termination event, Section 8.3(a)).",
        r"delay": "force majeure: no liability for 'delays or failures in performance' beyond control (Section 9.1).",
        r"\bdamages\b": "indemnities (7.1, 7.2), exclusion of consequential damages (7.3) and equitable relief (9.4) - "
                         "none sets a fixed sum for missing launch dates.",
    },
    "spin-un-2": {
        r"personally": "'shall be personally delivered' (notices, Section 9.6).",
        r"\bconsent\b": "consent to announcements (6.1) and to assignment (9.7), not users' consent to data use.",
    },
    "wgt-un-1": {
        r"insur": "Exhibit B, 5: distributor reimburses 'premiums for freight insurance' on shipments - a shipping "
                  "cost, not an obligation to carry liability insurance.",
        r"certificate": "registration/permit 'certificates' (4.1(j)) and tax-withholding 'certificates' (Exhibit B, 9).",
    },
    "wgt-un-2": {
        r"reimburse": "Exhibit B, 5: distributor must 'pay or reimburse WGT' for shipping charges - the opposite "
                      "direction and not marketing money.",
    },
}
for _sp in SPECS:
    if _sp["type"] == "unanswerable":
        _sp["reasons"].update(REASONS.get(_sp["id"], {}))
