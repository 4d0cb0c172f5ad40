# ruff: noqa: E501  (question text and clause snippets are data; kept on one line each)
"""Question specs for the blind2 lay-register set (data only; see build_questions.py)."""


def G(start, end, ref, must):
    return {"start": start, "end": end, "ref": ref, "must": must}


def P(qid, question, gold, answer):
    return {"id": qid, "type": "paraphrase", "question": question, "gold": gold, "answer": answer}


def U(qid, question, topic, terms, reasons, answer):
    return {"id": qid, "type": "unanswerable", "question": question, "topic": topic, "terms": terms, "reasons": reasons, "answer": answer}


HIRE = r"\bhir(e|ed|es|ing)\b"
COMPET = r"\bcompet(e|es|ing|itor|itors|ition|itive)\b"

SPECS = [
    # ------------------------------------------------------------------ rog: Rogers Cable - EuroMedia (Eurocinema) VOD licence
    P(
        "rog-para-1",
        "If Rogers decides the Eurocinema movies-on-demand arrangement isn't worth it any more, how much warning does it owe EuroMedia before pulling out?",
        [G("18. ROGERS' TERMINATION RIGHTS.", "prior written notice to Licensor.", "Section 18", ["sixty (60) days"])],
        "Rogers may end the agreement at any time, without needing a reason, on 60 days' prior written notice to EuroMedia.",
    ),
    P(
        "rog-para-2",
        "What slice of the rental takings does EuroMedia get from Rogers for its films, and how soon after each month does the money show up?",
        [
            G("(a) Rogers shall pay to Licensor a fee", "(iii) digital cable access.", "Section 6(a)", ["fifty (50)% of Retail Revenues"]),
            G("(c) Payment of License Fees shall be made", "calculation of the License Fees.", "Section 6(c)", ["within thirty (30) days"]),
        ],
        "A License Fee of 50% of Retail Revenues (what Rogers actually receives per exhibition, less GST and sales tax, before the deductions the agreement allows), paid in Canadian dollars in arrears within 30 days after each month, with a statement of account.",
    ),
    P(
        "rog-para-3",
        "Say EuroMedia later gives an American streaming or cable outfit a sweeter deal on the same films - can Rogers claim those better terms too?",
        [
            G(
                "21. MOST FAVOURED NATIONS.",
                "survive the expiry or other termination of this Agreement for a period of twelve (12) months.",
                "Section 21",
                ["more favourable", "incorporate, or substitute"],
            )
        ],
        "Yes. If EuroMedia gives a third party more favourable VOD terms in the U.S. or Canada, Rogers may incorporate or substitute those terms from the date they were granted; EuroMedia must certify each year by February 28, and Rogers may audit its books during the term and for 12 months after.",
    ),
    P(
        "rog-para-4",
        "Suppose the copy of a film EuroMedia ships over turns out to be faulty and Rogers can't put it up on the launch day - does that change what Rogers pays for that title?",
        [
            G(
                "(b) To the extent any Master delivered by Licensor",
                "for the balance of the License Period.",
                "Section 8(b)",
                ["replacement Master", "reduced by 10%"],
            )
        ],
        "Yes. EuroMedia must supply a replacement master at once, and if the defect stops Rogers showing the program on its availability date, the License Fee for that program is cut by 10% for the rest of its License Period.",
    ),
    U(
        "rog-un-1",
        "Is EuroMedia allowed to hire away the Rogers people who run the on-demand service to work on its own channel?",
        "non-solicitation / no-hire of staff",
        ["solicit", HIRE, "recruit", "poach", "employee", "personnel"],
        {},
        "Not addressed: the agreement has no non-solicitation or no-hire provision covering either party's staff.",
    ),
    U(
        "rog-un-2",
        "If Rogers is late paying EuroMedia its share, does it owe interest or some kind of late fee?",
        "interest / charges on late payment",
        [r"\binterest\b", r"late (payment|charge|fee)", "overdue", "past due", "penalt", "per annum"],
        {},
        "Not addressed: the agreement sets monthly payment within 30 days but provides no interest, late fee or other charge on late payment.",
    ),
    # ------------------------------------------------------------------ drv: Driven Deliveries - TruckThat consulting
    P(
        "drv-para-1",
        "If Driven Deliveries gets fed up with TruckThat, can it end things, and does it have to give them a heads-up first?",
        [
            G(
                "7.2. Termination.",
                "material provision of this Agreement.",
                "Section 7.2",
                ["thirty (30) days prior written notice", "immediately and without prior notice"],
            )
        ],
        "Either side may end the agreement with or without cause on 30 days' prior written notice; Driven Deliveries may end it immediately without notice if TruckThat refuses or is unable to perform or is in breach of a material provision.",
    ),
    P(
        "drv-para-2",
        "Once TruckThat's gig is over, how long is it kept from luring away Driven Deliveries' staff or customers?",
        [
            G(
                "4.3 Non-Solicitation.",
                "or vendor of the Company for a period of five (5) years for any reason, and without limitation for the purpose of harming the Company or of obtaining and disseminating its trade secrets, or other proprietary and confidential information",
                "Section 4.3",
                ["hire away", "customer, client, supplier or vendor", "five (5) years"],
            )
        ],
        "Five years: without Driven Deliveries' written consent, TruckThat may not solicit or hire away its employees, or solicit or divert its customers, clients, suppliers or vendors, for five years (the clause survives termination).",
    ),
    P(
        "drv-para-3",
        "Who ends up owning the pitch decks, graphics and other stuff TruckThat creates for Driven Deliveries?",
        [
            G(
                "3.1. Assignment of Inventions.",
                "deemed Confidential Information of the Company.",
                "Section 3.1",
                ["are the sole property of the Company", "irrevocably assigns"],
            )
        ],
        "Driven Deliveries does: all material, designs, developments and other work TruckThat produces in performing the services, and the intellectual property in them, are the Company's sole property, and TruckThat assigns them to it.",
    ),
    P(
        "drv-para-4",
        "If something goes wrong, is there a ceiling on what TruckThat could recover from Driven Deliveries?",
        [
            G(
                "10. Limitation of Liability.",
                "GIVING RISE TO SUCH LIABILITY.",
                "Section 10",
                ["AGGREGATE LIABILITY", "EXCEED THE AMOUNTS PAID BY COMPANY TO CONSULTANT"],
            )
        ],
        "Yes. Driven Deliveries is never liable for indirect, incidental, consequential or lost-profit damages, and its total liability is capped at what it paid TruckThat for the services, deliverables or invention that gave rise to the claim.",
    ),
    U(
        "drv-un-1",
        "If a lockdown or a natural disaster stops TruckThat from doing the work for a while, is it let off the hook?",
        "force majeure",
        ["force majeure", r"acts? of god", r"beyond (its|the|their|a) (reasonable )?control", "pandemic", "epidemic", "disaster", "unforeseen"],
        {},
        "Not addressed: the agreement has no force majeure or similar excuse-of-performance clause.",
    ),
    U(
        "drv-un-2",
        "Does TruckThat have to carry its own liability insurance while it works for Driven Deliveries?",
        "insurance",
        ["insur", "coverage", "underwrit", "certificate of", "additional insured"],
        {},
        "Not addressed: the agreement does not require either party to carry insurance.",
    ),
    # ------------------------------------------------------------------ pvx: PivX - Detto Technologies reseller (Qwik-Fix Pro)
    P(
        "pvx-para-1",
        "What can PivX do if Detto falls behind on paying for the software it resells?",
        [
            G(
                "3.3 PAYMENT.",
                "after Detto's payment default has been satisfied.",
                "Section 3.3",
                ["one and one-half percent (1.50%) per month", "credit hold"],
            )
        ],
        "PivX can charge a late charge of 1.5% a month (or the legal maximum if lower), put Detto on credit hold, stop it selling more copies, and require customers' payments to be redirected to PivX until the default is cured.",
    ),
    P(
        "pvx-para-2",
        "Can PivX just pull the plug on Detto whenever it feels like it?",
        [
            G(
                "5.2 TERMINATION OF AGREEMENT.",
                "for the benefit of creditors.",
                "Section 5.2",
                ["for convenience", "at least thirty (30) days written notice"],
            )
        ],
        "Yes: PivX may end the agreement for convenience on at least 30 days' written notice. Either side may also end it for a material breach not cured within 30 days, and it ends automatically if a party becomes insolvent.",
    ),
    P(
        "pvx-para-3",
        "If somebody claims PivX's patching software rips off their patent and comes after Detto, who deals with it and foots the bill?",
        [
            G(
                "4.2 PRODUCT INDEMNITY.",
                "relating to the future use of Qwik-Fix Pro.",
                "Section 4.2",
                ["infringes any intellectual property right of a third party", "right to control of the defense"],
            )
        ],
        "PivX defends and indemnifies Detto (and its subsidiaries) against claims that the software or its documentation infringes a third party's IP, provided Detto notifies it promptly, helps, and lets PivX control the defence; PivX may also get a licence, modify or replace the product, or take it back and refund.",
    ),
    P(
        "pvx-para-4",
        "How much warning does Detto get before PivX bumps up what it charges Detto per unit?",
        [G("3.2 PER COPY FEES.", "increase in the Per Copy Fees.", "Section 3.2", ["forty-five (45) days written notice"])],
        "At least 45 days' written notice of any increase in the Per Copy Fees; changed fees apply to orders PivX receives after the increase takes effect.",
    ),
    U(
        "pvx-un-1",
        "While it's reselling for PivX, is Detto free to also sell rival security tools from other vendors?",
        "non-compete on the reseller",
        [COMPET, "rival", "exclusiv", "similar product", "other vendor", "third[- ]party products"],
        {
            "exclusiv": "The 'exclusive' hits are PivX's grant of an exclusive North American licence TO Detto and a non-exclusive licence outside North America (1.1), PivX's exclusive ownership of its IP (2.2), PivX's exclusive right to sue infringers (2.6), the 'final, complete, and exclusive agreement' merger wording (6.2) and the 'exclusive jurisdiction' of Orange County courts (6.7); none restricts Detto from selling other vendors' products."
        },
        "Not addressed: nothing in the agreement restricts Detto from selling competing products; the only exclusivity is the exclusive licence PivX grants to Detto.",
    ),
    U(
        "pvx-un-2",
        "If PivX gives another reseller a better price per copy, does Detto automatically get the same deal?",
        "most-favoured pricing",
        [r"most favou?red", r"favou?rable", r"\bMFN\b", "better terms", "lowest price", r"no (less|higher|greater)"],
        {},
        "Not addressed: the agreement has no most-favoured-customer or price-matching provision; per-copy fees are set in Exhibit A and may be increased on 45 days' notice.",
    ),
    # ------------------------------------------------------------------ thv: Theravance Biopharma UK - Brett Haumann service agreement
    P(
        "thv-para-1",
        "If Theravance wants Brett out the door today rather than having him work out his notice, what is he owed?",
        [
            G(
                "17. Payment in Lieu of Notice 17.1",
                "less deductions required by law.",
                "Clause 17.1",
                ["with immediate effect", "paid within 28 days", "during the notice period referred to at clause 2"],
            )
        ],
        "The company may end his employment immediately and pay a payment in lieu of notice equal to the basic salary he would have earned during the notice period (6 weeks, or the rest of it), less deductions, within 28 days.",
    ),
    P(
        "thv-para-2",
        "How much paid time off does Brett get from Theravance every year, and are bank holidays counted in that?",
        [
            G(
                "12.1 The Executive shall be entitled to 28 days",
                "authorised in advance.",
                "Clause 12.1",
                ["28 days' paid holiday", "which includes public holidays"],
            )
        ],
        "28 days' paid holiday per holiday year, which includes public holidays, taken at times convenient to the company and approved in advance.",
    ),
    P(
        "thv-para-3",
        "After Brett leaves Theravance, can he try to tempt his old colleagues to jump ship, and for how long is that off-limits?",
        [
            G(
                "21. Post Termination Restrictions",
                "hiring and firing of Company personnel.",
                "Clause 21",
                ["for one (1) year thereafter", "encourage or solicit any employee"],
            )
        ],
        "No: during his employment and for one year afterwards he must not, directly or indirectly, encourage or solicit any company employee to leave.",
    ),
    P(
        "thv-para-4",
        "What's the biggest bonus Brett could get annually, and is Theravance actually committed to paying one?",
        [
            G("9. Annual Bonus 9.1", "in what amount and when.", "Clause 9.1", ["up to 50% of the Executive's basic salary", "discretion"]),
            G(
                "9.2 The Company may suspend, alter or discontinue",
                "prior to the date that the bonus is paid.",
                "Clause 9.2",
                ["absolute discretion", "not under notice"],
            ),
        ],
        "Up to 50% of basic salary, but it is discretionary: the company decides whether targets are met and whether, how much and when to pay, may suspend or change the plan at any time, and he must be employed and not under notice on the payment date.",
    ),
    U(
        "thv-un-1",
        "Does Brett get a company car or a car allowance with his Theravance job?",
        "company car / car allowance",
        [r"\bcars?\b", "vehicle", "automobile", "mileage", r"\bmotor\b", "car allowance"],
        {},
        "Not addressed: the agreement provides salary, bonus, pension, benefit plans, holiday, sick pay and travel expenses, but no company car or car allowance.",
    ),
    U(
        "thv-un-2",
        "How much time off would Theravance give Brett if he became a father - is there paternity or family leave?",
        "parental / family leave",
        ["maternity", "paternity", "parental", "family leave", "adoption", "childcare", "dependant"],
        {},
        "Not addressed: the agreement covers holiday and sickness absence but says nothing about maternity, paternity, parental or other family leave.",
    ),
    # ------------------------------------------------------------------ stm: Stremicks Heritage Foods - Premier Nutrition manufacturing
    P(
        "stm-para-1",
        "If stuff Heritage makes for Premier has to be pulled off store shelves, who runs that process and who picks up the tab?",
        [
            G(
                "21. PRODUCT RECALLS",
                "Premier shall bear all costs associated with any Recall Action.",
                "Section 21",
                ["sole right", "Heritage shall bear all costs"],
            )
        ],
        "Premier alone decides on and directs any recall and may make Heritage carry it out; Heritage pays if the recall results from its or Jasper's negligence or misconduct, failure to meet specifications, breach, or ingredients/packaging they bought; otherwise Premier pays.",
    ),
    P(
        "stm-para-2",
        "Once the goods are loaded onto the truck at Heritage's plant, whose problem is it if they get damaged on the road?",
        [
            G(
                "(c) Heritage shall perform, and shall ensure Jasper performs, a documented inspection",
                "and sealing the same.",
                "Section 4(c)",
                ["in-transit damage loss"],
            ),
            G(
                "(a) Title to the Products shall be in and remain with Premier",
                "pursuant to Section 2.",
                "Section 8(a)",
                ["Heritage shall bear the risk of loss"],
            ),
        ],
        "Premier's: Heritage bears the risk until the products are delivered to Premier's carrier, and once they are properly palletised, loaded and sealed Premier is responsible for in-transit damage or loss (Heritage keeps the risk on shipments between its own facilities).",
    ),
    P(
        "stm-para-3",
        "Is Premier tied to Heritage as its only manufacturer, or can it get the same products made elsewhere too?",
        [
            G(
                "(a) Nothing herein shall be construed to create a requirements contract",
                "or third-parties.",
                "Section 18(a)",
                ["Minimum Annual Order Volume", "other co-packers"],
            )
        ],
        "Not tied: apart from the Minimum Annual Order Volume, Premier need not buy from Heritage and may buy the products or similar ones from other co-packers, manufacturers or third parties.",
    ),
    P(
        "stm-para-4",
        "When the Heritage arrangement wraps up, is Premier stuck buying whatever leftover raw materials and wrappers Heritage has sitting around?",
        [
            G(
                "(b) So long as Premier has satisfied its payment obligations",
                "held in its custody.",
                "Section 11(b)",
                ["Premier shall purchase all Products and ingredients, packaging and material"],
            )
        ],
        "Largely yes: on termination Premier must buy the finished products and the ingredients, packaging and materials Heritage holds that are used solely for Premier's products, limited to a capped supply based on prior usage unless Premier approved larger vendor minimum orders.",
    ),
    U(
        "stm-un-1",
        "Is there a ceiling on how much Heritage could end up owing Premier if a whole production run goes bad?",
        "cap on liability",
        [
            "limitation of liability",
            r"limit(ation)? (of|on) liability",
            "consequential",
            r"\bcap(ped)?\b",
            "aggregate liability",
            "maximum liability",
            "in no event",
        ],
        {
            "in no event": "Both hits are unrelated to a liability cap: 2(m) 'In no event shall Premier pay [***]' concerns PO change charges, and 11(b) 'In no event, however, shall Heritage have the right to resell' concerns releasable product after termination."
        },
        "Not addressed: the agreement sets indemnities and insurance requirements but no cap or limitation on either party's liability.",
    ),
    U(
        "stm-un-2",
        "Could Premier try to hire away Heritage's plant managers or line workers?",
        "non-solicitation / no-hire of staff",
        ["solicit", HIRE, "recruit", "poach", r"employees?\b"],
        {
            HIRE: "7(c) 'the indemnifying Party's right to hire its own counsel' - hiring lawyers in a claim, not staff.",
            r"employees?\b": "6(a)(i) 'phone numbers for Premier employees' (out-of-hours production contacts) and 8(b) Employers Liability limits 'disease, each employee' (insurance) - neither restricts hiring the other party's staff.",
        },
        "Not addressed: the agreement has no non-solicitation or no-hire provision for either party's employees.",
    ),
    # ------------------------------------------------------------------ cool: Cool Technologies - Veteran Technology Group alliance
    P(
        "cool-para-1",
        "How long does the Cool Tech / Vet Tech tie-up run, and can one side bail out early?",
        [
            G(
                "ARTICLE II. PERIOD OF PERFORMANCE.",
                "Time is of the essence in this Agreement.",
                "Article II",
                ["five (5) years", "automatically renewed", "sixty (60) days advance written notice"],
            )
        ],
        "Until the later of five years or completion and payment of projects Vet Tech bills directly; it then renews automatically for one-year periods unless either side gives 30 days' notice before expiry, and either party may end it early on 60 days' written notice (or by mutual agreement).",
    ),
    P(
        "cool-para-2",
        "Once the partnership is over, could Cool Tech bring one of Vet Tech's engineers onto its own payroll?",
        [
            G(
                "ARTICLE VIII. NON-SOLICITATION OF PERSONNEL.",
                "mutually agreed in writing.",
                "Article VIII",
                ["six (6) months following expiration or termination"],
            )
        ],
        "Not for six months: neither party may hire, or engage as contractors, the other's employees or contractors during the term and for six months after it ends, unless both agree in writing.",
    ),
    P(
        "cool-para-3",
        "If Vet Tech botches a client job and that client sues Cool Tech, is Vet Tech on the hook?",
        [
            G(
                "ARTICLE VII. INDEMNIFICATION.",
                "in the defense of any such claim or other matter.",
                "Article VII",
                ["resulting solely and directly from the indemnifying party's negligence or willful misconduct"],
            )
        ],
        "Only where the claim results solely and directly from Vet Tech's own negligence or willful misconduct; neither party covers liability caused by the other's or a third party's negligence, and prompt written notice of the claim is required.",
    ),
    P(
        "cool-para-4",
        "When Cool Tech or Vet Tech does the work on a client engagement under their alliance, who ends up owning what gets produced?",
        [
            G(
                "ARTICLE IX. INTELLECTUAL PROPERTY",
                "Non-Disclosure Agreement attached hereto as Exhibit A.",
                "Article IX",
                ["property of the respective parties performing the work"],
            )
        ],
        "The party that performs the work or creates the information owns the resulting work, materials and deliverables; each party's pre-existing methodology stays its own.",
    ),
    U(
        "cool-un-1",
        "If Cool Tech and Vet Tech end up fighting over money, do they have to go to arbitration or mediation first?",
        "dispute resolution / arbitration",
        ["arbitrat", "mediat", "dispute", "tribunal", r"\bAAA\b", r"\bcourts?\b", "litigation"],
        {},
        "Not addressed: the agreement only says Missouri law governs; it has no arbitration, mediation, forum or other dispute-resolution provision.",
    ),
    U(
        "cool-un-2",
        "Is Cool Tech allowed to set up the same kind of referral tie-up with Vet Tech's competitors?",
        "exclusivity / non-compete between the partners",
        ["exclusiv", COMPET, "rival", r"sole (provider|partner|source)", "only partner", "non-compete"],
        {},
        "Not addressed: the agreement contains no exclusivity or non-compete obligation on either party.",
    ),
    # ------------------------------------------------------------------ vio: Forty Niners SC Stadium Co. - Violin Memory sponsorship
    P(
        "vio-para-1",
        "How much is Violin shelling out to the 49ers every year, and when are the instalments due?",
        [
            G(
                "(a) Fee. In exchange for the Sponsorship Rights",
                "(USD $4,000,000.00) during each Contract Year.",
                "Section 5(a)",
                ["(USD $4,000,000.00)"],
            ),
            G(
                "(c) Payment Schedule.",
                "will not open in 2014.",
                "Section 5(c)",
                ["two (2) equal semiannual installments", "March 1 and September 1"],
            ),
        ],
        "US$4 million per Contract Year, paid in two equal instalments on or before March 1 and September 1 each year, the first due March 1, 2014 unless the 49ers say the stadium will not open in 2014.",
    ),
    P(
        "vio-para-2",
        "If the new Santa Clara ground isn't ready and the Niners end up playing a bunch of home games somewhere else, what does Violin get to make up for it?",
        [
            G(
                "(c) Greater than Four Regular Season Home Games.",
                "arbitration process set forth in Section 12.",
                "Section 7(c)",
                ["make good benefits", "Lost Sponsorship Benefits"],
            )
        ],
        "If four or more 2014 regular-season home games are played outside the stadium, Violin still gets its benefits for those games plus 'make good' benefits for the sponsorship value it lost, agreed between the parties or, failing agreement, set by arbitration.",
    ),
    P(
        "vio-para-3",
        "Could the 49ers also sign up a rival flash-storage company as a sponsor?",
        [
            G(
                "(a) Exclusive Sponsor of the Team.",
                "in which the termination occurs.",
                "Section 4(a)",
                ["exclusive to Sponsor within the Product and Services Category", "naming rights agreement"],
            ),
            G('(l) "Product and Services Category', "video surveillance products.", "Section 1(l)", ["flash data storage"]),
        ],
        "Not within the category: Violin's rights are exclusive for flash data storage and video surveillance products, except that the 49ers may sponsor with a stadium naming-rights partner; if the naming-rights partner is in Violin's category, Violin may terminate and get a pro-rated refund.",
    ),
    P(
        "vio-para-4",
        "What's the penalty if Violin drags its feet on a payment to the 49ers?",
        [
            G(
                "(f) Interest on Late Payments.",
                "failure to make payments when due.",
                "Section 5(f)",
                ["fourteen (14) days", "twelve percent (12%) per annum"],
            )
        ],
        "Any payment not made within 14 days of its due date bears interest at 12% a year (or the legal maximum, if lower) from the due date, on top of the 49ers' other remedies.",
    ),
    U(
        "vio-un-1",
        "Can Violin send someone in to check the 49ers' records and make sure all the promised ads and signs actually ran?",
        "audit / verification of performance",
        ["audit", "inspect", "books and records", r"\bverif", "proof of performance", "affidavit", r"\brecords?\b"],
        {},
        "Not addressed: the agreement gives Violin no audit, inspection or proof-of-performance right over the 49ers' delivery of the sponsorship benefits.",
    ),
    U(
        "vio-un-2",
        "If another founding partner at the 49ers' new stadium negotiates a cheaper sponsorship package, can Violin insist on the same price?",
        "most-favoured pricing",
        [r"most favou?red", r"favou?rable", r"\bMFN\b", "better terms", "lowest price", "price protection"],
        {},
        "Not addressed: the fee is fixed at US$4 million a year and there is no most-favoured-nation or price-matching clause.",
    ),
    # ------------------------------------------------------------------ neon: Peregrine/Bridge Transfer - Neon Systems distributor
    P(
        "neon-para-1",
        "What cut of its customer sales does Neon have to hand over to Peregrine/Bridge, and does support income count too?",
        [
            G(
                "Section 3.1    FEES TO LICENSOR.",
                "upgrades of systems for such Licensed Product.",
                "Section 3.1",
                ["50% of all revenues received", "maintenance and support"],
            )
        ],
        "50% of all revenue Neon receives under its redistributor agreements and sublicences for each licensed product, and separately 50% of maintenance, support and upgrade revenue (with no deduction for VAT).",
    ),
    P(
        "neon-para-2",
        "What happens if Neon doesn't drum up enough business for Peregrine/Bridge in a year?",
        [
            G(
                "(1)   Upon ninety (90) days prior written notice if Licensee does not enter",
                "(but not in respect of subsequent terms)",
                "Section 14.2(b)(1)",
                ["Quota Amount", "$50,000"],
            )
        ],
        "If the fees it generates fall short of the Quota Amount ($50,000 for each of the first two years; an agreed amount of at least $50,000 for renewal years), Peregrine/Bridge may terminate on 90 days' notice, but must give that notice within six months after the year ends or lose the right for that year.",
    ),
    P(
        "neon-para-3",
        "If Neon gets bought out by another company, can Peregrine/Bridge walk away from the arrangement?",
        [
            G(
                "(2)   Upon thirty (30) days prior written notice if Licensee enters",
                "substantially all of the assets of Licensee.",
                "Section 14.2(b)(2)",
                ["merger of Licensee with another entity"],
            )
        ],
        "Yes: Peregrine/Bridge may terminate on 30 days' written notice if Neon agrees to a merger, a sale of a majority of its stock or a sale of substantially all of its assets.",
    ),
    P(
        "neon-para-4",
        "While the deal is running, can Neon also push software that goes head to head with Peregrine's products?",
        [
            G(
                "Section 10.1   NONCOMPETITION.",
                "any business competing with the Licensed Products.",
                "Section 10.1",
                ["during the term of this Agreement Licensee shall not engage in"],
            )
        ],
        "No: during the term Neon may not engage in, represent or be connected, directly or indirectly, with any business competing with the licensed products.",
    ),
    U(
        "neon-un-1",
        "If Peregrine/Bridge went bust, would Neon be able to get hold of the underlying program code through some kind of escrow?",
        "source-code escrow",
        ["escrow", "source code", r"\bdeposit", "bankrupt", "insolven", r"release of (the )?code"],
        {
            "source code": "7.9 'Licensee shall not reverse engineer or otherwise attempt to reproduce the source code' - a prohibition on Neon, not an escrow or release of code.",
            r"\bdeposit": "15.2 'deposited in the United States mail' - the notices clause, not a code deposit.",
            "bankrupt": "14.2(a)(1) 'petition in bankruptcy' - a ground for terminating the agreement, with no release of code.",
            "insolven": "14.2(a)(1) 'becomes insolvent' - a ground for terminating the agreement, with no release of code.",
        },
        "Not addressed: the agreement has no source-code escrow or release provision; Peregrine/Bridge's insolvency only gives Neon a right to terminate.",
    ),
    U(
        "neon-un-2",
        "Does Neon have to keep liability insurance in place while it is selling Peregrine's software?",
        "insurance",
        ["insur", "coverage", "underwrit", "certificate of", "additional insured"],
        {
            "insur": "4.1 'any freight and insurance charges' - shipping insurance costs Neon pays on deliveries, not a duty to carry liability insurance."
        },
        "Not addressed: the agreement does not require Neon (or Peregrine/Bridge) to carry liability or any other insurance; it only makes Neon pay freight and insurance charges on shipments.",
    ),
    # ------------------------------------------------------------------ hc2: HC2 Holdings - MG Capital cooperation agreement
    P(
        "hc2-para-1",
        "Is HC2 covering MG Capital's costs from the proxy battle, and what's the most it will pay?",
        [G("10. Expenses.", "no later than the date of the 2020 Annual Meeting.", "Section 10", ["$352,290.25", "$650,000"])],
        "Yes: HC2 reimburses $352,290.25 within five business days of documentation, then further documented expenses up to a total cap of $650,000, all paid by the date of the 2020 annual meeting.",
    ),
    P(
        "hc2-para-2",
        "How long does MG Capital have to hold off on any new fight for board seats?",
        [
            G(
                "3. Standstill Provisions. (a) The standstill period",
                "for the 2021 Annual Meeting pursuant to the By-Laws.",
                "Section 3(a)",
                ["thirty (30) days prior to the deadline"],
            )
        ],
        "From the date of the agreement until 30 days before the deadline for stockholder director nominations for HC2's 2021 annual meeting (the Standstill Period).",
    ),
    P(
        "hc2-para-3",
        "Can HC2 and MG Capital bad-mouth each other to the media while the truce lasts?",
        [G("6. Mutual Non-Disparagement.", "jurisdiction over the party from whom information is sought.", "Section 6", ["publicly disparage"])],
        "No: during the Standstill Period neither side, nor its affiliates, officers, directors or other representatives, may publicly disparage the other, subject to disclosures about litigation, directors' fiduciary duties and legal process.",
    ),
    P(
        "hc2-para-4",
        "How does MG Capital have to vote its HC2 shares at shareholder meetings during the truce?",
        [
            G(
                "(c) The MG Capital Parties hereby agree to appear in person",
                "in accordance with the recommendation of ISS and Glass Lewis.",
                "Section 2(c)",
                ["in favor of all directors nominated by the Board"],
            )
        ],
        "It must attend and vote all its shares for the board's nominees and against removing directors, and follow the board's recommendation on say-on-pay and other proposals, except that it may follow ISS and Glass Lewis on say-on-pay if both recommend otherwise.",
    ),
    U(
        "hc2-un-1",
        "If MG Capital sells off most of its HC2 stake, do its two board picks have to step down?",
        "minimum-ownership condition / director resignation",
        [
            "resign",
            "step down",
            r"falls? below",
            "ownership threshold",
            r"minimum (ownership|holding|percentage)",
            r"ceases? to (own|hold|beneficially)",
            "less than",
        ],
        {"less than": "1(f) 'no less than the same level of efforts' - HC2's duty to support the slate, not an ownership threshold."},
        "Not addressed: the agreement has no minimum-ownership condition and no obligation for the MG Capital designees to resign if MG Capital sells shares.",
    ),
    U(
        "hc2-un-2",
        "Is HC2 promising to buy back MG Capital's shares at some agreed price?",
        "share buy-back of the investor's stake",
        ["repurchase", r"buy ?-?back", "redeem", "redemption", "purchase price", "put option"],
        {
            "repurchase": "3(a)(vii)(B) 'share repurchase programs and practices' - MG Capital may not publicly push changes to HC2's capital allocation; no buy-back of MG Capital's shares."
        },
        "Not addressed: HC2 makes no commitment to buy back MG Capital's shares; the only money HC2 pays is expense reimbursement capped at $650,000.",
    ),
    # ------------------------------------------------------------------ mcd: McDATA - MTI Technology reseller (Premier addendum)
    P(
        "mcd-para-1",
        "Can either McDATA or MTI walk away from the reselling arrangement without having to give a reason, and with how much warning?",
        [G("4.1 TERMINATION WITHOUT CAUSE.", "prior written notice to the other party.", "Section 4.1", ["sixty (60) days"])],
        "Yes: either party may terminate without cause on 60 days' prior written notice.",
    ),
    P(
        "mcd-para-2",
        "Is MTI allowed to advertise McDATA switches online at a discount?",
        [G("6. MARKETING", "or e-mail blasts.", "Premier Reseller Addendum, Section 6", ["any price below Manufacturer's Suggested List Price"])],
        "Not below list price: MTI may not publish or advertise any price below the manufacturer's suggested list price on its website, online or in any mass communication such as catalogues, fax or e-mail blasts and direct mail.",
    ),
    P(
        "mcd-para-3",
        "Where does MTI actually have to buy its McDATA gear from - can it order straight from McDATA?",
        [
            G(
                "1.2 Reseller is authorized to procure McDATA Products",
                "through a Channel Notification Document.",
                "Premier Reseller Addendum, Section 1.2",
                ["material breach"],
            ),
            G("PRODUCT PROVIDER:", "currently designated distributor.", "Appendix I, Product Provider", ["directly from one of the Distributors"]),
        ],
        "From its designated Product Provider - one of McDATA's listed distributors (Tidal Wire is ticked) - not from McDATA directly; buying elsewhere is a material breach unless McDATA approves, and MTI may switch distributor each year on 30 days' notice before renewal.",
    ),
    P(
        "mcd-para-4",
        "If McDATA and MTI fall out over this deal, where and how does the fight get settled?",
        [
            G(
                "12.7 DISPUTE RESOLUTION PROCESS.",
                "in any court of competent jurisdiction.",
                "Section 12.7",
                ["arbitration", "Denver, Colorado", "three arbitrators"],
            )
        ],
        "By final, binding arbitration in Denver, Colorado under the AAA Commercial Rules, with three arbitrators applying Colorado law (injunctive relief can still be sought in court).",
    ),
    U(
        "mcd-un-1",
        "Can McDATA send its auditors in to go through MTI's books?",
        "audit rights",
        ["audit", "inspect", "books", r"\brecords?\b", "examin"],
        {},
        "Not addressed: McDATA can require warranty and point-of-sale reports and prior financial statements, but the agreement gives it no right to audit or inspect MTI's books.",
    ),
    U(
        "mcd-un-2",
        "Is McDATA allowed to recruit MTI's sales reps or engineers to come work for it directly?",
        "non-solicitation / no-hire of staff",
        ["solicit", HIRE, "recruit", "poach", "personnel"],
        {"personnel": "5.3 'training Reseller's personnel' - training obligations, not a restriction on hiring."},
        "Not addressed: the agreement has no non-solicitation or no-hire provision for either party's employees.",
    ),
]
