"""``autodw mcp`` over stdio and HTTP under malformed and hostile requests, and two clients on one document.

One input: a few JSON-RPC messages sent to a server kept running (stdio, or HTTP on one input in four):
malformed JSON, wrong JSON-RPC fields, unknown methods and tools, arguments of the wrong type, payloads of
megabytes, paths that leave the root (``..``, absolute, symlinks, Windows forms, NUL). The promise: the server
stays up and then answers a valid call; no answer reports an internal error; no HTTP answer is a 5xx; nothing
outside the root changes. :func:`two_clients` checks concurrent edits by two HTTP clients on one document.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.fuzz import outcome
from tests.fuzz.draw import Draw, coin, pick
from tests.fuzz.mutate import ROOT
from tests.fuzz.outcome import Crash, checked
from tests.fuzz.schema_draw import wrong_value

ANSWER_TIMEOUT = 120.0  # seconds of wall time for one answer (the machine is shared)
START_TIMEOUT = 600.0  # for the first answer, while the server starts: imports take minutes beside a model run
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}}


def sandbox(folder: Path) -> tuple[Path, Path]:
    """(root, outside): the server's root with the sample, a symlink out and a folder outside it."""
    root, outside = folder / "root", folder / "outside"
    for f in (root, outside):
        f.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "examples" / "report.docx", root / "report.docx")
    (outside / "secret.docx").write_bytes((ROOT / "examples" / "report.docx").read_bytes())
    if not (root / "out-link").exists():
        (root / "out-link").symlink_to(outside, target_is_directory=True)
    if not (root / "secret-link.docx").exists():
        (root / "secret-link.docx").symlink_to(outside / "secret.docx")
    return root, outside


ESCAPES = ("../outside/secret.docx", "out-link/secret.docx", "secret-link.docx", "/etc/passwd", "..\\outside\\x.docx",
           "C:\\Windows\\x.docx", "\\\\server\\share\\x.docx", "~/x.docx", "report.docx\x00.txt", "./../outside/",
           "out-link/new.docx", "%2e%2e/outside/x.docx", "report.docx/../../outside/secret.docx", "a" * 5000 + ".docx")


def messages(draw: Draw, outside: Path) -> list[Any]:
    """One to four JSON-RPC messages (dicts, or raw text for the malformed ones)."""
    out: list[Any] = []
    for n in range(1 + draw.int(0, 3)):
        rid = 100 + n
        kind = pick(draw, ("malformed", "fields", "method", "tool", "types", "huge", "escape", "escape", "valid"))
        if kind == "malformed":
            out.append(pick(draw, ("{not json", "", "[]", "null", '{"jsonrpc": "2.0"', "\x00\xff", '"text"',
                                   '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', "{" * 10_000, "1e999")))
        elif kind == "fields":
            out.append(pick(draw, ({"jsonrpc": "1.0", "id": rid, "method": "ping"}, {"id": rid, "method": "ping"},
                                   {"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}, {"jsonrpc": "2.0", "id": rid},
                                   {"jsonrpc": "2.0", "id": rid, "method": 5}, {"jsonrpc": "2.0", "id": None, "method": "ping"},
                                   {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": "x"})))
        elif kind == "method":
            out.append({"jsonrpc": "2.0", "id": rid, "method": pick(draw, ("nope", "tools/nope", "resources/list",
                                                                            "prompts/get", "initialize", "", "../x"))})
        else:
            name = pick(draw, ("open_document", "insert_paragraph", "save", "save_copy", "export_document", "redline",
                               "document_state", "undo", "no_such_tool", "", "close_document", "insert_image"))
            args: Any = {"doc": "d1", "path": "report.docx", "text": "x", "position": "end"}
            if kind == "types":
                args = {k: wrong_value(draw, {}, None) if coin(draw) else v for k, v in args.items()}
                if coin(draw, 20):
                    args = wrong_value(draw, {}, None)
            elif kind == "huge":
                args["text"] = "x" * pick(draw, (1_000_000, 5_000_000))
            elif kind == "escape":
                args["path"] = pick(draw, ESCAPES + (str(outside / "secret.docx"), str(outside / "new.docx")))
                name = pick(draw, ("open_document", "save", "save_copy", "export_document", "redline", "insert_image"))
            out.append({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": name, "arguments": args}})
    return out


def _text(answer: Any) -> str:
    return json.dumps(answer, ensure_ascii=False) if not isinstance(answer, str) else answer


def check_answer(answer: Any) -> None:
    text = _text(answer)
    if "internal error" in text.lower() or "Traceback" in text:
        raise Crash("internal", "mcp", text[:400])


class StdioServer:
    """``autodw mcp`` over stdio, spoken to as raw JSON lines (answers read by a thread)."""

    def __init__(self, root: Path, scratch: Path):
        self.errors = open(scratch / "stdio-server.err", "ab")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "AUTODW_HOME": str(scratch / "home")}
        self.process = subprocess.Popen([sys.executable, "-m", "autodw.interfaces.cli", "mcp", "--root", str(root)], cwd=ROOT,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors, env=env)
        self.answers: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send(INIT)
        self.wait(0, START_TIMEOUT)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                self.answers.put(json.loads(line))
            except json.JSONDecodeError:
                self.answers.put({"unparsable": line[:300].decode("utf-8", "replace")})

    def send(self, message: Any) -> None:
        data = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else \
            json.dumps(message).encode("utf-8")
        try:
            self.process.stdin.write(data.replace(b"\n", b" ") + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def wait(self, rid: Any, timeout: float = ANSWER_TIMEOUT) -> Any:
        """The answer with id `rid` (answers to other ids are checked and dropped)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                answer = self.answers.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                state = "exited" if self.process.poll() is not None else "running"
                raise Crash("no_answer", "mcp stdio", f"no answer to id {rid} in {timeout:.0f} s ({state})")
            check_answer(answer)
            if isinstance(answer, dict) and answer.get("id") == rid:
                return answer

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.errors):
            try:
                stream.close()
            except OSError:
                pass


class HttpServer:
    """``autodw mcp --transport http`` on a free local port, spoken to with raw HTTP requests."""

    def __init__(self, root: Path, scratch: Path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.errors = open(scratch / "http-server.err", "ab")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "AUTODW_HOME": str(scratch / "home")}
        self.process = subprocess.Popen([sys.executable, "-m", "autodw.interfaces.cli", "mcp", "--transport", "http", "--port",
                                         str(self.port), "--root", str(root)], cwd=ROOT, stderr=self.errors, env=env)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not start")
                time.sleep(0.3)
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.session = None
        status, _, headers = self.post(INIT)
        self.session = headers.get("mcp-session-id")
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, message: Any, content_type: str = "application/json") -> tuple[int, str, dict]:
        body = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else json.dumps(message).encode()
        headers = {"Content-Type": content_type, "Accept": "application/json, text/event-stream"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=ANSWER_TIMEOUT) as r:
                return r.status, r.read().decode("utf-8", "replace"), {k.lower(): v for k, v in r.headers.items()}
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace"), {}
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            raise Crash("no_answer", "mcp http", f"{type(e).__name__}: {e}") from None

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.errors.close()


class McpHarness:
    def __init__(self, folder: Path | None = None):
        self._tmp = None if folder else tempfile.TemporaryDirectory(prefix="autodw-fuzz-mcp-")
        self.folder = Path(folder or self._tmp.name)
        self.root, self.outside = sandbox(self.folder)
        self.stdio: StdioServer | None = None
        self.http: HttpServer | None = None

    def close(self) -> None:
        for server in (self.stdio, self.http):
            if server is not None:
                server.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    def one(self, draw: Draw) -> dict:
        case = {"http": coin(draw, 25), "messages": messages(draw, self.outside)}
        return checked(self.check, case)

    def check(self, case: dict) -> dict:
        before = outcome.files_under(self.outside)
        with outcome.limits(seconds=600):
            answered = self._http(case["messages"]) if case["http"] else self._stdio(case["messages"])
        outcome.check_no_write(before, outcome.files_under(self.outside), set(), "mcp")
        return {"outcome": f"{'http' if case['http'] else 'stdio'}:{answered}"}

    def _stdio(self, msgs: list[Any]) -> str:
        if self.stdio is None or not self.stdio.alive():
            self.stdio = StdioServer(self.root, self.folder)
        for m in msgs:
            self.stdio.send(m)
            if expects_answer(m):
                self.stdio.wait(m["id"])
        return self._still_answers()

    def _still_answers(self) -> str:
        self.stdio.send({"jsonrpc": "2.0", "id": 999, "method": "tools/call",
                         "params": {"name": "open_document", "arguments": {"path": "report.docx"}}})
        answer = self.stdio.wait(999)
        if "opened report.docx" not in _text(answer):
            raise Crash("broken", "mcp stdio", f"a valid call failed after the fuzzed messages: {_text(answer)[:300]}")
        return "answers"

    def _http(self, msgs: list[Any]) -> str:
        if self.http is None or not self.http.alive():
            self.http = HttpServer(self.root, self.folder)
        for m in msgs:
            try:
                status, body, _ = self.http.post(m, pick_type(m))
            except Crash:
                if len(_text(m).encode("utf-8", "surrogatepass")) <= MAX_BODY:
                    raise
                continue  # refused as too large (413) while still sending: the check below sees it still serves
            if status >= 500:
                raise Crash("http_5xx", "mcp http", f"status {status}: {body[:300]}")
            check_answer(body)
        status, body, _ = self.http.post({"jsonrpc": "2.0", "id": 999, "method": "tools/call",
                                          "params": {"name": "open_document", "arguments": {"path": "report.docx"}}})
        if status != 200 or "opened report.docx" not in body:
            raise Crash("broken", "mcp http", f"a valid call failed after the fuzzed messages: {status} {body[:300]}")
        return "answers"


def expects_answer(message: Any) -> bool:
    """A request the server answers. Not one whose params are not an object, nor one holding a lone surrogate (no
    UTF-8 text): the MCP SDK (2.3.0) drops such a request without an answer (JSON-RPC would answer -32600 or
    -32700); the server goes on serving (see docs/reliability.md)."""
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return isinstance(message, dict) and isinstance(message.get("id"), int) and isinstance(message.get("method"), str) \
        and message.get("jsonrpc") == "2.0" and isinstance(message.get("params", {}), dict)


#: the largest body the MCP SDK's HTTP transport reads; a larger one is answered 413 before it is read, so the
#: client may see the connection reset while it is still sending
MAX_BODY = 4 << 20


def pick_type(message: Any) -> str:
    return "text/plain" if isinstance(message, str) and message.startswith("\x00") else "application/json"


def tool_result(body: str) -> dict:
    """The JSON-RPC answer in an HTTP body (plain JSON, or the data line of a server-sent event)."""
    for line in body.splitlines():
        if line.startswith("data:"):
            return json.loads(line[5:])
    return json.loads(body)


def two_clients(folder: Path, edits: int = 5) -> dict:
    """Two HTTP clients (two MCP sessions) insert paragraphs into one open document at the same time. Returns what
    was seen; raises Crash if an edit was lost, a call failed, or undo did not take back exactly the last edit."""
    root, _ = sandbox(folder)
    server = HttpServer(root, folder)
    try:
        other = HttpServer.__new__(HttpServer)  # a second session on the same server
        other.url, other.process, other.errors, other.session = server.url, server.process, server.errors, None
        _, _, headers = other.post(INIT)
        other.session = headers.get("mcp-session-id")
        other.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        if other.session == server.session:
            raise Crash("session", "mcp http", "two clients were given one session")
        opened = tool_result(server.post(_call(1, "open_document", {"path": "report.docx"}))[1])
        handle = opened["result"]["structuredContent"]["doc"]
        failures: list[str] = []

        def client(session: HttpServer, label: str) -> None:
            for n in range(edits):
                text = f"edit {label}{n}"
                status, body, _ = session.post(_call(10 + n, "insert_paragraph", {"doc": handle, "text": text,
                                                                                 "position": "end"}))
                answer = tool_result(body) if status == 200 else {}
                if status != 200 or answer.get("result", {}).get("isError"):
                    failures.append(f"{label}{n}: {status} {body[:200]}")

        threads = [threading.Thread(target=client, args=(s, label)) for s, label in ((server, "A"), (other, "B"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if failures:
            raise Crash("concurrent_call", "mcp http", "; ".join(failures[:3]))
        texts = _paragraph_texts(server, handle)
        wanted = {f"edit {label}{n}" for label in "AB" for n in range(edits)}
        if not wanted <= texts:
            raise Crash("lost_update", "mcp http", f"edits missing after both clients: {sorted(wanted - texts)}")
        last = tool_result(server.post(_call(2, "diff", {"doc": handle, "since": "last_edit"}))[1])
        last_text = next((w for w in wanted if w in json.dumps(last)), None)
        tool_result(other.post(_call(3, "undo", {"doc": handle}))[1])
        after = _paragraph_texts(server, handle)
        if last_text is None or after & wanted != wanted - {last_text}:
            raise Crash("undo", "mcp http", f"undo after the last edit ({last_text}) left {sorted(after & wanted)}")
        return {"edits": len(wanted), "last": last_text}
    finally:
        server.close()


def _call(rid: int, name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def _paragraph_texts(server: HttpServer, handle: str) -> set[str]:
    answer = tool_result(server.post(_call(4, "find", {"doc": handle, "text": "edit ", "max_results": 200}))[1])
    return {m["text"] for m in answer["result"]["structuredContent"]["matches"]}
