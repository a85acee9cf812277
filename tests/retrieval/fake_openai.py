"""A fake OpenAI-compatible embeddings server on 127.0.0.1: `POST /v1/embeddings` answers each
input with a vector made from the text's hash (the same text, the same vector), records what it
was sent, and plays injected faults first (a status with an optional Retry-After, a stall past the
client's timeout, a dropped connection)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

KEY = "sk-test-0123456789abcdef"


def vector_of(text: str, dimensions: int) -> list[float]:
    seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    row = np.random.default_rng(seed).standard_normal(dimensions)
    return (row * 3).tolist()  # not unit length: the client must normalise


@dataclass
class FakeOpenAI:
    base_url: str = ""
    dimensions: int = 8
    requests: list[dict] = field(default_factory=list)
    """Each request body, and its Authorization header under "auth"."""
    faults: list[tuple] = field(default_factory=list)
    """Played in order, one per request: ("status", code, retry_after | None), ("stall", seconds), ("drop",)."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def fake_openai_server(dimensions: int = 8) -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI(dimensions=dimensions)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with fake.lock:
                fake.requests.append({**body, "auth": self.headers.get("Authorization")})
                fault = fake.faults.pop(0) if fake.faults else None
            if self.path != "/v1/embeddings":
                return self._send(404, {"error": {"message": f"no route {self.path}"}})
            if fault and fault[0] == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if fault and fault[0] == "stall":
                time.sleep(fault[1])
            if fault and fault[0] == "status":
                headers = {"Retry-After": str(fault[2])} if fault[2] is not None else {}
                return self._send(fault[1], {"error": {"message": f"injected {fault[1]}"}}, headers)
            if self.headers.get("Authorization") != f"Bearer {KEY}":
                return self._send(401, {"error": {"message": "Incorrect API key provided"}})
            size = body.get("dimensions", fake.dimensions)
            data = [
                {"object": "embedding", "index": i, "embedding": vector_of(t, size)}
                for i, t in enumerate(body["input"])
            ]
            self._send(200, {"object": "list", "data": data[::-1], "model": body["model"]})  # any order: index says

        def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
            raw = json.dumps(payload).encode()
            self.send_response(status)
            for k, v in {
                "Content-Type": "application/json",
                "Content-Length": str(len(raw)),
                **(headers or {}),
            }.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(raw)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
