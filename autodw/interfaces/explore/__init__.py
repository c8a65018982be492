"""The run explorer: a static site (opens from disk, no server) of a benchmark run or of one agent trace.

- :mod:`autodw.interfaces.explore.runs` reads a run folder (settings, summary, each instruction's record, output and trace;
  every missing or damaged part a gap with its reason) and pairs two runs;
- :mod:`autodw.interfaces.explore.trace` reads a trace into a timeline of steps;
- :mod:`autodw.interfaces.explore.pages` draws the initial, expected and actual pages (LibreOffice, cached by document hash)
  and locates the judge's differences on them (poppler's word boxes);
- :mod:`autodw.interfaces.explore.site` writes the pages from the Jinja2 templates in ``templates/`` and the assets in
  ``static/``;
- :mod:`autodw.interfaces.explore.perf` measures a site's table in a browser.
"""

#: which instructions of a run get page pictures (``--renders``)
RENDERS = ("failed", "all", "none")
