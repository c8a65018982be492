"""A fake OpenAI-compatible chat-completions endpoint on 127.0.0.1 for the tests of the LLM layer and of runs.

It answers each request from a list of replies, then (when the list is spent) with `then(request)`; it records every
request, counts those in flight, and can stop (a server that dies) and start again on the same port."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    """One answer: HTTP status, body (a JSON value, or bytes sent as they are), headers, and seconds to wait first."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(text: str, usage: bool = True, finish_reason: str = "stop") -> dict[str, Any]:
    """The body of a chat completion answering `text`."""
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "fake-model",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}]}
    if usage:
        body["usage"] = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    return body


def request_text(request: dict[str, Any]) -> str:
    """A request's messages as one string (to tell requests apart)."""
    return json.dumps(request.get("messages"), sort_keys=True)


class _Server(ThreadingHTTPServer):
    allow_reuse_address = True  # restarted on the port it had
    daemon_threads = True


class FakeServer:
    """The endpoint (``url`` ends in ``/v1``). `replies`: (status, body) pairs or :class:`Reply`; `then`: the reply to
    any request after them (default: HTTP 500). ``requests`` holds every request body, ``answered`` those answered
    with status 200, ``most_in_flight`` the most requests it held at once."""

    def __init__(self, replies=(), then: Callable[[dict[str, Any]], Reply] | None = None, port: int = 0):
        self.replies = [r if isinstance(r, Reply) else Reply(*r) for r in replies]
        self.then = then or (lambda request: Reply(500, {"error": "script exhausted"}))
        self.requests: list[dict[str, Any]] = []
        self.answered: list[dict[str, Any]] = []
        self.in_flight = self.most_in_flight = 0
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer._lock:
                    outer.requests.append(body)
                    reply = outer.replies.pop(0) if outer.replies else None
                    outer.in_flight += 1
                    outer.most_in_flight = max(outer.most_in_flight, outer.in_flight)
                answered, held = False, True
                try:
                    reply = reply or outer.then(body)
                    time.sleep(reply.delay)
                    data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
                    self.send_response(reply.status)
                    for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    # released and counted before the body is sent: a client that has its answer (and sends the next
                    # request) finds it counted and no longer in flight, whichever thread runs first
                    with outer._lock:
                        outer.in_flight -= 1
                        held, answered = False, reply.status == 200
                        if answered:
                            outer.answered.append(body)
                    self.wfile.write(data)
                except OSError:  # the client gave up (its timeout) or the server is stopping
                    if answered:
                        with outer._lock:
                            outer.answered.remove(body)
                finally:
                    if held:
                        with outer._lock:
                            outer.in_flight -= 1

            def log_message(self, *args):
                pass

        self._handler = Handler
        self._start(port)

    def _start(self, port: int) -> None:
        self.httpd = _Server(("127.0.0.1", port), self._handler)
        self.port = self.httpd.server_port
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop answering: the port refuses connections."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def restart(self) -> None:
        """Answer again, on the same port."""
        self._start(self.port)
