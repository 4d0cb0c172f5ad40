"""A fake OpenAI-compatible chat server on 127.0.0.1 for the grid tests (no language model).

It serves ``GET /v1/models`` (``owned_by="vllm"``, so clauselens asks for ``json_schema``
output) and ``POST /v1/chat/completions``, answering a grid cell from the prompt itself:
the first sentence of passage P1 as the quote, "Yes" as the answer (a yes/no question) or the
quote's first words (any other). A question containing
"zebra" gets ``found=false``; one containing "paraphrase" gets a quote that is not in any
passage. Each request sleeps ``delay`` seconds; ``max_in_flight`` records how many requests
were open at once, ``requests`` how many were answered.
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_PASSAGE = re.compile(r"^\[P(\d+)\][^\n]*\n(.*?)(?=\n\n\[P\d+\]|\n\nQuestion:)", re.MULTILINE | re.DOTALL)


def first_sentence(text: str) -> str:
    words = " ".join(text.split()).split(" ")
    m = re.search(r"(.{20,}?[.;])(?:\s|$)", " ".join(words))
    return m.group(1) if m else " ".join(words[:12])


def reply_for(prompt: str) -> dict:
    question = prompt.rsplit("Question:", 1)[-1].split("\n", 1)[0]
    passages = dict(_PASSAGE.findall(prompt))
    if "zebra" in question or "1" not in passages:
        return {"found": False, "passage": 0, "quote": "", "answer": ""}
    if "paraphrase" in question:
        return {"found": True, "passage": 1, "quote": "The parties agreed on something this contract never says.", "answer": "Yes"}
    quote = first_sentence(passages["1"])
    # a yes/no question is answered "Yes"; any other with words of its quote (the grid checks the value against the quote)
    return {"found": True, "passage": 1, "quote": quote, "answer": "Yes" if 'answer is "Yes"' in prompt else " ".join(quote.split()[:6])}


class FakeOpenAI:
    def __init__(self, delay: float = 0.2) -> None:
        self.delay = delay
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: object) -> None:
                pass

            def _send(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # noqa: N802
                self._send({"object": "list", "data": [{"id": "fake", "object": "model", "owned_by": "vllm"}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    outer.in_flight += 1
                    outer.max_in_flight = max(outer.max_in_flight, outer.in_flight)
                try:
                    time.sleep(outer.delay)
                    prompt = "\n".join(str(m.get("content") or "") for m in body["messages"])
                    content = json.dumps(reply_for(prompt))
                finally:
                    with outer.lock:
                        outer.in_flight -= 1
                        outer.requests += 1
                self._send({"id": "c1", "object": "chat.completion", "created": 0, "model": "fake",
                            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def __exit__(self, *a: object) -> None:
        self.server.shutdown()
        self.server.server_close()
