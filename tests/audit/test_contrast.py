"""Contrastive requests: near-twins get a scored case from what tells them apart, or stay uncovered and named."""

from __future__ import annotations

from app.audit.models import CaseFamily, Phrasing, Provenance, Tool
from app.audit.suite.build import build_suite
from app.audit.suite.contrast import contrastive
from app.audit.suite.validate import MIN_CONFIDENCE, CaseValidator

from .helpers import case, tool, toolset

NUMBER = {"type": "number"}
GEOCODERS = toolset(
    tool("geocode", "Turns a street address into map coordinates.", address={"type": "string"}),
    tool("reverse_geocode", "Turns map coordinates into a street address.", latitude=NUMBER, longitude=NUMBER),
    tool("get_elevation", "Returns the height above sea level of a place.", place={"type": "string"}),
)


def _scored(suite_cases: list, name: str) -> list:
    return [c for c in suite_cases if c.expected == name and c.family == CaseFamily.POSITIVE and c.scored]


def test_a_twin_gets_a_scored_contrastive_case_from_the_parameters_only_it_takes() -> None:
    suite = build_suite([GEOCODERS])
    reverse = _scored(suite.cases, "reverse_geocode")
    assert reverse, [c.intent for c in suite.cases if c.expected == "reverse_geocode"]
    contrast = [c for c in reverse if c.phrasing == Phrasing.CONTRASTIVE]
    assert contrast and "latitude 38.72" in contrast[0].intent and "longitude" in contrast[0].intent
    assert not any("reverse_geocode (" in note for note in suite.notes), suite.notes


def test_contrastive_requests_say_what_the_rivals_lack_and_read_as_sentences() -> None:
    by_name = {t.name: t for t in GEOCODERS.tools}
    texts = [p.text for p in contrastive(by_name["reverse_geocode"], [by_name["geocode"]])]
    assert texts and all(t[0].isupper() and t.endswith(".") for t in texts)
    assert all("latitude" in t for t in texts)
    # Without rivals there is nothing to contrast.
    assert contrastive(by_name["reverse_geocode"], []) == []


def test_a_participle_of_the_name_goes_before_the_object() -> None:
    staged = tool("diff_staged", "Shows changes that are staged for commit.", repo_path={"type": "string"})
    unstaged = tool("diff_unstaged", "Shows changes that are not staged yet.", repo_path={"type": "string"})
    texts = [p.text for p in contrastive(staged, [unstaged])]
    assert "Show the staged changes in /home/dev/webshop." in texts


def test_identical_twins_stay_uncovered_and_the_report_names_them() -> None:
    same = "Reads the complete contents of a text file from disk."
    twins = toolset(
        tool("read_file", same, path={"type": "string"}),
        tool("read_text_file", same, path={"type": "string"}),
        tool("get_weather", "Returns the current weather forecast for a city.", city={"type": "string"}),
    )
    suite = build_suite([twins])
    assert not _scored(suite.cases, "read_file")
    assert any("read_file" in note and "no scored case" in note for note in suite.notes), suite.notes


def test_a_parameter_named_before_its_value_is_the_tools_own_word_for_the_validator() -> None:
    validator = CaseValidator(GEOCODERS)
    with_values = validator.scores("Turn the coordinates for latitude 38.72 and longitude -9.14 into a street address.")
    without = validator.scores("Turn the coordinates for latitude and longitude into a street address.")
    assert with_values["reverse_geocode"] > without["reverse_geocode"]
    assert with_values["geocode"] == without["geocode"]
    # A wrong label is still refused: the request names the reverse geocoder's parameters.
    wrong = case("w", "Turn latitude 38.72 and longitude -9.14 into a street address.", "geocode")
    wrong = wrong.model_copy(update={"provenance": Provenance.AI_GENERATED})
    assert not validator.validate(wrong, min_confidence=MIN_CONFIDENCE).scored


def test_the_names_own_verb_when_the_description_says_another() -> None:
    count = tool("count", "Gets the number of documents in a collection.", collection={"type": "string"})
    rename = tool("rename_collection", "Renames a collection.", collection={"type": "string"})
    texts = [p.text for p in contrastive(count, [rename])]
    assert "Count the documents in the collection invoices." in texts, texts


def test_what_sets_a_tool_apart_from_its_closest_rival_when_nothing_sets_it_apart_from_all() -> None:
    text = {"type": "string"}
    reaction = tool("add_issue_reaction", "Add a reaction to an issue.", issue_number=NUMBER, content=text)
    rivals = [
        tool("add_issue_comment_reaction", "Add a reaction to an issue comment.", comment_id=NUMBER, content=text),
        tool("add_issue_comment", "Add a comment to an issue.", issue_number=NUMBER, body=text),
    ]
    said = [p.text for p in contrastive(reaction, rivals)]
    # issue_number is shared with add_issue_comment, but it is what add_issue_comment_reaction lacks.
    assert said and all("issue number 142" in s for s in said), said
    assert not any("issue number" in p.text for p in contrastive(reaction, rivals[1:]))


def test_the_things_a_name_says_are_asked_for_as_the_description_writes_them() -> None:
    """'logs' names a thing although lemminflect reads it only as a verb (lexicon.yml `nouns`), and the name's
    words take the description's casing of names: 'the Tekton PipelineRun build-and-deploy logs'."""
    named = {"name": {"type": "string", "description": "Name of the PipelineRun"}}
    schema = {"type": "object", "properties": named}
    pipeline = Tool(
        name="tekton_pipelinerun_logs", description="Get logs for all TaskRuns owned by a Tekton PipelineRun.",
        inputSchema=schema,
    )  # fmt: skip
    task = Tool(name="tekton_taskrun_logs", description="Get the logs from a Tekton TaskRun.", inputSchema=schema)
    texts = [p.text for p in contrastive(pipeline, [task])]
    assert any(t.startswith("Get the Tekton PipelineRun build-and-deploy logs") for t in texts), texts


def test_a_name_verb_in_the_lexicon_asks_for_the_tool_by_its_own_action() -> None:
    """git_reset says 'Unstages all staged changes'; its requests read as git_diff_unstaged's ('unstage'). 'reset'
    is an update verb (lexicon.yml), so the name's own verb asks for it: 'Reset the staged changes ...'."""
    repo = {"repo_path": {"type": "string", "description": "Path to Git repository"}}
    reset = Tool(name="git_reset", description="Unstages all staged changes", inputSchema={"properties": repo})
    unstaged = Tool(
        name="git_diff_unstaged",
        description="Shows changes in the working directory that are not yet staged",
        inputSchema={"properties": repo},
    )
    texts = [p.text for p in contrastive(reset, [unstaged])]
    assert any(t.startswith("Reset the staged changes") for t in texts), texts
    validator = CaseValidator(toolset(reset, unstaged))
    said = next(t for t in texts if t.startswith("Reset"))
    assert validator.validate(
        case("c", said, "git_reset", provenance=Provenance.AI_GENERATED), min_confidence=MIN_CONFIDENCE
    ).scored
