"""How people and programs use autodw: the ``autodw`` command (``cli``), the interactive session (``chat``) and the
MCP server (``mcp_server``) with their undo stack (``editing``) and agent (``session_agent``), page pictures
(``render``), tracked-change redlines (``redline``), the run explorer (``explore``) and the ``bench perf``
measurements (``perf``). The top layer: nothing else of autodw imports it."""
