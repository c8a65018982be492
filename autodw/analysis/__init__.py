"""What a document holds and what an edit did: the seven-part state (``state``), the change between two states
(``changes``, ``change_summary``), ids aligned between two files (``align``), and whether Word opens a file without
repair (``validation``, run in ``validation_worker`` processes). Stands on :mod:`autodw.core` alone."""
