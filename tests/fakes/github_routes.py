"""The fake GitHub's answers, one function per operationId of the OpenAPI subset (shaped like GitHub's)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .github_api import FakeGitHub, Repo


@dataclass
class Reply:
    status: int
    body: Any


Handler = Callable[["FakeGitHub", dict[str, str], dict[str, list[str]], Any], Reply]
ROUTES: dict[str, Handler] = {}


def route(operation_id: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        ROUTES[operation_id] = fn
        return fn

    return register


def blob_sha(text: str) -> str:
    """Git's blob SHA of `text`."""
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _repo(fake: FakeGitHub, p: dict[str, str]) -> Repo:
    return fake.repos[(p["owner"], p["repo"])]


def _page(items: list[Any], query: dict[str, list[str]]) -> list[Any]:
    per_page = int(query.get("per_page", ["30"])[0])
    page = int(query.get("page", ["1"])[0])
    return items[(page - 1) * per_page : page * per_page]


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _repo_json(repo: Repo, full_name: str | None = None) -> dict[str, Any]:
    name = full_name or f"{repo.owner}/{repo.name}"
    owner, short = name.split("/", 1)
    return {"id": abs(hash(name)) % 10**8, "name": short, "full_name": name, "owner": {"login": owner}}


@route("apps/get-authenticated")
def _app(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, {"id": fake.app_id, "slug": "toolchoice", "name": "ToolChoice"})


@route("apps/create-installation-access-token")
def _token(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    with fake.lock:
        fake.tokens_issued += 1
        n = fake.tokens_issued
    expires = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Reply(
        201,
        {
            "token": f"ghs_fake{p['installation_id']}x{n}",
            "expires_at": expires,
            "permissions": {"checks": "write"},
            "repository_selection": "selected",
        },
    )


@route("apps/get-repo-installation")
def _installation(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, {"id": _repo(fake, p).installation_id, "app_id": fake.app_id})


@route("pulls/get")
def _pull(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo = _repo(fake, p)
    pull = repo.pulls[int(p["pull_number"])]
    return Reply(
        200,
        {
            "number": pull.number,
            "state": pull.state,
            "draft": pull.draft,
            "base": {"sha": pull.base, "ref": "main", "repo": _repo_json(repo)},
            "head": {"sha": pull.head, "ref": "feature", "repo": _repo_json(repo, pull.head_repo)},
        },
    )


@route("pulls/list-files")
def _files(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, _page(_repo(fake, p).changed_files(int(p["pull_number"])), q))


@route("repos/get-content")
def _content(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo = _repo(fake, p)
    ref = q.get("ref", [""])[0]
    files = repo.commits[ref].files
    path = p["path"]
    if path not in files:
        return Reply(404, {"message": "Not Found"})
    text = files[path]
    return Reply(
        200,
        {
            "type": "file",
            "encoding": "base64",
            "size": len(text.encode()),
            "name": path.rsplit("/")[-1],
            "path": path,
            "sha": blob_sha(text),
            "content": base64.b64encode(text.encode()).decode(),
        },
    )


@route("git/get-tree")
def _tree(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    commit = _repo(fake, p).commits[p["tree_sha"]]
    entries = [
        {"path": path, "mode": "100644", "type": "blob", "sha": blob_sha(text), "size": len(text)}
        for path, text in sorted(commit.files.items())
    ]
    return Reply(200, {"sha": commit.sha, "url": "", "tree": entries, "truncated": False})


@route("git/get-blob")
def _blob(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    text = _repo(fake, p).blobs[p["file_sha"]]
    return Reply(
        200,
        {
            "sha": p["file_sha"],
            "size": len(text.encode()),
            "encoding": "base64",
            "url": "",
            "node_id": "",
            "content": base64.b64encode(text.encode()).decode(),
        },
    )


@route("repos/compare-commits-with-basehead")
def _compare(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo = _repo(fake, p)
    base, head = p["basehead"].split("...", 1)
    return Reply(
        200,
        {
            "status": "ahead",
            "merge_base_commit": {"sha": repo.merge_base(base, head)},
            "base_commit": {"sha": base},
            "ahead_by": 1,
            "behind_by": 0,
            "total_commits": 1,
            "commits": [],
            "files": [],
        },
    )


@route("checks/create")
def _check_create(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo = _repo(fake, p)
    output = dict(body.get("output") or {})
    annotations = output.pop("annotations", [])
    run_id = fake.next_id()
    run = {
        **body,
        "id": run_id,
        "html_url": f"https://github.com/{p['owner']}/{p['repo']}/runs/{run_id}",
        "status": body.get("status", "queued"),
        "output": output,
        "annotations": list(annotations),
        "conclusion": body.get("conclusion"),
        "updates": 0,
    }
    repo.check_runs.append(run)
    return Reply(201, run)


@route("checks/update")
def _check_update(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo = _repo(fake, p)
    run = next(r for r in repo.check_runs if r["id"] == int(p["check_run_id"]))
    output = dict(body.get("output") or {})
    run["annotations"].extend(output.pop("annotations", []))
    run["output"] = {**run["output"], **output}
    run.update({k: v for k, v in body.items() if k != "output"})
    if body.get("conclusion"):
        run["status"] = "completed"
    run["updates"] += 1
    return Reply(200, run)


@route("checks/get")
def _check_get(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, next(r for r in _repo(fake, p).check_runs if r["id"] == int(p["check_run_id"])))


@route("checks/list-for-ref")
def _check_list(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    runs = [r for r in _repo(fake, p).check_runs if r["head_sha"] == p["ref"]]
    if "check_name" in q:
        runs = [r for r in runs if r["name"] == q["check_name"][0]]
    return Reply(200, {"total_count": len(runs), "check_runs": _page(runs, q)})


@route("issues/list-comments")
def _comments(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    items = [c for c in _repo(fake, p).comments if c["issue_number"] == int(p["issue_number"])]
    return Reply(200, _page(items, q))


@route("issues/create-comment")
def _comment_create(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    comment = {
        "id": fake.next_id(),
        "issue_number": int(p["issue_number"]),
        "body": body["body"],
        "created_at": _now(),
        "updated_at": _now(),
        "edits": 0,
    }
    _repo(fake, p).comments.append(comment)
    return Reply(201, comment)


def _find_comment(fake: FakeGitHub, p: dict[str, str]) -> dict[str, Any]:
    return next(c for c in _repo(fake, p).comments if c["id"] == int(p["comment_id"]))


@route("issues/update-comment")
def _comment_update(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    comment = _find_comment(fake, p)
    comment.update(body=body["body"], updated_at=_now(), edits=comment["edits"] + 1)
    return Reply(200, comment)


@route("issues/get-comment")
def _comment_get(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, _find_comment(fake, p))


@route("issues/delete-comment")
def _comment_delete(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    _repo(fake, p).comments.remove(_find_comment(fake, p))
    return Reply(204, None)


@route("reactions/create-for-issue-comment")
def _reaction(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    _find_comment(fake, p).setdefault("reactions", []).append(body["content"])
    return Reply(201, {"id": fake.next_id(), "content": body["content"]})


@route("pulls/list-reviews")
def _reviews(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    return Reply(200, _page(fake.reviews(p["owner"], p["repo"], int(p["pull_number"])), q))


@route("pulls/create-review")
def _review_create(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    repo, number = _repo(fake, p), int(p["pull_number"])
    comments = (body or {}).get("comments") or []
    for c in comments:
        if "line" not in c:
            continue
        allowed = repo.head_lines_in_hunks(number, c["path"])
        wanted = range(c.get("start_line", c["line"]), c["line"] + 1)
        if not all(n in allowed for n in wanted):
            # What GitHub answers for a comment on lines outside the diff.
            return Reply(422, {"message": "Unprocessable Entity", "errors": ["Line could not be resolved"]})
    review = {
        **(body or {}),
        "id": fake.next_id(),
        "pull_number": int(p["pull_number"]),
        "state": "COMMENTED" if (body or {}).get("event", "COMMENT") == "COMMENT" else "PENDING",
    }
    repo.reviews.append(review)
    for c in comments:
        repo.review_comments.append(
            {**c, "id": fake.next_id(), "pull_number": number, "pull_request_review_id": review["id"],
             "commit_id": (body or {}).get("commit_id"), "original_line": c.get("line")}
        )
    return Reply(200, review)


@route("pulls/list-review-comments")
def _review_comments(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    items = [c for c in _repo(fake, p).review_comments if c["pull_number"] == int(p["pull_number"])]
    return Reply(200, _page(items, q))


@route("pulls/create-review-comment")
def _review_comment_create(fake: FakeGitHub, p: dict[str, str], q: dict[str, list[str]], body: Any) -> Reply:
    comment = {**body, "id": fake.next_id(), "pull_number": int(p["pull_number"])}
    _repo(fake, p).review_comments.append(comment)
    return Reply(201, comment)
