"""ToolChoice's own identifiers (suite, rules, profile, tool and field hashes, SARIF fingerprints, the pinned
model's hash) are never redacted in any output, while a seeded secret in the same output still is.

Each command runs twice in-process on the seeded tool sets: with `--no-redact` (allowed on a terminal outside
CI, which the test pretends to be) to see which of our identifiers the output shows, and redacted, which must
show every one of them and none of the seeded secrets. (`lint` prints findings only, no identifier.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from reports.conftest import leaks
from reports.seeded_secrets import Seeded
from typer.testing import CliRunner

from app.audit.identifiers import is_own, remember, strip_own
from app.audit.synthetic.profiles import read_profile
from app.cli import app
from app.commands import output as output_module
from app.redaction.exits import scrub
from app.redaction.redact import redact_text

FORMATS = ("text", "md", "json", "sarif")
# Hex runs long enough for the entropy test: the shape of every hash ToolChoice prints.
HEX_RUN = re.compile(r"(?<![0-9a-f])[0-9a-f]{20,}(?![0-9a-f])")
SHARED = Path(__file__).resolve().parents[3] / "shared"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--no-redact` honoured: stdout a terminal, no CI variable."""
    monkeypatch.setattr(output_module, "stdout_is_terminal", lambda: True)
    for name in output_module.CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def ours(raw: str, seeded: list[Seeded]) -> set[str]:
    """The hex runs of an unredacted output that are not (part of) a seeded secret: our identifiers."""
    return {h for h in HEX_RUN.findall(raw) if not any(h in s.secret or s.secret in h for s in seeded)}


def check(args: list[str], seeded: list[Seeded], *, least: int) -> None:
    raw = run(*args, "--no-redact")
    redacted = run(*args)
    own = ours(raw, seeded)
    assert len(own) >= least, f"{args}: the output should show at least {least} of our hashes"
    missing = sorted(h for h in own if h not in redacted)
    assert missing == [], f"{args}: our identifiers redacted: {missing[:3]}"
    assert leaks(redacted, seeded) == [], args


@pytest.mark.parametrize("fmt", FORMATS)
def test_audit_keeps_our_hashes_and_masks_secrets(
    fmt: str, seeded: list[Seeded], seeded_files: tuple, terminal: None
) -> None:
    check(["audit", str(seeded_files[1]), "--format", fmt], seeded, least={"json": 10, "sarif": 10}.get(fmt, 0))


@pytest.mark.parametrize("fmt", FORMATS)
def test_diff_keeps_our_hashes_and_masks_secrets(
    fmt: str, seeded: list[Seeded], seeded_files: tuple, terminal: None
) -> None:
    base, head = map(str, seeded_files)
    check(["diff", base, head, "--format", fmt], seeded, least={"json": 10, "sarif": 10}.get(fmt, 0))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_suggest_keeps_our_hashes(fmt: str, seeded: list[Seeded], seeded_files: tuple, terminal: None) -> None:
    check(["suggest", str(seeded_files[1]), "--format", fmt], seeded, least=1 if fmt == "json" else 0)


def test_eval_selector_keeps_its_profile_and_model_hashes(
    seeded: list[Seeded], terminal: None, tmp_path: Path
) -> None:
    """The command whose output exists to carry the selector's provenance printed it as [REDACTED:...]."""
    labeled = SHARED / "corpora" / "labeled" / "bfcl_simple_python.dev.json"
    if not labeled.is_file():
        pytest.skip(f"{labeled} is absent")
    data = json.loads(labeled.read_text(encoding="utf-8"))
    data["cases"] = data["cases"][:6]
    secret = next(s for s in seeded if s.secret.startswith("ghp_"))
    data["cases"][0]["tools"][0]["description"] += f" Token: {secret.secret}"
    path = tmp_path / "labeled.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = run("eval-selector", str(path))  # no --no-redact here: the identifiers are known beforehand
    profile = read_profile()
    assert profile.semantic is not None
    for identifier in (profile.hash, profile.semantic.weights_sha256):
        assert re.fullmatch(r"[0-9a-f]{64}", identifier) and identifier in out
    assert json.loads(out)["selector"]["profile_hash"] == profile.hash
    assert "[REDACTED:" not in out and leaks(out, seeded) == []


def test_report_page_keeps_our_hashes(seeded: list[Seeded], seeded_files: tuple, tmp_path: Path) -> None:
    export, page = tmp_path / "export.json", tmp_path / "page.html"
    run("diff", *map(str, seeded_files), "--format", "json", "--output", str(export))
    suite_hash = json.loads(export.read_text())["suite_hash"]
    run("report", str(export), "--html", str(page))
    text = page.read_text()
    assert leaks(text, seeded) == [] and (suite_hash in text or suite_hash[:12] in text)


def test_a_remembered_hash_is_kept_and_anything_else_random_is_not() -> None:
    ours_ = remember("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
    stranger = "5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"  # a hash we never made
    line = f"suite {ours_}, key {stranger}"
    assert redact_text(line) == f"suite {ours_}, key [REDACTED:high-entropy-string]"
    assert scrub(line) == redact_text(line)
    # A prefix of ours (24 characters) is ours; ours glued to a random key is still masked as a whole token.
    assert redact_text(f"fingerprint {ours_[:24]}") == f"fingerprint {ours_[:24]}"
    assert "[REDACTED:" in redact_text(f"x {ours_}{stranger}")
    assert is_own(ours_) and is_own(ours_[:30]) and not is_own(stranger)
    assert strip_own(f"{ours_}-{stranger}") == f"-{stranger}"


def test_a_provider_key_is_masked_even_next_to_our_hashes() -> None:
    ours_ = remember("a" * 4 + "0123456789abcdef" * 3 + "beef")
    key = "ghp_" + "Zq7Lm2Xw9Rt4Yp1Vb6Nc3Kd8Hs5Jf0Ga2Qe7"
    text = redact_text(f"{ours_} {key}")
    assert text.startswith(ours_) and key not in text and "[REDACTED:github-token]" in text
