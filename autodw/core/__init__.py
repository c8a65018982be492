"""The document core: the OOXML package as bytes (``package``), XML helpers (``xml``), stable element ids (``ids``),
the editable document (``document``), units and colour names (``units``, ``colours``), and what every layer
shares: typed errors (``errors``), paths, progress lines, figures (``plots``) and the provenance of tuning
(``provenance``). The bottom layer: it imports nothing else of autodw."""

#: the name the comments and tracked changes autodw writes are signed with, unless the user names another
#: (``--author`` of ``autodw run``, ``chat`` and ``redline``; :attr:`autodw.core.document.WordDocument.author`)
DEFAULT_AUTHOR = "autodw"
