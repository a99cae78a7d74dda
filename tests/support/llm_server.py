"""A scripted model server on the loopback interface, for driving the real ``openai`` and
``anthropic`` SDKs without a network.

It speaks just enough of two wire formats for the SDKs: OpenAI Chat Completions
(``POST /v1/chat/completions``) and Anthropic Messages (``POST /v1/messages``). Each test scripts
the replies as a queue (text, an HTTP error such as 429 with ``retry-after``, or a function of the
request, for replies that depend on what the model was shown) and afterwards inspects every request
received: the messages, the images, the headers. Point an SDK at :attr:`LLMServer.openai_url` or
:attr:`LLMServer.anthropic_url`.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a text completion, or an HTTP error when ``status`` is not 200."""

    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    prompt_tokens: int | None = None  #: default: a size-based estimate of the request
    completion_tokens: int | None = None  #: default: the number of words in ``text``
    delay: float = 0.0  #: seconds to wait before answering (to provoke client timeouts)
    code: str | None = None  #: an error's machine-readable code (OpenAI ``error.code``)

    @classmethod
    def error(cls, status: int, message: str = "scripted error", retry_after: float | None = None,
              code: str | None = None) -> Reply:
        headers = {} if retry_after is None else {"retry-after": f"{retry_after:g}"}
        return cls(text=message, status=status, headers=headers, code=code)


@dataclass(frozen=True)
class Request:
    """One request as received: its path, headers (lower-case names) and JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def wire(self) -> str:
        return "anthropic" if self.path.endswith("/messages") else "openai"

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    def system_texts(self) -> list[str]:
        """System prompts: OpenAI system messages, or Anthropic's ``system`` field."""
        if self.wire == "openai":
            return [text for m in self.messages if m["role"] == "system" for text in _texts(m["content"])]
        return _texts(self.body.get("system", []))

    def texts(self, role: str | None = None) -> list[str]:
        """Every text part of the conversation messages (not the system field), in order."""
        return [text for m in self.messages if role in (None, m["role"]) for text in _texts(m["content"])]

    def images(self) -> list[bytes]:
        """Every image sent, decoded, in order, from either wire format."""
        return [image for m in self.messages for image in _images(m["content"])]

    def turns(self, role: str) -> int:
        return sum(1 for m in self.messages if m["role"] == role)


Script = str | Reply | Callable[[Request], str | Reply]


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [part["text"] for part in content or [] if part.get("type") == "text"]


def _images(content: Any) -> Iterator[bytes]:
    if isinstance(content, str):
        return
    for part in content:
        if part.get("type") == "image_url":  # OpenAI: a data URL
            yield base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
        elif part.get("type") == "image":  # Anthropic: a base64 source
            yield base64.b64decode(part["source"]["data"])


class LLMServer:
    """A threaded HTTP server on ``127.0.0.1:<free port>``; use as a context manager."""

    def __init__(self, default: Script | None = None) -> None:
        self.requests: list[Request] = []
        self._script: deque[Script] = deque()
        self._default = default
        self._lock = threading.Lock()
        self._count = 0
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="llm-server", daemon=True)

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def openai_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def script(self, *replies: Script) -> LLMServer:
        """Queue replies, answered in order, one per request (retries included)."""
        with self._lock:
            self._script.extend(replies)
        return self

    @property
    def pending(self) -> int:
        return len(self._script)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- answering --------------------------------------------------------------------------

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            self._count += 1
            script = self._script.popleft() if self._script else self._default
        if script is None:  # 400 is not retried: an exhausted script fails the test at once
            return Reply.error(400, "llm_server: no scripted reply left")
        reply = script(request) if callable(script) else script
        reply = Reply(text=reply) if isinstance(reply, str) else reply
        time.sleep(reply.delay)
        return reply

    def _respond(self, request: Request) -> tuple[int, dict[str, str], dict[str, Any]]:
        reply = self._next(request)
        if reply.status != 200:
            return reply.status, reply.headers, _error_body(request.wire, reply)
        prompt = reply.prompt_tokens if reply.prompt_tokens is not None else len(json.dumps(request.body)) // 4
        completion = reply.completion_tokens if reply.completion_tokens is not None else len(reply.text.split())
        model = str(request.body.get("model", "scripted"))
        if request.wire == "openai":
            body = {
                "id": f"chatcmpl-{self._count}", "object": "chat.completion", "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                             "message": {"role": "assistant", "content": reply.text}}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                          "total_tokens": prompt + completion},
            }
        else:
            body = {
                "id": f"msg_{self._count}", "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": reply.text}], "stop_reason": "end_turn",
                "stop_sequence": None, "usage": {"input_tokens": prompt, "output_tokens": completion},
            }
        return 200, reply.headers, body

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0) or 0))
                path = self.path.split("?", 1)[0]
                if path not in (OPENAI_PATH, ANTHROPIC_PATH):
                    self._send(404, {}, {"error": {"message": f"no route {path}", "type": "not_found"}})
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                self._send(*server._respond(Request(path, headers, json.loads(raw or b"{}"))))

            def _send(self, status: int, headers: dict[str, str], body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet: the recorded requests are the log."""

        return Handler


def _error_body(wire: str, reply: Reply) -> dict[str, Any]:
    kind = {429: "rate_limit_error", 400: "invalid_request_error", 401: "authentication_error"}.get(
        reply.status, "api_error")
    if wire == "openai":
        return {"error": {"message": reply.text, "type": kind, "param": None, "code": reply.code}}
    return {"type": "error", "error": {"type": kind, "message": reply.text}}
