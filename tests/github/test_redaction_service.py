"""The service path with 37 seeded secrets of 26 kinds in a pull request's tool definitions: nothing that
reaches GitHub (check runs, annotations, the sticky comment, suggestion reviews), the stored report or the
logs carries one."""

from __future__ import annotations

import json
import logging
import re

import pytest
from reports.conftest import leaks
from reports.seeded_secrets import seeded_secrets, tools_in_every_field

from app.config import CONFIG_PATH

from .conftest import INSTALLATION_ID, OWNER, REPO, Rig, repo_files, webhook_payload
from .toolsets import BASE_TOOLS, head_tools, tools_json

pytestmark = pytest.mark.corpus
SEEDED = seeded_secrets()


def _sent_to_github(rig: Rig) -> str:
    return "\n".join(json.dumps(r.body) for r in rig.fake.requests if r.body is not None)


def _stored(rig: Rig) -> str:
    return "\n".join(
        str(rig.redis.get(k) or b"", "utf-8", "replace") for k in rig.redis.keys("*") if rig.redis.type(k) == b"string"
    )


def test_nothing_leaves_for_github_the_store_or_the_logs(rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    seeded = tools_in_every_field(SEEDED)
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json([*BASE_TOOLS, *seeded[:-6]])))
    head = repo.commit(repo_files(tools_json([*head_tools(), *seeded])), parent=base)
    repo.open_pull(7, base=base, head=head)
    with caplog.at_level(logging.DEBUG):
        rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
        rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    assert run["status"] == "completed" and run["annotations"]
    assert "[REDACTED:" in comment["body"] and head[:12] in comment["body"]
    (link,) = set(re.findall(r"https://toolchoice\.example/reports/[A-Za-z0-9_-]+", comment["body"]))
    assert rig.client.get(link.removeprefix("https://toolchoice.example")).status_code == 200  # our link is kept
    reviews = rig.fake.reviews(OWNER, REPO, 7)
    assert reviews and reviews[0]["comments"], "suggestions for the tools without secrets are still posted"
    stored = _stored(rig)
    assert 'toolchoice.export/1' in stored, "the report was stored"
    assert leaks(_sent_to_github(rig), SEEDED) == []
    assert leaks(stored, SEEDED) == []
    assert caplog.records and leaks(caplog.text, SEEDED) == []


def test_an_error_message_quoting_a_secret_is_redacted_in_the_check_run(rig: Rig) -> None:
    github = next(s for s in SEEDED if s.secret.startswith("ghp_"))
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    config = f"{github.secret}: true\n"  # a token pasted as a key: the config error names the unknown key
    base = repo.commit(repo_files(tools_json(BASE_TOOLS), config=config))
    head = repo.commit(repo_files(tools_json(head_tools()), config=config), parent=base)
    repo.open_pull(7, base=base, head=head)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["output"]["title"] == f"Invalid {CONFIG_PATH}"
    assert "[REDACTED:github-token]" in run["output"]["summary"]
    assert leaks(_sent_to_github(rig), SEEDED) == []
