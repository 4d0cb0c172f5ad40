"""Where a session's uploaded files live, and the checks an upload must pass.

Layout: ``<cache_dir>/sessions/<session_id>/uploads/<file name>``. Every path the web UI
or the MCP server is handed is resolved and must stay inside the store (or inside an
explicitly allowed root); anything else is refused with :class:`StoreError`.

Type check: the extension must be one the Archivist reads (``.txt .md .pdf .docx``) and
the first bytes must agree with it (PDF: ``%PDF-`` per ISO 32000-1 §7.5.2; DOCX: a ZIP
local-file header ``PK\\x03\\x04`` per the APPNOTE spec §4.3.7; text: no NUL byte in the
first 8 KiB unless it starts with a UTF-16/32 byte-order mark).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from clauselens.errors import ClauselensError
from clauselens.parsing.sniff import sniff_bytes

#: Default upload limit: 20 MiB (CUAD's largest PDF is ~5 MB; this leaves room for scans).
DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024
ALLOWED_SUFFIXES = (".txt", ".md", ".pdf", ".docx")
_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_UTF_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf")


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
    suffix = Path(fname).suffix.lower()
    if suffix not in ALLOWED_SUFFIXES:
        raise StoreError(
            f"{fname}: unsupported file type {suffix or '(none)'}; upload one of {', '.join(ALLOWED_SUFFIXES)}"
        )
    if not data:
        raise StoreError(f"{fname}: the file is empty")
    if len(data) > max_bytes:
        # the caller reads at most max_bytes + 1 bytes, so len(data) is not the file's size
        raise StoreError(f"{fname}: the file is larger than the {max_bytes / 1048576:g} MiB upload limit "
                         f"(start the server with --max-upload-mb to raise it)")
    head = data[:8192]
    sniffed = sniff_bytes(head[:1024])  # None: a ZIP package (a .docx is one)
    if suffix == ".pdf" and (sniffed is None or sniffed.kind != "pdf"):
        what = "a ZIP package" if sniffed is None else sniffed.what
        raise StoreError(f"{fname}: not a PDF: this is {what} (it does not start with %PDF-)")
    if suffix == ".docx" and sniffed is not None:
        raise StoreError(f"{fname}: not a Word .docx file: this is {sniffed.what} (not a ZIP package)")
    if suffix in (".txt", ".md") and b"\x00" in head and not head.startswith(_UTF_BOMS):
        raise StoreError(f"{fname}: this looks like a binary file, not text")
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
