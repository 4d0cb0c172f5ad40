"""Shared fixtures: a chat-session service on a temporary cache with the deterministic fake
model and lexical-only retrieval (no embedder download, fast)."""

from pathlib import Path

import pytest

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service

from .fakes import ContractFakeChatModel

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
ROBUST = SHARED / "robustness"


def make_settings(cache: Path) -> Settings:
    return Settings(cache_dir=cache, retrieval=RetrievalSettings(embedder="none"))


@pytest.fixture
def fake_model():
    return ContractFakeChatModel(calls=[])


@pytest.fixture
def service(tmp_path, fake_model):
    return build_service(make_settings(tmp_path), models=fake_model)
