"""The review path: the comparison is redacted before the PR comment, the check run and the stored report,
and the comment and check link to the stored report's page."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.audit.loader import load_definitions
from app.audit.models import Case, Provenance
from app.audit.results import Comparison
from app.config import RepoConfig
from app.render.json_export import export_json
from app.reports.service import DAY, ReportService
from app.reports.store import LocalReportStore
from app.review.models import ReviewInput
from app.review.reviewer import AuditReviewer
from reports.conftest import leaks
from reports.seeded_secrets import Seeded, tools_with_secrets


def test_comment_check_and_stored_report_carry_no_secret_and_link_the_page(
    tmp_path: Path, secrets_set: list[Seeded], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    service = ReportService(
        LocalReportStore(tmp_path),
        public_url="https://tc.example",
        retention_seconds=90 * DAY,
        anonymous_retention_seconds=7 * DAY,
        link_secret="k" * 32,
    )
    handed: list[Comparison] = []

    def linker(comparison: Comparison) -> str:
        handed.append(comparison)
        return service.save(comparison, installation_id=5, private=True).url

    tools = tools_with_secrets(secrets_set)
    base = load_definitions("tools.json", text=json.dumps({"tools": tools[:-1]}))
    head = load_definitions("tools.json", text=json.dumps({"tools": tools}))
    cases = [
        Case(
            id=f"user-{i:02d}",
            intent=f"Use the service with {s.text}",
            expected=f"service_call_{i // 3}",
            provenance=Provenance.USER_DEFINED,
        )
        for i, s in enumerate(secrets_set)
    ]
    request = ReviewInput(
        base=base,
        head=head,
        config=RepoConfig(),
        user_cases=cases,
        base_ref="a" * 40,
        head_ref="b" * 40,
        notes=[f"a note quoting {secrets_set[0].text}"],
    )
    review = AuditReviewer(report_linker=linker).review(request)
    assert len(handed) == 1
    url = review.report_url
    assert url is not None and url.startswith("https://tc.example/reports/") and "sig=" in url
    assert url in review.comment
    check = review.check
    for where, text in (
        ("comment", review.comment),
        ("check", f"{check.title}\n{check.summary}\n{check.text}\n{[a.message for a in check.annotations]}"),
        ("stored", "".join(p.read_text() for p in tmp_path.iterdir())),
        ("export", export_json(handed[0])),
        ("logs", "\n".join(r.getMessage() for r in caplog.records)),
    ):
        assert leaks(text, secrets_set) == [], where
    assert "[REDACTED:" in export_json(handed[0])
