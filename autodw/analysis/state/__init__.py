"""The seven-part document state (``extract_state``) and its compact text rendering."""

from autodw.analysis.state.extract import STATE_KEYS, extract_state

__all__ = ["STATE_KEYS", "extract_state"]
