"""Typed errors. Every failure a user or an LLM can cause has its own class.

The CLI turns any :class:`AutodwError` into one ``error: ...`` line and exit status 2. Anything else is a
bug of ours: :class:`InternalError` (deliberately not an AutodwError) carries it with its traceback, and the
CLI reports it as an internal error with exit status 4.
"""

from __future__ import annotations

import traceback as _traceback


def clipped(text: str, limit: int) -> str:
    """`text`, or its first `limit` characters and how many more there were: a message never echoes a whole
    megabyte-long value back to a user or a model."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit} more characters)"


class AutodwError(Exception):
    """Base class of every error autodw raises on purpose."""


# --- input documents --------------------------------------------------------------


class DocumentError(AutodwError):
    """The input file cannot be opened for editing. The message says what the file is."""


class DocumentNotFoundError(DocumentError):
    """The path does not exist or is not a regular file."""


class UnreadableFileError(DocumentError):
    """An input file exists but cannot be read: no permission, a name too long, an I/O error, not UTF-8 text."""


class NotAZipError(DocumentError):
    """The file is not a zip archive, so it cannot be an OOXML package."""


class CorruptPackageError(DocumentError):
    """A zip archive that is damaged: bad central directory, bad CRC, malformed XML."""


class EncryptedDocumentError(DocumentError):
    """A password-protected (encrypted) Office file: an OLE2 container with EncryptedPackage."""


class LegacyWordFormatError(DocumentError):
    """An OLE2 compound file without an encrypted package: a Word 97-2003 .doc or similar."""


class StrictOOXMLError(DocumentError):
    """An ISO/IEC 29500 Strict package, which python-docx cannot edit."""


class NotAWordDocumentError(DocumentError):
    """An OOXML package whose main part is not a WordprocessingML document."""


class MissingPartError(DocumentError):
    """The package lacks a part that its content types or relationships require."""


class PackageTooLargeError(DocumentError):
    """The package would expand beyond the configured limit (zip bomb guard)."""


class OutputPathError(AutodwError):
    """An output cannot be written there: a folder or a device, no permission, no space left."""


# --- API calls ----------------------------------------------------------------------


class ApiError(AutodwError):
    """An API call was refused or failed; the document is left exactly as it was. `omit`: the arguments whose
    leaving out answers the error, when its message says so ("omit rows")."""

    def __init__(self, message: str, omit: tuple[str, ...] = ()):
        super().__init__(message)
        self.omit = omit


class UnknownApiError(ApiError):
    """The API name does not exist. The message lists the closest names."""


class ArgumentError(ApiError):
    """Arguments do not match the API's schema or name elements that do not exist."""


class UnsupportedOperationError(ApiError):
    """The call is well-formed but cannot be done on this document (said why)."""


# --- state, LLMs, configuration -----------------------------------------------------


class StateExtractionError(AutodwError):
    """The document state could not be extracted (treated as a failed step by the agent)."""


class LLMError(AutodwError):
    """The language-model backend failed or answered with something unusable."""


class LLMConnectionError(LLMError):
    """The endpoint could not be reached or kept failing after retries (rate limits, server errors, timeouts). A run
    stops on it with its folder intact; the message says how to continue."""


class MalformedResponseError(LLMConnectionError):
    """The endpoint answered with something that is not a chat completion (not JSON, no choice): a fault of the
    endpoint or of a proxy before it, not of the model's text."""


class ContextOverflowError(LLMError):
    """A prompt does not fit the model's context: the instruction fails (status ``context_overflow``), not the run."""


class LLMOutputError(LLMError):
    """The model's output could not be parsed or validated after the allowed retries."""

    #: showing the model this error and asking again may get a valid answer
    retryable = True


class ReplayMissError(LLMError):
    """A replay cassette has no recorded response for this request."""


class ConfigError(AutodwError):
    """A setting, flag or path given by the user is invalid."""


class SessionError(AutodwError):
    """An interactive-session request that cannot be done (nothing to undo, no such document handle)."""


class ExternalToolError(AutodwError):
    """A program autodw runs (LibreOffice, poppler) is not installed or failed; the message says which and how
    to install it."""


class RedlineError(AutodwError):
    """The comparison engine could not build a redline of two valid documents."""


class TemplateDataError(ConfigError):
    """An intent template data file (``autodw/intents/templates/*.yaml``) is malformed; the message names file and template."""


class BenchmarkDataError(AutodwError):
    """DWBench data is missing (e.g. the shared corpus), changed (checksum) or inconsistent."""


# --- our own bugs -------------------------------------------------------------------


class InternalError(Exception):
    """A bug of autodw (an exception no typed error describes), never shown to an LLM as its mistake.

    Not an :class:`AutodwError`, so no handler of bad input or bad model output catches it. ``traceback`` is the
    formatted traceback of the original exception (also kept as ``__cause__``).
    """

    def __init__(self, message: str, traceback: str = ""):
        super().__init__(message)
        self.traceback = traceback

    @classmethod
    def wrap(cls, exc: BaseException, where: str) -> "InternalError":
        """An InternalError for `exc`, raised inside `where` (say ``raise InternalError.wrap(exc, ...) from exc``).
        An InternalError is returned as it is."""
        if isinstance(exc, InternalError):
            return exc
        trace = "".join(_traceback.format_exception(type(exc), exc, exc.__traceback__))
        return cls(f"{type(exc).__name__} in {where}: {exc}", trace)
