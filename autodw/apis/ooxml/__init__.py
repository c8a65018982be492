"""The mechanisms behind the APIs: reading and writing WordprocessingML (runs and text, tables,
drawings, charts, notes, numbering, styles, sections, headers, fields, document lifecycle).

Mechanism modules import each other and the framework's schema fragments, never the catalogue
(:mod:`autodw.apis.catalogue`).
"""
