"""Rendering: the PR comment (labels, regressions first, escaping, limits), JSON export, SARIF, text."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from app.audit.engine import audit_pair
from app.audit.gate import evaluate_gate
from app.audit.loader import load_definitions
from app.audit.results import Selection
from app.audit.rules.ruleset import load_rules
from app.render.check import render_check
from app.render.environment import md
from app.render.json_export import SCHEMA_VERSION, export_json, export_schema, load_export
from app.render.markdown import render_comparison
from app.render.sarif import to_sarif
from app.render.text import render_text
from app.resources import schemas_dir
from tests.audit.helpers import ScriptedSelector, case, tool, toolset

HOSTILE = "@octocat <script>alert(1)</script> | `x` [link](http://evil)"
BASE = load_definitions(
    "base/tools.json", text=json.dumps([tool("read_file", "Reads a file.").definition(), {"name": "send_email"}])
)
HEAD = load_definitions(
    "head/tools.json",
    text=json.dumps([tool("read_file", HOSTILE).definition(), {"name": "send_email"}, {"name": "extra"}], indent=1),
)
CASES = [
    case("c1", "read the file", "read_file"),
    case("c2", f"email bob {HOSTILE}", "send_email"),
]


def comparison():
    def answer(names: list[str], intent: str, fresh: bool) -> Selection:
        # On head, the email request goes to read_file: one regression, one pass each side.
        if "email" in intent:
            return Selection(tool="read_file" if "extra" in names else "send_email")
        return Selection(tool="read_file")

    return audit_pair(
        BASE,
        HEAD,
        selector=ScriptedSelector(answer),
        user_cases=CASES,
        intents_per_tool=0,
        negatives=False,
        base_ref="a" * 40,
        head_ref="b" * 40,
    )


def test_md_escape_makes_untrusted_text_inert() -> None:
    out = md(HOSTILE)
    assert "<script>" not in out and "\\<script\\>" in out
    assert "@octocat" not in out and "\\|" in out and "\\[link\\]" in out


def test_pr_comment_has_mode_regressions_first_and_both_shas() -> None:
    c = comparison()
    body = render_comparison(c, report_url="https://toolchoice.example/r/1")
    assert "mode: `synthetic" in body and "not whether a real model picks" in body
    assert body.index("| Selection accuracy |") < body.index("#### Regressions")
    assert "a" * 12 in body and "b" * 12 in body
    assert "<script>" not in body and "@octocat" not in body
    assert "scored: 2 user_defined" in body
    assert "[Full report](https://toolchoice.example/r/1)" in body


def test_pr_comment_respects_the_limit() -> None:
    many = [case(f"c{i:04d}", f"email number {i} " + "x" * 200, "send_email") for i in range(600)]
    base = toolset(tool("send_email", "Sends an email."), tool("z", "z"))
    head = toolset(tool("send_email", "Sends an email."), tool("y", "y"))
    selector = ScriptedSelector(
        lambda names, intent, fresh: Selection(tool="send_email" if "z" in names else "NO_TOOL")
    )
    c = audit_pair(base, head, selector=selector, user_cases=many, intents_per_tool=0, negatives=False)
    assert len(c.regressions) == 600
    body = render_comparison(c, max_chars=20_000, report_url="https://x/r")
    assert len(body) <= 20_000
    assert "Cut from this comment" in body and "regressions; everything is in the [full report](https://x/r)" in body


def test_json_export_is_stable_versioned_and_matches_its_schema() -> None:
    c = comparison()
    text = export_json(c)
    assert text == export_json(comparison())
    data = json.loads(text)
    assert data["schema_version"] == SCHEMA_VERSION and data["kind"] == "comparison"
    assert data["mode"] == "synthetic" and data["provenance"]["scored"] == {"user_defined": 2}
    Draft202012Validator(export_schema()).validate(data)
    assert load_export(text).comparison is not None
    shipped = json.loads((schemas_dir() / "export.schema.json").read_text())
    assert shipped == json.loads(json.dumps(export_schema())), "regenerate app/schemas/export.schema.json"


def test_sarif_has_rules_results_and_locations() -> None:
    c = comparison()
    sarif = to_sarif(c, rules=load_rules())
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert all(r["ruleId"] in ids for r in run["results"])
    located = [r for r in run["results"] if "locations" in r]
    assert located and all(r["level"] in ("error", "warning", "note") for r in run["results"])
    assert run["properties"]["mode"] == "synthetic"


def test_check_output_within_limits_and_text_output() -> None:
    c = comparison()
    # The fixture's one regression is a near tie: it counts only when near ties are asked to fail.
    gate = evaluate_gate(c, fail_on_regression=True, near_ties=True)
    out = render_check(c, gate)
    assert gate.conclusion.value == "failure" and "FAILURE" in out.summary
    assert evaluate_gate(c, fail_on_regression=True).reasons[-1] == "regressions: 1 new error finding"
    # Counts a person reads: "1 case regression", never "1 case regression(s)".
    assert gate.reasons[-1] == "regressions: 1 case regression, 1 new error finding", gate.reasons
    assert gate.reasons[0].startswith("1 new security finding (tool poisoning): ") and "(s)" not in out.summary
    assert len(out.title) <= 255 and "regression" in out.title
    text = render_text(c)
    assert text.index("REGRESSIONS") < text.index("IMPROVEMENTS") and "synthetic" in text
    # One line per case and per heading: a line that ends in a template tag must not swallow its line break.
    lines = text.splitlines()
    assert len([line for line in lines if line.startswith("  - [")]) == len(c.regressions) > 0, text
    assert any(line.startswith("IMPROVEMENTS (") for line in lines), text


def test_a_near_miss_regression_names_the_tool_left_out() -> None:
    # "List the support agents …" expecting NO_TOOL reads as a mistake unless the comment says list_agents was
    # taken out of the list for that case.
    from app.audit.models import Provenance
    from app.audit.results import CaseDelta
    from app.render.environment import environment

    delta = CaseDelta(
        case_id="nearmiss-list_agents", intent="List the support agents.", expected="NO_TOOL",
        provenance=Provenance.AI_GENERATED, before_selected="NO_TOOL", after_selected="send_message",
        kind="regression", removed_tools=["list_agents"],
    )  # fmt: skip
    table = environment().get_template("macros.md.j2").module.case_table([delta])
    assert "`NO_TOOL` (with `list_agents` left out)" in table
    plain = table.replace("`NO_TOOL` (with `list_agents` left out)", "")
    assert "left out" not in plain


def test_a_near_tie_is_marked_and_explained_once() -> None:
    from app.audit.models import Provenance
    from app.audit.results import CaseDelta
    from app.render.environment import environment

    def delta(case_id: str, borderline: bool) -> CaseDelta:
        return CaseDelta(
            case_id=case_id, intent="Create the file notes.md.", expected="write_file",
            provenance=Provenance.AI_GENERATED, before_selected="write_file", after_selected="create_gist",
            kind="regression", borderline=borderline,
        )  # fmt: skip

    case_table = environment().get_template("macros.md.j2").module.case_table
    table = case_table([delta("a", True), delta("b", False), delta("c", True)])
    assert table.count("`create_gist` (near tie)") == 2
    assert table.count("_Near tie:") == 1
    assert "near tie" not in case_table([delta("b", False)]).lower()


def test_a_change_shown_is_the_difference_of_the_scores_shown() -> None:
    """82.54 → 82.46 is shown "82.5 → 82.5 (±0.0)", never "(-0.1)": in the headline, the table, the terminal
    output and the check title alike; the export keeps the unrounded difference."""
    c = comparison()
    base = c.base.model_copy(
        update={"overall": 82.54, "scores": c.base.scores.model_copy(update={"selection_accuracy": 70.04})}
    )
    head = c.head.model_copy(
        update={"overall": 82.46, "scores": c.head.scores.model_copy(update={"selection_accuracy": 69.96})}
    )
    shifted = c.model_copy(update={"base": base, "head": head, "overall_delta": -0.08})
    comment = render_comparison(shifted)
    assert "**Overall 82.5 → 82.5 (±0.0)**" in comment, comment
    assert "| **Overall** | 100% | **82.5** | **82.5** | **±0.0** |" in comment, comment
    assert "| 70.0 | 70.0 | ±0.0 |" in comment, comment
    assert "Overall 82.5 -> 82.5 (±0.0)" in render_text(shifted)
    assert "82.5/100 (±0.0)" in render_check(shifted, evaluate_gate(shifted, fail_on_regression=True)).title
    assert json.loads(export_json(shifted))["comparison"]["overall_delta"] == -0.08
