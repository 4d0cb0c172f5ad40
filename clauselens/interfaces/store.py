"""Where a session's uploaded files live, and the checks an upload must pass.

Layout: ``<cache_dir>/sessions/<session_id>/uploads/<file name>``. Every path the web UI
or the MCP server is handed is resolved and must stay inside the store (or inside an
explicitly allowed root); anything else is refused with :class:`StoreError`.

Type check: :func:`clauselens.parsing.policy.check_input_bytes`, the input policy of the CLI and
MCP server too: the content decides (a PNG named ``.pdf`` is OCR'd, a PDF named ``.txt`` read as
a PDF, with a warning that the name misleads); empty files, damaged packages, formats clauselens
does not read and binary data are refused with the loader's message.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from clauselens.errors import ClauselensError, IngestError
from clauselens.parsing.policy import check_input_bytes

#: Default upload limit: 20 MiB (CUAD's largest PDF is ~5 MB; this leaves room for scans).
DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024
ALLOWED_SUFFIXES = (".txt", ".md", ".pdf", ".docx")
_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class StoreError(ClauselensError):
    """An upload or path was refused (too big, wrong type, outside the store, bad session id)."""

    exit_code = 2


def new_session_id() -> str:
    """A fresh, URL-safe session id (12 characters, 72 random bits)."""
    return secrets.token_urlsafe(9).replace("_", "x").replace("-", "y")


def check_session_id(session_id: str) -> str:
    """Return ``session_id`` if it is 1-64 of ``[A-Za-z0-9_-]``; raises :class:`StoreError`."""
    if not _SESSION_ID.match(session_id or ""):
        raise StoreError(f"invalid session id {session_id!r}")
    return session_id


def safe_filename(name: str) -> str:
    """The base name of ``name`` with anything but letters, digits, ``._-`` replaced by ``_``.

    Raises :class:`StoreError` for an empty result or a name starting with a dot."""
    base = Path(name.replace("\\", "/")).name
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", base).strip("_")
    if not cleaned or cleaned.startswith("."):
        raise StoreError(f"unusable file name {name!r}")
    return cleaned[:120]


def check_upload(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_UPLOAD_BYTES) -> str:
    """Validate an upload's size and type; return its safe file name.

    Raises:
        StoreError: empty, larger than ``max_bytes``, unsupported extension, or content that
            does not match the extension (e.g. a ``.pdf`` that is not a PDF).
    """
    fname = safe_filename(name)
    if len(data) > max_bytes:
        # the caller reads at most max_bytes + 1 bytes, so len(data) is not the file's size
        raise StoreError(f"{fname}: the file is larger than the {max_bytes / 1048576:g} MiB upload limit "
                         f"(start the server with --max-upload-mb to raise it)")
    try:  # the input policy of the CLI and MCP too (issue #41 item 6): by content, never by name
        check_input_bytes(fname, data)
    except IngestError as exc:
        raise StoreError(str(exc)) from None
    return fname


@dataclass(frozen=True)
class SessionStore:
    """Filesystem store of sessions under ``root`` (normally ``<cache_dir>/sessions``)."""

    root: Path

    def session_dir(self, session_id: str) -> Path:
        """``root/<session_id>`` (created); raises :class:`StoreError` for a bad id."""
        d = self.root / check_session_id(session_id)
        d.mkdir(parents=True, exist_ok=True)
        return d

    def uploads_dir(self, session_id: str) -> Path:
        """``root/<session_id>/uploads`` (created)."""
        d = self.session_dir(session_id) / "uploads"
        d.mkdir(parents=True, exist_ok=True)
        return d

    def save_upload(self, session_id: str, name: str, data: bytes,
                    max_bytes: int = DEFAULT_MAX_UPLOAD_BYTES) -> Path:
        """Check and write an upload; returns its path. An existing file of the same name is
        replaced. Writes to a temporary name first, then renames (atomic on POSIX)."""
        fname = check_upload(name, data, max_bytes)
        dest = self.uploads_dir(session_id) / fname
        tmp = dest.with_name(f".{fname}.part")
        tmp.write_bytes(data)
        tmp.replace(dest)
        return dest

    def list_uploads(self, session_id: str) -> list[Path]:
        """The session's uploaded files, sorted by name."""
        return sorted(p for p in self.uploads_dir(session_id).iterdir() if p.is_file() and not p.name.startswith("."))

    def resolve(self, path: str | Path, *, allowed_roots: tuple[Path, ...] = (), include_store: bool = True) -> Path:
        """``path`` resolved (symlinks followed); raises :class:`StoreError` unless it lies
        inside one of ``allowed_roots`` (or the whole store, if ``include_store``) and is an
        existing file."""
        p = Path(path).expanduser()
        try:
            rp = p.resolve(strict=True)
        except (OSError, RuntimeError):
            raise StoreError(f"{path}: no such file") from None
        roots = ((self.root.resolve(),) if include_store else ()) + tuple(r.resolve() for r in allowed_roots)
        if not any(rp.is_relative_to(r) for r in roots):
            raise StoreError(f"{path}: refused, the path is outside the document store")
        if not rp.is_file():
            raise StoreError(f"{path}: not a file")
        return rp
