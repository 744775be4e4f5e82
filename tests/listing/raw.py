"""An independent reader of a stdio MCP server's tools: newline-delimited JSON-RPC written by hand, no SDK, so the
tests can check that the SDK-based listing returns the tools byte for byte as the server sent them."""

from __future__ import annotations

import json
import subprocess
from typing import Any

PROTOCOL = "2025-06-18"


def raw_tools(argv: list[str], *, timeout_s: float = 60.0, cwd: str | None = None) -> list[dict[str, Any]]:
    """Start `argv`, initialize, page through tools/list, stop it; the `tools` arrays as the server wrote them."""
    child = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=cwd
    )
    assert child.stdin is not None and child.stdout is not None
    try:

        def ask(message: dict[str, Any]) -> dict[str, Any] | None:
            child.stdin.write(json.dumps(message) + "\n")  # type: ignore[union-attr]
            child.stdin.flush()  # type: ignore[union-attr]
            if "id" not in message:
                return None
            while True:
                line = child.stdout.readline()  # type: ignore[union-attr]
                if not line:
                    raise RuntimeError("the server closed stdout")
                answer = json.loads(line)
                if answer.get("id") == message["id"]:
                    return answer

        ask({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
        })  # fmt: skip
        ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools: list[dict[str, Any]] = []
        cursor = None
        for n in range(2, 1000):
            params = {"cursor": cursor} if cursor else {}
            answer = ask({"jsonrpc": "2.0", "id": n, "method": "tools/list", "params": params})
            assert answer is not None and "result" in answer, answer
            tools.extend(answer["result"]["tools"])
            cursor = answer["result"].get("nextCursor")
            if not cursor:
                break
        return tools
    finally:
        child.kill()
        child.wait(timeout=timeout_s)
