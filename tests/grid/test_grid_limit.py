"""``clauselens grid FOLDER --limit N`` adds only the folder's first N files to the library (the tryout
found ``--limit 1`` adding every file of the folder before cutting the rows)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from clauselens.config import Settings
from clauselens.interfaces.grid_commands import grid_rows

AGREEMENT = """\
    SUPPLY AGREEMENT

    This Supply Agreement is made between {a} Ltd ("Supplier") and {b} Inc ("Buyer").

    1. Term. This Agreement lasts two (2) years from the Effective Date.

    2. Governing Law. This Agreement is governed by the laws of the State of New York.
    """


def test_limit_adds_only_the_first_files_of_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    for i, (a, b) in enumerate([("Alder", "Birch"), ("Cedar", "Dogwood"), ("Elm", "Fir")]):
        (folder / f"{i}_supply.txt").write_text(textwrap.dedent(AGREEMENT.format(a=a, b=b)), encoding="utf-8")
    settings = Settings(cache_dir=tmp_path / "cache", use_store=False, retrieval={"embedder": "none"})
    lib, rows = grid_rows(settings, str(folder), None, ocr=False, limit=1)
    assert len(rows) == 1 and rows[0].source_path.endswith("0_supply.txt")
    assert [Path(r.path).name for r in lib.agreements()] == ["0_supply.txt"]
    lib, rows = grid_rows(settings, str(folder), None, ocr=False)
    assert len(rows) == 3 and len(lib.agreements()) == 3
