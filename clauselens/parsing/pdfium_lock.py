"""The one lock every PDFium (pypdfium2) call in the package holds.

PDFium keeps global state and is not thread-safe: no two of its functions may run at the same
time, on the same document or on different ones (pypdfium2's documentation). The web server
parses an upload in a worker thread while other threads render page images
(:mod:`clauselens.parsing.page_image`), so the parser (:mod:`clauselens.parsing.pdf`: the
``pdfium`` text engine and OCR page renders) and the page images take :data:`PDFIUM_LOCK` around
each stretch of PDFium calls: one document open, one page's read or render, one close. Work on
what was read (layout analysis, OCR, PNG encoding) runs outside it.

Every pypdfium2 object made under the lock is closed under it too (never left to its garbage-
collection finalizer, which would run PDFium in whatever thread collects it, unlocked).

Re-entrant, so a helper that takes it may be called by code already holding it.
"""

from __future__ import annotations

import threading

#: Held around every PDFium call in the package (see the module docstring).
PDFIUM_LOCK = threading.RLock()
