"""A fake GitHub REST API on loopback: repository state, the endpoints a PR-reviewing App calls, every request
checked against GitHub's OpenAPI description (violations are recorded; `assert_clean()` fails on them).

    fake = FakeGitHub(spec_path).start()            # fake.url -> GITHUB_API_URL
    repo = fake.repo("octo", "hello")
    base = repo.commit({"tools.json": "..."})
    head = repo.commit({"tools.json": "..."}, parent=base)
    repo.open_pull(2, base=base, head=head)
    ... the App runs ...
    fake.comments("octo", "hello", 2), fake.check_runs("octo", "hello"), fake.assert_clean()
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import jwt

from .github_routes import ROUTES, Reply, blob_sha
from .openapi_check import OpenApiChecker


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    operation_id: str
    status: int = 0
    auth: str = ""


@dataclass
class Commit:
    sha: str
    files: dict[str, str]
    parent: str | None


@dataclass
class Pull:
    number: int
    base: str
    head: str
    draft: bool = False
    state: str = "open"
    head_repo: str | None = None


@dataclass
class Repo:
    owner: str
    name: str
    installation_id: int
    commits: dict[str, Commit] = field(default_factory=dict)
    blobs: dict[str, str] = field(default_factory=dict)
    pulls: dict[int, Pull] = field(default_factory=dict)
    comments: list[dict[str, Any]] = field(default_factory=list)
    check_runs: list[dict[str, Any]] = field(default_factory=list)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    review_comments: list[dict[str, Any]] = field(default_factory=list)

    def commit(self, files: dict[str, str], *, parent: str | None = None) -> str:
        """A commit with exactly these files (a snapshot); returns its SHA."""
        digest = hashlib.sha1(json.dumps([sorted(files.items()), parent]).encode()).hexdigest()
        for text in files.values():
            self.blobs[blob_sha(text)] = text
        self.commits[digest] = Commit(sha=digest, files=dict(files), parent=parent)
        return digest

    def open_pull(self, number: int, *, base: str, head: str, draft: bool = False, fork: str | None = None) -> Pull:
        pull = Pull(number=number, base=base, head=head, draft=draft, head_repo=fork)
        self.pulls[number] = pull
        return pull

    def push(self, number: int, head: str) -> None:
        self.pulls[number].head = head

    def ancestors(self, sha: str) -> list[str]:
        out: list[str] = []
        current: str | None = sha
        while current is not None and current in self.commits:
            out.append(current)
            current = self.commits[current].parent
        return out

    def merge_base(self, base: str, head: str) -> str:
        base_line = set(self.ancestors(base))
        return next((sha for sha in self.ancestors(head) if sha in base_line), base)

    def changed_files(self, number: int) -> list[dict[str, Any]]:
        pull = self.pulls[number]
        old = self.commits[self.merge_base(pull.base, pull.head)].files
        new = self.commits[pull.head].files
        out = []
        for path in sorted(set(old) | set(new)):
            if old.get(path) == new.get(path):
                continue
            status = "added" if path not in old else "removed" if path not in new else "modified"
            out.append(
                {
                    "sha": blob_sha(new.get(path, old.get(path, ""))),
                    "filename": path,
                    "status": status,
                    "additions": 1,
                    "deletions": 0,
                    "changes": 1,
                    "blob_url": "",
                    "raw_url": "",
                    "contents_url": "",
                    "patch": file_patch(old.get(path, ""), new.get(path, "")),
                }
            )
        return out

    def head_lines_in_hunks(self, number: int, path: str) -> set[int]:
        """Head-side lines a review comment may sit on: the context and added lines of the file's hunks."""
        entry = next((f for f in self.changed_files(number) if f["filename"] == path), None)
        lines: set[int] = set()
        line = 0
        for text in (entry or {}).get("patch", "").split("\n"):
            if text.startswith("@@"):
                line = int(text.split("+")[1].split(",")[0].split(" ")[0])
            elif text and not text.startswith(("-", "\\")):
                lines.add(line)
                line += 1
        return lines


@dataclass
class Failure:
    method: str
    operation_id: str
    status: int
    message: str
    times: int | None
    headers: dict[str, str] = field(default_factory=dict)


class FakeGitHub:
    def __init__(self, spec_path: Path, *, app_id: int = 4242, public_key: str | None = None) -> None:
        self.checker = OpenApiChecker(spec_path)
        self.app_id = app_id
        self.public_key = public_key
        self.repos: dict[tuple[str, str], Repo] = {}
        self.requests: list[Recorded] = []
        self.last_request_at = 0.0  # time.perf_counter() of the latest request
        self.violations: list[str] = []
        self.tokens_issued = 0
        self.failures: list[Failure] = []
        self.hooks: list[tuple[str, Callable[[Recorded], None]]] = []
        self.lock = threading.RLock()
        self._ids = 1000
        self._server: ThreadingHTTPServer | None = None
        self.url = ""

    # -- lifecycle ---------------------------------------------------------------------------------------
    def start(self) -> FakeGitHub:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in separate writes; without this, Nagle plus delayed ACKs add ~40 ms.
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:  # quiet
                return

            def _handle(self) -> None:
                fake._serve(self)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-github", daemon=True
        ).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # -- seeding and reading back ------------------------------------------------------------------------
    def repo(self, owner: str, name: str, *, installation_id: int = 1) -> Repo:
        key = (owner, name)
        if key not in self.repos:
            self.repos[key] = Repo(owner=owner, name=name, installation_id=installation_id)
        return self.repos[key]

    def next_id(self) -> int:
        with self.lock:
            self._ids += 1
            return self._ids

    def comments(self, owner: str, name: str, number: int | None = None) -> list[dict[str, Any]]:
        items = self.repo(owner, name).comments
        return [c for c in items if number is None or c["issue_number"] == number]

    def check_runs(self, owner: str, name: str, head_sha: str | None = None) -> list[dict[str, Any]]:
        return [r for r in self.repo(owner, name).check_runs if head_sha is None or r["head_sha"] == head_sha]

    def reviews(self, owner: str, name: str, number: int | None = None) -> list[dict[str, Any]]:
        return [r for r in self.repo(owner, name).reviews if number is None or r["pull_number"] == number]

    def calls(self, operation_id: str) -> list[Recorded]:
        return [r for r in self.requests if r.operation_id == operation_id]

    def fail(
        self,
        operation_id: str,
        *,
        status: int,
        message: str = "injected failure",
        times: int | None = None,
        method: str = "",
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer `status` (with `headers`, e.g. Retry-After) to the next `times` calls of the operation (all
        calls when None)."""
        failure = Failure(method, operation_id, status, message, times, dict(headers or {}))
        self.failures.append(failure)

    def heal(self) -> None:
        """Stop every injected failure."""
        with self.lock:
            self.failures.clear()

    def on(self, operation_id: str, callback: Callable[[Recorded], None]) -> None:
        """Call `callback` (in the server thread) before answering each call of the operation."""
        self.hooks.append((operation_id, callback))

    def assert_clean(self) -> None:
        assert not self.violations, "requests the GitHub spec rejects:\n" + "\n".join(self.violations)

    # -- serving -----------------------------------------------------------------------------------------
    def _check_auth(self, op_id: str, header: str) -> str | None:
        if op_id == "apps/create-from-manifest":
            return None
        if op_id.startswith("apps/"):
            if not header.startswith("Bearer "):
                return f"{op_id}: needs the App's JWT (Bearer), got {header[:12]!r}"
            if self.public_key:
                try:
                    claims = jwt.decode(header[7:], self.public_key, algorithms=["RS256"])
                except jwt.PyJWTError as exc:
                    return f"{op_id}: JWT rejected: {exc}"
                if str(claims.get("iss")) != str(self.app_id):
                    return f"{op_id}: JWT issuer {claims.get('iss')!r} is not the App {self.app_id}"
            return None
        if not header.startswith("token ghs_"):
            return f"{op_id}: needs an installation token, got {header[:12]!r}"
        return None

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        path = unquote(parts.path)
        query = parse_qs(parts.query, keep_blank_values=True)
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        op, problems = self.checker.check(handler.command, path, query, raw)
        auth = handler.headers.get("Authorization", "")
        body: Any = json.loads(raw) if raw and not problems else None
        rec = Recorded(handler.command, path, query, body, op.operation_id if op else "", auth=auth)
        with self.lock:
            self.requests.append(rec)
            self.last_request_at = time.perf_counter()
        if op is not None:
            auth_problem = self._check_auth(op.operation_id, auth)
            if auth_problem:
                problems.append(auth_problem)
        if problems:
            with self.lock:
                self.violations.extend(problems)
            return self._send(handler, rec, Reply(422, {"message": "; ".join(problems)}))
        assert op is not None
        for op_id, callback in list(self.hooks):
            if op_id == op.operation_id:
                callback(rec)
        failure = self._take_failure(op.operation_id, handler.command)
        if failure is not None:
            reply = Reply(failure.status, {"message": failure.message})
            return self._send(handler, rec, reply, headers=failure.headers)
        params = op.pattern.match(path)
        assert params is not None
        try:
            reply = ROUTES[op.operation_id](self, params.groupdict(), query, body)
        except KeyError as exc:
            reply = Reply(404, {"message": f"Not Found ({exc})"})
        self._send(handler, rec, reply)

    def _take_failure(self, op_id: str, method: str) -> Failure | None:
        with self.lock:
            for failure in self.failures:
                if failure.operation_id == op_id and failure.method in ("", method):
                    if failure.times is not None:
                        failure.times -= 1
                        if failure.times <= 0:
                            self.failures.remove(failure)
                    return failure
        return None

    def _send(
        self, handler: BaseHTTPRequestHandler, rec: Recorded, reply: Reply, *, headers: dict[str, str] | None = None
    ) -> None:
        rec.status = reply.status
        data = b"" if reply.status == 204 else json.dumps(reply.body).encode()
        handler.send_response(reply.status)
        handler.send_header("Content-Type", "application/json; charset=utf-8")
        handler.send_header("Content-Length", str(len(data)))
        handler.send_header("X-GitHub-Request-Id", f"fake-{time.monotonic_ns()}")
        for name, value in (headers or {}).items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)


def file_patch(old: str, new: str) -> str:
    """The `patch` GitHub lists for a changed file: its unified diff hunks (3 lines of context), no headers."""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3)
    return "\n".join(list(lines)[2:])


def encode_content(text: str) -> str:
    return base64.b64encode(text.encode()).decode()
