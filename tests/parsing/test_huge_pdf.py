"""A 520-page text PDF (built here, minimal PDF 1.4 syntax) parses with its clause tree and
page numbers right and sane memory; ``Settings.max_pages`` refuses it before any page is read."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clauselens.agents.archivist import load_one
from clauselens.config import Settings
from clauselens.errors import IngestError
from clauselens.parsing import store as store_mod

ARTICLES, SECTIONS = 26, 20  # one section per page: 26 x 20 = 520 pages
N_PAGES = ARTICLES * SECTIONS
TITLES = ["Definitions", "Delivery", "Payment Terms", "Warranties", "Indemnification", "Confidentiality",
          "Term and Termination", "Insurance", "Audit Rights", "Assignment", "Notices", "Governing Law", "Force Majeure"]
SENTENCES = [
    "The Supplier shall deliver the goods to the Buyer's nominated warehouse",
    "Each invoice is payable within thirty (30) days of receipt",
    "Neither party shall disclose the other party's confidential information",
    "The Buyer may inspect the Supplier's records on reasonable notice",
    "All notices shall be in writing and sent by registered mail",
    "The Supplier warrants that the goods conform to the specification",
    "This clause survives any expiry or termination of this Agreement",
]
#: Peak RSS (MiB) allowed for a subprocess that imports clauselens and parses the 520 pages.
#: Measured ~55 MiB; keeping every page's chars (no page.close()) costs hundreds of MiB.
MAX_RSS_MIB = 300


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_text_pdf(path: Path, pages: list[list[str]]) -> None:
    """Write a PDF 1.4 file with one Helvetica text line per entry of ``pages[i]`` (14 pt
    leading from the top margin) and a correct cross-reference table."""
    n = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i, lines in enumerate(pages):
        ops = ["BT", "/F1 11 Tf", "14 TL", "72 740 Td", *(f"({_esc(ln)}) Tj T*" for ln in lines), "ET"]
        stream = "\n".join(ops).encode("latin-1")
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                    f"/Contents {5 + 2 * i} 0 R >>".encode())
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for k, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    path.write_bytes(bytes(out))


def contract_pages() -> list[list[str]]:
    """Page p (1-based) holds section a.s with p = (a - 1) * 20 + s; an article's first page
    starts with its "ARTICLE a" heading; every page ends with a running footer."""
    pages = []
    for p in range(1, N_PAGES + 1):
        a, s = divmod(p - 1, SECTIONS)
        a, s = a + 1, s + 1
        lines = [f"ARTICLE {a}", TITLES[a % len(TITLES)].upper(), ""] if s == 1 else []
        lines.append(f"{a}.{s} {TITLES[(p + s) % len(TITLES)]}")
        for j in range(1 + p % 3):
            lines += [f"{SENTENCES[(p + j) % len(SENTENCES)]} as provided in Section {a}.{s},",
                      f"{SENTENCES[(p * (j + 2)) % len(SENTENCES)].lower()}.", ""]
        lines.append(f"Master Supply Agreement - Page {p} of {N_PAGES}")
        pages.append(lines)
    return pages


@pytest.fixture(scope="module")
def huge_pdf(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("huge") / "master_supply_520p.pdf"
    write_text_pdf(path, contract_pages())
    return path


def test_520_page_pdf_parses_with_tree_pages_and_sane_memory(huge_pdf, tmp_path):
    # Parsed in a fresh interpreter so its peak RSS is this parse's, not the test session's.
    code = textwrap.dedent(f"""
        import json, time
        def hwm_mib():
            # VmHWM is this process's own peak RSS; ru_maxrss is not: Linux carries the parent's
            # RSS at fork into the child's ru_maxrss across exec (a 2 GB pytest parent read as 2 GB)
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        from clauselens.agents.archivist import load_one
        from clauselens.config import Settings
        s = Settings(cache_dir={str(tmp_path)!r}, ocr=False)
        t = time.perf_counter()
        doc = load_one({str(huge_pdf)!r}, s)
        secs = time.perf_counter() - t
        print(json.dumps({{
            "secs": secs, "rss_mib": hwm_mib(),
            "pages": len(doc.pages), "methods": sorted({{p.method for p in doc.pages}}),
            "structured": doc.structured, "warnings": doc.warnings,
            "refs": [[n.ref, n.kind, n.page_start, n.page_end] for n in doc.nodes if n.ref],
            "furniture_pages": sum(1 for p in doc.pages if any("Master Supply" in f for f in p.furniture)),
            "footer_in_text": "Master Supply Agreement - Page" in doc.text,
        }}))
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"520-page parse: {out['secs']:.1f} s, peak RSS {out['rss_mib']:.0f} MiB")
    assert out["pages"] == N_PAGES and out["methods"] == ["text"] and out["structured"]
    refs = {r[0]: r for r in out["refs"]}
    sections = [r for r in out["refs"] if r[0][:1].isdigit()]
    assert len(sections) == N_PAGES  # every a.s section found, no extra
    for a, s in [(1, 1), (13, 7), (20, 15), (ARTICLES, SECTIONS)]:
        page = (a - 1) * SECTIONS + s
        _, _, start, end = refs[f"{a}.{s}"]
        assert (start, end) == (page, page), f"{a}.{s}"
    last = out["refs"][-1]
    assert last[0] == f"{ARTICLES}.{SECTIONS}" and last[2] == last[3] == N_PAGES
    articles = [r for r in out["refs"] if r[1] == "article"]
    assert len(articles) == ARTICLES
    assert articles[-1][0].upper() == f"ARTICLE {ARTICLES}" and articles[-1][2] == (ARTICLES - 1) * SECTIONS + 1
    assert out["furniture_pages"] == N_PAGES and not out["footer_in_text"]
    assert out["rss_mib"] < MAX_RSS_MIB


def test_page_limit_refuses_before_parsing(huge_pdf, tmp_path, monkeypatch):
    def no_parse(*a, **k):
        raise AssertionError("parsed a PDF over the page limit")

    monkeypatch.setattr(store_mod, "load_document", no_parse)
    for use_store in (True, False):
        s = Settings(cache_dir=tmp_path, ocr=False, max_pages=500, use_store=use_store)
        with pytest.raises(IngestError) as ei:
            load_one(huge_pdf, s)
        msg = str(ei.value)
        assert msg.startswith(f"{huge_pdf.name}: 520 pages is over the page limit of 500")
        assert "CLAUSELENS_MAX_PAGES=520" in msg
    assert not (tmp_path / "store").exists()


def test_page_limit_env_var_and_default(monkeypatch):
    monkeypatch.delenv("CLAUSELENS_MAX_PAGES", raising=False)
    assert Settings().max_pages == 2000
    monkeypatch.setenv("CLAUSELENS_MAX_PAGES", "600")
    monkeypatch.setenv("CLAUSELENS_USE_STORE", "false")
    s = Settings()
    assert s.max_pages == 600 and s.use_store is False
