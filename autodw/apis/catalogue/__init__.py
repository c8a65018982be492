"""The API catalogue: one module per intent (named after it) that declares its APIs with ``@api``.

A catalogue module holds argument schemas and thin API functions that call the mechanisms in
:mod:`autodw.apis.ooxml`; nothing outside the catalogue imports it except :func:`autodw.apis.registry`.
"""
