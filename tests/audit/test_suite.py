"""Suites: user cases from files, generated and validated cases, negatives, a stable hash."""

from __future__ import annotations

import pytest

from app.audit.loader import load_definitions
from app.audit.models import NO_TOOL, Case, CaseFamily, CaseStatus, Provenance, Suite, Tool, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.cases_file import load_cases
from app.audit.suite.validate import MIN_CONFIDENCE, CaseValidator
from app.errors import CasesError
from tests.conftest import shared_path

from .helpers import case, tool, toolset

TOOLS = toolset(
    tool("read_file", "Reads the complete contents of a text file from disk.", path={"type": "string"}),
    tool("send_email", "Sends an email message to one recipient.", to={"type": "string"}),
    tool("get_weather", "Returns the current weather forecast for a city.", city={"type": "string"}),
)


def test_load_cases_yaml_with_defaults() -> None:
    text = (
        "cases:\n"
        "  - intent: Read /etc/hosts\n"
        "    expected: read_file\n"
        "    arguments: {path: /etc/hosts}\n"
        "  - id: neg\n"
        "    intent: Tell me a joke\n"
        "    expected: NO_TOOL\n"
        "    provenance: human_fixture\n"
        "  - intent: maybe\n"
        "    expected: send_email\n"
        "    confidence: 0.5\n"
    )
    cases = load_cases("cases.yaml", text=text)
    assert [c.id for c in cases] == ["user-001", "neg", "user-003"]
    assert cases[0].acceptable_arguments == {"path": ["/etc/hosts"]}
    assert cases[0].provenance == Provenance.USER_DEFINED and cases[0].target_tool == "read_file"
    assert cases[1].provenance == Provenance.HUMAN_FIXTURE and cases[1].family == CaseFamily.OFF_TOPIC
    assert cases[2].status == CaseStatus.EXPLORATORY


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("cases:\n  - intent: x\n", 2, "expected"),
        ("cases:\n  - intent: x\n    expected: a\n  - intent: y\n    expected: b\n    bogus: 1\n", 4, "unknown keys"),
        ("- {id: a, intent: x, expected: t}\n- {id: a, intent: y, expected: t}\n", 2, "used twice"),
        ("- {intent: x, expected: t, provenance: ai_generated}\n", 1, "provenance"),
        ('[{"intent": "x", "expected": "t", "confidence": "high"}]', 1, "could not convert"),
    ],
)
def test_bad_cases_name_file_line_and_problem(text: str, line: int, message: str) -> None:
    with pytest.raises(CasesError) as err:
        load_cases("c.yaml", text=text)
    assert err.value.file == "c.yaml" and err.value.line == line
    assert message in str(err.value)


def test_generated_suite_has_positives_negatives_and_a_stable_hash() -> None:
    suite = build_suite([TOOLS])
    families = {c.family for c in suite.cases}
    assert families == {CaseFamily.POSITIVE, CaseFamily.NEAR_MISS, CaseFamily.OFF_TOPIC}
    for c in suite.cases:
        if c.family == CaseFamily.NEAR_MISS:
            assert c.expected == NO_TOOL and c.removed_tools == (c.target_tool,)
        if c.provenance == Provenance.AI_GENERATED:
            assert (c.status == CaseStatus.SCORED) == (c.confidence >= MIN_CONFIDENCE)
    assert build_suite([TOOLS]).hash == suite.hash
    assert [c.id for c in suite.cases] == sorted(c.id for c in suite.cases)


def test_suite_hash_changes_with_any_case() -> None:
    a = Suite(cases=[Case(id="1", intent="x", expected="t", provenance=Provenance.USER_DEFINED)])
    b = Suite(cases=[Case(id="1", intent="x ", expected="t", provenance=Provenance.USER_DEFINED)])
    assert a.hash != b.hash
    with pytest.raises(ValueError, match="hash"):
        Suite(cases=a.cases, hash="0" * 64)


def test_suite_from_base_and_head_uses_both_texts() -> None:
    head = toolset(
        tool("read_file", "Opens a document and returns its lines.", path={"type": "string"}),
        *TOOLS.tools[1:],
    )
    suite = build_suite([TOOLS, head])
    intents = {c.intent for c in suite.cases if c.expected == "read_file"}
    assert any("the contents of" in i for i in intents) and any("document" in i for i in intents)


def test_user_cases_are_kept_and_no_generation_when_zero_intents() -> None:
    user = [Case(id="u1", intent="Read the hosts file", expected="read_file", provenance=Provenance.USER_DEFINED)]
    suite = build_suite([TOOLS], user_cases=user, intents_per_tool=0)
    assert [c.id for c in suite.cases] == ["u1"]


def test_validator_marks_ambiguous_cases_exploratory() -> None:
    validator = CaseValidator(TOOLS)
    clear = Case(
        id="a",
        intent="What is the weather forecast in Oslo?",
        expected="get_weather",
        provenance=Provenance.AI_GENERATED,
    )
    wrong = Case(
        id="b",
        intent="What is the weather forecast in Oslo?",
        expected="send_email",
        provenance=Provenance.AI_GENERATED,
    )
    assert validator.validate(clear, min_confidence=0.7).status == CaseStatus.SCORED
    checked = validator.validate(wrong, min_confidence=0.7)
    assert checked.status == CaseStatus.EXPLORATORY and "get_weather" in (checked.note or "")
    near = Case(
        id="c",
        intent="Send an email to Bob",
        expected=NO_TOOL,
        provenance=Provenance.AI_GENERATED,
        removed_tools=("get_weather",),
    )
    assert validator.validate(near, min_confidence=0.7).status == CaseStatus.EXPLORATORY


GIT = toolset(
    tool("git_commit", "Records changes to the repository", message={"type": "string"}),
    tool("git_show", "Shows the contents of a commit", revision={"type": "string"}),
    tool("git_status", "Shows the working tree status"),
    tool("git_diff_unstaged", "Shows changes in the working directory that are not yet staged"),
)


def _scores(intent: str) -> dict[str, float]:
    return CaseValidator(GIT).scores(intent)


def test_a_frame_word_used_as_the_request_verb_counts_for_the_tool_named_by_it() -> None:
    # "Show" is also a frame's word ("Show me ..."); said as the request's own verb it names git_show.
    said = _scores("Show the contents of the commit 9f3c2e1.")
    assert max(said, key=said.__getitem__) == "git_show"
    # Inside a frame phrase it says nothing about which tool fits: git_commit's own name word wins.
    framed = _scores("Show me the contents of the commit 9f3c2e1, please.")
    assert max(framed, key=framed.__getitem__) == "git_commit"
    # The verb alone does not make git_show fit a request whose object is another tool's.
    alone = _scores("Show changes in the working directory.")
    assert "git_show" not in alone and max(alone, key=alone.__getitem__) == "git_diff_unstaged"


def _checked(tools: ToolSet, intent: str, expected: str) -> Case:
    case = Case(id="x", intent=intent, expected=expected, provenance=Provenance.AI_GENERATED)
    return CaseValidator(tools).validate(case, min_confidence=MIN_CONFIDENCE)


def test_a_rival_with_no_evidence_of_its_own_does_not_make_a_case_exploratory() -> None:
    """git_commit has only 'commit' of the request, which git_show has too, and the request says no more of its
    name: it cannot be the answer instead, so it is no runner-up. A rival with words of its own still is one."""
    alone = _checked(GIT, "Show the contents of the commit 9f3c2e1.", "git_show")
    assert alone.scored and alone.confidence == 1.0 and "runner-up" not in (alone.note or "")
    assert not _checked(GIT, "Show the contents of the commit 9f3c2e1.", "git_commit").scored
    rival = _checked(GIT, "Show the contents of the commit 9f3c2e1 in the working directory.", "git_show")
    assert rival.confidence < 1.0 and "runner-up git_diff_unstaged" in (rival.note or "")


def test_a_rival_whose_name_claims_what_the_request_does_not_say_is_no_runner_up() -> None:
    """'Add a comment to the page' says all of add_comment's name; add_inline_comment has the same words and a
    name word ('inline') the request does not say. Relabeled, the case is not kept."""
    tools = toolset(
        tool("add_comment", "Add a comment to a page.", page={"type": "string"}),
        tool("add_inline_comment", "Add an inline comment to a page, at a text selection.", page={"type": "string"}),
    )
    right = _checked(tools, "Add a comment to the page P-1042.", "add_comment")
    assert right.scored and right.confidence == 1.0, right.note
    assert not _checked(tools, "Add a comment to the page P-1042.", "add_inline_comment").scored
    inline = _checked(tools, "Add an inline comment to the page P-1042.", "add_inline_comment")
    assert inline.scored, inline.note


def test_twins_that_differ_in_a_words_number_follow_the_request() -> None:
    """create-event and create-events have the same words; 'a new calendar event' says the singular."""
    tools = toolset(
        tool("create-event", "Create a calendar event.", summary={"type": "string"}),
        tool("create-events", "Create calendar events in bulk.", events={"type": "array"}),
    )
    one = _checked(tools, "Create a new calendar event.", "create-event")
    assert one.scored and "runner-up" not in (one.note or ""), one.note
    assert not _checked(tools, "Create a new calendar event.", "create-events").scored
    assert _checked(tools, "Create calendar events in bulk.", "create-events").scored


def test_a_frame_word_inside_a_name_phrase_is_the_names() -> None:
    """'pull' is a frame's word ('pull up'), but in 'the pull request #142' it is the name's ('pull request'), so
    the request says all of update_pull_request_state's name and update_pull_request_draft_state is no rival."""
    number = {"type": "number"}
    tools = toolset(
        tool("update_pull_request_state", "Update the state of a pull request (open or closed).", pullNumber=number),
        tool("update_pull_request_draft_state", "Mark a pull request as draft or ready.", pullNumber=number),
        tool("update_issue_state", "Update the state of an issue.", issue_number=number),
    )
    checked = _checked(tools, "Update the state of the pull request #142 in acme/webshop.", "update_pull_request_state")
    assert checked.scored, checked.note


def test_a_rival_whose_name_says_less_of_the_request_is_no_runner_up() -> None:
    """The request says all of add_issue_comment_reaction's name and all of add_issue_comment's, which is less."""
    tools = toolset(
        tool("add_issue_comment_reaction", "Add a reaction to an issue comment."),
        tool("add_issue_comment", "Add a comment or a reaction to an issue."),
    )
    checked = _checked(tools, "Add a reaction to the issue comment #1042.", "add_issue_comment_reaction")
    assert checked.scored and "runner-up" not in (checked.note or ""), checked.note
    assert not _checked(tools, "Add a reaction to the issue comment #1042.", "add_issue_comment").scored


def test_a_derivation_or_a_frame_word_next_to_a_name_word_says_the_name() -> None:
    """'an aggregation' says aggregate's name; 'dates' is also a frame's word, but 'issue dates' is a pair of
    jira_get_issue_dates's name words."""
    collection = {"type": "string"}
    mongo = toolset(
        tool("aggregate", "Run an aggregation against a MongoDB collection", collection=collection),
        tool("find", "Run a find query against a MongoDB collection", collection=collection),
        tool("export", "Export a query or aggregation results to a file", collection=collection),
    )
    assert _checked(mongo, "Kick off the aggregation in orders.", "aggregate").scored
    jira = toolset(
        tool("jira_get_issue", "Get details of a Jira issue, with its dates and status."),
        tool("jira_get_issue_dates", "Get date information and status transition history for a Jira issue."),
    )
    assert _checked(jira, "Get issue dates for issue PROJ-123.", "jira_get_issue_dates").scored


def test_a_name_word_the_request_writes_as_two_words_is_said() -> None:
    """'free/busy' is get-freebusy's name word, 'TaskRun' tekton_taskrun_logs's ('taskrun', one word in a name)."""
    tools = toolset(
        tool("get-freebusy", "Query free/busy information for calendars."),
        tool("list-calendars", "List all calendars of the account."),
        tool("tekton_taskrun_logs", "Get the logs from a Tekton TaskRun by resolving its underlying pod."),
        tool("tekton_pipelinerun_logs", "Get logs for all TaskRuns owned by a Tekton PipelineRun."),
    )
    assert _checked(tools, "Query free/busy information for calendars.", "get-freebusy").scored
    assert _checked(tools, "Get the logs from a Tekton TaskRun named build-image.", "tekton_taskrun_logs").scored


def test_a_request_for_the_number_of_things_fills_a_count_tools_name() -> None:
    """'the number of documents' says what `count` does (lexicon.yml `slot_words`), so a rival whose name has
    the request's other word ('collection') does not win."""
    tools = toolset(
        tool("count", "Gets the number of documents in a MongoDB collection.", collection={"type": "string"}),
        tool("rename-collection", "Renames a collection in a MongoDB database.", collection={"type": "string"}),
    )
    case = Case(
        id="c",
        intent="Can you pull up the number of documents in the MongoDB collection invoices?",
        expected="count",
        provenance=Provenance.AI_GENERATED,
    )
    checked = CaseValidator(tools).validate(case, min_confidence=MIN_CONFIDENCE)
    assert checked.scored, checked.note


def test_a_name_word_that_only_says_the_tool_acts_is_said_by_its_operations() -> None:
    """`machine_lifecycle` (action: start, stop, restart): 'Start the virtual machine' says its 'lifecycle', so a
    rival that only mentions starting in its text (machine_diagnose) does not tie with it; a request that names no
    operation ('Look into the virtual machine') still does not say it."""
    tools = toolset(
        tool(
            "machine_lifecycle",
            "Manage the lifecycle of a virtual machine.",
            action={"type": "string", "enum": ["start", "stop", "restart"]},
            machine={"type": "string", "description": "Machine name"},
        ),
        tool(
            "machine_diagnose",
            "Diagnose why a virtual machine fails to start.",
            machine={"type": "string", "description": "Machine name"},
        ),
    )
    validator = CaseValidator(tools)
    start = case("s", "Start the virtual machine web-1.", "machine_lifecycle", provenance=Provenance.AI_GENERATED)
    assert validator.validate(start, min_confidence=MIN_CONFIDENCE).scored
    vague = start.model_copy(update={"intent": "Look into the virtual machine web-1."})
    assert not validator.validate(vague, min_confidence=MIN_CONFIDENCE).scored


def test_a_word_a_name_says_twice_is_one_slot() -> None:
    """'request_pull_request_reviewers' says 'request' twice: a request for a pull request fills 2 of its 3 slots,
    not 3 of 4, so it does not outrank pull_request_read on 'pull request' alone."""
    tools = toolset(
        tool("pull_request_read", "Get information on a specific pull request.", pullNumber={"type": "number"}),
        tool("request_pull_request_reviewers", "Request reviewers for a pull request.", pullNumber={"type": "number"}),
    )
    scores = CaseValidator(tools).scores("Can you pull up the pull request #142 in acme/webshop?")
    assert scores["request_pull_request_reviewers"] <= scores["pull_request_read"], scores


def test_a_tool_whose_name_has_the_requests_rarest_naming_word_wins_more_clearly() -> None:
    """On the real Atlassian server, 'the worklog entries for the Jira issue PROJ-123': jira_get_issue's name says
    three of the request's words, jira_get_worklog's says the rare one too; the case is scored (it was at 0.695),
    and relabeled as jira_get_issue it is not."""
    path = shared_path("corpora", "servers", "sooperset__mcp-atlassian__atlassian.json")
    validator = CaseValidator(load_definitions(path.name, text=path.read_text(encoding="utf-8")))
    intent = "Get worklog entries for the Jira issue PROJ-123."
    right = Case(id="r", intent=intent, expected="jira_get_worklog", provenance=Provenance.AI_GENERATED)
    wrong = right.model_copy(update={"expected": "jira_get_issue"})
    assert validator.validate(right, min_confidence=MIN_CONFIDENCE).scored
    assert not validator.validate(wrong, min_confidence=MIN_CONFIDENCE).scored


def test_twins_are_reported_as_indistinguishable_with_the_reason() -> None:
    twins = toolset(
        tool("create_event", "Creates a calendar event"),
        tool("create_events", "Creates calendar events"),
        tool("read_text_file", "Read the complete contents of a file as text."),
        tool("read_file", "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead."),
    )
    suite = build_suite([twins])
    notes = " ".join(suite.notes)
    assert "read_file is marked deprecated in favour of read_text_file" in notes
    # Twins whose names differ only by a plural are told apart by the number the request says.
    scored = {c.expected for c in suite.cases if c.scored and c.family == CaseFamily.POSITIVE}
    assert {"create_event", "create_events"} <= scored, notes


def test_a_tool_named_by_jargon_is_asked_for_in_plain_words() -> None:
    """`pods_top` says "top" (the Unix command) for what pods consume: a request for the resource consumption of a
    pod says it, so the tool gets scored cases beside a general resource lister; and a consumption is not counted
    ("What resource consumptions do we have?")."""
    tools = toolset(
        Tool(
            name="pods_top",
            description="List the resource consumption (CPU and memory) of Kubernetes Pods.",
            inputSchema={
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Name of the Pod"},
                    "namespace": {"type": "string", "description": "Namespace of the Pods"},
                },
            },
        ),
        tool("resources_list", "List Kubernetes resources of any kind in a namespace.", kind={"type": "string"}),
        tool("pods_list", "List the Kubernetes Pods in a namespace.", namespace={"type": "string"}),
    )
    cases = [c for c in build_suite([tools]).cases if c.expected == "pods_top"]
    assert any(c.scored for c in cases), [(c.intent, c.scored) for c in cases]
    assert not any("consumptions" in c.intent for c in cases), [c.intent for c in cases]
