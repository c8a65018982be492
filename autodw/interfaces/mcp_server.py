"""``autodw mcp``: the document API library and the agent as an MCP server (the official MCP Python SDK).

Tools: every API of the registry (its JSON Schema, plus a ``doc`` handle, is the tool's input schema; APIs that
neither change the document nor write a file carry the read-only hint), and the session tools ``open_document``,
``document_state``, ``find``, ``diff``, ``undo``, ``redo``, ``save``, ``redline``, ``close_document`` and
``run_instruction`` (the whole agent with the configured LLM). Documents stay in the server's memory by handle,
each with its own undo/redo stack (:class:`autodw.interfaces.editing.EditSession`), until closed. Every path a client names
(documents, saved copies, pictures and exports the APIs use) must lie inside the allowed folder (``--root``,
default the current directory), symlinks resolved; no write goes over the file an open document was opened from
(its own only with ``overwrite_original``). Errors come back as MCP tool errors carrying the CLI's one-line
``error: ...`` message; a refused call leaves the document as it was.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from autodw.interfaces.editing import EditSession, default_output
from autodw.core import DEFAULT_AUTHOR
from autodw.core.errors import ArgumentError, AutodwError, ConfigError, LLMError, SessionError, clipped
from autodw.core.package import same_file
from autodw.core.paths import resolve_inside
from autodw.interfaces.session_agent import AgentOptions, make_session_agent

log = logging.getLogger("autodw.mcp")

INSTRUCTIONS = ("Edit Word (.docx) documents. Call open_document with a path (inside the allowed folder) to get a "
                "document handle, read it with document_state or find (element ids such as p3 or t1 are what the "
                "APIs take), then call the document APIs with that handle as 'doc', or run_instruction to let the "
                "autodw agent carry out a natural-language instruction. Every edit can be undone (undo/redo); diff "
                "shows what changed since the document was opened. Nothing is written to disk until save, which "
                "never overwrites the original unless overwrite_original is true; close_document frees a document's memory.")

_DOC = {"type": "string", "description": "document handle returned by open_document (e.g. \"d1\")"}

#: name -> (description, properties, required, read_only)
SESSION_TOOLS: dict[str, tuple[str, dict[str, Any], list[str], bool]] = {
    "open_document": ("Open a .docx/.docm/.dotx/.dotm file (path relative to the allowed folder) and return its "
                      "handle and a short summary. The file itself is never changed by editing.",
                      {"path": {"type": "string", "minLength": 1, "description": "the document's path"}}, ["path"], True),
    "document_state": ("The document as compact text: layout, then every paragraph and table with its id "
                       "(id #index [style, format] text), images, comments and styles; windowed to a token budget "
                       "if one is given.",
                       {"doc": _DOC, "budget": {"type": "integer", "minimum": 200,
                                                "description": "at most this many tokens (default: everything)"}},
                       ["doc"], True),
    "find": ("Paragraphs and table cells whose text contains the given text, with their ids.",
             {"doc": _DOC, "text": {"type": "string", "minLength": 1, "description": "the text to look for"},
              "match_case": {"type": "boolean", "description": "match upper/lower case exactly (default false)"},
              "max_results": {"type": "integer", "minimum": 1, "maximum": 200, "description": "default 20"}},
             ["doc", "text"], True),
    "diff": ("What changed: since the document was opened (default) or in the last edit only.",
             {"doc": _DOC, "since": {"type": "string", "enum": ["open", "last_edit"], "description": "default open"}},
             ["doc"], True),
    "undo": ("Take back the last edit (an API call or a whole run_instruction); the document becomes exactly what "
             "it was before it.", {"doc": _DOC}, ["doc"], False),
    "redo": ("Do again the edit last undone.", {"doc": _DOC}, ["doc"], False),
    "save": ("Write the document atomically to a .docx path inside the allowed folder (default: NAME-edited.docx "
             "beside the original). The original file is refused unless overwrite_original is true.",
             {"doc": _DOC, "path": {"type": "string", "minLength": 1, "description": "output path"},
              "overwrite_original": {"type": "boolean", "description": "allow writing over the file the document "
                                                                       "was opened from (default false)"}},
             ["doc"], False),
    "redline": ("Write the document as it was opened, with every edit since then as Word tracked changes (a redline "
                "to review and accept or reject in Word), to a .docx path inside the allowed folder; the result "
                "lists the kinds of edit the redline cannot show.",
                {"doc": _DOC, "path": {"type": "string", "minLength": 1, "description": "output path"},
                 "author": {"type": "string", "minLength": 1, "description": "author of the changes (default: the server's --author)"}},
                ["doc", "path"], False),
    "close_document": ("Close an open document and free its memory. A document with unsaved edits is not closed "
                       "unless discard_unsaved is true (its unsaved edits are then lost).",
                       {"doc": _DOC, "discard_unsaved": {"type": "boolean", "description": "close even with unsaved "
                                                                                             "edits (default false)"}},
                       ["doc"], False),
    "run_instruction": ("Carry out a natural-language instruction with the autodw agent (plans steps, calls the "
                        "APIs, checks each change with the configured LLM, rolls back rejected ones). The whole "
                        "instruction is one edit for undo. Can take minutes with a local model.",
                        {"doc": _DOC, "instruction": {"type": "string", "minLength": 1}}, ["doc", "instruction"], False),
}


#: session tools that write files (they may overwrite one: the destructive hint)
FILE_WRITING_TOOLS = ("save", "redline")


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def api_tool_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """An API's argument schema with the ``doc`` handle added (first, and required)."""
    schema = copy.deepcopy(parameters)
    schema["properties"] = {"doc": _DOC, **schema.get("properties", {})}
    schema["required"] = ["doc", *[r for r in schema.get("required", []) if r != "doc"]]
    return schema


class Workspace:
    """The documents a server has open, by handle, and the folder every path must stay in."""

    def __init__(self, root: Path, agent_options: AgentOptions | None = None,
                 make_agent: Callable[[AgentOptions], Any] | None = None, author: str = DEFAULT_AUTHOR):
        self.root = root.resolve()
        self.author = author  # who the comments and tracked changes of every document opened here are by
        if not self.root.is_dir():
            raise ConfigError(f"--root {root} is not a folder")
        self.agent_options = agent_options or AgentOptions()
        self._make_agent = make_agent or (lambda options: make_session_agent(options, console=False))
        self._agent: Any = None
        self._agent_lock = threading.Lock()
        self.sessions: dict[str, EditSession] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._count = 0
        self._open_lock = threading.Lock()
        from autodw.apis import registry

        self.registry = registry()

    # --- the tool list -----------------------------------------------------------------------

    def tool_specs(self) -> list[dict[str, Any]]:
        """name, description, input schema and read-only flag of every tool: the APIs, then the session tools."""
        specs = [{"name": s.name, "description": s.description, "input_schema": api_tool_schema(s.parameters),
                  "read_only": s.read_only and not s.writes_files, "writes_files": s.writes_files, "api": True}
                 for s in self.registry]
        specs += [{"name": name, "description": d, "input_schema": _schema(props, req), "read_only": ro,
                   "writes_files": name in FILE_WRITING_TOOLS, "api": False}
                  for name, (d, props, req, ro) in SESSION_TOOLS.items()]
        return specs

    # --- calls ---------------------------------------------------------------------------------

    def call(self, name: str, arguments: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
        """Run tool `name`: (text for the client, structured result). Raises AutodwError on bad input."""
        args = dict(arguments or {})
        if name in SESSION_TOOLS:
            _, props, required, _ = SESSION_TOOLS[name]
            _validate(name, _schema(props, required), args)
            if name == "open_document":
                return self.open(args["path"])
            handle = args.pop("doc")
            with self._lock(handle):
                return getattr(self, f"_{name}")(self.session(handle), **args)
        spec = self.registry.get(name)  # UnknownApiError names the closest APIs
        handle = args.pop("doc", None)
        if not isinstance(handle, str):
            raise ArgumentError(f"{name}: " + ("missing required argument 'doc'" if handle is None else
                                               f"argument 'doc' must be a string, not {json.dumps(handle)[:40]}")
                                + " (the handle open_document returned)")
        with self._lock(handle):
            session = self.session(handle)
            if spec.writes_files and isinstance(args.get("path"), str):
                self._not_an_original(self.path(args["path"], must_exist=False), session)
            return self._api(session, spec.name, args)

    def session(self, handle: str) -> EditSession:
        """The open document called `handle`."""
        try:
            return self.sessions[handle]
        except KeyError:
            known = ", ".join(self.sessions) or "none (call open_document first)"
            raise SessionError(f"there is no open document {handle!r}; open documents: {known}") from None

    def _lock(self, handle: str) -> threading.Lock:
        self.session(handle)
        return self._locks[handle]

    def path(self, given: str, must_exist: bool) -> Path:
        """`given` (relative to the root, or absolute) resolved, symlinks included; ConfigError if outside the root
        or not a path."""
        return resolve_inside(given, [self.root], must_exist=must_exist, error=ConfigError, what="path")

    def _not_an_original(self, target: Path, session: EditSession) -> None:
        """ConfigError if `target` is the file another open document was opened from (`session`'s own is
        :meth:`EditSession.save`'s to refuse or allow)."""
        for handle, other in self.sessions.items():
            source = other.doc.source
            if other is not session and source is not None and same_file(target, source):
                raise ConfigError(f"{target.name} is the original of open document {handle}; choose another path")

    def open(self, path: str) -> tuple[str, dict[str, Any]]:
        """Open a document and give it a handle."""
        from autodw.core.document import WordDocument
        from autodw.analysis.state import extract_state

        doc = WordDocument.open(self.path(path, must_exist=True))
        doc.asset_roots = [self.root]
        doc.author = self.author
        with self._open_lock:
            self._count += 1
            handle = f"d{self._count}"
            self.sessions[handle], self._locks[handle] = EditSession(doc), threading.Lock()
        info = extract_state(doc)["document_info"]
        summary = {k: info[k] for k in ("paragraph_count", "table_count", "section_count", "image_count", "chart_count")}
        text = (f"opened {doc.name} as {handle}: {summary['paragraph_count']} paragraphs, {summary['table_count']} "
                f"tables, {summary['image_count']} images" + "".join(f"\nnote: {r}" for r in doc.repairs))
        return text, {"doc": handle, "name": doc.name, **summary, "repairs": list(doc.repairs)}

    def _api(self, session: EditSession, name: str, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        from autodw.apis import execute
        from autodw.analysis.change_summary import summarize_change
        from autodw.analysis.changes import analyze_change
        from autodw.analysis.state import extract_state

        before = extract_state(session.doc)
        label = clipped(f"{name} {json.dumps(args, ensure_ascii=False)}", 200)
        result, edit = session.apply(label, lambda doc: execute(doc, name, args, self.registry))
        out = result.to_dict()
        lines = [result.message]
        if result.data is not None:
            lines.append(json.dumps(result.data, ensure_ascii=False, indent=1))
        if edit is not None:
            out["changes"] = summarize_change(analyze_change(before, extract_state(session.doc)))
            lines.append("changes:\n" + out["changes"])
        elif not self.registry.get(name).read_only:
            lines.append("the document did not change")
        out["undoable"] = edit is not None
        return "\n".join(lines), out

    def _document_state(self, session: EditSession, budget: int | None = None) -> tuple[str, dict[str, Any]]:
        from autodw.analysis.state import extract_state
        from autodw.analysis.state.render import render_state

        text = render_state(extract_state(session.doc), budget_tokens=None if budget is None else int(budget))
        return text, {"state": text}

    def _find(self, session: EditSession, text: str, match_case: bool = False, max_results: int = 20):
        from autodw.analysis.state import extract_state

        state = extract_state(session.doc)
        fold = (lambda s: s) if match_case else str.casefold
        hits: list[dict[str, Any]] = []
        for p in state["paragraphs"]:
            if fold(text) in fold(p["text"]):
                hits.append({"id": p["id"], "style": p.get("style"), "text": p["text"]})
        for t in state["tables"]:
            for r, row in enumerate(t.get("cell_details", [])):
                for c, cell in enumerate(row):
                    for p in cell.get("paragraphs", []):
                        if fold(text) in fold(p["text"]):
                            hits.append({"id": p["id"], "table": t["id"], "row": r, "col": c, "text": p["text"]})
        shown = hits[:max_results]
        lines = [f"{h['id']}" + (f" (cell {h['row']},{h['col']} of {h['table']})" if "table" in h else "")
                 + f": {h['text'][:200]}" for h in shown]
        more = f"\n... {len(hits) - len(shown)} more" if len(hits) > len(shown) else ""
        head = f"{len(hits)} element(s) contain {clipped(text, 200)!r}" + (":\n" if hits else "")
        return head + "\n".join(lines) + more, {"matches": shown, "total": len(hits)}

    def _diff(self, session: EditSession, since: str = "open") -> tuple[str, dict[str, Any]]:
        from autodw.analysis.change_summary import summarize_change
        from autodw.analysis.changes import analyze_change
        from autodw.analysis.state import extract_state

        if since == "open":
            change = session.changes_since_open()
        else:
            if session.last_edit is None:
                raise SessionError("there is no edit to show (nothing was changed, or everything was undone)")
            change = analyze_change(session.state_at(session.last_edit.before), extract_state(session.doc))
        text = summarize_change(change)
        return text, {"since": since, "summary": text, "unsaved": session.unsaved}

    def _undo(self, session: EditSession) -> tuple[str, dict[str, Any]]:
        edit = session.undo()
        return f"undid: {edit.label}", {"undone": edit.label, "unsaved": session.unsaved}

    def _redo(self, session: EditSession) -> tuple[str, dict[str, Any]]:
        edit = session.redo()
        return f"redid: {edit.label}", {"redone": edit.label, "unsaved": session.unsaved}

    def _save(self, session: EditSession, path: str | None = None, overwrite_original: bool = False):
        target = self.path(path or str(default_output(session.doc.source)), must_exist=False)
        if target.suffix.lower() != session.doc.extension:
            raise ConfigError(f"save this document to a {session.doc.extension} path, not {target.name!r}")
        self._not_an_original(target, session)
        written = session.save(target, overwrite_original=overwrite_original)
        shown = written.relative_to(self.root)
        return f"saved {shown}", {"path": str(shown)}

    def _redline(self, session: EditSession, path: str, author: str | None = None) -> tuple[str, dict[str, Any]]:
        from autodw.interfaces.redline import write_session_redline

        target = self.path(path, must_exist=False)
        self._not_an_original(target, session)
        result = write_session_redline(session, target, author)
        notes = result.check.notes()
        shown = target.relative_to(self.root)
        return "\n".join([f"saved {shown} (the edits as tracked changes)", *notes]), {"path": str(shown), "notes": notes}

    def _close_document(self, session: EditSession, discard_unsaved: bool = False) -> tuple[str, dict[str, Any]]:
        if session.unsaved and not discard_unsaved:
            raise SessionError("the document has unsaved edits: save it first, or close with discard_unsaved true")
        handle = next(h for h, s in self.sessions.items() if s is session)
        with self._open_lock:
            del self.sessions[handle]
            self._locks.pop(handle, None)
        return f"closed {handle}", {"closed": handle, "discarded_unsaved": session.unsaved}

    def _run_instruction(self, session: EditSession, instruction: str) -> tuple[str, dict[str, Any]]:
        from autodw.analysis.change_summary import summarize_change
        from autodw.analysis.changes import analyze_change
        from autodw.analysis.state import extract_state

        before = extract_state(session.doc)
        with self._agent_lock:
            if self._agent is None:
                self._agent = self._make_agent(self.agent_options)
            try:
                result, edit = session.apply(f"instruction {instruction!r}",
                                             lambda doc: self._agent.run(doc, [instruction]))
            except LLMError as exc:
                raise LLMError(f"{exc}; the document is as it was before the instruction") from exc
        record = result.instructions[0]
        changes = summarize_change(analyze_change(before, extract_state(session.doc))) if edit else "nothing changed"
        steps = [f"step {s.number}: {s.sub_instruction} -> "
                 + (f"{s.accepted.api} {json.dumps(s.accepted.args, ensure_ascii=False)}" if s.accepted else
                    "no change kept" + (f" ({s.failure})" if s.failure else ""))
                 for s in record.steps]
        text = "\n".join([f"{record.status} after {len(record.steps)} step(s)" + (f": {record.error}" if record.error else ""),
                          *steps, "changes:", changes])
        return text, {"status": record.status, "error": record.error, "changes": changes, "undoable": edit is not None,
                      "steps": [{"sub_instruction": s.sub_instruction,
                                 "call": {"api": s.accepted.api, "args": s.accepted.args} if s.accepted else None,
                                 "failure": s.failure} for s in record.steps],
                      "llm_calls": result.total_usage.calls, "seconds": round(result.seconds, 2)}


def _validate(name: str, schema: dict[str, Any], args: dict[str, Any]) -> None:
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema).iter_errors(args), key=lambda e: list(e.path))
    if errors:
        where = ".".join(map(str, errors[0].absolute_path))
        raise ArgumentError(f"{name}: " + (f"argument {where!r}: " if where else "") + errors[0].message)


# --- the MCP server (SDK glue) -----------------------------------------------------------------


def build_server(workspace: Workspace) -> Any:
    """A low-level SDK :class:`Server` whose tools are the workspace's (the schemas come from the registry, so
    the tools are listed as data rather than written as decorated functions)."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from autodw import __version__

    tools = [types.Tool(name=t["name"], description=t["description"], input_schema=t["input_schema"],
                        annotations=types.ToolAnnotations(read_only_hint=t["read_only"],
                                                          destructive_hint=None if t["read_only"] else t["writes_files"],
                                                          open_world_hint=t["name"] == "run_instruction"))
             for t in workspace.tool_specs()]

    async def list_tools(ctx: Any, params: Any) -> Any:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: Any) -> Any:
        try:
            text, data = await anyio.to_thread.run_sync(workspace.call, params.name, params.arguments)
        except AutodwError as exc:
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"error: {exc}")], is_error=True)
        except Exception as exc:  # our bug: said as such, never as the client's mistake
            log.exception("tool %s failed", params.name)
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"internal error in autodw: "
                                                                   f"{type(exc).__name__}: {exc}")], is_error=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=data)

    return Server("autodw", version=__version__, instructions=INSTRUCTIONS, on_list_tools=list_tools,
                  on_call_tool=call_tool)


def mcp_command(args: argparse.Namespace) -> int:
    """``autodw mcp``: serve until the client disconnects (stdio) or the process is stopped (HTTP)."""
    import anyio

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="autodw mcp: %(message)s")
    workspace = Workspace(Path(args.root), AgentOptions.from_args(args), author=args.author)
    server = build_server(workspace)
    if args.transport == "stdio":
        from mcp.server.stdio import stdio_server

        async def serve() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(serve)
        return 0
    import uvicorn

    print(f"autodw mcp: serving http://{args.host}:{args.port}/mcp (documents under {workspace.root})", file=sys.stderr)
    uvicorn.run(server.streamable_http_app(host=args.host), host=args.host, port=args.port, log_level="warning")
    return 0

