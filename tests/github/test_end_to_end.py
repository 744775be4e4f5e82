"""End to end: signed delivery -> web -> Redis -> worker -> fake GitHub (comment and check run)."""

from __future__ import annotations

import pytest

from app.config import CONFIG_PATH
from app.github.publisher import STICKY_MARKER

from .conftest import INSTALLATION_ID, OWNER, REPO, Rig, repo_files, seed_pull, webhook_payload
from .toolsets import BASE_TOOLS, head_tools, tools_json

pytestmark = pytest.mark.corpus


def test_opened_gives_one_comment_and_one_completed_check_run(rig: Rig) -> None:
    base, head = seed_pull(rig)
    answer = rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    assert answer.status == 202 and answer.body["status"] == "queued"
    rig.work()
    comments = rig.fake.comments(OWNER, REPO, 7)
    runs = rig.fake.check_runs(OWNER, REPO, head)
    assert len(comments) == 1 and comments[0]["body"].startswith(STICKY_MARKER)
    assert "synthetic" in comments[0]["body"]  # the mode label
    assert head[:12] in comments[0]["body"]  # both SHAs are printed; base is the merge base
    assert base[:12] in comments[0]["body"]
    assert len(runs) == 1
    run = runs[0]
    assert run["name"] == "ToolChoice" and run["status"] == "completed"
    assert run["conclusion"] == "success"  # no thresholds configured
    assert run["external_id"] == f"{OWNER}/{REPO}#7"
    assert run["annotations"], "new findings on the definition file become annotations"
    assert all(a["path"] == "mcp/tools.json" for a in run["annotations"])
    # App JWT once for the token, then the token is reused for every call.
    assert rig.fake.tokens_issued == 1


def test_threshold_from_base_config_fails_the_check(rig: Rig) -> None:
    base, head = seed_pull(rig, config="thresholds:\n  min_score: 99\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "failure"
    assert "below the minimum" in run["output"]["summary"] + run["output"].get("text", "")


def test_the_same_delivery_twice_does_nothing_new(rig: Rig) -> None:
    base, head = seed_pull(rig)
    payload = webhook_payload("pull_request.opened.2", number=7, base=base, head=head)
    first = rig.deliver("pull_request", payload, delivery="fixed-guid-1")
    second = rig.deliver("pull_request", payload, delivery="fixed-guid-1")
    assert first.body["status"] == "queued" and second.body["status"] == "duplicate"
    assert rig.queue().count == 1
    rig.work()
    rig.deliver("pull_request", payload, delivery="fixed-guid-1")
    rig.work()
    assert len(rig.fake.comments(OWNER, REPO, 7)) == 1
    assert len(rig.fake.check_runs(OWNER, REPO)) == 1


def test_synchronize_edits_the_same_comment(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    edits_before = rig.fake.comments(OWNER, REPO, 7)[0]["edits"]
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    repo.push(7, newer)
    rig.deliver("pull_request", webhook_payload("pull_request.synchronize.1", number=7, base=base, head=newer))
    rig.work()
    comments = rig.fake.comments(OWNER, REPO, 7)
    assert len(comments) == 1
    assert comments[0]["edits"] > edits_before and newer[:12] in comments[0]["body"]
    assert [r["status"] for r in rig.fake.check_runs(OWNER, REPO)] == ["completed", "completed"]
    assert len(rig.fake.check_runs(OWNER, REPO, newer)) == 1


def test_forged_signature_is_rejected_and_nothing_is_queued(rig: Rig) -> None:
    base, head = seed_pull(rig)
    payload = webhook_payload("pull_request.opened.2", number=7, base=base, head=head)
    forged = rig.deliver("pull_request", payload, signature="sha256=" + "0" * 64)
    missing = rig.deliver("pull_request", payload, signature="")
    assert forged.status == 401 and missing.status == 401
    assert rig.queue().count == 0
    assert not rig.redis.keys("toolchoice:delivery:*")
    assert rig.fake.requests == []


def test_push_while_a_job_runs_cancels_the_old_check_run(rig: Rig) -> None:
    base, head = seed_pull(rig)
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    pushed: list[int] = []

    def push_now(_: object) -> None:
        if not pushed:  # the first job is fetching definitions: a new push arrives
            repo.push(7, newer)
            sync = webhook_payload("pull_request.synchronize.1", number=7, base=base, head=newer)
            pushed.append(rig.deliver("pull_request", sync).status)

    rig.fake.on("git/get-tree", push_now)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    assert pushed == [202]
    (old,) = rig.fake.check_runs(OWNER, REPO, head)
    (new,) = rig.fake.check_runs(OWNER, REPO, newer)
    assert old["status"] == "completed" and old["conclusion"] == "cancelled"
    assert "newer" in old["output"]["summary"]
    assert new["status"] == "completed" and new["conclusion"] == "success"
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    assert newer[:12] in comment["body"]


def test_queued_job_of_an_older_head_is_cancelled(rig: Rig) -> None:
    base, head = seed_pull(rig)
    repo = rig.fake.repo(OWNER, REPO)
    newer = repo.commit(repo_files(tools_json(head_tools()[:2])), parent=head)
    first = rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    second = rig.deliver("pull_request", webhook_payload("pull_request.synchronize.1", number=7, base=base, head=newer))
    assert second.body["cancelled"] == [first.body["job_id"]]
    rig.work()
    assert rig.fake.check_runs(OWNER, REPO, head) == []  # never started, so never left in progress
    assert len(rig.fake.check_runs(OWNER, REPO, newer)) == 1


def test_a_job_that_raises_completes_its_check_run_with_the_error(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.fake.fail("git/get-tree", status=403, message="Resource not accessible by integration")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] == "failure"
    assert "403" in run["output"]["summary"] and "Resource not accessible" in run["output"]["summary"]
    assert rig.fake.comments(OWNER, REPO, 7) == []
    from rq.registry import FailedJobRegistry

    assert FailedJobRegistry(queue=rig.queue()).count == 1  # not retried: a 403 will not fix itself


def test_invalid_config_fails_the_check_naming_the_key_and_line(rig: Rig) -> None:
    base, head = seed_pull(rig, config="mode: synthetic\nthresholds:\n  min_scor: 80\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "failure"
    summary = run["output"]["summary"]
    assert "thresholds.min_scor" in summary and f"{CONFIG_PATH}:3" in summary and "unknown key" in summary
    assert rig.fake.comments(OWNER, REPO, 7) == []


def test_no_tool_definitions_changed_succeeds_without_a_comment(rig: Rig) -> None:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS)))
    head = repo.commit({**repo_files(tools_json(BASE_TOOLS)), "README.md": "# changed\n"}, parent=base)
    repo.open_pull(7, base=base, head=head)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "success" and "No tool definitions changed" in run["output"]["title"]
    assert rig.fake.comments(OWNER, REPO, 7) == []
    assert rig.fake.calls("git/get-tree") == []  # nothing fetched beyond the file list


def test_config_changed_in_the_pr_is_reported_but_base_applies(rig: Rig) -> None:
    base, head = seed_pull(rig, config="thresholds:\n  min_score: 99\n", head_config="thresholds:\n  min_score: 1\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "failure"  # the PR cannot lower its own bar
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    assert f"changes {CONFIG_PATH} (thresholds)" in comment["body"].replace("\\", "")


def test_public_repository_comment_links_to_the_stored_report(rig: Rig) -> None:
    base, head = seed_pull(rig)
    payload = webhook_payload("pull_request.opened.2", number=7, base=base, head=head)
    assert payload["repository"]["private"] is False
    rig.deliver("pull_request", payload)
    rig.work()
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert "[Full report](https://toolchoice.example/reports/" in comment["body"]
    assert "https://toolchoice.example/reports/" in run["output"]["summary"]
    assert run["details_url"].startswith("https://toolchoice.example/reports/")


def test_private_repository_without_a_link_secret_links_to_the_check_run(rig: Rig) -> None:
    base, head = seed_pull(rig)
    payload = webhook_payload("pull_request.opened.2", number=7, base=base, head=head)
    payload["repository"]["private"] = True
    rig.deliver("pull_request", payload)
    rig.work()
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert f"[Full report]({run['html_url']})" in comment["body"]


def test_live_model_misconfigured_fails_the_check_and_never_falls_back(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    base, head = seed_pull(rig, config="mode: live_model\nmodel: some-model\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "failure" and "Nothing was judged" in run["output"]["summary"]
    assert rig.fake.comments(OWNER, REPO, 7) == []


def test_a_transient_github_error_is_retried_and_says_so(rig: Rig) -> None:
    from rq.registry import ScheduledJobRegistry

    base, head = seed_pull(rig)
    rig.fake.fail("git/get-tree", status=403, message="API rate limit exceeded for installation", times=1)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "neutral" and "try again" in run["output"]["title"]
    assert ScheduledJobRegistry(queue=rig.queue()).count == 1  # RQ runs it again after the backoff


def test_unreadable_head_definitions_fail_naming_file_and_line(rig: Rig) -> None:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS)))
    head = repo.commit(repo_files('{"tools": [\n  {"name": "a",}\n]}\n'), parent=base)
    repo.open_pull(7, base=base, head=head)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["conclusion"] == "failure" and "mcp/tools.json:2" in run["output"]["summary"]


def test_invalid_unicode_in_head_definitions_fails_the_check_naming_file_line_and_field(rig: Rig) -> None:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files(tools_json(BASE_TOOLS)))
    tools = head_tools()
    tools[0]["description"] = "Does \udc00 things."  # a lone surrogate: JSON spells it as an escape
    head = repo.commit(repo_files(tools_json(tools)), parent=base)
    repo.open_pull(7, base=base, head=head)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    summary = run["output"]["summary"]
    assert run["status"] == "completed" and run["conclusion"] == "failure", summary
    assert "mcp/tools.json:5: tools[0].description holds a lone surrogate U+DC00" in summary
    assert rig.fake.comments(OWNER, REPO, 7) == []


def test_a_pr_repairing_an_unreadable_base_file_is_reviewed(rig: Rig) -> None:
    repo = rig.fake.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit(repo_files("{ not json\n"))
    head = repo.commit(repo_files(tools_json(BASE_TOOLS)), parent=base)
    repo.open_pull(7, base=base, head=head)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (run,) = rig.fake.check_runs(OWNER, REPO, head)
    assert run["status"] == "completed" and run["conclusion"] != "failure"
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    assert "could not be read" in comment["body"]


def test_suggestions_follow_the_results_as_one_review(rig: Rig) -> None:
    base, head = seed_pull(rig)
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    (comment,) = rig.fake.comments(OWNER, REPO, 7)
    reviews = rig.fake.reviews(OWNER, REPO, 7)
    assert len(reviews) == 1 and reviews[0]["event"] == "COMMENT" and reviews[0]["commit_id"] == head
    assert reviews[0]["comments"] and all(c["path"] == "mcp/tools.json" for c in reviews[0]["comments"])
    assert all("```suggestion" in c["body"] for c in reviews[0]["comments"])
    assert "Suggested description edits" in comment["body"]  # the section follows the results


def test_suggestions_off(rig: Rig) -> None:
    base, head = seed_pull(rig, config="suggestions: false\n")
    rig.deliver("pull_request", webhook_payload("pull_request.opened.2", number=7, base=base, head=head))
    rig.work()
    assert rig.fake.reviews(OWNER, REPO, 7) == []
    assert rig.fake.comments(OWNER, REPO, 7)[0]["edits"] == 0
