# ruff: noqa: E501  (data file: long prose strings are kept on one line)
"""Hand-written question specs for the blind lay-register set 4 (see SOURCE.md).

Paraphrase gold is given as (clause_ref, first words of the clause, last words of the
clause); build_questions.py turns the anchors into character spans.  Unanswerable
questions give the regexes run over the whole contract and, per term, the reviewed
hits as (substring of the hit's context, why it does not answer the question).
``cuad_category`` records whether the absent topic is one of CUAD's 41 categories
(None = not a CUAD category); it is documentation only and is not written to the JSONL.
"""

AGREEMENTS = {
    "pho": {
        "file": "PhotronicsInc_20171219_10-QA_EX-10.28_10982650_EX-10.28_Outsourcing Agreement.txt",
        "name": "Photronics / Dai Nippon Printing (DNP) / PDMC - Xiamen photomask JV company Outsourcing Agreement, May 2017",
        "kind": "outsourcing / supply to a joint venture",
    },
    "med": {
        "file": "MEDALISTDIVERSIFIEDREIT,INC_05_18_2020-EX-10.1-CONSULTING AGREEMENT.txt",
        "name": "Medalist Diversified REIT - Gunston Consulting Consulting Agreement, Mar 2020",
        "kind": "executive consulting",
    },
    "brk": {
        "file": "BerkshireHillsBancorpInc_20120809_10-Q_EX-10.16_7708169_EX-10.16_Endorsement Agreement.txt",
        "name": "Berkshire Bank - Geno Auriemma Endorsement Agreement, May 2012",
        "kind": "celebrity endorsement",
    },
    "ibio": {
        "file": "IbioInc_20200313_8-K_EX-10.1_12052678_EX-10.1_Development Agreement.txt",
        "name": "iBio - Beijing CC-Pharming Master Joint Development Agreement (plant-made rituximab), Aug 2018",
        "kind": "joint development / technology licence",
    },
    "hov": {
        "file": "INTERSECTENT,INC_05_11_2020-EX-10.1-SUPPLY AGREEMENT.txt",
        "name": "Hovione Inter AG - Intersect ENT API Supply Agreement, Jan 2020",
        "kind": "pharmaceutical ingredient supply",
    },
    "ivl": {
        "file": "IVILLAGEINC_03_17_1999-EX-10.16-SPONSORSHIP AGREEMENT.txt",
        "name": "iVillage - Ford Motor Media Sponsorship Agreement, Dec 1998",
        "kind": "online sponsorship / advertising",
    },
    "bio": {
        "file": "BIOPURECORP_06_30_1999-EX-10.13-AGENCY AGREEMENT.txt",
        "name": "Biopure Corporation - The Butler Company Oxyglobin Agency Agreement, Mar 1999",
        "kind": "sales agency",
    },
    "vdc": {
        "file": "ENTERTAINMENTGAMINGASIAINC_02_15_2005-EX-10.5-DISTRIBUTOR AGREEMENT.txt",
        "name": "VendingData Corporation - Technical Casino Supplies Distributor Agreement (card shufflers), Jan 2005",
        "kind": "exclusive distribution",
    },
    "imd": {
        "file": "ICORECONNECTINC_10_13_2010-EX-7.1-Strategic Alliance Agreement.txt",
        "name": "iMedicor - USA Managed Care Organization Strategic Alliance Agreement, Jul 2010",
        "kind": "marketing alliance / revenue share",
    },
    "byd": {
        "file": "BEYONDCOMCORP_08_03_2000-EX-10.2-CO-HOSTING AGREEMENT.txt",
        "name": "Network Associates (McAfee) - Beyond.com (Software.net) Co-Hosting Agreement, Sep 1998",
        "kind": "web co-hosting / e-commerce",
    },
}

P = "paraphrase"
U = "unanswerable"

QUESTIONS = [
    # ------------------------------------------------------------------ Photronics / DNP / Xiamen JV
    {
        "id": "pho-para-1",
        "type": P,
        "question": "When the Xiamen photomask joint venture buys masks from Photronics or DNP, who ends up paying the border charges and VAT - the buyer or the sellers?",
        "gold": [("Section 4.3", "4.3 Taxes All amounts payable for Product sold", "identified on the invoice.")],
        "answer": "The Xiamen company does: prices exclude taxes, and it pays sales, use, excise and similar taxes, including VAT and customs duties on importing the products, except taxes on the suppliers' income and withholding taxes.",
    },
    {
        "id": "pho-para-2",
        "type": P,
        "question": "Is there a set end date for the arrangement under which Photronics and Dai Nippon supply masks to their Xiamen venture, or does it just run for as long as something stays true?",
        "gold": [("Section 7.1", "7.1 Term This Agreement shall become effective", "each remains a Shareholder of the Company.")],
        "answer": "No fixed end date: it runs from the Effective Date for as long as Photronics and DNP (or their Affiliates) each remain a shareholder of the Xiamen company.",
    },
    {
        "id": "pho-para-3",
        "type": P,
        "question": "If a box of masks gets smashed on its way from DNP to the Xiamen venture, whose loss is it, and who pays the shipping and transit cover?",
        "gold": [
            ("Section 5.1", "5.1 Risk of Loss and Title", "shall pass to the Company in accordance with the Delivery Term."),
            ("Section 5.2", "Suppliers shall be responsible for paying freight", "to the delivery point in accordance with the Delivery Term."),
            ("Schedule 1, item 3", '3. "Delivery Term" means DDP', "delivery point is other place than China."),
        ],
        "answer": "Risk of loss and title pass to the Xiamen company under the Delivery Term, which is DDP (Incoterms 2010) at the delivery point in China unless a purchase order says otherwise, so the supplier carries the loss until delivery there; the suppliers also pay freight, handling, shipping and insurance charges to the delivery point.",
    },
    {
        "id": "pho-para-4",
        "type": P,
        "question": "What's the most Photronics could ever be made to pay the Xiamen company if things go wrong under this supply set-up?",
        "gold": [("Section 9.1", "9.1 Limited Liability EXCEPT FOR LIABILITY", "SUBSTANTIALLY DIFFERENT.")],
        "answer": "Apart from confidentiality breaches, breaches of licence grants and third-party indemnity amounts, no party is liable for lost profits or indirect/consequential damages, and a party's total liability is capped at the amounts paid or payable for the products concerned in the 12 months before the first event giving rise to the claim.",
    },
    {
        "id": "pho-un-1",
        "type": U,
        "question": "Do Photronics and DNP have to carry product liability insurance for the masks they supply to the Xiamen venture?",
        "answer": "Not addressed: the Outsourcing Agreement only makes the suppliers pay freight, shipping and insurance charges to the delivery point (Section 5.2); it imposes no duty on anyone to maintain liability or product liability insurance. (Section 12 'Miscellaneous' of the separate China JV Operating Agreement is incorporated by reference but its text is not part of this document.)",
        "topic": "liability / product liability insurance",
        "cuad_category": "Insurance",
        "terms": [r"insur", r"coverage", r"\bpolic(y|ies)\b", r"underwrit"],
        "reasons": {
            r"insur": [
                (
                    "insurance charges to the delivery point",
                    "Section 5.2 allocates the cost of transit (cargo) insurance charges to the delivery point; it does not require either side to hold liability insurance.",
                )
            ],
            r"\bpolic(y|ies)\b": [
                ("management and policies", "Schedule 1 'Affiliate' definition (control of management and policies); not an insurance policy.")
            ],
        },
    },
    {
        "id": "pho-un-2",
        "type": U,
        "question": "If the Xiamen company pays one of the suppliers late, does it get hit with interest or a late fee?",
        "answer": "Not addressed: Section 4.2 sets when invoices are payable (period redacted) and in which currency, but the agreement says nothing about interest, late fees or other consequences of paying late.",
        "topic": "late-payment interest / late fees",
        "cuad_category": None,
        "terms": [r"\binterest\b", r"\blate\b", r"overdue", r"past due", r"arrear", r"late fee", r"penalt"],
        "reasons": {
            r"\binterest\b": [
                (
                    "equity interest owners",
                    "Background recital: Photronics and DNP as equity interest owners of the JV company; nothing about interest on overdue payments.",
                )
            ]
        },
    },
    # ------------------------------------------------------------------ Medalist REIT / Gunston
    {
        "id": "med-para-1",
        "type": P,
        "question": "What does Medalist pay Gunston for running the REIT's affairs, and does Gunston get to pick how often the money comes in?",
        "gold": [
            (
                "Statement of Work - Compensation",
                "Compensation: REIT agrees to pay CONSULTANT",
                "Compensation Committee of the Company's Board of Directors.",
            )
        ],
        "answer": "A $200,000 annual fee, paid in 12 equal monthly or 24 equal semi-monthly instalments at Gunston's choice, plus annual stock grants as awarded by the Board's Compensation Committee.",
    },
    {
        "id": "med-para-2",
        "type": P,
        "question": "Say Medalist gets bought out and the new owners let Gunston go a few months later without any real reason - is Gunston owed anything?",
        "gold": [("Section 8.3", "8.3 Change of Control. In the event of a 'Change of Control'", "the CEO or COO or CFO of the Company.")],
        "answer": "Yes: if Gunston's services are terminated without cause within 12 months after a Change of Control, it receives a termination fee equal to 12 months' compensation at the then-current monthly rate, including any stock compensation.",
    },
    {
        "id": "med-para-3",
        "type": P,
        "question": "Once Gunston stops working for the REIT, how long is it kept from going to work for or investing in another property investment outfit in Virginia?",
        "gold": [("Section 7.3", "7.3 Noncompetition. CONSULTANT agrees", "will not constitute a violation of Section 7.3.")],
        "answer": "For 12 months after the consultancy ends (for any reason) Gunston may not own, finance, manage or control, or perform similar services for, a Competitor - a REIT, fund or its adviser based in Virginia or any state where Medalist owns property and investing in flex/industrial, retail, multifamily or limited-service hotel real estate; holding up to 1% of a listed company's voting stock is allowed.",
    },
    {
        "id": "med-para-4",
        "type": P,
        "question": "I'm wondering whether either Medalist or Gunston can simply end the consulting arrangement without pointing to any wrongdoing, and how much warning they would need to give?",
        "gold": [("Section 8", "8. Termination. This Agreement shall terminate immediately", "giving ninety (90) days' written notice to REIT.")],
        "answer": "Yes: Medalist can end it for any or no reason, effective 90 days after giving written notice, and Gunston can end it by giving 90 days' written notice (it also ends on Gunston's death or bankruptcy, or immediately on notice of termination for cause).",
    },
    {
        "id": "med-un-1",
        "type": U,
        "question": "Is there a ceiling on the total amount Medalist or Gunston could end up owing the other if things go badly wrong?",
        "answer": "Not addressed: the agreement has mutual indemnities (Section 9.7, which exclude the indemnified party's gross negligence or wilful misconduct and survive three years) but no cap or limit on either party's total liability.",
        "topic": "cap on liability",
        "cuad_category": "Cap On Liability",
        "terms": [
            r"\bcap(ped|s)?\b",
            r"ceiling",
            r"limitation of liability",
            r"\bexceed",
            r"maximum",
            r"aggregate",
            r"in no event",
            r"limit(ed)? (to|on) (the )?(amount|liabilit)",
        ],
        "reasons": {
            r"aggregate": [
                (
                    "individually or in the aggregate",
                    "Section 7.3 non-compete wording (services similar individually or in the aggregate); not a limit on liability.",
                )
            ]
        },
    },
    {
        "id": "med-un-2",
        "type": U,
        "question": "Before Gunston's person starts, does Medalist get to run a background or criminal record check on them?",
        "answer": "Not addressed: the agreement covers duties, pay, confidentiality, restrictive covenants and termination (including termination for fraud or dishonesty) but says nothing about background, criminal or credit checks.",
        "topic": "background / criminal record checks",
        "cuad_category": None,
        "terms": [r"background", r"criminal", r"screen", r"\bdrug", r"fingerprint", r"credit check", r"\bcheck", r"\bvet(ting|ted)?\b"],
        "reasons": {},
    },
    # ------------------------------------------------------------------ Berkshire Bank / Auriemma
    {
        "id": "brk-para-1",
        "type": P,
        "question": "What is Berkshire Bank actually handing coach Auriemma over the life of the deal, and how much of it comes as shares rather than cash?",
        "gold": [("Paragraph 4", "4. COMPENSATION. (a) In consideration of the rights", "immediately preceding the issuance date.")],
        "answer": "$480,000 in total: four cash payments of $90,000 (1 June 2012, 2013, 2014 and 2015) and, on the same dates, four blocks of unrestricted Berkshire Hills Bancorp common stock each worth $30,000 at the prior day's closing price.",
    },
    {
        "id": "brk-para-2",
        "type": P,
        "question": "If Berkshire Bank drags its feet paying Geno, is there any extra charge?",
        "gold": [("Paragraph 5", "Past due cash payments", "one (1%) percent per month.")],
        "answer": "Yes: cash payments more than 30 days past Berkshire's receipt of the invoice bear interest at 1% per month.",
    },
    {
        "id": "brk-para-3",
        "type": P,
        "question": "After the Auriemma deal is over, how long can the bank keep handing out brochures it already printed with his picture on them?",
        "gold": [
            (
                "Paragraph 10(c)",
                "Notwithstanding the foregoing, if the Agreement is terminated for any reason other than Berkshire's material breach",
                "Berkshire's use of the printed material will cease.",
            )
        ],
        "answer": "For 30 days after termination, unless the deal ended because of Berkshire's own material breach; after that all use of the printed material must stop (otherwise the bank must promptly stop using his identification on termination or expiry).",
    },
    {
        "id": "brk-para-4",
        "type": P,
        "question": "How far ahead does Berkshire have to tell Geno it wants him at an event, and how long can it keep him there once he shows up?",
        "gold": [("Paragraph 6(c)-(d)", "(c) Berkshire shall give Auriemma as much advanced notice", "exceed a total of two (2) hours in duration.")],
        "answer": "As much notice as possible and never less than 15 days' notice of the time and place; unless agreed otherwise in advance, an appearance may not last more than two hours.",
    },
    {
        "id": "brk-un-1",
        "type": U,
        "question": "When the Auriemma contract runs out in 2016, does Berkshire have an option to extend it or first dibs on signing him again?",
        "answer": "Not addressed: the Contract Period simply ends on 31 May 2016 (services end 31 May 2014); there is no renewal, extension option, or right of first negotiation or refusal.",
        "topic": "renewal / extension option / first right to re-sign",
        "cuad_category": "Renewal Term (and Rofr/Rofo/Rofn)",
        "terms": [r"renew", r"\bextend", r"extension", r"\boption", r"first (right|refusal|negotiat)", r"re-?sign"],
        "reasons": {
            r"extension": [
                (
                    "extension of time for performance",
                    "Force majeure clause (Paragraph 15): extension of time to perform during a delay, not an extension of the contract term.",
                )
            ]
        },
    },
    {
        "id": "brk-un-2",
        "type": U,
        "question": "Does Berkshire have to make a donation to any of Geno's charities as part of the deal?",
        "answer": "Not addressed: the bank's payments are the cash and stock in Paragraph 4 plus expense reimbursement; the agreement says nothing about charitable donations or contributions.",
        "topic": "charitable donations",
        "cuad_category": None,
        "terms": [r"charit", r"donat", r"foundation", r"contribut", r"\bgift", r"philanthrop", r"non-?profit"],
        "reasons": {},
    },
    # ------------------------------------------------------------------ iBio / CC-Pharming
    {
        "id": "ibio-para-1",
        "type": P,
        "question": "If iBio's and CC-Pharming's scientists come up with something together, who owns it and who pays to protect it?",
        "gold": [
            (
                "Section 4.2",
                "4.2 All rights to inventions, patentable or non-patentable, made solely by employees of iBio",
                "share equally in the costs of patent protection for Joint Inventions.",
            )
        ],
        "answer": "Joint Inventions belong jointly to iBio and CC-Pharming; iBio controls drafting and prosecution of the patents (copying CC-Pharming) and the parties share the patent costs equally. Inventions made solely by one side's employees belong to that side.",
    },
    {
        "id": "ibio-para-2",
        "type": P,
        "question": "When does CC-Pharming owe iBio the second instalment for the rituximab work?",
        "gold": [("Section 3.1.2", "3.1.2 Second payment of", "governance standard operating procedures (SOP's).")],
        "answer": "On presentation of the stage-two deliverables: detailed design drawings of the pilot plant, a schematic design of the commercial facility, purified antibody for pre-clinical testing, and the quality management system up to its governance documents and SOPs (the amount is redacted).",
    },
    {
        "id": "ibio-para-3",
        "type": P,
        "question": "Is iBio free to do similar deals with other drug companies, or is CC-Pharming its only partner for this plant-based technology?",
        "gold": [
            (
                "Section 9.11",
                "9.11 Independent Parties. Each Party may have similar agreements with others",
                "prices and terms for its products and services.",
            ),
            (
                "Section 1.1",
                "1.1 iBio hereby grants to CC-Pharming for the term of this Agreement, a nonexclusive",
                "performed under this Agreement.",
            ),
        ],
        "answer": "iBio is free: CC-Pharming's licence to iBio's technology is non-exclusive, and each party may have similar agreements with others and develop or market competing products.",
    },
    {
        "id": "ibio-para-4",
        "type": P,
        "question": "If one side drops the ball, how long does it get to put things right before the other can walk away from the iBio-CC-Pharming arrangement?",
        "gold": [
            (
                "Section 6.3",
                "6.3 If either Party to this Agreement fails to perform",
                "without such corrective action being completed and the failure or violation remedied.",
            )
        ],
        "answer": "30 days after written notice of the failure; if the fix reasonably needs longer and substantial corrective action started within the 30 days and is pursued diligently, termination takes effect only if it is still unremedied 60 days after the notice.",
    },
    {
        "id": "ibio-un-1",
        "type": U,
        "question": "Once the China venture with CC-Pharming is selling the drug, can iBio send someone to go through the books to make sure its share of the revenue is right?",
        "answer": "Not addressed: the agreement says iBio's minority interest in the venture compensates it (Section 1.4) but grants no right to audit, inspect or examine anyone's books or records.",
        "topic": "audit / inspection of books",
        "cuad_category": "Audit Rights",
        "terms": [r"audit", r"inspect", r"\bbooks?\b", r"\brecords?\b", r"examin", r"accountant", r"account for"],
        "reasons": {
            r"\brecords?\b": [
                ("batch records", "Section 3.1.3: QMS deliverables include batch records; not a right to inspect financial books."),
                ("printed record", "Section 9.4 notices: printed record of a fax transmission."),
            ]
        },
    },
    {
        "id": "ibio-un-2",
        "type": U,
        "question": "When the iBio / CC-Pharming rituximab goes into human trials in China, which side is responsible for protecting the trial patients' personal information?",
        "answer": "Not addressed: the agreement mentions deliverables for clinical trials and confidentiality of business information, but nothing on patient privacy, personal data or data protection.",
        "topic": "patient / personal data protection",
        "cuad_category": None,
        "terms": [r"privacy", r"personal (data|information)", r"patient", r"HIPAA", r"data protection", r"human subject", r"informed consent"],
        "reasons": {},
    },
    # ------------------------------------------------------------------ Hovione / Intersect ENT
    {
        "id": "hov-para-1",
        "type": P,
        "question": "If a batch of the drug ingredient from Hovione turns out to be off-spec, how long does Intersect have to flag it, and what does Hovione have to do about it?",
        "gold": [("Section 5.6", "5.6. Inspection of API.", "additional costs that HOVIONE incurred in providing replacement material.")],
        "answer": "Intersect must test each lot and give written notice of non-conformity within 30 days of arrival; unless Hovione objects within 20 working days the lot goes back, and Hovione's sole duty is to replace it within 30 days of the notice. Disputes go to a neutral third-party lab, whose fees the losing side pays.",
    },
    {
        "id": "hov-para-2",
        "type": P,
        "question": "Under the Hovione supply deal, who foots the bill if Intersect's sinus products have to be pulled off the market?",
        "gold": [("Section 5.9", "5.9. Recall. INTERSECT shall be responsible for conducting", "shall be final and binding on the Parties.")],
        "answer": "Intersect runs any recall; Hovione pays only if the recall results from its material breach of the agreement or Quality Agreement, or its gross negligence or wilful misconduct (subject to the Section 8.4 limits); otherwise Intersect pays. Both must try to keep costs down.",
    },
    {
        "id": "hov-para-3",
        "type": P,
        "question": "What's the most Hovione could be on the hook for in any one year under the supply deal with Intersect?",
        "gold": [
            ("Section 8.4", "8.4. NOTWITHSTANDING ANYTHING IN THIS AGREEMENT TO THE CONTRARY", "REVENUES COLLECTED IN THE PREVIOUS CONTRACTUAL YEAR.")
        ],
        "answer": "Hovione's total liability per year is limited to the revenues it collected in the previous contract year; neither side is liable for special, incidental, consequential or indirect damages except for confidentiality breaches and indemnities.",
    },
    {
        "id": "hov-para-4",
        "type": P,
        "question": "Suppose Intersect gets taken over by a bigger company that doesn't want to keep buying from Hovione - is there a way out, and does it cost anything?",
        "gold": [("Section 14.1(a)", "(a) Buyout. In the case that either company is acquired by", "buyout payment amount of [*].")],
        "answer": "Yes: if either company is acquired by or merges with a company that does not wish to continue, that company may end the relationship by making a contract buyout payment (the amount and basis are redacted).",
    },
    {
        "id": "hov-un-1",
        "type": U,
        "question": "I'd like to know whether Hovione promises Intersect a price at least as good as whatever it charges other drug makers for the same ingredient.",
        "answer": "Not addressed: the price is set in Exhibit C and may be renegotiated if specification changes raise costs (Section 5.5), but there is no most-favoured-customer or best-price promise.",
        "topic": "most-favoured-customer pricing",
        "cuad_category": "Most Favored Nation",
        "terms": [
            r"favou?r",
            r"lowest",
            r"best price",
            r"no less favou?rable",
            r"no (higher|greater) than",
            r"other customers",
            r"price protection",
            r"comparable",
        ],
        "reasons": {
            r"favou?r": [
                ("adjudicated in favor of HOVIONE", "Section 10.4: a dispute adjudicated in Hovione's favour; not pricing."),
                ("favoring or disfavoring", "Section 14.8 construction clause; not pricing."),
            ]
        },
    },
    {
        "id": "hov-un-2",
        "type": U,
        "question": "Does Hovione have to keep a reserve of the ingredient on hand in case its plant goes down?",
        "answer": "Not addressed: Intersect forecasts and orders 90 days ahead and Hovione must confirm orders (Section 4.2), and force majeure excuses delays (Section 13), but there is no safety-stock, reserve inventory or back-up site obligation.",
        "topic": "safety stock / back-up supply",
        "cuad_category": None,
        "terms": [
            r"safety stock",
            r"buffer",
            r"inventor(y|ies)",
            r"\bstock\b",
            r"\breserve",
            r"back-?up",
            r"second(ary)? source",
            r"contingency",
            r"disaster",
        ],
        "reasons": {
            r"\bstock\b": [
                ("non-stock organizations", "Affiliate definition (non-stock organisations); not inventory."),
                ("stock or assets", "Section 14.1 assignment to an acquirer of stock or assets (asset sale, stock sale, merger); not inventory."),
            ],
            r"\breserve": [("reserves the right to defend", "Section 8.3: each party reserves the right to defend itself; not a stock reserve.")],
        },
    },
    # ------------------------------------------------------------------ iVillage / Ford Motor Media
    {
        "id": "ivl-para-1",
        "type": P,
        "question": "If iVillage doesn't show Ford's ads as many times as it promised, what can Ford do about it?",
        "gold": [("Section 2.C(iii)", "(iii) In the event that iVillage fails to deliver the", "impressions which were not delivered.")],
        "answer": "Ford Motor Media may either extend the initial term by three months for iVillage to 'make good' the missing impressions, or require iVillage to refund a set amount per block of undelivered impressions (amounts redacted).",
    },
    {
        "id": "ivl-para-2",
        "type": P,
        "question": "What happens to the Ford sponsorship on iVillage if a long auto workers' strike stops Ford building cars?",
        "gold": [
            ("Section 1.B (last sentence)", "Additionally, in the event of a prolonged and/or substantial", "amend or terminate this Agreement.")
        ],
        "answer": "If a prolonged or substantial strike materially hurts Ford's ability to produce and sell cars, the parties will work together in good faith to amend or terminate the agreement.",
    },
    {
        "id": "ivl-para-3",
        "type": P,
        "question": "Who ends up owning the Ford mini-site and the banner designs that iVillage builds?",
        "gold": [
            ("Section 7", "7. Proprietary Rights. Upon execution and delivery of this Agreement", "registering such rights in the name of FMC.")
        ],
        "answer": "Ford Motor Company: iVillage assigns to it all rights in the content, design and IP created specifically for the Bridge Site, ad units and other promotional elements; iVillage keeps its general programs and software, and third-party licensed software stays with its owners.",
    },
    {
        "id": "ivl-para-4",
        "type": P,
        "question": "If iVillage wants to bring a car hire company on board as a backer while the Ford deal is running, does anybody get first crack at it?",
        "gold": [
            (
                "Section 4",
                "In addition, in the event that iVillage desires to form a sponsorship relationship with an automobile rental company",
                "deem Hertz's silence as rejection.",
            )
        ],
        "answer": "Yes, Hertz: iVillage must notify Hertz and offer it the relationship on terms no less favourable than those offered to any other car rental company; Hertz has five business days to accept, and silence counts as rejection.",
    },
    {
        "id": "ivl-un-1",
        "type": U,
        "question": "Does iVillage have to carry any liability insurance while it runs the Ford promotion?",
        "answer": "Not addressed: the agreement has mutual indemnities (Section 12) and an exclusion of indirect damages (Section 11) but no insurance requirement.",
        "topic": "insurance",
        "cuad_category": "Insurance",
        "terms": [r"insur", r"coverage", r"\bpolic(y|ies)\b", r"underwrit"],
        "reasons": {},
    },
    {
        "id": "ivl-un-2",
        "type": U,
        "question": "Who is responsible for any sales tax on Ford's sponsorship payments to iVillage?",
        "answer": "Not addressed: Section 5 sets the fees and payment dates but the agreement says nothing about sales or other taxes on them.",
        "topic": "taxes on fees",
        "cuad_category": None,
        "terms": [r"\btax", r"\bVAT\b", r"\blev(y|ies)\b", r"\bduties\b", r"withh?old"],
        "reasons": {},
    },
    # ------------------------------------------------------------------ Biopure / Butler
    {
        "id": "bio-para-1",
        "type": P,
        "question": "How does Butler get paid for selling Biopure's Oxyglobin to vets - what's its cut?",
        "gold": [("Section 1.5(d)", "(d) compensate the Agent through a discount of eight (8) percent", "These goals are outlined in exhibit B.")],
        "answer": "A 10% discount off the current or promotional price on monthly units shipped (8% for Butler plus 2% for its sales reps), plus a quarterly 2% incentive (1% Butler, 1% its sales force) for hitting agreed quarterly goals - paid at year end if a quarter is missed but the annual goal is met.",
    },
    {
        "id": "bio-para-2",
        "type": P,
        "question": "If a vet clinic orders through Butler and then never pays, who is left out of pocket?",
        "gold": [
            (
                "Section 1.4(l)",
                "It is the responsibility of the Agent to evaluate the credit worthiness",
                "full responsibility for payment of the product from the Customer.",
            )
        ],
        "answer": "Butler: it must assess each customer's creditworthiness and, once it transmits an order, it accepts full responsibility for the customer's payment.",
    },
    {
        "id": "bio-para-3",
        "type": P,
        "question": "Under Biopure's deal with Butler, what happens if some Oxyglobin a clinic bought goes past its use-by date?",
        "gold": [("Section 1.5(e)", "(e) will replace, any unit of Product to the Customer which has outdated", "with equal Product.")],
        "answer": "Biopure replaces the outdated unit with equal product, provided it is not more than 90 days past its date.",
    },
    {
        "id": "bio-para-4",
        "type": P,
        "question": "If Butler gets bought by another company, can Biopure drop it?",
        "gold": [
            ("Section 4.2(b)", "(b) In the event of any material change in the organization, ownership", "event described in this Paragraph 4.2(b).")
        ],
        "answer": "Yes: on any material change in Butler's organisation, ownership, management or control, Biopure may terminate by written notice, and Butler must promptly tell Biopure of such a change.",
    },
    {
        "id": "bio-un-1",
        "type": U,
        "question": "Is Butler allowed to also sell a rival animal blood-substitute product from another maker?",
        "answer": "Not addressed: Butler must use best efforts, meet sales targets and only use Biopure's trademarks on Biopure products, but nothing stops or permits it selling competing products.",
        "topic": "non-compete / exclusivity of the agent",
        "cuad_category": "Non-Compete (and Exclusivity)",
        "terms": [r"compet", r"rival", r"exclusiv", r"similar product", r"products other than", r"conflict of interest"],
        "reasons": {
            r"compet": [
                (
                    "competitive environment",
                    "Section 1.4(j): sales must match the prior year within the same competitive environment; no restriction on selling rival products.",
                )
            ],
            r"exclusiv": [
                ("exclusive of taxes", "Section 1.5(d): commission computed exclusive of taxes."),
                ("exclusive of any federal", "Section 2.2: prices exclusive of taxes."),
                ("exclusive remedy", "Section 2.6: customer's exclusive warranty remedy."),
                ("nonexclusive jurisdiction", "Section 5.6: courts have non-exclusive jurisdiction."),
            ],
            r"products other than": [
                (
                    "Trademark in connection with any products other than the Products",
                    "Section 3.2: Butler may not use Biopure's trademarks on other products; it does not restrict selling other products.",
                ),
                (
                    "orders for the Products other than from Customers",
                    "Section 1.4(e): Butler may take Oxyglobin orders only from customers in its territory; a territorial limit, not a restriction on rival products.",
                ),
            ],
        },
    },
    {
        "id": "bio-un-2",
        "type": U,
        "question": "If Biopure's Oxyglobin ever had to be pulled back from the vets Butler sells to, who would run that and who would pay?",
        "answer": "Not addressed: the agreement covers complaints forwarding, warranty replacement, outdated product and third-party claims, but nothing on recalls or market withdrawals.",
        "topic": "product recall",
        "cuad_category": None,
        "terms": [r"recall", r"withdraw", r"retriev", r"field correction", r"market action"],
        "reasons": {},
    },
    # ------------------------------------------------------------------ VendingData / Technical Casino Supplies
    {
        "id": "vdc-para-1",
        "type": P,
        "question": "If VendingData gets taken over and the new owner cancels the deal with Technical Casino Supplies, does TCS get anything for the lost business?",
        "gold": [
            (
                "Sections 1.6-1.6.2",
                "1.6. Monthly Compensation. In the event that this Agreement is terminated",
                "after the end of the relevant monthly period.",
            )
        ],
        "answer": "Yes: a change-of-control (or shuffler-line sale) termination entitles TCS to Monthly Compensation equal to its average monthly gross profit on the products, paid monthly (within 30 days of each month) for the rest of the term or 24 months, whichever is shorter.",
    },
    {
        "id": "vdc-para-2",
        "type": P,
        "question": "Can TCS keep selling the Shuffle Master machines already sitting in its warehouse?",
        "gold": [("Section 3.4", "3.4. Distributor shall not obtain, purchase, receive or source", "until all of the said stock has been depleted.")],
        "answer": "Yes: although TCS may not source shufflers from anyone but VendingData, it may sell, rent or lease the Shuffle Master machines it held in stock at the Effective Date until that stock runs out.",
    },
    {
        "id": "vdc-para-3",
        "type": P,
        "question": "How long does TCS have to pay VendingData for shufflers shipped to it?",
        "gold": [
            (
                "Section 6.2.1",
                "6.2.1. For all Products to be delivered by Vendor directly to Distributor",
                "sale or rental of the relevant Products by Distributor; and",
            ),
            (
                "Section 6.2.2",
                "6.2.2. For all Products to be delivered by Vendor directly to a third party",
                "Distributor's sale of the Products to the third party purchaser.",
            ),
        ],
        "answer": "For units delivered to TCS: by the earlier of 180 days after delivery or 30 days after TCS sells or rents them; for units shipped straight to TCS's customer: within 45 days of TCS's sale.",
    },
    {
        "id": "vdc-para-4",
        "type": P,
        "question": "What's the consequence if TCS doesn't buy the agreed batches of shufflers on time?",
        "gold": [
            ("Section 5.5", "5.5. Failure to Purchase.", "failure to meet its obligations under Section 5.1 of this Agreement."),
            (
                "Section 4.5 (final paragraph)",
                "The obligation detailed under Section 4.4 above will cease immediately",
                "within one hundred and eighty (180) days after the delivery of the same.",
            ),
        ],
        "answer": "VendingData may, by notice within 14 days, turn TCS's exclusive rights into non-exclusive ones; TCS is then released from buying the rest and is not liable for VendingData's losses. VendingData's promise not to make chip-sorting machines also lapses.",
    },
    {
        "id": "vdc-un-1",
        "type": U,
        "question": "Is TCS barred from challenging whether VendingData's shuffler patents are valid?",
        "answer": "Not addressed: VendingData keeps control of patent prosecution (Section 2.4) and owns improvements (Section 2.5), but there is no no-challenge clause or covenant not to contest its patents.",
        "topic": "no-challenge of patents / covenant not to sue",
        "cuad_category": "Covenant Not To Sue",
        "terms": [r"contest", r"challeng", r"\bvalidity", r"not to sue", r"\battack"],
        "reasons": {r"\bvalidity": [("affecting the validity or enforceability", "Section 26 severability; not about patent validity.")]},
    },
    {
        "id": "vdc-un-2",
        "type": U,
        "question": "Does VendingData have to train TCS's technicians to service the shufflers?",
        "answer": "Not addressed: TCS is responsible for servicing (Section 3.2) and VendingData supplies brochures, samples and initial spare parts (Sections 4.1, 10.4), but nothing on training.",
        "topic": "training of the distributor's staff",
        "cuad_category": None,
        "terms": [r"train", r"instruct", r"teach", r"educat", r"technician", r"seminar", r"\bcourses?\b"],
        "reasons": {
            r"instruct": [
                ("as instructed pursuant", "Section 6.2.2: delivery as instructed in a purchase order."),
                ("request, instruction", "Section 28 notices."),
            ],
            r"\bcourses?\b": [("normal course of business", "Section 5.3 shipping 'in the normal course of business'; not a training course.")],
        },
    },
    # ------------------------------------------------------------------ iMedicor / USA MCO
    {
        "id": "imd-para-1",
        "type": P,
        "question": "How much of each doctor's monthly iMedicor fee ends up with USA MCO?",
        "gold": [
            (
                "Section 2 (first bullet)",
                "IMedicor will charge a subscription fee to participating USA MCO providers.",
                "deducted from the gross sale.",
            )
        ],
        "answer": "The suggested subscription is $19.95 a month per subscriber; USA MCO gets one third (about $6.65) per subscriber per month, calculated after card and other third-party processing fees.",
    },
    {
        "id": "imd-para-2",
        "type": P,
        "question": "Can USA MCO double-check iMedicor's numbers to make sure it's being paid correctly?",
        "gold": [("Section 1 (audit bullet)", "IMedicor will make its records available for audit purposes", "at the headquarters of iMedicor.")],
        "answer": "Yes: iMedicor must make its records available for audit by USA MCO at any time during regular business hours at iMedicor's headquarters.",
    },
    {
        "id": "imd-para-3",
        "type": P,
        "question": "If the partnership with iMedicor ends, does USA MCO keep earning on the doctors it brought in?",
        "gold": [("Section 3", "3. TERM This Agreement shall commence on the Effective Date", "for all subscriptions tagged as USA MCO.")],
        "answer": "Yes: where the agreement ends by a non-renewal notice (or is replaced by a new agreement), compensation continues for five years from termination on all subscriptions tagged as coming from USA MCO.",
    },
    {
        "id": "imd-para-4",
        "type": P,
        "question": "Could USA MCO take its share in iMedicor stock instead of cash, and is there a ceiling on that?",
        "gold": [
            (
                "Section 2 (equity bullet)",
                "USA MCO will have the option to take all or part of its revenue share in equity",
                "day previous to reconciliation of revenues, which will be the 20th of the month for the prior calendar month.",
            )
        ],
        "answer": "Yes, all or part of the revenue share can be taken in equity, up to a maximum of 4.9% ownership of iMedicor on a fully diluted basis.",
    },
    {
        "id": "imd-un-1",
        "type": U,
        "question": "Is USA MCO allowed to hire away iMedicor's staff?",
        "answer": "Not addressed: the confidentiality section acknowledges the value of the discloser's relationships with employees, but there is no non-solicitation or no-hire restriction.",
        "topic": "non-solicitation / no-hire of employees",
        "cuad_category": "No-Solicit Of Employees",
        "terms": [r"solicit", r"\bhire", r"hiring", r"recruit", r"poach", r"employ", r"personnel", r"\bstaff"],
        "reasons": {
            r"employ": [
                ("shareholders, employees, parent", "Section 7 indemnity: employees listed as indemnitees."),
                ("suppliers, employees and others", "Section 9.C acknowledgement of the discloser's relationships; no hiring restriction."),
                ("employee(s)", "Section 9.F: confidential information shared only with employees who need to know."),
            ],
            r"personnel": [("consultations with personnel", "Section 9.D: disclosure to the discloser's personnel.")],
        },
    },
    {
        "id": "imd-un-2",
        "type": U,
        "question": "If USA MCO takes part of its cut in iMedicor shares, does that get it a seat on iMedicor's board or any say in how iMedicor is run?",
        "answer": "Not addressed: USA MCO may take equity up to 4.9% and receives warrants, but the agreement gives it no board seat, observer or voting rights.",
        "topic": "board seat / governance rights",
        "cuad_category": None,
        "terms": [r"\bboard\b", r"director", r"\bvot", r"\bseat\b", r"observer", r"governance"],
        "reasons": {r"director": [("officers, directors, shareholders", "Section 7 indemnity: directors listed as indemnitees.")]},
    },
    # ------------------------------------------------------------------ Network Associates / Beyond.com
    {
        "id": "byd-para-1",
        "type": P,
        "question": "If sales coming through the McAfee link don't hit the targets, does Beyond.com still have to keep paying Network Associates every quarter?",
        "gold": [
            ("Exhibit A, Part 3(b)", "(b) Quarterly payments of $312,500 each", "is not achieved in the first year of this Agreement."),
            ("Exhibit A, Part 2, item 5", '5. "Minimum Revenue Targets" shall mean', "Twelve Million Dollars ($12,000,000)."),
        ],
        "answer": "Not while the targets are missed: the $312,500 quarterly payments are suspended if the first-year revenue target ($9 million) is not met by the first anniversary, or the cumulative target (plus $12 million in year two) by the second, and resume once the target is reached; the parties also renegotiate the payments downward if year one misses.",
    },
    {
        "id": "byd-para-2",
        "type": P,
        "question": "When McAfee puts out a new version, does Beyond.com get to sell it online before everyone else, and for how long?",
        "gold": [("Section 1(c)", "(c) Short Term Product Exclusives.", "via the Internet.")],
        "answer": "Yes: for 14 days after release of any new NAI product or major version, Beyond.com is the exclusive online seller.",
    },
    {
        "id": "byd-para-3",
        "type": P,
        "question": "What's the biggest bill either Network Associates or Beyond.com could face from the other if the deal goes wrong?",
        "gold": [("Section 10", "10. LIMITATION OF LIABILITY.", "KNOWLEDGE OF THE LIKELIHOOD OF SUCH DAMAGES.")],
        "answer": "Except for the Section 9 infringement/indemnity claims, direct damages are capped at $15 million; indirect and consequential damages such as lost profits are excluded (other than third-party injury claims caused by a product).",
    },
    {
        "id": "byd-para-4",
        "type": P,
        "question": "If Network Associates breaks the deal and Beyond.com pulls out because of it, does Beyond get back any of the money it paid for the spot?",
        "gold": [
            (
                "Section 6(c)",
                "provided that, in (i) the event of termination of this Agreement by Co-Host",
                'the Liquidated Damages Amount (as defined in Part 2 of Exhibit "A").',
            ),
            ("Exhibit A, Part 2, item 2", '2. "Liquidated Damages Amount" shall mean', "through the effective date of the termination."),
        ],
        "answer": "Yes: NAI must pay the Liquidated Damages Amount - the co-hosting fees paid minus those fees scaled by actual revenue over the minimum revenue targets up to termination.",
    },
    {
        "id": "byd-un-1",
        "type": U,
        "question": "If Network Associates decides to sell off its McAfee consumer web sites, does Beyond.com get the first chance to buy them?",
        "answer": "Not addressed: assignment on a sale of the business is allowed (Section 12(d)), but Beyond.com gets no right of first refusal, first offer or first negotiation over NAI's sites.",
        "topic": "right of first refusal / first offer",
        "cuad_category": "Rofr/Rofo/Rofn",
        "terms": [r"first refusal", r"first negotiat", r"right of first", r"first right", r"first offer", r"\boption\b", r"matching offer"],
        "reasons": {
            r"\boption\b": [
                ("at Co-Host's option and expense", "Section 9(a): Co-Host's choice of infringement remedy."),
                ("at NAI's option and expense", "Section 9(b): NAI's choice of infringement remedy."),
            ]
        },
    },
    {
        "id": "byd-un-2",
        "type": U,
        "question": "Are there any rules in the Network Associates-Beyond.com deal against paying kickbacks or bribes to win software business?",
        "answer": "Not addressed: the agreement has general compliance-with-law and export-control clauses but no anti-bribery, anti-corruption or kickback provision.",
        "topic": "anti-bribery / anti-corruption",
        "cuad_category": None,
        "terms": [r"brib", r"corrupt", r"kickback", r"FCPA", r"improper payment", r"\bgifts?\b", r"public official"],
        "reasons": {},
    },
]
