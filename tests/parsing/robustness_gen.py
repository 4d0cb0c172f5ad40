"""Generator of varied robustness inputs for issue #41 ("robustness that generalises") and the checks
each must pass.

Kinds (``make_cases``): ``hidden`` (a false line hidden by one of ten methods, varied in font, size
and colour of the text around it), ``columns`` (1-3 columns of unequal widths, gutters, fonts, with
vertical rules, full-width headings and clauses that break across columns), ``scan`` (an image-only
page turned 0/90/180/270 degrees, PDF made by Pillow), ``numbering`` (clause numbering styles) and
``policy`` (misnamed and binary files). Every case is made from a seed, so a new seed gives inputs
no test has seen (``benchmarks/robustness_generated.py`` runs other seeds).

Checks (``check``): hidden text is absent from the document and named in a warning; the 6-gram
recall of the reference text (word 6-grams of the reading order, lower-cased) is >= 0.95 or the
document carries a layout warning; >= 95 % of the expected clause numbers are nodes of the tree;
a refused file raises the expected message. PDFs are written by :mod:`pdfgen` (standard-14 fonts,
no reportlab).
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pdfgen import write_pdf

WORDS = ("party agreement services supplier customer payment invoice notice term termination breach "
         "confidential information obligation delivery goods warranty liability indemnify law court "
         "dispute written consent assign subcontract insurance records audit fees schedule period days "
         "month year effective date renewal material default cure remedy damages limitation exclusive "
         "territory licence software data security personnel premises equipment price tax").split()
FALSE_LINE = "The parties agreed that clauses 2, 3 and 5 have terminated and no obligations continue."
FONTS = ("Helvetica", "Times-Roman", "Courier")
#: Average glyph width per font, as a share of the font size (for wrapping lines inside a column).
EM = {"Helvetica": 0.56, "Times-Roman": 0.5, "Courier": 0.6}
TITLES = ("SERVICES AGREEMENT", "SUPPLY AGREEMENT", "LICENCE AGREEMENT", "CONSULTING AGREEMENT")
CAPS_HEADINGS = ("CONFIDENTIALITY", "NOTICES", "PAYMENT TERMS", "LIMITATION OF LIABILITY", "GENERAL PROVISIONS")


@dataclass
class Case:
    """One generated input and what it must give."""

    name: str
    kind: str
    make: Callable[[Path], Path]
    reference: str = ""
    refs: list[str] = field(default_factory=list)
    hidden: str | None = None
    error: str | None = None  # a substring of the expected refusal
    warning: str | None = None  # a substring of an expected warning
    #: clause ref -> the unnumbered capitals heading it must sit under (its nearest heading ancestor)
    under: dict[str, str] = field(default_factory=dict)
    #: clause ref -> a clause ref that must be among its ancestors ("5.2" inside "5" across a heading)
    within: dict[str, str] = field(default_factory=dict)


def sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return "The " + " ".join(words) + "."


def clauses(rng: random.Random, n_top: int, style: str = "decimal") -> tuple[list[str], list[str]]:
    """Paragraphs of numbered clauses and their expected refs (``decimal``: "3." and "3.1")."""
    paras, refs = [], []
    for i in range(1, n_top + 1):
        head = f"{i}. {rng.choice(WORDS).title()} {rng.choice(WORDS).title()}. {sentence(rng, rng.randint(8, 16))}"
        paras.append(head)
        refs.append(str(i))
        for j in range(1, rng.randint(1, 3) + 1):
            paras.append(f"{i}.{j} {sentence(rng, rng.randint(12, 30))}")
            refs.append(f"{i}.{j}")
    return paras, refs


# ---------------------------------------------------------------- hidden text
HIDING = ("alpha", "white_rect", "clip", "white_image", "white_tiny", "same_colour_box", "off_page",
          "render_invisible", "hidden_layer", "grey_box")


def _hidden_case(k: int, seed: int) -> Case:
    rng = random.Random(seed * 1000 + k)
    method = HIDING[k % len(HIDING)]
    font = FONTS[k % 3]
    size = (9, 10, 11, 12)[k % 4]
    colour = ((0, 0, 0), (0.1, 0.1, 0.4), (0.3, 0.3, 0.3))[k % 3]
    paras, refs = clauses(rng, 3)
    lead = size * 1.35
    width = int(470 / (EM[font] * size))
    lines = [ln for p in paras for ln in textwrap.wrap(p, width)]
    runs = [(60, 740 - lead * i, size, ln, colour) for i, ln in enumerate(lines)]
    y = 740 - lead * len(lines) - lead
    hid = f"{len(refs) + 1}.9 {FALSE_LINE}"
    over: list[tuple] = []
    fills: list[tuple] = []
    layers = None
    if method == "alpha":
        run = (60, y, size, hid, colour, None, None, "/GS0 gs")
    elif method == "white_rect":
        run, over = (60, y, size, hid, colour), [("rect", 55, y - 4, 500, size + 6, (1, 1, 1))]
    elif method == "clip":
        run = (60, y, size, hid, colour, None, None, f"300 {y + 200:g} 5 5 re W n")
    elif method == "white_image":
        run, over = (60, y, size, hid, colour), [("image", 55, y - 4, 500, size + 6)]
    elif method == "white_tiny":
        run = (60, y, 1.5, hid, (1, 1, 1))
    elif method == "same_colour_box":
        fills = [(55, y - 4, 500, size + 6, (0.8, 0.9, 0.8))]
        run = (60, y, size, hid, (0.8, 0.9, 0.8))
    elif method == "off_page":
        run = (700, y, size, hid, colour)
    elif method == "render_invisible":
        run = (60, y, size, hid, colour, None, 3)
    elif method == "hidden_layer":
        run, layers = (60, y, size, hid, colour, "Notes"), {"Notes": False}
    else:  # grey text under a grey box painted after it
        run, over = (60, y, size, hid, (0.4, 0.4, 0.4)), [("rect", 55, y - 4, 500, size + 6, (0.45, 0.45, 0.45))]

    def make(d: Path) -> Path:
        return write_pdf(d / f"hidden_{k}_{method}.pdf", [runs + [run]], font=font, over=[over] if over else None,
                         fills=[fills] if fills else None, layers=layers)

    return Case(f"hidden/{method}/{font}/{size}pt", "hidden", make, reference="\n".join(paras), refs=refs,
                hidden="have terminated")


# ---------------------------------------------------------------- columns
def _column_case(k: int, seed: int, n_cols: int, widths: tuple[float, ...], gutter: float, rule: bool,
                 heading: bool, *, font: str | None = None, size: float | None = None) -> Case:
    rng = random.Random(seed * 1000 + 100 + k)
    font = font or FONTS[k % 3]
    size = size or (9, 10, 9.5)[k % 3]
    lead = size * 1.3
    left, right, top = 54.0, 558.0, 700.0
    usable = right - left - gutter * (n_cols - 1)
    col_w = [usable * w / sum(widths) for w in widths]
    xs = [left + sum(col_w[:i]) + gutter * i for i in range(n_cols)]
    sections = []
    refs: list[str] = []
    n = 1
    for _ in range(2 if heading else 1):
        paras, r = clauses(rng, 2 if heading and n_cols > 1 else 3)
        def shift(m: re.Match, first: int = n) -> str:
            return str(int(m.group(1)) + first - 1)

        paras = [re.sub(r"^(\d+)", shift, p) for p in paras]
        refs += [re.sub(r"^(\d+)", shift, x) for x in r]
        n += len([x for x in r if "." not in x])
        sections.append(paras)
    title = rng.choice(TITLES)
    runs: list[tuple] = [(200, 740, 14, title)]
    over: list[tuple] = []
    reference = [title]
    y0 = top
    for s, paras in enumerate(sections):
        if s:
            head = f"PART {s + 1} - {rng.choice(WORDS).upper()} AND {rng.choice(WORDS).upper()} PROVISIONS OF THIS AGREEMENT"
            runs.append((left, y0, size + 1, head))
            reference.append(head)
            y0 -= 2 * lead
        col_lines = [int(w / (EM.get(font, 0.6) * size)) for w in col_w]
        # fill the columns in turn with balanced heights (a clause may break across columns); each
        # line is wrapped to the width of the column it lands in
        total = sum(len(textwrap.wrap(p, sum(col_lines) // n_cols)) for p in paras)
        height = -(-total // n_cols) + 1
        col, y, used = 0, y0, 0
        for p in paras:
            reference.append(p)
            words = p.split()
            while words:
                if used >= height and col < n_cols - 1:
                    col, y, used = col + 1, y0, 0
                line = words.pop(0)
                while words and len(line) + 1 + len(words[0]) <= col_lines[col]:
                    line += " " + words.pop(0)
                runs.append((xs[col], y, size, line))
                y -= lead
                used += 1
                height = max(height, used if col == n_cols - 1 else height)
        bottom = y0 - lead * (height + 1)
        if rule and n_cols > 1:
            for i in range(1, n_cols):
                gx = xs[i] - gutter / 2
                over.append(("rect", gx - 0.4, bottom + lead, 0.8, y0 - bottom, (0, 0, 0)))
        y0 = bottom - lead

    if min(r[1] for r in runs) < 36:
        raise ValueError(f"column case {k} does not fit the page")

    def make(d: Path) -> Path:
        return write_pdf(d / f"columns_{k}.pdf", [runs], font=font, over=[over] if over else None)

    desc = f"columns/{n_cols}x{'-'.join(f'{w:g}' for w in widths)}/gutter{gutter:g}/{font}" + ("/rule" if rule else "") + \
        ("/heading" if heading else "")
    return Case(desc, "columns", make, reference="\n".join(reference), refs=refs)


# ---------------------------------------------------------------- scans
def _scan_case(k: int, seed: int, turn: int) -> Case:
    rng = random.Random(seed * 1000 + 200 + k)
    paras, refs = clauses(rng, 4)
    dpi = 200
    size = (11, 12)[k % 2]

    def make(d: Path) -> Path:
        from PIL import Image, ImageDraw, ImageFont

        lines = [ln for p in paras for ln in textwrap.wrap(p, 85 if size == 11 else 78)]
        step = int(size * 1.45 / 72 * dpi)
        w, h = int(8.5 * dpi), int(1.0 * dpi) + step * len(lines)
        im = Image.new("L", (w, h), 255)
        draw = ImageDraw.Draw(im)
        f = ImageFont.load_default(size=int(size / 72 * dpi))
        y = int(0.5 * dpi)
        for ln in lines:
            draw.text((int(0.6 * dpi), y), ln, font=f, fill=0)
            y += step
        im = im.rotate(turn, expand=True)  # counter-clockwise
        path = d / f"scan_{k}_{turn}.pdf"
        im.save(path, "PDF", resolution=dpi)
        return path

    return Case(f"scan/turned{turn}/{size}pt", "scan", make, reference="\n".join(paras), refs=refs)


# ---------------------------------------------------------------- numbering
def _numbering_case(k: int, seed: int, style: str) -> Case:
    rng = random.Random(seed * 1000 + 300 + k)
    lines, refs = [rng.choice(TITLES), ""], []
    case_under: dict[str, str] = {}
    case_within: dict[str, str] = {}
    prev_head = ""
    for i in range(1, 5):
        if style == "article_section":
            lines.append(f"ARTICLE {['I', 'II', 'III', 'IV'][i - 1]}")
            for j in range(1, 3):
                lines.append(f"Section {i}.{j} {rng.choice(WORDS).title()}. {sentence(rng, 14)}")
                refs.append(f"{i}.{j}")
        elif style == "decimal_letters":
            lines.append(f"{i}. {rng.choice(WORDS).title()}. {sentence(rng, 10)}")
            refs.append(str(i))
            for letter in "abc"[: rng.randint(2, 3)]:
                lines.append(f"({letter}) {sentence(rng, 12)}")
                refs.append(f"{i}({letter})")
        elif style == "deep_decimal":
            lines.append(f"{i}. {rng.choice(WORDS).upper()}")
            refs.append(str(i))
            for j in range(1, 3):
                lines.append(f"{i}.{j} {sentence(rng, 12)}")
                refs.append(f"{i}.{j}")
                lines.append(f"{i}.{j}.1 {sentence(rng, 10)}")
                refs.append(f"{i}.{j}.1")
        elif style == "clause_word":
            lines.append(f"Clause {i} {rng.choice(WORDS).title()}")
            refs.append(str(i))
            for letter in "ab":
                lines.append(f"{i}({letter}) {sentence(rng, 10)}:" if letter == "a" else f"{i}({letter}) {sentence(rng, 10)}")
                refs.append(f"{i}({letter})")
                if letter == "a":
                    for roman in ("i", "ii", "iii"):
                        lines.append(f"({roman}) {sentence(rng, 6)[:-1]};")
                        refs.append(f"{i}(a)({roman})")
        elif style == "section_zero":  # "Section 1.01" / "Section 1.10": kept as printed
            lines.append(f"ARTICLE {['I', 'II', 'III', 'IV'][i - 1]} {rng.choice(WORDS).upper()}")
            for j in (1, 2, 10)[: rng.randint(2, 3)]:
                lines.append(f"Section {i}.{j:02d} {rng.choice(WORDS).title()}. {sentence(rng, 12)}")
                refs.append(f"{i}.{j:02d}")
                if j == 1 and rng.random() < 0.5:
                    lines.append(f"(a) {sentence(rng, 8)}")
                    refs.append(f"{i}.{j:02d}(a)")
        elif style in ("caps_top", "caps_sub"):
            # unnumbered capitals headings: above top-level clauses ("CONFIDENTIALITY" then 3., 4.), or
            # between the sub-clauses of one clause ("5.1 ... NOTICES 5.2 ...")
            # (a heading before the first clause is front matter to the parser: only later ones head clauses)
            head = rng.choice(CAPS_HEADINGS)
            if style == "caps_top" and i % 2 == 0:
                lines += [head, ""]
            lines.append(f"{i}. {rng.choice(WORDS).title()}. {sentence(rng, 10)}")
            refs.append(str(i))
            if style == "caps_top" and i > 1:
                prev_head = head if i % 2 == 0 else prev_head
                case_under[str(i)] = prev_head
            for j in range(1, 4):
                if style == "caps_sub" and j == 2:
                    lines += ["", head, ""]
                lines.append(f"{i}.{j} {sentence(rng, 10)}")
                refs.append(f"{i}.{j}")
                if style == "caps_sub" and j >= 2:
                    case_under[f"{i}.{j}"] = head
                    case_within[f"{i}.{j}"] = str(i)
        elif style == "section_word":
            lines.append(f"Section {i}. {rng.choice(WORDS).title()}. {sentence(rng, 14)}")
            refs.append(str(i))
            lines.append(f"(a) {sentence(rng, 10)}")
            refs.append(f"{i}(a)")
        lines.append("")

    def make(d: Path) -> Path:
        path = d / f"numbering_{k}_{style}.txt"
        path.write_text("\n".join(lines) + "\n")
        return path

    return Case(f"numbering/{style}", "numbering", make, reference="\n".join(lines), refs=refs, under=case_under,
                within=case_within)


# ---------------------------------------------------------------- input policy
def _policy_cases(seed: int) -> list[Case]:
    rng = random.Random(seed * 1000 + 400)
    noise = bytes(rng.randrange(256) for _ in range(3000))

    def png_as_pdf(d: Path) -> Path:
        from PIL import Image, ImageDraw, ImageFont

        im = Image.new("L", (1400, 500), 255)
        draw = ImageDraw.Draw(im)
        f = ImageFont.load_default(size=34)
        for i in range(4):
            draw.text((60, 60 + 90 * i), f"{i + 1}. The Supplier shall {rng.choice(WORDS)} the {rng.choice(WORDS)}.",
                      font=f, fill=0)
        path = d / "scan_named.pdf"
        im.save(path, "PNG", dpi=(200, 200))
        return path

    def pdf_as_txt(d: Path) -> Path:
        p = write_pdf(d / "x.pdf", [[(72, 700 - 14 * i, 10, f"{i + 1}. {sentence(rng, 10)}") for i in range(6)]])
        return p.rename(d / "contract_named.txt")

    def blob(name: str) -> Callable[[Path], Path]:
        def make(d: Path) -> Path:
            (d / name).write_bytes(noise)
            return d / name
        return make

    return [
        Case("policy/png_named_pdf", "policy", png_as_pdf, warning="is a PNG image but is named .pdf"),
        Case("policy/pdf_named_txt", "policy", pdf_as_txt, warning="is a PDF file but is named .txt"),
        Case("policy/binary_named_pdf", "policy", blob("noise.pdf"), error="binary file of an unknown type"),
        Case("policy/binary_named_txt", "policy", blob("noise.txt"), error="binary file of an unknown type"),
        Case("policy/binary_named_docx", "policy", blob("noise.docx"), error="binary file of an unknown type"),
    ]


NUMBERING_STYLES = ("article_section", "decimal_letters", "deep_decimal", "section_word", "clause_word", "section_zero",
                    "caps_top", "caps_sub")


def make_cases(seed: int = 0, *, scans: bool = True) -> list[Case]:
    """The generated cases for ``seed`` (38 with the four scans, 34 without)."""
    out = [_hidden_case(k, seed) for k in range(len(HIDING))]
    layouts = [
        (1, (1,), 0, False, False), (1, (1,), 0, False, True),
        (2, (1, 1), 24, False, False), (2, (1, 1), 18, True, True), (2, (2, 3), 22, True, False),
        (2, (3, 2), 30, False, True), (2, (1, 2), 20, True, True),
        (3, (1, 1, 1), 18, False, False), (3, (1, 1, 1), 16, True, True), (3, (2, 1, 1), 20, True, False),
        (3, (1, 1, 2), 22, False, True),
    ]
    out += [_column_case(k, seed, *lay) for k, lay in enumerate(layouts)]
    if scans:
        out += [_scan_case(k, seed, turn) for k, turn in enumerate((0, 90, 180, 270))]
    out += [_numbering_case(k, seed, st) for k, st in enumerate(NUMBERING_STYLES)]
    out += _policy_cases(seed)
    return out


def ngram_recall(reference: str, text: str, n: int = 6) -> float:
    """Share of the reference's word n-grams (lower-case alphanumeric words) found in ``text``."""
    def grams(s: str) -> list[tuple[str, ...]]:
        w = re.findall(r"[a-z0-9]+", s.lower())
        return [tuple(w[i:i + n]) for i in range(len(w) - n + 1)]

    ref = grams(reference)
    have = set(grams(text))
    return sum(g in have for g in ref) / len(ref) if ref else 1.0


LAYOUT_WARNING = re.compile(r"column|reading order|layout", re.IGNORECASE)


def check(case: Case, path: Path) -> dict:
    """Load ``path`` as the CLI does and judge it: ``{"ok": bool, "problems": [...], ...}``."""
    from clauselens.errors import IngestError
    from clauselens.parsing import load_document

    problems: list[str] = []
    out: dict = {"case": case.name}
    try:
        doc = load_document(path, ocr_dpi=200)
    except IngestError as exc:
        out["error"] = str(exc)
        if not case.error or case.error not in str(exc):
            problems.append(f"refused: {exc}")
        out.update(ok=not problems, problems=problems)
        return out
    if case.error:
        problems.append(f"read, but should be refused with {case.error!r}")
    if case.hidden:
        if case.hidden in doc.text:
            problems.append("hidden text kept")
        if not any(case.hidden in w for w in doc.warnings):
            problems.append("hidden text not warned")
    if case.warning and not any(case.warning in w for w in doc.warnings):
        problems.append(f"no warning {case.warning!r}: {doc.warnings}")
    if case.reference:
        rec = ngram_recall(case.reference, doc.text)
        out["recall6"] = round(rec, 3)
        warned = any(LAYOUT_WARNING.search(w) for w in doc.warnings)
        out["layout_warning"] = warned
        if rec < 0.95 and not warned:
            problems.append(f"6-gram recall {rec:.3f} without a warning")
    if case.refs:
        have = {n.ref for n in doc.nodes if n.ref}
        found = sum(r in have for r in case.refs)
        out["refs"] = f"{found}/{len(case.refs)}"
        if found < 0.95 * len(case.refs):
            problems.append(f"clause numbers {found}/{len(case.refs)}; missing {[r for r in case.refs if r not in have][:8]}")
    if case.under or case.within:
        by_id = {n.id: n for n in doc.nodes}

        def ancestors(ref: str) -> list:
            node, out_ = next((n for n in doc.nodes if n.ref == ref), None), []
            while node is not None and node.parent_id:
                node = by_id.get(node.parent_id)
                if node is not None:
                    out_.append(node)
            return out_

        def heading_above(ref: str) -> str | None:
            return next((a.heading for a in ancestors(ref) if a.kind == "heading"), None)

        wrong = {r: heading_above(r) for r, h in case.under.items() if heading_above(r) != h}
        wrong.update({r: f"not inside {p}" for r, p in case.within.items() if p not in {a.ref for a in ancestors(r)}})
        n_checks = len(case.under) + len(case.within)
        out["under"] = f"{n_checks - len(wrong)}/{n_checks}"
        if wrong:
            problems.append(f"clauses under the wrong heading or parent: {dict(list(wrong.items())[:6])}")
    out.update(ok=not problems, problems=problems, warnings=len(doc.warnings))
    return out
