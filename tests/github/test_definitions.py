"""Reading a pull request through githubkit from the fake: pagination, the 3,000-file cap, trees, blobs."""

from __future__ import annotations

import pytest
from fakes.github_api import FakeGitHub

from app.github.client import GitHubApp
from app.github.definitions import MAX_PR_FILES, GitHubSource

from .conftest import APP_ID, INSTALLATION_ID, OWNER, REPO

pytestmark = pytest.mark.corpus


def _source(fake: FakeGitHub, keys: tuple[str, str]) -> GitHubSource:
    app = GitHubApp(app_id=APP_ID, private_key=keys[0], base_url=fake.url)
    return GitHubSource(app.for_installation(INSTALLATION_ID), owner=OWNER, repo=REPO)


def test_changed_files_are_paginated(fake_github: FakeGitHub, rsa_keys: tuple[str, str]) -> None:
    repo = fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit({"keep.txt": "x"})
    head = repo.commit({"keep.txt": "x", **{f"src/f{i:03}.json": str(i) for i in range(250)}}, parent=base)
    repo.open_pull(1, base=base, head=head)
    changed = _source(fake_github, rsa_keys).changed_files(1)
    assert len(changed.paths) == 250 and not changed.truncated
    assert [c.query["page"] for c in fake_github.calls("pulls/list-files")] == [["1"], ["2"], ["3"]]


def test_the_3000_file_cap_is_reported(fake_github: FakeGitHub, rsa_keys: tuple[str, str]) -> None:
    repo = fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    base = repo.commit({})
    head = repo.commit({f"f{i:04}": "x" for i in range(MAX_PR_FILES + 20)}, parent=base)
    repo.open_pull(1, base=base, head=head)
    changed = _source(fake_github, rsa_keys).changed_files(1)
    assert changed.truncated and len(changed.paths) == MAX_PR_FILES
    assert len(fake_github.calls("pulls/list-files")) == MAX_PR_FILES // 100


def test_trees_blobs_contents_and_merge_base(fake_github: FakeGitHub, rsa_keys: tuple[str, str]) -> None:
    repo = fake_github.repo(OWNER, REPO, installation_id=INSTALLATION_ID)
    root = repo.commit({"a/tools.json": "{}", "b.txt": "é"})
    main = repo.commit({"a/tools.json": "{}", "b.txt": "é", "c": "1"}, parent=root)
    feature = repo.commit({"a/tools.json": '{"tools": []}', "b.txt": "é"}, parent=root)
    source = _source(fake_github, rsa_keys)
    assert source.merge_base(main, feature) == root
    tree = source.tree(feature)
    assert sorted(tree.blobs) == ["a/tools.json", "b.txt"]
    assert source.blob_text(tree.blobs["b.txt"], path="b.txt") == "é"
    source.blob_text(tree.blobs["b.txt"], path="b.txt")
    assert len(fake_github.calls("git/get-blob")) == 1  # the same blob is fetched once
    assert source.file_text("a/tools.json", feature) == '{"tools": []}'
    assert source.file_text("missing.yml", feature) is None
