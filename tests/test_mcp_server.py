"""`autodw mcp` as a real client uses it: the MCP SDK's own client starts the server over stdio, lists the
tools, opens the sample, edits, undoes, saves; errors come back as tool errors and change nothing; paths stay in
--root. run_instruction is tested in-process (the SDK's in-memory transport) with a scripted LLM."""

from __future__ import annotations

import json
import sys

import anyio
import docx
import pytest
from mcp import Client, StdioServerParameters

from autodw.agent.loop import Agent
from autodw.apis import registry
from autodw.llm.scripted import ScriptedBackend
from autodw.interfaces.mcp_server import SESSION_TOOLS, Workspace, build_server
from tests.conftest import EXAMPLES, ROOT
from tests.test_agent import DONE, PASS, FixedClassifier, plan


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "report.docx").write_bytes((EXAMPLES / "report.docx").read_bytes())
    return folder


def stdio_server(root):
    return StdioServerParameters(command=sys.executable, args=["-m", "autodw.interfaces.cli", "mcp", "--root", str(root)],
                                 cwd=str(ROOT), env={"AUTODW_HOME": str(root.parent / "home")})


def serve(server, session):
    """Run `session(client)` against `server` (stdio parameters or an in-process Server)."""
    async def main():
        async with Client(server) as client:
            return await session(client)

    return anyio.run(main)


def text(result):
    return result.content[0].text


def test_list_open_edit_undo_and_save_over_stdio(root):
    async def session(client):
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == set(registry().names()) | set(SESSION_TOOLS)
        insert = tools["insert_paragraph"].input_schema
        assert insert["required"][0] == "doc" and "doc" in insert["properties"]
        assert insert["properties"]["position"] == registry().get("insert_paragraph").parameters["properties"]["position"]
        assert tools["find_text"].annotations.read_only_hint is True
        assert tools["insert_paragraph"].annotations.read_only_hint is False

        opened = await client.call_tool("open_document", {"path": "report.docx"})
        assert not opened.is_error and opened.structured_content["doc"] == "d1"
        calls = [("insert_paragraph", {"text": "Closing remarks.", "position": "end"}),
                 ("set_text_format", {"paragraphs": ["p1"], "italic": True}),
                 ("set_cell_text", {"table": "t1", "row": 1, "col": 1, "text": "999"})]
        for name, args in calls:
            result = await client.call_tool(name, {"doc": "d1", **args})
            assert not result.is_error, text(result)
            assert result.structured_content["undoable"] and "changes:" in text(result)
        undone = await client.call_tool("undo", {"doc": "d1"})
        assert text(undone).startswith("undid: set_cell_text")
        diff = await client.call_tool("diff", {"doc": "d1"})
        assert "'Closing remarks.'" in text(diff) and "999" not in text(diff)
        saved = await client.call_tool("save", {"doc": "d1", "path": "out/edited.docx"})
        return text(saved)

    assert serve(stdio_server(root), session) == "saved out/edited.docx"
    saved = docx.Document(root / "out" / "edited.docx")
    assert saved.paragraphs[-1].text == "Closing remarks."
    assert all(run.italic for run in saved.paragraphs[0].runs)
    assert saved.tables[0].cell(1, 1).text == "120"  # the undone call
    assert (root / "report.docx").read_bytes() == (EXAMPLES / "report.docx").read_bytes()


def test_errors_are_tool_errors_and_change_nothing(root, tmp_path):
    outside = tmp_path / "secret.docx"
    outside.write_bytes((EXAMPLES / "report.docx").read_bytes())
    (root / "link.docx").symlink_to(outside)

    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        state = text(await client.call_tool("document_state", {"doc": "d1"}))
        errors = {}
        for name, args in [("insert_paragraph", {"doc": "d1", "text": 5, "position": "end"}),
                           ("set_cell_text", {"doc": "d1", "table": "t9", "row": 0, "col": 0, "text": "x"}),
                           ("insert_paragraph", {"text": "no handle", "position": "end"}),
                           ("undo", {"doc": "d1"}),
                           ("document_state", {"doc": "d7"}),
                           ("find", {"doc": "d1"}),
                           ("save", {"doc": "d1", "path": "report.docx"}),
                           ("save", {"doc": "d1", "path": "../escape.docx"}),
                           ("open_document", {"path": str(outside)}),
                           ("open_document", {"path": "link.docx"}),
                           ("open_document", {"path": "../../etc/passwd"}),
                           ("insert_image", {"doc": "d1", "path": str(EXAMPLES / "images" / "logo.png"), "position": "end"}),
                           ("no_such_api", {"doc": "d1"})]:
            result = await client.call_tool(name, args)
            assert result.is_error, (name, text(result))
            errors.setdefault(name, []).append(text(result))
        assert text(await client.call_tool("document_state", {"doc": "d1"})) == state
        return errors

    errors = serve(stdio_server(root), session)
    assert all(m.startswith("error: ") and "\n" not in m for ms in errors.values() for m in ms)
    assert "argument 'text' must be of type string" in errors["insert_paragraph"][0]
    assert "there is no table with id 't9'" in errors["set_cell_text"][0]
    assert "missing required argument 'doc'" in errors["insert_paragraph"][1]
    assert errors["undo"] == ["error: nothing to undo"]
    assert "there is no open document 'd7'" in errors["document_state"][0]
    assert "'text' is a required property" in errors["find"][0]
    assert "refusing to overwrite the original" in errors["save"][0] and "outside the allowed folder" in errors["save"][1]
    assert all("outside the allowed folder" in m for m in errors["open_document"][:2])
    assert "image" in errors["insert_image"][0] and "outside the allowed folder (" in errors["insert_image"][0]
    assert "there is no API called 'no_such_api'" in errors["no_such_api"][0]
    assert (root / "report.docx").read_bytes() == (EXAMPLES / "report.docx").read_bytes()
    assert sorted(p.name for p in root.iterdir()) == ["link.docx", "report.docx"]  # nothing written


def test_state_find_redo_and_saving_over_the_original_when_asked(root):
    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        budgeted = text(await client.call_tool("document_state", {"doc": "d1", "budget": 300}))
        found = await client.call_tool("find", {"doc": "d1", "text": "north"})
        await client.call_tool("replace_text", {"doc": "d1", "find": "Quarterly", "replace": "Annual"})
        await client.call_tool("undo", {"doc": "d1"})
        redone = await client.call_tool("redo", {"doc": "d1"})
        last = await client.call_tool("diff", {"doc": "d1", "since": "last_edit"})
        saved = await client.call_tool("save", {"doc": "d1", "path": "report.docx", "overwrite_original": True})
        return budgeted, found, redone, last, saved

    budgeted, found, redone, last, saved = serve(stdio_server(root), session)
    assert "windowed to fit 300 tokens" in budgeted
    ids = [m["id"] for m in found.structured_content["matches"]]
    assert found.structured_content["total"] == 2 and ids[0].startswith("p")  # a Highlights bullet and a table cell
    assert any(m.get("table") == "t1" and (m["row"], m["col"]) == (1, 0) for m in found.structured_content["matches"])
    assert text(redone).startswith("redid: replace_text") and "text of p1" in text(last)
    assert not saved.is_error and docx.Document(root / "report.docx").paragraphs[0].text == "Annual Sales Report"


def test_run_instruction_uses_the_agent_and_is_one_undoable_edit(root):
    script = {"planner": [plan("Insert 'Thanks.' at the end."), DONE],
              "api_generator": [{"api": "insert_paragraph", "args": {"text": "Thanks.", "position": "end"}}],
              "validator": [PASS]}
    made = []

    def make_agent(options):
        made.append(options)
        return Agent(ScriptedBackend(script), FixedClassifier())

    workspace = Workspace(root, make_agent=make_agent)

    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        ran = await client.call_tool("run_instruction", {"doc": "d1", "instruction": "Add 'Thanks.' at the end"})
        after = text(await client.call_tool("document_state", {"doc": "d1"}))
        failed = await client.call_tool("run_instruction", {"doc": "d1", "instruction": "Another one"})  # script is empty
        unchanged = text(await client.call_tool("document_state", {"doc": "d1"}))
        undone = await client.call_tool("undo", {"doc": "d1"})
        return ran, after, failed, unchanged, text(await client.call_tool("document_state", {"doc": "d1"})), undone

    ran, after, failed, unchanged, restored, undone = serve(build_server(workspace), session)
    assert not ran.is_error and ran.structured_content["status"] == "done", text(ran)
    assert ran.structured_content["steps"][0]["call"] == {"api": "insert_paragraph",
                                                          "args": {"text": "Thanks.", "position": "end"}}
    assert ran.structured_content["steps"][0]["failure"] is None
    assert "added paragraph" in text(ran) and "Thanks." in after
    assert failed.is_error and text(failed).startswith("error: ") and "as it was before the instruction" in text(failed)
    assert unchanged == after and "Thanks." not in restored and text(undone).startswith("undid: instruction")
    assert len(made) == 1  # the agent is made once, on first use


def test_tool_schemas_are_valid_json_schema_and_need_a_handle():
    from jsonschema import Draft202012Validator

    specs = Workspace(ROOT).tool_specs()
    for spec in specs:
        Draft202012Validator.check_schema(spec["input_schema"])
        assert spec["input_schema"]["type"] == "object"
        if spec["name"] != "open_document":
            assert "doc" in spec["input_schema"]["required"], spec["name"]
    assert json.loads(json.dumps(specs))  # the listing is plain JSON


def test_streamable_http_transport(root):
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "autodw.interfaces.cli", "mcp", "--transport", "http", "--port", str(port),
                               "--root", str(root)], cwd=str(ROOT), stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "the HTTP server did not start"
                time.sleep(0.2)

        async def session(client):
            names = [t.name for t in (await client.list_tools()).tools]
            opened = await client.call_tool("open_document", {"path": "report.docx"})
            return names, text(opened)

        names, opened = serve(f"http://127.0.0.1:{port}/mcp", session)
        assert "run_instruction" in names and "insert_paragraph" in names
        assert opened.startswith("opened report.docx as d1")
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_redline_of_the_session_as_tracked_changes(root):
    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        await client.call_tool("replace_text", {"doc": "d1", "find": "Quarterly", "replace": "Annual"})
        written = await client.call_tool("redline", {"doc": "d1", "path": "out/review.docx", "author": "Ana"})
        refused = await client.call_tool("redline", {"doc": "d1", "path": "report.docx"})
        return written, refused

    written, refused = serve(stdio_server(root), session)
    assert not written.is_error and written.structured_content["path"] == "out/review.docx"
    import zipfile

    xml = zipfile.ZipFile(root / "out" / "review.docx").read("word/document.xml").decode("utf-8")
    assert 'w:author="Ana"' in xml and "<w:delText" in xml and "Quarterly" in xml and "Annual" in xml
    assert refused.is_error and "new .docx path" in text(refused)
    assert (root / "report.docx").read_bytes() == (EXAMPLES / "report.docx").read_bytes()


def test_the_servers_author_writes_comments_and_redlines(root):
    """``autodw mcp --author`` is who every open document's comments and tracked changes are by, unless a call names
    another."""
    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        await client.call_tool("insert_comment", {"doc": "d1", "paragraph": "p2", "text": "Check"})
        await client.call_tool("replace_text", {"doc": "d1", "find": "Quarterly", "replace": "Annual"})
        return await client.call_tool("redline", {"doc": "d1", "path": "review.docx"})

    written = serve(build_server(Workspace(root, author="Mia Chen")), session)
    assert not written.is_error
    import zipfile

    package = zipfile.ZipFile(root / "review.docx")
    assert 'w:author="Mia Chen"' in package.read("word/document.xml").decode("utf-8")
    comments = package.read("word/comments.xml").decode("utf-8")
    assert 'w:author="Mia Chen"' in comments and 'w:initials="MC"' in comments


def test_no_write_escapes_the_root_or_replaces_an_open_documents_original(root, tmp_path):
    outside = tmp_path / "outside.docx"
    outside.write_bytes(b"keep me")
    (root / "report-edited.docx").symlink_to(outside)  # the default save path of report.docx, pointing out
    (root / "notes.docx").write_bytes((EXAMPLES / "report.docx").read_bytes())
    (root / "hard.docx").hardlink_to(root / "report.docx")
    originals = {p.name: p.read_bytes() for p in root.iterdir() if not p.is_symlink()}

    async def session(client):
        await client.call_tool("open_document", {"path": "report.docx"})
        await client.call_tool("open_document", {"path": "notes.docx"})
        await client.call_tool("replace_text", {"doc": "d1", "find": "Quarterly", "replace": "Annual"})
        results = {}
        for label, name, args in [
                ("default save", "save", {"doc": "d1"}),
                ("save over d2", "save", {"doc": "d1", "path": "notes.docx"}),
                ("copy over d2", "save_copy", {"doc": "d1", "path": "notes.docx"}),
                ("redline over d2", "redline", {"doc": "d1", "path": "notes.docx"}),
                ("copy over a hard link", "save_copy", {"doc": "d1", "path": "hard.docx"}),
                ("wrong extension", "save", {"doc": "d1", "path": "out.dotm"}),
                ("NUL in a path", "save", {"doc": "d1", "path": "a\x00.docx"}),
                ("a folder", "open_document", {"path": "."}),
                ("handle of the wrong type", "insert_paragraph", {"doc": 1, "text": "x", "position": "end"}),
                ("close with unsaved edits", "close_document", {"doc": "d1"}),
                ("close", "close_document", {"doc": "d1", "discard_unsaved": True}),
                ("closed", "document_state", {"doc": "d1"})]:
            results[label] = await client.call_tool(name, args)
        tools = {t.name: t.annotations for t in (await client.list_tools()).tools}
        return results, tools

    results, tools = serve(build_server(Workspace(root)), session)
    messages = {label: text(r) for label, r in results.items()}
    assert all(r.is_error for label, r in results.items() if label != "close"), messages
    assert "outside the allowed folder" in messages["default save"]
    for label in ("save over d2", "copy over d2", "redline over d2"):
        assert "the original of open document d2" in messages[label], messages[label]
    assert "is the document being edited" in messages["copy over a hard link"]  # the caller's mistake, not our bug
    assert "save this document to a .docx path" in messages["wrong extension"]
    assert "not a usable path" in messages["NUL in a path"] and "is a folder" in messages["a folder"]
    assert "argument 'doc' must be a string" in messages["handle of the wrong type"]
    assert "unsaved edits" in messages["close with unsaved edits"] and messages["close"] == "closed d1"
    assert "there is no open document 'd1'" in messages["closed"]
    assert outside.read_bytes() == b"keep me"
    assert {p.name: p.read_bytes() for p in root.iterdir() if not p.is_symlink()} == originals
    # the hints a client uses to run a tool without asking: anything that writes a file is neither read-only nor safe
    for name in ("save_copy", "export_document", "save", "redline"):
        assert tools[name].read_only_hint is False and tools[name].destructive_hint is True, name
    assert tools["find"].read_only_hint is True and tools["find_text"].read_only_hint is True
