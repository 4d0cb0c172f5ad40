"""The project's exception hierarchy.

Every error a user can cause (a bad file, a missing model, a server that is down, a
question nothing answers) is a :class:`ClauselensError` whose message is written for
that user. The CLI maps each class to an exit code (see ``clauselens.cli``); nothing
user-caused ever reaches the user as a traceback.
"""

from __future__ import annotations

import re


class ClauselensError(Exception):
    """Base class. ``exit_code`` is what the CLI exits with (never 0)."""

    exit_code: int = 1


class IngestError(ClauselensError):
    """A document could not be read: missing, empty, corrupt, encrypted, no text layer.

    The message names the file, then the problem: ``"x.txt: no text found"`` (every ingest error reads so).
    """

    exit_code = 2

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        # a problem that already names the file is not prefixed twice (nor with an empty path)
        name = path.replace("\\", "/").rsplit("/", 1)[-1]
        named = bool(name) and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", problem) is not None  # "d" is not in "found"
        super().__init__(problem if not name or named else f"{path}: {problem}")


class EncryptedDocumentError(IngestError):
    """The PDF needs a user password that was not given (or was wrong)."""


class NoTextError(IngestError):
    """The document yielded no text at all (empty, whitespace only, image-only without OCR)."""


class ConfigError(ClauselensError):
    """Settings are inconsistent or name something that does not exist."""

    exit_code = 3


class ModelUnavailableError(ClauselensError):
    """A model file is missing / fails its checksum, or a model server cannot be reached."""

    exit_code = 4


class ModelTimeoutError(ModelUnavailableError):
    """A model server accepted the connection but did not answer within the request timeout
    (``ModelSettings.request_timeout_s``, CLI ``--timeout``)."""


class ModelBusyError(ModelUnavailableError):
    """A model server answered "busy" (HTTP 429 Too Many Requests / 503 Service Unavailable)
    after the client's retries."""


class ModelResponseError(ClauselensError):
    """A model kept returning output that does not validate against the requested schema,
    after the bounded number of retries."""

    exit_code = 5


class RetrievalError(ClauselensError):
    """An index cannot serve a query (empty store, embedder changed since it was built, ...)."""

    exit_code = 6


class ContextOverflowError(RetrievalError):
    """``inject`` mode: the corpus does not fit the model's context window."""


#: The message of an :class:`IngestError` for a folder given where a file is expected.
FOLDER_NOT_FILE = ("a folder, not a file: give its files (e.g. FOLDER/*.pdf), or add the folder to a library with "
                   "`clauselens library add FOLDER`")
