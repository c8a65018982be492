"""Typed errors. Every failure a user or an LLM can cause has its own class.

The CLI turns any :class:`AutodwError` into one ``error: ...`` line and exit status 2;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class AutodwError(Exception):
    """Base class of every error autodw raises on purpose."""


# --- input documents --------------------------------------------------------------


class DocumentError(AutodwError):
    """The input file cannot be opened for editing. The message says what the file is."""


class DocumentNotFoundError(DocumentError):
    """The path does not exist or is not a regular file."""


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


# --- API calls ----------------------------------------------------------------------


class ApiError(AutodwError):
    """An API call was refused or failed; the document is left exactly as it was."""


class UnknownApiError(ApiError):
    """The API name does not exist. The message lists the closest names."""


class ArgumentError(ApiError):
    """Arguments do not match the API's schema or name elements that do not exist."""


class UnsupportedOperationError(ApiError):
    """The call is well-formed but cannot be done on this document (said why)."""


class ApiExecutionError(ApiError):
    """The API raised an unexpected error; the document was restored."""


# --- state, LLMs, configuration -----------------------------------------------------


class StateExtractionError(AutodwError):
    """The document state could not be extracted (treated as a failed step by the agent)."""


class LLMError(AutodwError):
    """The language-model backend failed or answered with something unusable."""


class LLMConnectionError(LLMError):
    """The endpoint could not be reached or kept failing after retries."""


class LLMOutputError(LLMError):
    """The model's output could not be parsed or validated after the allowed retries."""


class ReplayMissError(LLMError):
    """A replay cassette has no recorded response for this request."""


class ConfigError(AutodwError):
    """A setting, flag or path given by the user is invalid."""


class BenchmarkDataError(AutodwError):
    """DWBench data is missing (e.g. the shared corpus), changed (checksum) or inconsistent."""
