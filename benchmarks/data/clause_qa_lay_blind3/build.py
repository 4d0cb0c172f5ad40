"""Build questions.jsonl for the blind lay-register set #3 from anchor text.

Every gold span is located by a (start anchor, end anchor) pair searched in the
raw CUAD .txt (whitespace in anchors matches any run of whitespace); offsets are
never typed by hand. Unanswerable questions carry the regexes that were run over
the whole file and the hits that were reviewed by hand (see SOURCE.md).

Run:  python3 benchmarks/data/clause_qa_lay_blind3/build.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = Path("/work/shared/data/legalbench-rag/corpus")

MOV = "cuad/MOVADOGROUPINC_04_30_2003-EX-10.28-ENDORSEMENT AGREEMENT.txt"
FUL = "cuad/FulucaiProductionsLtd_20131223_10-Q_EX-10.9_8368347_EX-10.9_Content License Agreement.txt"
MER = "cuad/MERITLIFEINSURANCECO_06_19_2020-EX-10.(XIV)-MASTER SERVICES AGREEMENT.txt"
GEN = "cuad/GentechHoldingsInc_20190808_1-A_EX1A-6 MAT CTRCT_11776814_EX1A-6 MAT CTRCT_Distributor Agreement.txt"
LEC = "cuad/LECLANCHÉ S.A. - JOINT DEVELOPMENT AND MARKETING AGREEMENT.txt"
LEG = "cuad/LegacyEducationAllianceInc_20141110_8-K_EX-10.9_8828866_EX-10.9_Endorsement Agreement.txt"
EME = ("cuad/EmeraldHealthBioceuticalsInc_20200218_1-A_EX1A-6 MAT CTRCT_11987205_EX1A-6 MAT CTRCT_"
       "Development Agreement.txt")
STE = "cuad/SteelVaultCorp_20081224_10-K_EX-10.16_3074935_EX-10.16_Affiliate Agreement.txt"
DOM = "cuad/DOMINIADVISORTRUST_02_18_2005-EX-99.(H)(2)-SPONSORSHIP AGREEMENT.txt"
BLU = "cuad/BLUEFLYINC_03_27_2002-EX-10.27-e-business Hosting Agreement.txt"

# (id, file, question, [(start_anchor, end_anchor, clause_ref)], reference_answer)
PARA = [
    # --- Movado / Grinberg family trust life-insurance arrangement
    ("mov-para-1", MOV,
     "When the last of Gedalio and Sonia Grinberg passes away, how does the life insurance payout get split "
     "between Movado and the Grinberg family trust?",
     [("(a) The Company shall be entitled to receive an amount equal to the aggregate premiums",
       "over the Company Death Benefit.", "Section 6(a)-(b)")],
     "Movado gets back the total premiums paid since inception minus the outstanding Demand Note balance "
     "(the Company Death Benefit); the trust gets everything above that."),
    ("mov-para-2", MOV,
     "Could Movado quietly borrow against or cash in the Grinberg policy on its own say-so?",
     [("3. Surrender, Withdrawals, Loans; Etc.", "any remaining proceeds shall be payable to the Trust.",
       "Section 3")],
     "No. Movado may not borrow from, pledge, withdraw cash value from, surrender or cancel the policy without the "
     "trustees' prior written consent; on any surrender the company gets back premiums paid and the rest goes to the trust."),
    ("mov-para-3", MOV,
     "Say Movado just stops paying the premiums on the Grinberg policy. What can the family trust do about it?",
     [("7. Company Default. In the event of a", "of any event which constitutes a Company Default.", "Section 7")],
     "Missing a premium by more than 60 days is a Company Default. The trust can demand a cure, and if Movado "
     "does not cure within 60 days of notice the trust can require Movado to transfer the policy to the trust."),
    ("mov-para-4", MOV,
     "How does the family trust get the policy back from Movado and wind the whole arrangement up?",
     [("11. Termination. Notwithstanding any provisions", "will be full repayment of the Demand Note.",
       "Section 11")],
     "By repaying Movado the total premiums paid since inception (which includes the Demand Note balance); "
     "the agreement then ends and Movado transfers the policy to the trust as soon as practicable."),
    # --- ConvergTV / Fulucai content licence
    ("ful-para-1", FUL,
     "Is Fulucai getting any cash up front from ConvergTV for its film, and how long does it have to argue about a payout it thinks is short?",
     [("3. Consideration. The Producer agrees", "any such claim or dispute is hereby waived by the Producer.",
       "Section 3")],
     "No upfront money; Fulucai is paid only a revenue share (Exhibit B), and it has 30 days from a payment date "
     "to dispute the amount or the claim is waived."),
    ("ful-para-2", FUL,
     "While ConvergTV has the film, can Fulucai also put the whole thing up on some other streaming service?",
     [("(f) it will not permit its Programs, other than as provided in this Agreement",
       "including but not limited to the distribution or viewing platforms or services of ConvergTV's competitors;",
       "Section 5(f)")],
     "No. Fulucai promised not to let the program be shown in full or nearly full length on any other channel, "
     "platform or service, including ConvergTV's competitors (and ConvergTV's rights are exclusive in the territory for the licence term)."),
    ("ful-para-3", FUL,
     "If somebody sues ConvergTV because something in Fulucai's film is libellous, who picks up the bill?",
     [("7. Indemnification. Producer shall indemnify", "Distribution, transmission or publication of the Producer's Program or content.",
       "Section 7")],
     "Fulucai (the Producer) must indemnify, defend and hold ConvergTV harmless, including for slander or any "
     "other loss arising from distributing the program."),
    ("ful-para-4", FUL,
     "A hurricane knocks ConvergTV off the air for a while. Does Fulucai still get its share of the money for that stretch?",
     [("12. Force Majeure: If either Party is prevented", "ConvergTV will not be responsible for payment of any revenue share.",
       "Section 12")],
     "No. Neither side is liable for failures caused by events beyond its control, and during such an event ConvergTV "
     "is not responsible for paying any revenue share."),
    # --- Clear Capital / RadialSpark consulting
    ("mer-para-1", MER,
     "Clear Capital isn't happy with one of the RadialSpark people on its project. Can it get that person swapped for someone else?",
     [("If Company becomes dissatisfied with any of Contractor's personnel",
       "replace that person with other personnel in accordance with this Agreement.", "Section 1(b)")],
     "Yes. Clear Capital notifies RadialSpark of the problem, the two cooperate to fix it, and on a reasonable request "
     "RadialSpark must reassign the person and replace them."),
    ("mer-para-2", MER,
     "Can either Clear Capital or RadialSpark simply walk away from this consulting arrangement, and how much warning is needed?",
     [("(a) At any time that there is no uncompleted Statement of Work outstanding",
       "upon fifteen (15) days advance notice to the other.", "Section 6(a)")],
     "Yes, for any reason or none, on 15 days' notice, but only when no Statement of Work is still open."),
    ("mer-para-3", MER,
     "Worst case, what's the most Clear Capital could ever squeeze out of RadialSpark if the consulting work goes badly wrong?",
     [("(a) EXCEPT WITH RESPECT TO CONTRACTOR'S OBLIGATIONS PURSUANT TO PARAGRAPH 9",
       "SHALL BE LIMITED TO THE AMOUNT OF FEES PAID TO CONTRACTOR.", "Section 7(a)")],
     "Apart from its Paragraph 9 obligations, RadialSpark's liability for its services under a Statement of Work is "
     "limited to the fees paid for those services."),
    ("mer-para-4", MER,
     "Once the project wraps up, how long do Clear Capital and RadialSpark have to keep their hands off each other's staff who worked on it?",
     [("13. NON-SOLICITATION OF EMPLOYEES. Neither party shall",
       "which shall not be unreasonably withheld.", "Section 13")],
     "During the agreement and for one year after it ends, neither may solicit for hire the other's personnel who "
     "were directly involved in the services, without written consent."),
    # --- B&C General Warehouse / distributor (Arte Café coffee)
    ("gen-para-1", GEN,
     "How much can B&C bump up the Arte Café coffee price on its distributor each year, and how much heads-up does the distributor get?",
     [("Such Prices and Volume Discount Prices shall only be subject to increase once per year",
       "shall not apply for any order(s) accepted prior to the effective date of the increase.", "Section 2(b)")],
     "Only once a year on the anniversary, with at least 90 days' written notice, and by no more than 5% of the prior "
     "year's prices (force majeure aside); orders already accepted keep the old price."),
    ("gen-para-2", GEN,
     "A pallet of coffee from B&C shows up short or with damaged bags. What is the distributor supposed to do, and what does B&C owe?",
     [("Distributor will promptly inspect the Products upon receipt",
       "Company will promptly replace such Products free of charge.", "Section 2(c)")],
     "Inspect on arrival and tell B&C within 7 days of any shortage, defect or non-conformance; B&C must replace the "
     "products free of charge."),
    ("gen-para-3", GEN,
     "If the distributor sends B&C an order and B&C just sits on it without saying yes or no, where does that leave things?",
     [("Should Company fail to timely accept or reject an order",
       "such order shall be deemed accepted and shall become binding on Company.", "Section 2(a)")],
     "B&C has 7 business days to accept or reject; if it does neither, the order is treated as accepted and binds B&C."),
    ("gen-para-4", GEN,
     "When the first three years with B&C are up, can the coffee distributor keep going, and by when does it have to speak up?",
     [("(b) Distributor Option to Renew.", "within Ninety (90) days of the end of the initial period of this Agreement.",
       "Section 7(b)")],
     "Yes, the distributor may renew for another three years by giving written notice within 90 days of the end of the initial period."),
    # --- Leclanché / Oak Ridge US battery tie-up
    ("lec-para-1", LEC,
     "In the Leclanché–Oak Ridge battery tie-up, who has to take out cover in case a battery sold in the US hurts someone?",
     [("Oak Ridge shall arrange product liability and warranty insurance.",
       "Oak Ridge shall arrange product liability and warranty insurance.", "Section 5.7")],
     "Oak Ridge arranges product liability and warranty insurance (Leclanché supplies the warranty terms and information needed, Section 6.5)."),
    ("lec-para-2", LEC,
     "If there's no special payment plan agreed, how long does a buyer get to settle a Leclanché invoice?",
     [("In certain cases, Leclanché may request progress payments",
       "all payment terms are 30 days net from date of invoice.", "Section 9.1")],
     "30 days net from the invoice date (Leclanché may ask for progress payments, including a part at the time of order)."),
    ("lec-para-3", LEC,
     "Suppose the early US market study shows it's just not worth it. What happens to the Leclanché and Oak Ridge deal then?",
     [("In the event that after Phase 1, the Parties conclude that it would not be economically viable",
       "whether to proceed with an alternative agreement or not.", "Section 22.1")],
     "The agreement ends immediately, and the parties use reasonable efforts to consider whether to make an alternative agreement."),
    ("lec-para-4", LEC,
     "Are Oak Ridge's people allowed to trade Leclanché shares while they're working together, given what they'll learn?",
     [("The Parties acknowledge that both companies are publicly quoted companies",
       "derived in whole or in substantial part from any such securities;", "Section 21.1")],
     "No. During the term and for 12 months after, neither may trade, directly or indirectly, in Leclanché's securities or "
     "derivatives on them, and must follow market-trading laws."),
    # --- Tigrent / Robbie Fowler endorsement
    ("leg-para-1", LEG,
     "How often can Tigrent drag Robbie Fowler along to its events or photo shoots, and who covers his travel?",
     [("2A. ADDITIONAL DUTIES AND PUBLIC APPEARANCES", "as per \"part 1\" of the Primary Agreement.", "Section 2A")],
     "At most four appearances or photo shoots per calendar year, each subject to his approval (not unreasonably withheld); "
     "Tigrent pays reasonable travel and lodging."),
    ("leg-para-2", LEG,
     "Once the Robbie Fowler deal is over, how long can Tigrent keep flogging course materials with his face on them?",
     [("a. Talent agrees that Company shall, for a period of nine (9) months",
       "in particular clause 4 hereof.", "Section 9(a)")],
     "For a nine-month sell-off period after termination, subject to the agreement's terms (including paying the revenue share)."),
    ("leg-para-3", LEG,
     "If Tigrent sends Fowler's agent a flyer to okay and hears nothing back, can it just go ahead and use it?",
     [("e. In the event that Talent does not provide either written approval",
       "deemed to be an acceptance and approval of the proposed use of the Property.", "Section 5(e)")],
     "Yes, silence for ten days after submission counts as approval."),
    ("leg-para-4", LEG,
     "While he's fronting Tigrent's Property Academy, is Robbie Fowler free to put his name to other companies' stuff?",
     [("a. Subject to the terms of this Agreement, Talent shall retain all rights in and to his name",
       "securities and/or options trading and investment educational trainings, products, materials.", "Section 6(a)")],
     "Yes for unrelated products and services, but not for the Product or anything substantially similar, such as real estate, "
     "securities or options trading and investment training."),
    # --- Emerald Health / Dr. Murray
    ("eme-para-1", EME,
     "If Emerald sells around $4 million a year of the products Dr. Murray came up with, what does he pocket?",
     [("5.3 Royalty/Commission Payments.", "Greater than $100,000,000 $2,500,000", "Section 5.3")],
     "A $250,000 annual royalty (the $3,500,001-$5,000,000 tier), paid by 30 January for the preceding 12 months' net sales."),
    ("eme-para-2", EME,
     "Does Dr. Murray get paid holidays, sick days or health cover from Emerald on top of his fees?",
     [("5.8. EHS or EHN Benefits.", "medical insurance, and 401(k) participation.", "Section 5.8")],
     "No. Apart from the Section 5 compensation he gets no Emerald benefits such as paid vacation, sick leave, medical insurance or 401(k)."),
    ("eme-para-3", EME,
     "Can Emerald put Dr. Murray's picture on its supplement bottles without asking him first?",
     [("3.1 Licensing rights.", "including emails and facsimile transmissions of his approval.", "Section 3.1")],
     "No. Emerald may use his name or likeness on products or marketing only with his specific written (including email or fax) approval."),
    ("eme-para-4", EME,
     "After Dr. Murray stops advising Emerald, does the money from his products keep coming?",
     [("For the avoidance of doubt, it is the intent of the parties",
       "for as long as the Dr. Murray Products are being sold.", "Section 6.1(b)")],
     "Yes, the royalty continues in perpetuity for as long as his products are sold."),
    # --- Equidata / National Credit Report marketing affiliate
    ("ste-para-1", STE,
     "If National Credit Report pays Equidata's bill late, what extra does it get stung with?",
     [("The Marketing Affiliate agrees to pay a late charge", "of not less than $35.00 per returned item.",
       "Section 1 (Compensation)")],
     "A late charge of 1.5% per month on the past-due amount, plus at least $35 per returned check (and 25% attorney fees if sent to collection)."),
    ("ste-para-2", STE,
     "Can Equidata just put its prices up on the credit-report reseller, and how much warning does it have to give?",
     [("Equidata reserves the right to increase the base cost of Services.",
       "no less than 30 days prior to such increase taking affect.", "Section 1 (Compensation)")],
     "Yes, Equidata may raise the base cost with at least 30 days' written notice."),
    ("ste-para-3", STE,
     "When the Equidata arrangement ends, what does National Credit Report have to do about the Equidata links on its website?",
     [("7.3. At time of Agreement termination", "including but not limited to reasonable attorney fees.", "Section 7.3")],
     "Remove all Equidata URL-related data immediately; if it doesn't, Equidata may take legal "
     "action and the affiliate pays the cost, including attorney fees."),
    ("ste-para-4", STE,
     "Can Equidata turn up at National Credit Report's office to see how it's actually selling the service?",
     [("6. Audit. Equidata may audit", "physical location of business at any time.", "Section 6")],
     "Yes. Equidata may audit the affiliate's marketing practices at its own expense and may inspect its business premises at any time."),
    # --- Domini Advisor Trust / Domini Social Investments
    ("dom-para-1", DOM,
     "What does the Domini fund trust pay Domini Social Investments each year for running its back office?",
     [("3. Compensation of the Sponsor.", "the compensation to Domini, as Sponsor, shall be prorated.", "Section 3")],
     "A fee accrued daily and paid monthly at an annual rate of 0.50% of the trust's average daily net assets, prorated for partial periods."),
    ("dom-para-2", DOM,
     "If Domini's admin team makes an honest slip-up running the fund trust, does Domini have to pay for it?",
     [("4. Limitation of Liability of the Sponsor.", "reckless disregard of its obligations and duties hereunder.",
       "Section 4")],
     "No, unless it involves willful misfeasance, bad faith, gross negligence or reckless disregard of its duties."),
    ("dom-para-3", DOM,
     "Could the Domini fund's board get rid of Domini as its admin provider, and would that cost anything or need much warning?",
     [("This Agreement may be terminated at any time, without the payment of any penalty",
       "on not less than 60 days' written notice to the other party.", "Section 6")],
     "Yes, the board (or Domini) can end it at any time without penalty, on at least 60 days' written notice."),
    ("dom-para-4", DOM,
     "Can Domini farm out some of the fund's admin work to another firm, and who answers for it if that firm messes up?",
     [("7. Subcontracting by Domini.", "as it would be for its own acts or omissions.", "Section 7")],
     "Yes, but only to parties the trustees find qualified, and Domini stays fully responsible for the subcontractor's acts and omissions."),
    # --- IBM / Bluefly web hosting
    ("blu-para-1", BLU,
     "If Bluefly just wants out of IBM's web hosting early, no particular reason, what does it take?",
     [("3.4 Termination for Convenience", "until the final termination date.", "Section 3.4")],
     "At the end of any calendar month, with at least one month's written notice and payment of any early termination charges."),
    ("blu-para-2", BLU,
     "Bluefly is behind on an IBM hosting bill. How long has it got to catch up before IBM can cut it off?",
     [("3.3 Termination for Cause", "early termination charges described in Section 3.4(b) below.", "Section 3.3")],
     "Seven business days from receipt of notice of the non-payment; otherwise IBM may terminate (other breaches get 30 days)."),
    ("blu-para-3", BLU,
     "Does IBM promise that Bluefly's website will never go down?",
     [("a. IBM does not warrant uninterrupted or error-free operation",
       "or that IBM will correct all defects.", "Section 5.4(a)")],
     "No. IBM does not warrant uninterrupted or error-free operation or that it will fix all defects."),
    ("blu-para-4", BLU,
     "Someone claims the software IBM runs Bluefly's site on copies their patent. Who has to deal with that?",
     [("8.1 Indemnification by IBM", "the defense and any related settlement negotiations", "Section 8.1")],
     "IBM defends and indemnifies Bluefly at its own expense and pays costs and damages, "
     "provided Bluefly promptly notifies IBM and lets IBM control the defence."),
]

# (id, file, question, reference_answer, topic, cuad_category_or_None, terms, {term: why the hits are irrelevant})
UNANS = [
    ("mov-un-1", MOV,
     "Who pays the income tax when the Grinberg family trust collects its share of the life insurance money from Movado's arrangement?",
     "Not addressed: the agreement divides the death benefit (Section 6) but says nothing about tax on it or who bears it.",
     "tax on the insurance payout", None, ["\\btax", "\\birs\\b", "income", "withhold"],
     {"income": "'Employee Retirement Income Security Act' in Section 12 (governing law); not about tax."}),
    ("mov-un-2", MOV,
     "Can the Grinberg trustees have an accountant go through Movado's records to check the premiums it says it paid?",
     "Not addressed: there is no right for the trust to audit or inspect Movado's books or premium records.",
     "audit / inspection of records", "Audit Rights",
     ["\\baudit", "\\binspect", "\\bbooks?\\b", "\\brecords?\\b", "\\bexamin", "accountant"], {}),
    ("ful-un-1", FUL,
     "When the two years are up, does ConvergTV have to wipe or send back its copies of Fulucai's film?",
     "Not addressed: the deal terms set a 2-year licence term, but nothing says what happens to "
     "copies, files or rights at the end (no return/destruction clause).",
     "return or deletion of copies after the licence ends", "Post-Termination Services",
     ["\\breturn", "\\bdestroy", "\\bdelet", "\\bexpir", "\\berase", "after the (license )?term", "post-term", "surviv"],
     {"\\breturn": "'return receipt requested' in Section 14 (notices); not about copies of the program."}),
    ("ful-un-2", FUL,
     "Will ConvergTV put Fulucai's name up on screen as the maker when it shows the film?",
     "Not addressed: the agreement has no screen credit or attribution obligation.",
     "screen credit / attribution", None,
     ["\\bcredit", "attribut", "\\blogo", "on-screen", "acknowledg", "\\bname of"],
     {"acknowledg": "'agrees and acknowledges' in Section 3 (consideration); not attribution.",
      "\\bname of": "'Name of Contact' in the Deal Terms producer information; contact details, not a credit."}),
    ("mer-un-1", MER,
     "Is RadialSpark giving Clear Capital rates at least as good as what it charges its other clients?",
     "Not addressed: rates are set per Statement of Work (time and materials); there is no most-favoured-customer or best-price promise.",
     "most-favoured pricing", "Most Favored Nation",
     ["most favou?red", "no less favou?rable", "best pric", "lowest", "\\bother clients", "\\bcomparable"],
     {"\\bother clients": "Section 4(b): RadialSpark may serve other clients; says nothing about prices.",
      "\\bcomparable": "Section 1(b): replacement personnel with comparable training; not pricing."}),
    ("mer-un-2", MER,
     "Does RadialSpark have to run criminal background checks on the consultants it sends into Clear Capital's offices?",
     "Not addressed: personnel at Clear Capital's site must follow its safety, security and IT "
     "rules (Section 1(c)), but there is no background-check or screening requirement.",
     "background checks on staff", None,
     ["background", "criminal", "screen", "drug", "check", "vett"], {}),
    ("gen-un-1", GEN,
     "Does the coffee distributor have to carry liability insurance in case someone gets sick from B&C's coffee?",
     "Not addressed: the agreement has mutual indemnities (Section 9) but no insurance requirement for either side.",
     "insurance", "Insurance", ["insur", "coverage", "policy"], {}),
    ("gen-un-2", GEN,
     "If a batch of Arte Café coffee has to be pulled off store shelves, who organises it and who pays for it?",
     "Not addressed: defects found on delivery are replaced free (Section 2(c)), but there is no product recall or withdrawal provision.",
     "product recall", None,
     ["recall", "withdraw", "contamina", "\\bfda\\b", "food safety", "label", "expiry", "shelf"], {}),
    ("lec-un-1", LEC,
     "Does Oak Ridge have to sell some minimum number of Leclanché batteries each year to keep the arrangement?",
     "Not addressed: Oak Ridge must develop sales and marketing, but there is no minimum volume, quota or sales target.",
     "minimum sales commitment", "Minimum Commitment",
     ["minimum", "\\bquotas?\\b", "\\btarget", "\\bvolume", "at least", "forecast"],
     {"\\btarget": "'identify target business applications' in Section 2.1 (market study objectives); not a sales target."}),
    ("lec-un-2", LEC,
     "Are Leclanché's prices to Oak Ridge going to be in Swiss francs or dollars, and who carries the exchange-rate risk?",
     "Not addressed: pricing is to be set after Phase 1 or case by case (Section 8); no currency or exchange-rate term appears.",
     "currency / exchange-rate risk", None,
     ["\\bcurrenc", "\\bchf\\b", "franc", "dollar", "\\busd\\b", "\\beur", "exchange rate", "\\$"], {}),
    ("leg-un-1", LEG,
     "Does Robbie Fowler have to plug the Property Academy course on his social media accounts?",
     "Not addressed: his duties are licensing his name/likeness and up to four appearances or "
     "shoots a year (Sections 2, 2A); nothing on social media posts.",
     "social media posting duties", None,
     ["social media", "twitter", "facebook", "instagram", "\\bpost(s|ing)?\\b", "online", "internet", "website", "web site"],
     {"\\bpost(s|ing)?\\b": "'POST-TERMINATION RIGHTS' (Section 9 heading) and 'post on the second day from posting' "
                            "(Section 12, notices by mail); not social media."}),
    ("leg-un-2", LEG,
     "If Tigrent gets bought by another company, can Robbie Fowler's side pull out of the endorsement?",
     "Not addressed: termination triggers are expiry, Tigrent's dissolution or ceasing business, "
     "misconduct and material breach (Section 8); a takeover or change of control of Tigrent is "
     "not mentioned (Section 15 only bars assigning the agreement without consent).",
     "change of control", "Change of Control",
     ["change of control", "change in control", "merger", "acqui", "takeover", "sale of (the )?(company|business|shares)", "\\bcontrol"],
     {"acqui": "Recital 4: Tigrent 'is desirous of acquiring the right and license'; acquiring the licence, not a takeover.",
      "\\bcontrol": "'beyond such Party's reasonable control' in Section 11 (force majeure)."}),
    ("eme-un-1", EME,
     "Does Dr. Murray need his own professional liability insurance for the advice he gives Emerald?",
     "Not addressed: there is no insurance requirement on Dr. Murray or on Emerald.",
     "professional liability insurance", "Insurance", ["insur"],
     {"insur": "'medical insurance' in Section 5.8: a benefit he does not receive; not an insurance requirement."}),
    ("eme-un-2", EME,
     "How many hours a week is Dr. Murray expected to put in for Emerald?",
     "Not addressed: his services are described by subject (Sections 2.2-2.3) and paid monthly, but no hours or time commitment is set.",
     "working hours / time commitment", None,
     ["hours", "per (week|month)", "full[- ]time", "part[- ]time", "time commitment", "\\bdays\\b", "available"],
     {"per (week|month)": "'$8,333 per month' in Section 5.1: pay, not a time commitment.",
      "\\bdays\\b": "Notice and delivery periods (Sections 6.1(a), 6.2, Article 8, Article 9(6)); not working time."}),
    ("ste-un-1", STE,
     "Does National Credit Report need to keep insurance in place while it sells Equidata's credit services?",
     "Not addressed: there is no insurance requirement in the marketing affiliate agreement.",
     "insurance", "Insurance", ["insur"],
     {"insur": "'Health Insurance Portability and Accountability Act (HIPAA)' in Section 5 (compliance); a statute, not an insurance requirement."}),
    ("ste-un-2", STE,
     "Will Equidata teach National Credit Report's sales reps how the credit monitoring product works before they start selling it?",
     "Not addressed: Equidata must approve marketing materials (Section 5.4), but nothing "
     "provides for training or onboarding of the affiliate's staff.",
     "training for the reseller's staff", None,
     ["train", "onboard", "teach", "educat", "\\bsupport"], {}),
    ("dom-un-1", DOM,
     "If Domini's office gets knocked out by a fire or a power cut, does it have to have a backup plan so the fund trust keeps running?",
     "Not addressed: Domini must maintain office facilities and clerical services (Section "
     "1(a)), but there is no disaster-recovery or business-continuity obligation.",
     "disaster recovery / business continuity", None,
     ["backup", "back-up", "disaster", "recovery", "continuity", "contingenc"], {}),
    ("dom-un-2", DOM,
     "If the arrangement ends, can the fund trust keep using the Domini name?",
     "Not addressed: the agreement grants no licence of the Domini name or marks and says nothing about their use after termination.",
     "use of the sponsor's name / trademark", "License Grant",
     ["\\bname", "trademark", "service mark", "licen", "logo"],
     {"\\bname": "'executed and delivered in their names' in the signature block; not about the Domini name."}),
    ("blu-un-1", BLU,
     "Is IBM allowed to poach Bluefly's web team to come and work for IBM?",
     "Not addressed: there is no non-solicitation or no-hire clause.",
     "hiring staff away", "No-Solicit of Employees",
     ["non-?solicit", "solicit", "\\bhire", "\\bhiring", "recruit", "employ"],
     {"employ": "Content Administrator definition (Section 1.0 e) and the indemnities in Sections 8.1/8.2 "
                "(protected employees); no hiring restriction."}),
    ("blu-un-2", BLU,
     "Do the IBM staff who can get at Bluefly's servers have to pass background checks?",
     "Not addressed: IBM promises competent, fully trained and qualified personnel (Section "
     "5.1a), but there is no background-check or screening requirement.",
     "background checks on the provider's staff", None,
     ["background", "criminal", "drug", "screen", "vett", "personnel"],
     {"personnel": "Section 5.1(a) (competent, fully trained personnel) and Section 14.8 (each party supervises its own "
                   "personnel; IBM assigns its personnel); no screening or background-check duty."}),
]


def _anchor_re(anchor: str) -> re.Pattern[str]:
    parts = anchor.split()
    return re.compile(r"\s+".join(re.escape(p) for p in parts))


def find_span(text: str, start: str, end: str) -> tuple[int, int]:
    ms = list(_anchor_re(start).finditer(text))
    if len(ms) != 1:
        raise SystemExit(f"start anchor found {len(ms)} times: {start!r}")
    me = _anchor_re(end).search(text, ms[0].start())
    if me is None:
        raise SystemExit(f"end anchor not found after start: {end!r}")
    return ms[0].start(), me.end()


def main() -> int:
    rows: list[dict[str, Any]] = []
    for qid, f, q, golds, ans in PARA:
        text = (CORPUS / f).read_text()
        gold = []
        for s, e, ref in golds:
            a, b = find_span(text, s, e)
            gold.append({"file_path": f, "span": [a, b], "clause_ref": ref})
        rows.append({"id": qid, "type": "paraphrase", "question": q, "agreement_file": f,
                     "gold": gold, "reference_answer": ans})
    for qid, f, q, ans, topic, cuad_cat, terms, hits in UNANS:
        text = (CORPUS / f).read_text()
        hit_list = []
        for t in terms:
            for m in re.finditer(t, text, re.I):
                if t not in hits:
                    raise SystemExit(f"{qid}: unreviewed hit for {t!r}: {text[m.start()-60:m.end()+60]!r}")
                ctx = " ".join(text[max(0, m.start() - 60):m.end() + 60].split())
                hit_list.append({"term": t, "span": [m.start(), m.end()], "matched": m.group(0),
                                 "context": ctx, "why_irrelevant": hits[t]})
        unused = set(hits) - {h["term"] for h in hit_list}
        if unused:
            raise SystemExit(f"{qid}: notes for terms without hits: {unused}")
        rows.append({"id": qid, "type": "unanswerable", "question": q, "agreement_file": f, "gold": [],
                     "reference_answer": ans,
                     "absent_check": {"topic": topic, "cuad_category": cuad_cat, "terms": terms,
                                      "flags": "case-insensitive regex over the whole file",
                                      "hits_reviewed": hit_list}})
    order = {f: i for i, f in enumerate([MOV, FUL, MER, GEN, LEC, LEG, EME, STE, DOM, BLU])}
    rows.sort(key=lambda r: (order[r["agreement_file"]], r["type"] != "paraphrase", r["id"]))
    with open(HERE / "questions.jsonl", "w") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
