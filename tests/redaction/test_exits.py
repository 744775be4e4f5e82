"""The last pass at each exit: `scrub` keeps our own values and masks the rest; log records are redacted."""

from __future__ import annotations

import hashlib
import logging

import pytest
from reports.seeded_secrets import Seeded

from app.redaction.exits import install_log_redaction, own_values, scrub


def test_scrub_keeps_our_hashes_and_masks_the_same_shape_elsewhere(seeded: list[Seeded]) -> None:
    ours = hashlib.sha1(b"commit").hexdigest()
    theirs = next(s for s in seeded if s.text.startswith("signing secret like"))
    assert len(ours) == len(theirs.secret) == 40  # a SHA and a hex secret look alike: only `keep` tells them apart
    text = f"head {ours}; {theirs.text}"
    out = scrub(text, keep=[ours])
    assert ours in out and theirs.secret not in out and "[REDACTED:high-entropy-string]" in out
    assert ours not in scrub(text)


def test_scrub_masks_bare_values_by_their_context_in_the_inputs(seeded: list[Seeded]) -> None:
    url = next(s for s in seeded if s.text.startswith("postgres://"))
    bare = f"Check the key {url.secret} now."
    assert url.probe in scrub(bare), "alone, 'user:password' is not recognisable"
    tool = {"description": url.text}
    assert url.probe not in scrub(bare, inputs=[tool])


def test_own_values_are_the_hash_fields() -> None:
    data = {"suite_hash": "a" * 64, "tool_hashes": {"t": "b" * 64}, "notes": ["c" * 64]}
    assert own_values(data) == {"a" * 64, "b" * 64}


def test_log_records_are_redacted_for_every_handler(seeded: list[Seeded], caplog: pytest.LogCaptureFixture) -> None:
    install_log_redaction()
    install_log_redaction()  # idempotent: one wrapper
    log = logging.getLogger("toolchoice.test")
    with caplog.at_level(logging.INFO):
        for s in seeded:
            log.info("tool text: %s", s.text)
        try:
            raise ValueError(f"bad value {seeded[2].secret}")
        except ValueError:
            log.exception("failed on %s", seeded[3].secret)
    assert len(caplog.records) == len(seeded) + 1
    text = caplog.text + "".join(r.getMessage() for r in caplog.records)
    assert [s.kind for s in seeded if s.probe in text] == []
    assert "ValueError: bad value [REDACTED:github-token]" in caplog.text  # the traceback too
