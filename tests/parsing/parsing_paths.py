"""Where the shared data lives: ``../shared`` beside the repository (same layout in CI)."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"
CUAD = SHARED / "data" / "cuad"
CUAD_TXT = CUAD / "full_contract_txt"
SCANNED = SHARED / "data" / "scanned-contracts"


def cuad_txt(prefix: str) -> Path:
    """The CUAD TXT whose name starts with ``prefix``."""
    (hit,) = [p for p in CUAD_TXT.iterdir() if p.name.startswith(prefix)]
    return hit


def cuad_pdf(prefix: str) -> Path:
    """The CUAD PDF whose name starts with ``prefix``."""
    (hit,) = [p for p in (CUAD / "full_contract_pdf").rglob("*") if p.name.startswith(prefix) and p.suffix.lower() == ".pdf"]
    return hit
