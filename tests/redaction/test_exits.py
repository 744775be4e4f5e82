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


def _scrub_value_by_value(text: str, keep: list[str]) -> str:
    """scrub as it was written first: one pass over the whole text per kept value, to hold and to restore."""
    from app.redaction.exits import _HOLD, _MIN_KEEP, _PRIVATE_USE
    from app.redaction.redact import redact_string

    kept = sorted({k for k in keep if k and len(k) >= _MIN_KEEP and k in text}, key=len, reverse=True)
    holds = [_HOLD.format(chr(_PRIVATE_USE + i)) for i in range(len(kept))]
    for value, hold in zip(kept, holds, strict=True):
        text = text.replace(value, hold)
    text = redact_string(text, {})
    for value, hold in zip(kept, holds, strict=True):
        text = text.replace(hold, value)
    return text


def test_scrub_holds_kept_values_in_one_pass_exactly_as_value_by_value(seeded: list[Seeded]) -> None:
    import random

    rng = random.Random(7)
    hashes = [hashlib.sha256(str(i).encode()).hexdigest() for i in range(300)]
    secret = next(s.text for s in seeded if len(s.secret) >= 20)
    probe = next(s.probe for s in seeded if len(s.secret) >= 20)
    # Kept values standing alone, inside longer runs, one inside another, and a link among words.
    keep = [*hashes, hashes[3][:40], "https://reports.example.test/r/" + hashes[5], "deadbeefcafe1234"]
    pieces = [*hashes, hashes[3][:40], "x" + hashes[7] + "9f", "deadbeefcafe1234ab", secret, "see", "the", "report"]
    for _ in range(20):
        parts = [rng.choice(pieces) for _ in range(200)] + ["https://reports.example.test/r/" + hashes[5]]
        rng.shuffle(parts)
        text = "".join(p + rng.choice([" ", '", "', "\n", "/", ":"]) for p in parts)
        assert scrub(text, keep=keep) == _scrub_value_by_value(text, keep)
    text += f" {secret} "
    assert scrub(text, keep=keep) == _scrub_value_by_value(text, keep)
    assert probe in text and probe not in scrub(text, keep=keep) and hashes[0] in scrub(hashes[0], keep=keep)
    # A text holding a NUL takes the passes over the whole text: the same answer.
    assert scrub("\x00" + text, keep=keep) == _scrub_value_by_value("\x00" + text, keep)
