"""Fresh variants for issue #41 that neither the unit tests nor ``benchmarks/robustness_generated.py`` make:
the same kinds, other parameters. Judged by the same checks (:func:`tests.parsing.robustness_gen.check`).

* ``hidden``: twelve hiding methods the generator has not used -- a black bar drawn over black text (a failed
  redaction), an opaque light-yellow note over it, near-white text (grey 0.96) at body size, text shrunk by the
  transformation matrix (``cm``, ISO 32000-1 §8.3.4) or by horizontal scaling ``Tz`` (§9.3.4), render mode 7
  (clip only, §9.3.6), text below the page, dark text in a dark box, alpha 0 between two clauses (not after
  them), half-point black text -- in Helvetica-Bold / Times-Italic / Courier-Bold / Times-Bold /
  Helvetica-Oblique at 8-13 pt; plus two *visible* controls that must be kept (white text in a dark box, light
  grey text).
* ``columns``: the generator's column builder with widths, gutters (10-40 pt), fonts and sizes it does not use.
* ``scan``: pages set in a TrueType font (DejaVu Serif, Liberation Sans; the generator uses Pillow's default
  font) at 150/300 dpi, turned 0/90/180/270 degrees, saved as PDF, PNG or JPEG.
* ``numbering``: styles the generator lacks ("CLAUSE 1 - TITLE" with 1.1; "Clause 1." with (a)/(i); printed
  "1(a)(ii)"; "1.01" without "Section"; "Article 1" with 1.1; "ARTICLE V" with "Section 5.1" (a) (i); "Clause 7"
  with 7.1 and 7.1.1).
* ``policy``: misnamed files of other kinds (JPEG as .docx, TIFF as .txt, Word as .pdf, PDF as .docx, a ZIP,
  gzip and an empty file under document names), each also checked through the web upload check
  (:func:`clauselens.interfaces.store.check_upload`), which must give the loader's message.

Run: ``flock /tmp/clauselens-heavy.lock nice -n 5 .venv/bin/python -m benchmarks.robustness_fresh [SEEDS]``
(default seeds 500-503; the OCR'd scans for the first two only; ``--no-scans``: none) ->
``benchmarks/results/robustness_fresh.json`` (per kind: cases, passed, Wilson 95 % interval, failures; per case its checks).
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import tempfile
import textwrap
import time
import zipfile
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("ROBUSTNESS_FRESH_OUT", REPO / "benchmarks" / "results" / "robustness_fresh.json"))
sys.path.insert(0, str(REPO / "tests" / "parsing"))

from benchmarks.robustness_columns import wilson  # noqa: E402
from tests.parsing import robustness_gen as gen  # noqa: E402
from tests.parsing.pdfgen import write_pdf  # noqa: E402

FRESH_FONTS = ("Helvetica-Bold", "Times-Italic", "Courier-Bold", "Times-Bold", "Helvetica-Oblique")
FRESH_EM = {"Helvetica-Bold": 0.6, "Times-Italic": 0.5, "Courier-Bold": 0.6, "Times-Bold": 0.53, "Helvetica-Oblique": 0.56}
HIDING = ("black_bar", "yellow_note", "near_white", "ctm_tiny", "hscale", "mode7", "below_page", "dark_box",
          "alpha_between", "half_point", "visible_white_on_dark", "visible_light_grey")
TTF = ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


def hidden_case(k: int, seed: int, method: str) -> gen.Case:
    rng = random.Random(seed * 7919 + k)
    font = FRESH_FONTS[(k + seed) % len(FRESH_FONTS)]
    size = (8, 10, 11, 13)[(k + seed) % 4]
    colour = ((0, 0, 0), (0.15, 0.05, 0.3), (0.25, 0.25, 0.25))[k % 3]
    paras, refs = gen.clauses(rng, 3)
    lead = size * 1.4
    lines = [ln for p in paras for ln in textwrap.wrap(p, int(470 / (FRESH_EM[font] * size)))]
    at = len(lines) if method != "alpha_between" else next(i for i, ln in enumerate(lines) if ln.startswith("2."))
    ys = [740 - lead * (i if i < at else i + 1) for i in range(len(lines))]
    runs: list[tuple] = [(60, y, size, ln, colour) for y, ln in zip(ys, lines)]
    y = 740 - lead * at
    text = f"{len(refs) + 1}.9 {gen.FALSE_LINE}"
    visible = method.startswith("visible")
    over: list[tuple] = []
    fills: list[tuple] = []
    box = (55, y - 4, 500, size + 6)
    run: tuple
    if method == "black_bar":
        run, over = (60, y, size, text, (0, 0, 0)), [("rect", *box, (0, 0, 0))]
    elif method == "yellow_note":
        run, over = (60, y, size, text, colour), [("rect", *box, (1, 0.97, 0.7))]
    elif method == "near_white":
        run = (60, y, size, text, (0.96, 0.96, 0.96))
    elif method == "ctm_tiny":
        run = (60, y, size, text, colour, None, None, "0.04 0 0 0.04 0 0 cm")
    elif method == "hscale":
        run = (60, y, size, text, colour, None, None, "1 Tz")
    elif method == "mode7":
        run = (60, y, size, text, colour, None, 7)
    elif method == "below_page":
        run = (60, -3 * size, size, text, colour)
    elif method == "dark_box":
        fills, run = [(*box, (0.1, 0.1, 0.3))], (60, y, size, text, (0.1, 0.1, 0.3))
    elif method == "alpha_between":
        run = (60, y, size, text, colour, None, None, "/GS0 gs")
    elif method == "half_point":
        run = (60, y, 0.5, text, (0, 0, 0))
    elif method == "visible_white_on_dark":
        fills, run = [(*box, (0.1, 0.1, 0.3))], (60, y, size, text, (1, 1, 1))
    else:  # visible_light_grey
        run = (60, y, size, text, (0.6, 0.6, 0.6))

    def make(d: Path) -> Path:
        return write_pdf(d / f"fresh_hidden_{k}_{method}.pdf", [runs + [run]], font=font, over=[over] if over else None,
                         fills=[fills] if fills else None)

    reference = "\n".join(paras[:] if not visible else [*paras, text])
    return gen.Case(f"hidden/{method}/{font}/{size}pt", "hidden", make, reference=reference, refs=refs,
                    hidden=None if visible else "have terminated")


def column_cases(seed: int) -> list[gen.Case]:
    layouts = [  # (columns, widths, gutter, rule, full-width heading)
        (2, (1, 3), 12, False, False), (2, (3, 1), 14, True, True), (2, (1, 1), 10, False, True),
        (2, (2, 1), 40, True, False), (3, (1, 2, 1), 12, True, False), (3, (3, 1, 1), 14, False, True),
        (3, (1, 1, 1), 10, True, True), (3, (2, 2, 1), 28, False, False),
    ]
    out = []
    for k, lay in enumerate(layouts):
        font = gen.FONTS[(k + seed) % 3]
        size = (8, 8.5, 11)[(k + seed) % 3]
        try:
            out.append(gen._column_case(50 + k, seed, *lay, font=font, size=size))
        except ValueError:  # does not fit the page at this size
            continue
    return out


def scan_case(k: int, seed: int, turn: int, ttf: str, dpi: int, fmt: str) -> gen.Case:
    rng = random.Random(seed * 7919 + 300 + k)
    paras, refs = gen.clauses(rng, 3)

    def make(d: Path) -> Path:
        from PIL import Image, ImageDraw, ImageFont

        size = 11
        f = ImageFont.truetype(ttf, int(size / 72 * dpi))
        lines = [ln for p in paras for ln in textwrap.wrap(p, 80)]
        step = int(size * 1.45 / 72 * dpi)
        im = Image.new("L", (int(8.5 * dpi), int(1.0 * dpi) + step * len(lines)), 255)
        draw = ImageDraw.Draw(im)
        for i, ln in enumerate(lines):
            draw.text((int(0.7 * dpi), int(0.5 * dpi) + step * i), ln, font=f, fill=0)
        im = im.rotate(turn, expand=True)
        path = d / f"fresh_scan_{k}_{turn}.{fmt.lower()}"
        im.save(path, "JPEG" if fmt == "jpg" else fmt.upper(), **({"resolution": dpi} if fmt == "pdf" else {"dpi": (dpi, dpi)}))
        return path

    return gen.Case(f"scan/turned{turn}/{Path(ttf).stem}/{dpi}dpi/{fmt}", "scan", make, reference="\n".join(paras), refs=refs)


def numbering_case(k: int, seed: int, style: str) -> gen.Case:
    rng = random.Random(seed * 7919 + 600 + k)
    w = gen.WORDS
    lines, refs = [rng.choice(gen.TITLES), ""], []
    for i in range(1, 5):
        title = rng.choice(w).title()
        if style == "clause_caps":
            lines.append(f"CLAUSE {i} - {title.upper()}")
            refs.append(str(i))
            for j in (1, 2):
                lines.append(f"{i}.{j} {gen.sentence(rng, 12)}")
                refs.append(f"{i}.{j}")
        elif style == "clause_dot_letters":
            lines.append(f"Clause {i}. {title}. {gen.sentence(rng, 8)}")
            refs.append(str(i))
            for letter in "ab":
                lines.append(f"({letter}) {gen.sentence(rng, 8)[:-1]}:" if letter == "a" else f"({letter}) {gen.sentence(rng, 8)}")
                refs.append(f"{i}({letter})")
                if letter == "a":
                    for roman in ("i", "ii"):
                        lines.append(f"({roman}) {gen.sentence(rng, 6)[:-1]};")
                        refs.append(f"{i}(a)({roman})")
        elif style == "printed_paren":
            lines.append(f"{i}. {title}")
            refs.append(str(i))
            lines.append(f"{i}(a) {gen.sentence(rng, 10)}")
            refs.append(f"{i}(a)")
            for roman in ("i", "ii"):
                lines.append(f"{i}(a)({roman}) {gen.sentence(rng, 8)}")
                refs.append(f"{i}(a)({roman})")
        elif style == "zero_bare":
            lines.append(f"ARTICLE {i} {title.upper()}")
            for j in (1, 2):
                lines.append(f"{i}.{j:02d} {rng.choice(w).title()}. {gen.sentence(rng, 12)}")
                refs.append(f"{i}.{j:02d}")
        elif style == "article_arabic":
            lines.append(f"Article {i} {title}")
            refs.append(f"Article {i}")
            for j in (1, 2):
                lines.append(f"{i}.{j} {gen.sentence(rng, 12)}")
                refs.append(f"{i}.{j}")
        elif style == "roman_section_paren":
            roman_i = ["I", "II", "III", "IV"][i - 1]
            lines.append(f"ARTICLE {roman_i}")
            lines.append(f"Section {i}.1 {title}. {gen.sentence(rng, 10)}")
            refs.append(f"{i}.1")
            lines.append(f"(a) {gen.sentence(rng, 8)[:-1]}:")
            refs.append(f"{i}.1(a)")
            for roman in ("i", "ii", "iii"):
                lines.append(f"({roman}) {gen.sentence(rng, 6)[:-1]};")
                refs.append(f"{i}.1(a)({roman})")
        else:  # clause_word_deep: "Clause 7" with 7.1 and 7.1.1
            lines.append(f"Clause {i} {title}")
            refs.append(str(i))
            lines.append(f"{i}.1 {gen.sentence(rng, 12)}")
            lines.append(f"{i}.1.1 {gen.sentence(rng, 10)}")
            refs += [f"{i}.1", f"{i}.1.1"]
        lines.append("")

    def make(d: Path) -> Path:
        path = d / f"fresh_numbering_{k}_{style}.txt"
        path.write_text("\n".join(lines) + "\n")
        return path

    return gen.Case(f"numbering/{style}", "numbering", make, reference="\n".join(lines), refs=refs)


NUMBERING = ("clause_caps", "clause_dot_letters", "printed_paren", "zero_bare", "article_arabic", "roman_section_paren",
             "clause_word_deep")


def policy_cases(seed: int) -> list[gen.Case]:
    rng = random.Random(seed * 7919 + 900)

    def image(fmt: str, name: str) -> Callable[[Path], Path]:
        def make(d: Path) -> Path:
            from PIL import Image, ImageDraw, ImageFont

            im = Image.new("L", (1500, 420), 255)
            draw = ImageDraw.Draw(im)
            f = ImageFont.truetype(TTF[1], 40)
            for i in range(3):
                draw.text((60, 60 + 100 * i), f"{i + 1}. The Customer shall {rng.choice(gen.WORDS)} the {rng.choice(gen.WORDS)}.",
                          font=f, fill=0)
            im.save(d / name, fmt, dpi=(200, 200))
            return d / name
        return make

    def docx_as(name: str) -> Callable[[Path], Path]:
        def make(d: Path) -> Path:
            import docx

            doc = docx.Document()
            for i in range(4):
                doc.add_paragraph(f"{i + 1}. {gen.sentence(rng, 10)}")
            doc.save(str(d / name))
            return d / name
        return make

    def pdf_as(name: str) -> Callable[[Path], Path]:
        def make(d: Path) -> Path:
            return write_pdf(d / name, [[(72, 700 - 14 * i, 10, f"{i + 1}. {gen.sentence(rng, 10)}") for i in range(5)]])
        return make

    def raw(name: str, data: bytes) -> Callable[[Path], Path]:
        def make(d: Path) -> Path:
            (d / name).write_bytes(data)
            return d / name
        return make

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("contract.txt", "1. The parties agree.")
    return [
        gen.Case("policy/jpeg_named_docx", "policy", image("JPEG", "scan.docx"), warning="is a JPEG image but is named .docx"),
        gen.Case("policy/tiff_named_txt", "policy", image("TIFF", "scan.txt"), warning="is a TIFF image but is named .txt"),
        gen.Case("policy/docx_named_pdf", "policy", docx_as("contract.pdf"), warning="is a Word document (.docx) but is named .pdf"),
        gen.Case("policy/pdf_named_docx", "policy", pdf_as("contract.docx"), warning="is a PDF file but is named .docx"),
        gen.Case("policy/zip_named_pdf", "policy", raw("bundle.pdf", buf.getvalue()), error="ZIP archive"),
        gen.Case("policy/gzip_named_txt", "policy", raw("notes.txt", b"\x1f\x8b\x08\x00" + bytes(rng.randrange(256) for _ in range(200))),
                 error="gzip archive"),
        gen.Case("policy/empty_docx", "policy", raw("empty.docx", b""), error="empty (0 bytes)"),
    ]


def web_check(path: Path, got: dict) -> list[str]:
    """The web upload check must refuse what the loader refuses, with the same message, and accept the rest."""
    from clauselens.interfaces.store import StoreError, check_upload

    try:
        check_upload(path.name, path.read_bytes())
        web = None
    except StoreError as exc:
        web = str(exc)
    if "error" in got:
        return [] if web == got["error"] else [f"web says {web!r}, loader {got['error']!r}"]
    return [] if web is None else [f"web refuses what the loader reads: {web!r}"]


def make_cases(seed: int, *, scans: bool = True, columns_only: bool = False) -> list[gen.Case]:
    if columns_only:
        return column_cases(seed)
    out = [hidden_case(k, seed, m) for k, m in enumerate(HIDING)]
    out += column_cases(seed)
    combos = [(0, 0, 300, "pdf"), (90, 1, 150, "png"), (180, 0, 150, "jpg"), (270, 1, 300, "pdf")]
    if scans:
        out += [scan_case(k, seed, turn, TTF[(f + seed) % 2], dpi, fmt) for k, (turn, f, dpi, fmt) in enumerate(combos)]
    out += [numbering_case(k, seed, st) for k, st in enumerate(NUMBERING)]
    out += policy_cases(seed)
    return out


def main(argv: list[str]) -> None:
    scan_seeds = 2  # the scans are OCR'd (20-40 s each): made for the first two seeds only
    if "--no-scans" in argv or "--columns-only" in argv:  # the light part alone (about 30 CPU-s)
        scan_seeds = 0  # --columns-only: the 8 column layouts per seed alone (about 0.5 CPU-s per seed)
    seeds = [int(a) for a in argv if a.isdigit()] or [500, 501, 502, 503]
    kinds = set()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            d = Path(tmp) / str(seed)
            d.mkdir()
            for case in make_cases(seed, scans=seed in seeds[:scan_seeds], columns_only="--columns-only" in argv):
                t = time.perf_counter()
                path = case.make(d)
                got = gen.check(case, path)
                if case.kind == "policy":
                    extra = web_check(path, got)
                    got["problems"] += extra
                    got["ok"] = got["ok"] and not extra
                got.update(seed=seed, kind=case.kind, seconds=round(time.perf_counter() - t, 2))
                kinds.add(case.kind)
                rows.append(got)
                print(json.dumps(got)[:400], flush=True)
    summary = {}
    for kind in sorted(kinds) + ["all"]:
        sel = [r for r in rows if kind in ("all", r["kind"])]
        ok = sum(r["ok"] for r in sel)
        summary[kind] = {"cases": len(sel), "passed": ok, "wilson95": wilson(ok, len(sel)),
                         "failures": [(r["seed"], r["case"], r["problems"]) for r in sel if not r["ok"]]}
    OUT.write_text(json.dumps({"summary": summary, "rows": rows,
                               "command": " ".join(["python -m benchmarks.robustness_fresh", *argv])}, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
