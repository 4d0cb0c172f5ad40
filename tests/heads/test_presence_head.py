"""Clause presence head (issue #40): checksum, offline load, one real CUAD example."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clauselens.errors import ClauselensError
from clauselens.heads.base import HeadChecksumError, HeadMissingError, head_dir
from clauselens.heads.presence import NAME, WEIGHT_FILE, PresenceHead, windows

# A real excerpt of a report-split agreement (not in train_allowed.txt):
# ACCURAYINC_09_01_2010-EX-10.31-DISTRIBUTOR AGREEMENT.txt, whose CUAD "Governing Law" annotation is clause 12.1.
ACCURAY = (
    "notification to the other party of any Claim. Nothing in this Section 11 shall be deemed a waiver by any party "
    "of any right to injunctive relief to the extent it is available to such party. 12. MISCELLANEOUS PROVISIONS "
    "12.1. Governing Law. This Agreement shall be governed by, and construed in accordance with, the laws of the "
    "Federal Republic of Germany excluding the United Nations Convention on Contracts of International Sale of Goods "
    "(CISG) and the provisions of German private international law. 12.2. Modification. Notwithstanding any "
    "provision to the contrary in this Agreement, Distributor and Accuray may agree, by execution of a written "
    "agreement"
)

# the presence head is committed (clauselens/heads/weights/presence/): its tests never skip; a missing file fails them
installed = pytest.mark.usefixtures()


@installed
def test_real_cuad_governing_law_is_present_and_quoted() -> None:
    res = {r.category: r for r in PresenceHead().score(ACCURAY)}
    gov = res["Governing Law"]
    assert gov.present and "governed by" in gov.passage
    # a non-compete is nowhere in this excerpt
    assert not res["Non-Compete"].present


@installed
def test_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    d = tmp_path / NAME
    shutil.copytree(head_dir(NAME), d)
    data = bytearray((d / WEIGHT_FILE).read_bytes())
    data[-1] ^= 0xFF
    (d / WEIGHT_FILE).write_bytes(bytes(data))
    with pytest.raises(HeadChecksumError):
        PresenceHead(root=tmp_path)


def test_missing_head_says_so(tmp_path: Path) -> None:
    with pytest.raises(HeadMissingError, match="presence head not installed"):
        PresenceHead(root=tmp_path)


@installed
def test_empty_text_is_a_clear_error() -> None:
    with pytest.raises(ClauselensError, match="empty"):
        PresenceHead().score("   ")


def test_windows_overlap_and_cover_the_text() -> None:
    words = [f"w{i}" for i in range(250)]
    wins = windows(" ".join(words), size=100, stride=60)
    assert wins[0].split()[0] == "w0" and wins[-1].split()[-1] == "w249"
    assert all(len(w.split()) <= 100 for w in wins)
