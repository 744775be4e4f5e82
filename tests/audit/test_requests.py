"""Generated requests read like a person's: sentences, three families, real example values, no template text."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from app.audit.loader import load_definitions
from app.audit.models import CaseFamily, Phrasing, Tool, ToolSet
from app.audit.suite.build import build_suite
from app.audit.suite.noun_phrase import Noun, Phrase
from app.audit.suite.phrase_parts import is_thing
from app.audit.suite.reading import read_tool
from app.audit.suite.realiser import FramePlan, fill, finish
from app.audit.suite.tool_requests import phrasings
from app.audit.suite.values import tool_values
from app.audit.suite.word_forms import base_verb
from tests.conftest import SHARED, shared_path

from .helpers import tool

# Fragments of the old templates that must never reach a person again.
LEAKS = ("I need something that handles", "Fetches:", "handles fetches", " — sample", "Please please", "the details of")
# Stock scenes of earlier frames that no person writes ("I'm stuck until someone can ...", "... before the meeting"),
# and description wording addressed to the model ("to your account or specified organization", "and/or").
STAGED = re.compile(
    r"before the meeting|stuck until someone|\bBefore Friday\b|since Friday|\bor (?:specified|provided) \w"
    r"|current or provided|and/or|\byour\b|\bby (?:its|their) id\b|\b(?:detailed|comprehensive|high-level) \w"
    r"|with the (?:provided|specified|given) (?:name|id)\b|\bwith (?:pagination|filtering options|sort by)\b",
    re.IGNORECASE,
)
# Description words a person asking would not say ("the specific user dana", "a given position").
DESCRIPTION_ISMS = re.compile(r"\b(?:the|a|an) (?:specific|specified|given|particular) \w", re.IGNORECASE)
# An object that names no thing ("fill the out", "change the simulated", "Wait for saying ...").
NO_THING = re.compile(
    r"\bthe (?:whether|how|so|be|back to)\b|\bthe (?:out|back|simulated|unresolve|[a-z]+ize)\b(?: for me)?[.?]"
    r"|\b(?:for|to|in|of|with) saying\b|^\w+ (?:many|multiple) (?:in|from|to|of)\b|\bthe (?:its|their)\b",
    re.IGNORECASE,
)
# A verb said without the preposition or complement it needs ("navigate the URL", "Would you mark the PR?").
BARE_VERBS = re.compile(
    r"\b(?:navigate|connect|subscribe|wait|respond|reply) the\b|^(?:Would|Could) you (?:mark|set|verify|convert)\b"
)
# Frames that do not fit what they are said of: a vague verb in the passive ("Can we get the lifecycle managed?"),
# code kicked off or got going ("Kick off the SQL query ..."), two numbers for one thing ("the sub issue #142 #1042").
MISFIT = re.compile(
    r"\b(?:managed|performed|handled|simulated|demonstrated)\?$|still needs? to be (?:managed|performed|handled)\b"
    r"|^(?:Kick off|Could you get) the (?:[\w-]+ )*?(?:query|command|script|JavaScript)\b|#\d+ #\d+"
)
SENTENCE = re.compile(r"^[A-Z#/\"'0-9].*[.?!\"]$")
DEMO = Path(__file__).resolve().parents[2] / "app" / "demo"
SERVERS = sorted((SHARED / "corpora" / "servers").glob("*.json"))


def _load(path: Path) -> ToolSet:
    return load_definitions(path.name, text=path.read_text(encoding="utf-8"))


def _assert_readable(intents: list[str]) -> None:
    for intent in intents:
        assert not any(leak in intent for leak in LEAKS), intent
        assert SENTENCE.match(intent), f"not a sentence: {intent!r}"
        assert "{" not in intent and "  " not in intent, intent
        words = intent.lower().split()
        assert all(a != b for a, b in itertools.pairwise(words) if a.isalpha()), intent
        for defect in (DESCRIPTION_ISMS, NO_THING, BARE_VERBS, STAGED, MISFIT):
            assert not defect.search(intent), intent


def test_demo_requests_are_sentences_without_template_text() -> None:
    base, head = (_load(DEMO / f"{side}.json") for side in ("before", "after"))
    suite = build_suite([base, head])
    generated = [c.intent for c in suite.cases if c.family != CaseFamily.OFF_TOPIC]
    assert len(generated) > 50
    _assert_readable(generated)


@pytest.mark.corpus
def test_requests_on_every_real_server_are_sentences() -> None:
    if not SERVERS:
        shared_path("corpora", "servers")
    intents = [c.intent for path in SERVERS for c in build_suite([_load(path)]).cases]
    assert len(intents) > 2000
    _assert_readable(intents)


def test_description_action_becomes_the_users_imperative_with_a_value() -> None:
    ticket = tool(
        "get_ticket",
        "Fetches one helpdesk ticket by its id, with its full conversation.",
        id={"type": "string", "description": "Ticket id, e.g. `T-1042`."},
    )
    reading = read_tool(ticket)
    assert (reading.verb, reading.verb_class, reading.head) == ("fetch", "read", "helpdesk ticket")
    explicit = [p.text for p in phrasings(ticket) if p.phrasing == Phrasing.EXPLICIT]
    assert explicit[0] == "Fetch the helpdesk ticket T-1042."


def test_every_tool_gets_three_families() -> None:
    tools = [
        tool("list_branches", "Lists the branches of a repository.", repo={"type": "string"}),
        tool("delete_page", "Permanently deletes a wiki page.", page_id={"type": "string"}),
        tool("send_message", "Sends a chat message to a channel.", channel={"type": "string"}, text={"type": "string"}),
    ]
    for t in tools:
        families = {p.phrasing for p in phrasings(t)}
        assert families == set(Phrasing) - {Phrasing.CONTRASTIVE}, (t.name, families)
    texts = [p.text for p in phrasings(tools[2])]
    assert "Let #release know that the 2.3.0 release is out." in texts
    assert any(p.text.startswith("Permanently delete the wiki page") for p in phrasings(tools[1]))


def test_values_come_from_the_schema_first() -> None:
    t = tool(
        "search_issues",
        "Search issues.",
        status={"type": "string", "enum": ["open", "closed"]},
        query={"type": "string", "examples": ["crash on startup"]},
        since={"type": "string", "format": "date"},
        page={"type": "integer"},
    )
    values = {v.param: (v.text, v.source) for v in tool_values(t, limit=5)}
    assert values["status"] == ("open", "enum") and values["query"] == ("crash on startup", "examples")
    assert values["since"][1] == "format" and "page" not in values
    assert tool_values(t, limit=5, variant=1)[0].text == "closed"


def test_owner_and_repo_are_one_value_and_base_verbs_come_from_lemminflect() -> None:
    t = Tool(
        name="list_tags",
        description="List git tags in a GitHub repository.",
        inputSchema={"type": "object", "properties": {"owner": {"type": "string"}, "repo": {"type": "string"}}},
    )
    assert [v.text for v in tool_values(t)] == ["acme/webshop"]
    assert phrasings(t)[0].text == "List git tags in the GitHub repository acme/webshop."
    assert (base_verb("Retrieves"), base_verb("Applies"), base_verb("Current")) == ("retrieve", "apply", None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("show the the file", None),
        ("{obj} is missing", None),
        ("hi", None),
        ("list the open issues", "List the open issues."),
        ("list  the open issues ", "List the open issues."),
        # The finish makes a sentence of the words it is given; it does not choose them.
        ("is there a update", "Is there a update."),
    ],
)
def test_quality_gate(raw: str, expected: str | None) -> None:
    assert finish(raw) == expected


def test_class_frames_only_for_the_verbs_they_fit() -> None:
    """'X is out of date' fits an update, not a move; 'Kick off X' a start, not a stop; 'Get rid of X' a delete,
    not a close. Those verbs get the frames that say their own verb."""
    move = tool("move_file", "Moves a file to another folder.", source={"type": "string"})
    stop = tool("stop_service", "Stops a running service.", service_name={"type": "string"})
    close = tool("close_ticket", "Closes a helpdesk ticket.", ticket_id={"type": "string"})
    texts = {t.name: [p.text for p in phrasings(t)] for t in (move, stop, close)}
    assert not any("out of date" in x for x in texts["move_file"]) and any("move the" in x for x in texts["move_file"])
    assert not any("Kick off" in x or "going?" in x for x in texts["stop_service"]), texts["stop_service"]
    assert not any("Get rid of" in x or "for good" in x for x in texts["close_ticket"]), texts["close_ticket"]


def test_frames_need_a_thing_and_verbs_keep_their_preposition() -> None:
    assert not is_thing("simulated") and not is_thing("out") and not is_thing("Reprioritize")
    assert not is_thing("Unresolve") and not is_thing("back") and is_thing("Release")
    assert is_thing("Helm release") and is_thing("PipelineRun") and is_thing("simulated logging")
    toggle = tool("toggle_simulated", "Toggles simulated.")
    assert not any(p.phrasing != Phrasing.EXPLICIT for p in phrasings(toggle))
    navigate = tool("browser_navigate", "Navigates to a web page.", url={"type": "string"})
    texts = [p.text for p in phrasings(navigate)]
    assert any(x.startswith("Could you navigate to the web page") for x in texts), texts


def test_read_indirect_frame_and_description_words() -> None:
    commit = tool("git_show", "Shows the contents of a specific commit.", revision={"type": "string"})
    texts = [p.text for p in phrasings(commit)]
    assert "I need to check the commit 9f3c2e1." in texts, texts
    assert not any("specific" in x for x in texts), texts
    directory = tool("create_directory", "Create a new directory or ensure a directory exists.")
    assert read_tool(directory).head == "directory"


def test_a_sql_tools_query_is_a_statement_not_search_words() -> None:
    sql = tool("read_query", "Execute a SELECT query on the orders database.", query={"type": "string"})
    texts = [p.text for p in phrasings(sql)]
    assert any('"SELECT ' in x for x in texts) and not any("login timeout" in x for x in texts), texts
    search = tool("search_docs", "Search the documentation.", query={"type": "string"})
    assert any('"login timeout"' in p.text for p in phrasings(search))


def test_the_passive_frame_puts_the_verb_before_its_complement() -> None:
    """'The issue PROJ-123 still needs to be assigned to the user dana.', not '... PROJ-123 to the user dana still
    needs to be assigned'; a tool that only reads gets no such frame ('The tables still need to be listed')."""
    assign = tool(
        "assign_issue",
        "Assigns a Jira issue to a user.",
        issue_key={"type": "string", "examples": ["PROJ-123"]},
        assignee={"type": "string"},
    )
    texts = [p.text for p in phrasings(assign)]
    passive = [x for x in texts if "still needs to be" in x or x.startswith("Can we get")]
    assert passive, texts
    assert all(re.search(r"(still needs to be|Can we get .*) assigned to ", x) for x in passive), passive
    tables = tool("list_tables", "Lists the tables in the database.")
    assert not any("still need" in p.text or p.text.startswith("Can we get") for p in phrasings(tables))


def test_description_wording_a_person_would_not_say_is_trimmed() -> None:
    fork = tool(
        "fork_repository",
        "Fork a GitHub repository to your account or specified organization.",
        owner={"type": "string"},
        repo={"type": "string"},
    )
    texts = [p.text for p in phrasings(fork)]
    assert "Fork the GitHub repository acme/webshop to my account." in texts, texts


def test_the_description_is_trimmed_when_read_and_never_a_value() -> None:
    """The trims read the description; a value that says "your" is the user's text and stays as written."""
    note = tool(
        "post_note",
        "Posts a note with pagination to your notebook.",
        notebook={"type": "string", "examples": ["travel"]},
        text={"type": "string", "description": "Text of the note.", "examples": ["Check your passport"]},
    )
    texts = [p.text for p in phrasings(note)]
    assert texts and not any("pagination" in t for t in texts), texts
    assert any('"Check your passport"' in t for t in texts), texts
    assert not any("my passport" in t for t in texts), texts


def test_a_value_says_which_of_two_alternatives() -> None:
    """"the folder or archive" given the folder's path: the path says which, the alternative goes."""
    size = tool(
        "folder_size",
        "Measure the disk space used by a folder or archive on the backup server.",
        folder_path={"type": "string", "description": "Path of the folder."},
    )
    texts = phrasings_of(size)
    assert any("/srv/app" in t for t in texts), texts
    assert not any(re.search(r"/\S* or archive", t) for t in texts), texts


def test_a_possessive_of_the_description_stays_in_every_frame() -> None:
    """"your own profile" is "my own profile": frames say "my", never "the my"."""
    me = tool("whoami", "Get details of your own chat profile.")
    texts = [p.text for p in phrasings(me)]
    assert any("my own chat profile" in t for t in texts), texts
    assert not any("the my" in t for t in texts), texts


def test_a_verb_takes_its_object_through_its_preposition() -> None:
    """"Switches branches" given one branch: "Switch to the branch main", not "Switch the branch main"."""
    switch = tool("checkout_branch", "Switches branches.", branch_name={"type": "string"})
    texts = [p.text for p in phrasings(switch)]
    assert any(t.startswith("Switch to the branch ") for t in texts), texts
    assert not any(t.startswith("Switch the ") for t in texts), texts


def test_search_texts_fit_what_the_tool_searches() -> None:
    places = tool("maps_search_places", "Search for places using the Google Places API.", query={"type": "string"})
    events = tool("search_events", "Search calendar events by text.", q={"type": "string"})
    code = tool("search_code", "Search code across repositories.", query={"type": "string"})
    assert '"coffee near Union Square"' in phrasings(places)[0].text
    assert any('"dentist appointment"' in p.text for p in phrasings(events))
    code_texts = [p.text for p in phrasings(code)]
    assert any('"parseConfig"' in x for x in code_texts) and not any("codes" in x for x in code_texts), code_texts


def test_a_rename_says_the_new_name_and_a_query_tool_gives_its_query() -> None:
    rename = tool(
        "rename_collection",
        "Renames a collection in a MongoDB database.",
        database={"type": "string"},
        collection={"type": "string"},
        newName={"type": "string"},
    )
    texts = [p.text for p in phrasings(rename)]
    assert not any(re.search(r"\bnamed\b", x) for x in texts), texts
    assert any(" to invoices_archive" in x for x in texts), texts
    assert not any(" in invoices_archive" in x for x in texts), texts  # a new name is where it goes, not a place
    sql = tool("run_query", "Runs a read-only SQL query.", sql={"type": "string"})
    framed = [p.text for p in phrasings(sql) if p.phrasing != Phrasing.EXPLICIT]
    assert framed and all('"SELECT ' in x for x in framed), framed
    create = tool("create_table", "Create a new table.", query={"type": "string", "description": "CREATE TABLE SQL"})
    assert any('"CREATE TABLE ' in p.text for p in phrasings(create))


def _named(name: str, description: str, param_description: str) -> Tool:
    schema = {"type": "object", "properties": {"name": {"type": "string", "description": param_description}}}
    return Tool(name=name, description=description, inputSchema=schema)


def test_a_name_fits_what_it_names() -> None:
    """A node is 'worker-2' and a screenshot 'pricing-page', read from the parameter's words, its description or
    the tool's name; a pod keeps the default name."""
    node = _named("nodes_log", "Get logs from a Kubernetes node.", "Name of the node")
    shot = _named("puppeteer_screenshot", "Take a screenshot of the current page.", "")
    board = tool("get_agile_boards", "Get Jira agile boards.", board_name={"type": "string"})
    pod = _named("pods_get", "Get a Kubernetes Pod.", "Name of the Pod")
    names = [tool_values(t)[0].text for t in (node, shot, board, pod)]
    assert names == ["worker-2", "pricing-page", "Web Team", "frontend"]
    assert any("named worker-2" in p.text for p in phrasings(node))


def test_a_path_fits_where_it_is() -> None:
    """A directory listing gets a directory, a file in a repository its path inside it, a move both ends."""
    listing = tool("list_directory", "Get a listing of all files and directories in a path.", path={"type": "string"})
    in_repo = tool(
        "get_file_contents",
        "Get the contents of a file from a GitHub repository.",
        owner={"type": "string"},
        repo={"type": "string"},
        path={"type": "string"},
    )
    move = tool(
        "move_file", "Move or rename files and directories.", source={"type": "string"}, destination={"type": "string"}
    )
    listed = [p.text for p in phrasings(listing)]
    assert any("/srv/app/logs" in x for x in listed) and not any(".yaml" in x for x in listed), listed
    assert any(" config/settings.yaml " in p.text for p in phrasings(in_repo))
    assert "Move files and directories from /srv/app/config.yaml to /srv/app/archive/config.yaml." in [
        p.text for p in phrasings(move)
    ]


def test_a_pair_of_places_reads_from_and_to() -> None:
    """'Convert time from America/New_York to Asia/Tokyo at 14:30.'; a required time zone is said, an optional one
    (a setting) is not; 'between two points' goes once the values say which two."""
    zone = "IANA timezone name (e.g., '{}')"
    convert = Tool(
        name="convert_time",
        description="Convert time between timezones.",
        inputSchema={
            "type": "object",
            "properties": {
                "source_timezone": {"type": "string", "description": zone.format("America/New_York")},
                "time": {"type": "string", "description": "Time to convert (HH:MM)"},
                "target_timezone": {"type": "string", "description": zone.format("Asia/Tokyo")},
            },
            "required": ["source_timezone", "time", "target_timezone"],
        },
    )
    assert phrasings(convert)[0].text == "Convert the time from America/New_York to Asia/Tokyo at 14:30."
    now = Tool(
        name="get_current_time",
        description="Get current time in a specific timezone.",
        inputSchema={"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]},
    )
    assert any("Europe/Berlin" in p.text for p in phrasings(now))
    event = tool("update_event", "Update a calendar event.", event_id={"type": "string"}, timeZone={"type": "string"})
    assert not any("Europe/Berlin" in p.text for p in phrasings(event))
    directions = tool(
        "maps_directions",
        "Get directions between two points.",
        origin={"type": "string"},
        destination={"type": "string"},
    )
    assert phrasings(directions)[0].text == "Get directions from Lisbon airport to Belém Tower."


def test_a_count_asks_for_the_number_of_things() -> None:
    """'the number of documents' stays (it is what a count returns) and keeps where the documents are; a frame that
    looks inside a thing ('what is in') is not used for a number."""
    count = tool(
        "count",
        "Gets the number of documents in a MongoDB collection.",
        database={"type": "string"},
        collection={"type": "string"},
    )
    texts = [p.text for p in phrasings(count)]
    assert "Can you pull up the number of documents in the MongoDB collection invoices?" in texts, texts
    assert not any("what is in" in x for x in texts), texts


def test_a_relative_clause_that_says_a_name_word_stays() -> None:
    """'the directories that this server is allowed to access' for list_allowed_directories: the clause says what
    sets the tool apart ('allowed'); one that says no word of the name past its first is left out."""
    allowed = tool("list_allowed_directories", "Returns the list of directories that this server is allowed to access.")
    texts = [p.text for p in phrasings(allowed)]
    assert "Can you pull up the directories that this server is allowed to access?" in texts, texts
    clusters = tool("kiali_list_mesh_clusters", "Lists the Istio mesh clusters that Kiali can access.")
    assert not any("Kiali can access" in p.text for p in phrasings(clusters))


def test_a_name_goes_with_the_thing_it_names() -> None:
    """'named worker-2' follows an object that says what is named; otherwise the thing is said ('the resource
    consumption of the node worker-2', not '... consumption named worker-2')."""
    top = _named("top", "List the resource consumption (CPU and memory).", "Name of the Node to get it from")
    assert any("of the node worker-2" in p.text for p in phrasings(top)), [p.text for p in phrasings(top)]
    assert not any("consumption named" in p.text for p in phrasings(top))
    log = _named("nodes_log", "Get logs from a Kubernetes node.", "Name of the node to get logs from")
    assert any("node named worker-2" in p.text for p in phrasings(log))
    owned = tool("pipelinerun_logs", "Get logs for all TaskRuns owned by a Tekton PipelineRun.")
    assert read_tool(owned).owner == "for all TaskRuns owned by a Tekton PipelineRun"


def test_a_tool_described_as_a_tool_for_something_is_asked_for_help_with_it() -> None:
    """'A tool for dynamic problem-solving': a person asks for help with the problem-solving, not to 'use the
    tool'; an unquoted example number ('e.g., 1, 2, 3') is the value, not a made-up #142."""
    thinking = tool(
        "sequentialthinking",
        "A detailed tool for dynamic and reflective problem-solving through thoughts.",
        thoughtNumber={"type": "integer", "description": "Current thought number (e.g., 1, 2, 3)"},
    )
    texts = [p.text for p in phrasings(thinking)]
    assert texts and all("tool" not in x and "#142" not in x for x in texts), texts
    assert any(x.startswith("Help with dynamic and reflective problem-solving") for x in texts), texts


def test_a_tool_that_runs_a_command_is_given_one() -> None:
    """'Execute a command in a Pod' names no command; the request gives one, also when the schema takes it as a list
    of words, and a browser script tool gets a script."""
    exec_ = tool(
        "pods_exec",
        "Execute a command in a Kubernetes Pod.",
        command={"type": "array", "items": {"type": "string"}},
    )
    script = tool("puppeteer_evaluate", "Execute JavaScript in the browser console.", script={"type": "string"})
    assert all('"ls -la /app"' in p.text for p in phrasings(exec_)), [p.text for p in phrasings(exec_)]
    assert all('"document.title"' in p.text for p in phrasings(script)), [p.text for p in phrasings(script)]


def test_a_verb_behind_un_or_re_is_the_requests_verb() -> None:
    """'Unresolve' and 'Reprioritize' are not in the verb lexicon; read as verbs, the request starts with them
    instead of 'Use Unresolve ...'."""
    assert base_verb("Unresolve") == "unresolve" and base_verb("Reprioritizes") == "reprioritize"
    assert base_verb("Unique") is None and base_verb("Recent") is None
    thread = tool("unresolve_review_thread", "Unresolve a previously resolved review thread on a pull request.")
    texts = [p.text for p in phrasings(thread)]
    assert texts and not any(t.startswith("Use ") for t in texts), texts
    assert all(t.startswith("Unresolve ") for t in texts), texts


def test_which_operation_to_run_is_not_said_as_a_setting() -> None:
    """'with action create' or 'with method get' repeats the request's verb as a program's setting; other enum
    settings are still said (a state before its thing, with the article it now takes: 'an open config')."""
    manage = tool(
        "manage_config",
        "Create, update or delete an Istio object.",
        action={"type": "string", "enum": ["create", "update", "delete"]},
        state={"type": "string", "enum": ["open", "closed"]},
        required=["action", "state"],
    )
    texts = [p.text for p in phrasings(manage)]
    assert not any(re.search(r"\bwith action\b", t) for t in texts), texts
    assert any("Create an open config" in t for t in texts), texts


def _object(determiner: str, words: str) -> Phrase:
    """An object headed by its noun phrase: `words` after `determiner`."""
    *modifiers, head = words.split()
    return Phrase((Noun(determiner, tuple(modifiers), head),))


def _plan(**parts: Any) -> FramePlan:
    parts_of_a_plan = ("obj", "subj", "rest", "thing", "objs", "query", "content", "target", "done")
    empty: dict[str, Any] = dict.fromkeys(parts_of_a_plan)
    return FramePlan(**(empty | {"where": "", "verb": "make"} | parts))


def test_a_frame_article_is_decided_by_the_slot_it_comes_before() -> None:
    frame = "Could you make a {thing} for me?"
    assert fill(frame, _plan(thing="Istio object")) == "Could you make an Istio object for me?"
    assert fill(frame, _plan(thing="URL shortener")) == "Could you make a URL shortener for me?"
    assert fill(frame, _plan(thing="unified diff")) == "Could you make a unified diff for me?"
    assert fill(frame, _plan()) is None  # no thing to say: the frame is not used


def test_agreement_is_decided_from_the_plan() -> None:
    one = _plan(obj=_object("the", "ticket T-1042"), thing="ticket", objs="tickets", query="*.log")
    many = _plan(obj=_object("the", "tickets"), thing="ticket", objs="tickets", many=True, query="refund")
    assert fill("{obj} {be} out of date.", one) == "the ticket T-1042 is out of date."
    assert fill("{obj} {needs} to run again.", many) == "the tickets need to run again."
    assert fill('{Are} there any {objs} {about} "{query}"?', one) == 'Are there any tickets matching "*.log"?'
    code = _plan(obj=_object("the", "code"), thing="code", objs="code", mass=True, query="retry")
    assert fill('{Are} there any {objs} {about} "{query}"?', code) == 'Is there any code about "retry"?'


def _pod_tool(name: str, description: str, **extra: dict[str, object]) -> Tool:
    properties: dict[str, object] = {
        "name": {"type": "string", "description": "Name of the Pod"},
        "namespace": {"type": "string", "description": "Namespace of the Pod"},
        **extra,
    }
    schema = {"type": "object", "properties": properties, "required": list(properties)}
    return Tool(name=name, description=description, inputSchema=schema)


def test_a_name_follows_the_word_it_names_and_a_command_ends_the_request() -> None:
    """'the Kubernetes Pod named frontend in the namespace payments', not '... in the namespace payments named
    frontend'; inside a compound the name goes between ('the Pod frontend logs'); a quoted command comes last, after
    the place it runs in."""
    delete = _pod_tool("pods_delete", "Delete a Kubernetes Pod in the specified namespace.")
    texts = [p.text for p in phrasings(delete)]
    assert any("Pod named frontend in the namespace payments" in t for t in texts), texts
    assert not any("payments named frontend" in t for t in texts), texts
    logs = _pod_tool("pods_logs", "Get the Kubernetes Pod logs.")
    assert any("Pod frontend logs" in p.text for p in phrasings(logs)), [p.text for p in phrasings(logs)]
    exec_ = _pod_tool(
        "pods_exec", "Execute a command in a Kubernetes Pod.", command={"type": "array", "items": {"type": "string"}}
    )
    texts = [p.text for p in phrasings(exec_)]
    assert 'Execute a command in the Kubernetes Pod named frontend in payments: "ls -la /app"' in texts, texts


def test_an_object_taken_from_the_name_leaves_out_its_verbs() -> None:
    """'Create and/or submit, delete review of a pull request' gives no object before its comma, so the name gives
    it: 'pull request review' (a noun that is also a verb stays), not 'pull request review write'."""
    review = tool("pull_request_review_write", "Create and/or submit, delete review of a pull request.")
    assert read_tool(review).object == "pull request review"
    assert not any(" write" in p.text for p in phrasings(review)), [p.text for p in phrasings(review)]


def test_a_word_that_says_how_is_not_the_action() -> None:
    """'Batch create multiple versions': the action is 'create'; 'Create a new or update an existing issue': both
    actions share 'issue', and the request for the first does not ask to create an existing one."""
    batch = read_tool(tool("jira_batch_create_versions", "Batch create multiple versions in a Jira project."))
    assert (batch.verb, batch.object) == ("create", "versions in a Jira project")
    either = read_tool(tool("issue_write", "Create a new or update an existing issue in a GitHub repository."))
    assert (either.verb, either.object) == ("create", "an issue in a GitHub repository")
    annotated = tool("get-annotated-message", "Demonstrates how annotations are used.", messageType={"type": "string"})
    assert not any(p.text.startswith("Message annotated") for p in phrasings(annotated))


def test_frames_fit_the_verb_and_the_thing() -> None:
    """'Manage' names no action a person could see done, so no 'Can we get the lifecycle managed?'; a query is run
    by the tool's own verb, not kicked off or got going."""
    manage = tool("manage_pipelinerun", "Manage a Tekton PipelineRun lifecycle.", namespace={"type": "string"})
    query = tool("read_query", "Execute a SELECT query on the SQLite database.", query={"type": "string"})
    texts = [p.text for t in (manage, query) for p in phrasings(t)]
    assert any(t.startswith("I need you to manage the Tekton PipelineRun") for t in texts), texts
    assert any(t.startswith('Could you execute the SELECT query "') for t in texts), texts
    assert not any(MISFIT.search(t) for t in texts), texts


def _phrased_in_repo(name: str, description: str, **numbers: str) -> list[str]:
    """The requests for a tool of a repository whose other parameters are numbers with these descriptions."""
    params = {k: {"type": "number", "description": v} for k, v in numbers.items()}
    repo = {"type": "string", "description": "Repository name"}
    return [p.text for p in phrasings(tool(name, description, repo=repo, **params))]


def test_a_verb_of_the_name_after_its_object_names_a_thing() -> None:
    """add_issue_comment adds a comment: 'comment' after 'issue' is the thing, so no 'Add the issue #142'."""
    texts = _phrased_in_repo("add_issue_comment", "Add a comment to an issue.", issue_number="Issue number")
    assert any(re.match(r"Add (?:the|a) comment to the issue #142\b", t) for t in texts), texts
    assert not any(t.startswith("Add the issue") for t in texts), texts


def test_a_value_goes_to_the_phrase_that_names_its_own_thing() -> None:
    """'a sub-issue' is the sub-issue's (`sub_issue_id`), not the parent's (`issue_number`), though it ends in
    'issue'."""
    texts = _phrased_in_repo(
        "add_sub_issue",
        "Add a sub-issue to a parent issue.",
        issue_number="The number of the parent issue",
        sub_issue_id="The ID of the sub-issue to add",
    )
    assert "Add the sub-issue #1042 to the parent issue #142 in acme/webshop." in texts, texts
    assert not any(MISFIT.search(t) or "sub-issue #142" in t or "sub issue #142" in t for t in texts), texts


def test_a_ref_of_the_thing_a_head_opens_with_says_what_it_belongs_to() -> None:
    """The pull request number of 'the pull request branch' is the pull request's: 'the branch of the pull request
    #142', not 'the pull request branch #142'."""
    texts = _phrased_in_repo(
        "update_pull_request_branch",
        "Update the pull request branch with the latest changes from the base branch.",
        pullNumber="Pull request number",
    )
    assert any("the branch of the pull request #142 in acme/webshop" in t for t in texts), texts
    assert not any("branch #142" in t for t in texts), texts


def test_a_possessive_is_not_doubled_and_a_quantity_is_not_a_thing() -> None:
    """'by its tag' with the tag given reads 'by the tag v1.0.0', not 'by the its tag'; the name `update_many`
    gives no object ('Update many in orders')."""
    release = tool(
        "get_release_by_tag",
        "Get a release by its tag name.",
        repo={"type": "string", "description": "Repository name"},
        tag={"type": "string", "description": "Tag name"},
    )
    many = tool("update_many", "Update all documents matching a filter.", database={"type": "string"})
    texts = [p.text for t in (release, many) for p in phrasings(t)]
    assert any("by the tag v" in t for t in texts), texts
    assert not any(NO_THING.search(t) for t in texts), texts


def test_settings_read_as_a_person_says_them() -> None:
    """A sort parameter reads 'sorted by name'; no second 'with' after an object that has one; no 'with
    pagination'."""
    sizes = tool(
        "list_directory_with_sizes",
        "List a directory with sizes, with pagination.",
        path={"type": "string", "description": "Directory path"},
        sortBy={"type": "string", "enum": ["name", "size"], "description": "Sort entries by name or size"},
    )
    texts = [p.text for p in phrasings(sizes)]
    assert any(t.endswith("sorted by name.") for t in texts), texts
    assert not any(STAGED.search(t) or t.count(" with ") > 1 for t in texts), texts


def test_only_a_thing_that_holds_something_is_wondered_about() -> None:
    """'I'm not sure what is in the logs' reads as a person's; '... what is in the sum of two numbers' or '... in the
    event' does not, so that frame is kept for heads that hold something (lexicon.yml `containers`)."""
    total = tool("get_sum", "Return the sum of two numbers.", a={"type": "number"}, b={"type": "number"})
    logs = tool("pod_logs", "Get the logs of a Kubernetes Pod.", pod={"type": "string", "description": "Pod name"})
    sums = [p.text for p in phrasings(total)]
    assert not any("what is in" in t for t in sums), sums
    assert any(t.startswith("I'm not sure what is in the logs") for t in (p.text for p in phrasings(logs)))


def test_a_tool_of_several_operations_is_asked_for_one_of_them() -> None:
    """'Perform write operations on tickets' with `method: create | update | delete` is asked for as a person
    would ask: 'Create a ticket ...', 'Delete the ticket ...', never 'perform the write operations'; a listing
    says its things in the plural; a compound member ('rerun_failed_jobs') names its own thing."""
    desk = tool(
        "ticket_write",
        "Perform write operations on helpdesk tickets.",
        method={"type": "string", "enum": ["create", "update", "delete"]},
        title={"type": "string", "description": "Ticket title"},
    )
    texts = [p.text for v in range(3) for p in phrasings(desk, variant=v)]
    assert any(t.startswith("Create a ticket") for t in texts), texts
    assert any(t.startswith("Delete the ticket") for t in texts), texts
    assert not any("perform" in t.lower() or "with method" in t for t in texts), texts
    runs = tool(
        "pipeline_runs",
        "Manage the Acme Pipelines resources.",
        method={"type": "string", "enum": ["list_runs", "rerun_failed_jobs"]},
    )
    texts = [p.text for v in range(2) for p in phrasings(runs, variant=v)]
    assert "List the Acme Pipelines runs." in texts, texts
    assert any(t.startswith("Rerun the Acme Pipelines failed jobs") for t in texts), texts
    assert not any("resources" in t or t.lower().startswith("manage") for t in texts[:3]), texts


@pytest.mark.parametrize(
    ("name", "description", "param", "spec", "said"),
    [
        # A commit's message: not 'Delete the document ... saying "..."'.
        ("delete_document", "Delete a document from the archive.", "message",
         {"type": "string", "description": "Commit message"}, 'with the commit message "'),
        # A comment that goes with another action.
        ("move_card", "Move a card to another column.", "comment",
         {"type": "string", "description": "Comment to record with the move"}, 'with the comment "'),
        # A member of a list is a setting, never quoted as if written.
        ("print_notice", "Print a notice to the console.", "messageType",
         {"type": "string", "enum": ["error", "success"], "description": "Kind of notice"}, "with message type error"),
    ],
)  # fmt: skip
def test_text_that_goes_with_an_action_is_said_for_what_it_is(
    name: str, description: str, param: str, spec: dict[str, object], said: str
) -> None:
    path = {"type": "string", "description": "Path of the document"}
    texts = [p.text for p in phrasings(tool(name, description, path=path, **{param: spec}))]
    assert any(said in t for t in texts), texts
    assert not any("saying" in t for t in texts), texts


def test_the_user_the_tool_acts_as_is_the_person_asking() -> None:
    """'the authenticated user' is the one typing: 'my Acme profile', 'for me', 'my pending review', never 'the
    authenticated Acme user' in a request."""
    whoami = tool("whoami", "Get details of the authenticated Acme user.")
    inbox = tool("list_alerts", "List all alerts for the authenticated user.")
    texts = [p.text for t in (whoami, inbox) for p in phrasings(t)]
    assert "Get details of my Acme profile." in texts, texts
    assert any(t.startswith("List all alerts for me") for t in texts), texts
    assert not any("authenticated" in t for t in texts), texts


def test_what_is_added_goes_to_its_thing() -> None:
    """'Would you add a note to the ticket #142?', not '... a note of the ticket #142' (which reads as its own
    note)."""
    texts = _phrased_in_repo("add_ticket_note", "Add a note.", ticket_number="Ticket number")
    assert any("add a note to the ticket #142" in t for t in texts), texts
    assert not any("note of the ticket" in t for t in texts), texts


def test_work_happens_on_a_branch_and_comes_from_a_source_branch() -> None:
    """'Build the site on the branch release-2.1', 'Open a change request ... from the branch release-2.1'; no 'for
    branch' and no 'with a title and optional body' from the description."""
    build = tool(
        "build_site", "Build the static site.", branch={"type": "string", "description": "Branch to build"}
    )
    change = tool(
        "open_change_request",
        "Open a new change request with a title and optional body.",
        title={"type": "string", "description": "Title"},
        source_branch={"type": "string", "description": "Branch the changes come from"},
    )
    texts = [p.text for t in (build, change) for p in phrasings(t)]
    assert any("on the branch release-2.1" in t for t in texts), texts
    assert any(t.endswith("from the branch release-2.1.") for t in texts), texts
    assert not any("for branch" in t or "optional body" in t for t in texts), texts


def test_one_named_branch_is_the_thing_switched_to_and_a_source_is_said_from() -> None:
    """'Switches branches' with one branch given: 'Switch to the branch release-2.1 ...', never 'Switch branches ...
    on branch release-2.1'; a `ref` described as "Source branch" is where the new branch comes from; a kind of
    branch (`branch_type`) is no branch a person names, and a `branchId` of a tool that is not about git is no git
    branch."""
    repo = {"type": "string", "description": "Path of the working copy"}
    switch = tool("switch_branch", "Switches branches", repo_path=repo, branch_name={"type": "string"})
    kinds = tool("vcs_branches", "List branches of a git working copy", repo_path=repo, branch_type={"type": "string"})
    fork = tool(
        "make_branch",
        "Create a new branch in a git repository",
        branch={"type": "string", "description": "Name of the new branch"},
        ref={"type": "string", "description": "Source branch or commit of the new branch"},
    )
    notes = tool("note_step", "Record one step of a plan.", branchId={"type": "string", "description": "Branch id"})
    texts = [p.text for t in (switch, kinds, fork, notes) for p in phrasings(t)]
    assert any(t.startswith("Switch to the branch release-2.1") for t in texts), texts
    assert any(t.endswith("from the branch main.") for t in texts), texts
    assert not any("branches release" in t or "on branch" in t for t in texts), texts
    assert not any("release-2.1" in t for p in phrasings(kinds) for t in [p.text]), texts
    assert not any("release-2.1" in p.text or "hotfix" in p.text for p in phrasings(notes))


def test_text_that_is_the_object_goes_after_it_and_a_listing_stays_plural() -> None:
    """'Type the text "..." into the field', 'Wait for the text "..." to appear', not '... saying "..."'; a new
    title is no title's name ('Update the title of the ticket'); 'List the commits ...' from one commit stays a
    listing."""
    typed = tool("type_text", "Type text into the focused field", text={"type": "string", "description": "Text"})
    wait = tool("wait_text", "Wait for text to appear on the page", text={"type": "string", "description": "Text"})
    retitle = tool(
        "retitle_ticket",
        "Update the title of a ticket",
        ticket_number={"type": "integer"},
        title={"type": "string", "description": "New title"},
    )
    commits = tool("list_commits", "List commits of a repository", sha={"type": "string", "description": "Start"})
    texts = [p.text for t in (typed, wait, retitle, commits) for p in phrasings(t)]
    assert 'Type the text "the 2.3.0 release is out" into the focused field.' in texts, texts
    assert any(t.startswith('Wait for the text "the 2.3.0 release is out" to appear') for t in texts), texts
    assert not any("saying" in t or 'title "' in t for t in texts), texts
    one_commit = re.compile(r"\blist the commit 9f3c2e1\b|\bthe commits 9f3c2e1", re.IGNORECASE)
    assert not any(one_commit.search(t) for t in texts), texts
    assert any(re.search(r"\bthe commits of a repository up to the commit 9f3c2e1\b", t) for t in texts), texts


def test_whom_a_thing_is_assigned_to_is_said_so() -> None:
    """'Create a new ticket assigned to dana in WEB', 'Assign the ticket T-1042 to dana', never '... for user dana'
    or 'the ticket of user dana'."""
    made = tool("create_ticket", "Create a new ticket.", project_key={"type": "string"}, assignee={"type": "string"})
    given = tool(
        "assign_ticket", "Assign a ticket to a user.", ticket_id={"type": "string"}, assignee={"type": "string"}
    )
    texts = [p.text for t in (made, given) for p in phrasings(t)]
    assert "Create a new ticket assigned to dana in WEB." in texts, texts
    assert any(t.startswith("Assign the ticket T-1042 to") and "dana" in t for t in texts), texts
    assert not any("for user" in t or "of user" in t or re.match(r"Assign .* assigned to", t) for t in texts), texts


def test_a_description_that_opens_with_qualities_is_asked_for_by_the_names_verb() -> None:
    """'Quick and thorough text search across all notebooks' names no action ('Would you quick the text search?');
    the name's verb does: 'Search text across all notebooks ...'."""
    finder = tool(
        "search_notes",
        "Quick and thorough text search across all notebooks.",
        query={"type": "string", "description": "Search query"},
    )
    texts = [p.text for p in phrasings(finder)]
    assert any(t.startswith("Search text across all notebooks") for t in texts), texts
    assert not any(re.search(r"\bquick(ed)?\b", t, re.IGNORECASE) for t in texts), texts


def test_a_thing_moved_goes_to_its_target() -> None:
    """'Move the issue WEB-142 to WEB', 'to the project WEB', never '... in WEB' or 'the another project WEB'."""
    spec = {"issue_key": {"type": "string"}, "target_project_key": {"type": "string"}}
    bare = tool("move_issue", "Move an issue.", **spec)
    told = tool("move_issue", "Move an issue to another project.", **spec)
    texts = [p.text for t in (bare, told) for p in phrasings(t)]
    assert "Move the issue WEB-142 to WEB." in texts, texts
    assert "Move the issue WEB-142 to the project WEB." in texts, texts
    assert not any((t.startswith("Move") and " in WEB" in t) or "another project" in t for t in texts), texts


def test_two_things_of_one_kind_are_said_together() -> None:
    """'Join the helpdesk tickets WEB-142 and WEB-150', never '... for first ticket WEB-142 for second ticket
    WEB-150' or 'the two helpdesk tickets WEB-142'."""
    spec = {
        "first_ticket_key": {"type": "string", "description": "Key of the first ticket, e.g. 'WEB-142'"},
        "second_ticket_key": {"type": "string", "description": "Key of the second ticket, e.g. 'WEB-150'"},
    }
    schema = {"type": "object", "properties": spec, "required": list(spec)}
    described = Tool(name="link_tickets", description="Join two helpdesk tickets with a link.", inputSchema=schema)
    bare = Tool(name="link_tickets", inputSchema=schema)
    texts = [p.text for t in (described, bare) for p in phrasings(t)]
    assert "Join the helpdesk tickets WEB-142 and WEB-150 with a link." in texts, texts
    assert "Would you join the helpdesk tickets WEB-142 and WEB-150?" in texts, texts
    assert any(t.endswith("for the tickets WEB-142 and WEB-150.") for t in texts), texts
    assert not any(re.search(r"ticket WEB-142 for|two helpdesk", t) for t in texts), texts


def test_a_clause_keeps_its_preposition_and_what_the_tool_could_do_is_not_asked() -> None:
    """'the rooms the guest is a guest of' keeps its last word and says the guest; 'with undo support' and 'from an
    optional template' say what the tool can do, not what the request asks."""
    rooms = tool("list_rooms", "List the chat rooms the user is a member of.", user={"type": "string"})
    page = tool(
        "edit_page", "Edit an existing wiki page with revision history support.", page_id={"type": "string"}
    )
    made = tool("make_board", "Creates a new board from an optional template", board_name={"type": "string"})
    switch = tool("toggle_alerts", "Toggle alert emails on or off")
    texts = [p.text for t in (rooms, page, made, switch) for p in phrasings(t)]
    assert "The alert emails still need to be toggled." in texts, texts
    assert any(re.search(r"the chat rooms the user \S+ is a member of\.$", t) for t in texts), texts
    assert not any(re.search(r"\bmember (?:for|\.)|support|optional|on or off", t) for t in texts), texts


def test_a_performed_action_is_the_names_verb_and_a_file_says_how_it_is_used() -> None:
    """'Perform scroll on a screen region' of scroll_region asks to scroll; what is uploaded comes from a file, a
    comment is made on one: never 'perform the scroll', '... of file /tmp/report.pdf'."""
    tap = tool("scroll_region", "Perform scroll on a screen region", region={"type": "string"})
    path = {"type": "string", "description": "Path of the file, e.g. '/tmp/report.pdf'"}
    schema = {"type": "object", "properties": {"ticket_id": {"type": "string"}, "file_path": path}}
    schema["required"] = ["ticket_id", "file_path"]
    upload = Tool(name="upload_attachment", description="Upload an attachment to a ticket.", inputSchema=schema)
    remark = Tool(name="add_review_comment", description="Add a review comment to a ticket.", inputSchema=schema)
    texts = [p.text for t in (tap, upload, remark) for p in phrasings(t)]
    assert any(t.startswith("Scroll on a screen region") for t in texts), texts
    assert any(t.endswith("from the file /tmp/report.pdf.") and "upload" in t.lower() for t in texts), texts
    assert any(re.search(r"comment .*on the file /tmp/report\.pdf", t) for t in texts), texts
    assert not any("perform" in t.lower() or "of file" in t or "for file" in t for t in texts), texts


def test_a_name_whose_object_opens_with_a_values_thing_says_whose_it_is() -> None:
    """get_ticket_notes with the ticket given: 'Get the notes of the ticket T-1042', not 'Get ticket notes for the
    ticket T-1042'; what add_ticket_note adds goes to the ticket."""
    notes = tool("get_ticket_notes", "Fetch the notes written on a ticket.", ticket_id={"type": "string"})
    added = tool("add_ticket_note", "Add a note.", ticket_id={"type": "string"}, body={"type": "string"})
    texts = [p.text for t in (notes, added) for p in phrasings(t)]
    assert "Get the notes of the ticket T-1042." in texts, texts
    assert any(t.startswith("Add a note to the ticket T-1042") for t in texts), texts
    assert not any(re.search(r"ticket notes? for the ticket|note of the ticket", t) for t in texts), texts


def test_a_participle_that_acts_on_what_follows_says_what_the_thing_is_of() -> None:
    """'Returns figures describing the cost of a query': the participle says what the figures are of ('the figures
    describing the cost of the query'), never 'the figures describing' alone; 'requests since loading' are
    requests."""
    figures = tool("query_cost", "Returns figures describing the cost of the given query")
    sent = tool("sent_requests", "Returns all network requests since loading the page")
    texts = [p.text for t in (figures, sent) for p in phrasings(t)]
    assert "Can you pull up the figures describing the cost of the query?" in texts, texts
    assert "Can you pull up the network requests?" in texts, texts
    assert not any(re.search(r"describing[?.,]| describing in|since loading[?.,]", t) for t in texts), texts


def test_a_pattern_is_matched_not_talked_about() -> None:
    """A search for "*.csv" reads 'Are there any exports matching "*.csv"?', never '... about "*.csv"'."""
    finder = tool(
        "search_exports",
        "Search exports by name pattern.",
        pattern={"type": "string", "description": "Glob pattern, e.g. '*.csv'"},
    )
    texts = [p.text for p in phrasings(finder)]
    assert any('matching "*.csv"' in t for t in texts), texts
    assert not any('about "*.csv"' in t for t in texts), texts


def test_a_thing_is_named_once_and_a_name_says_its_own_operation() -> None:
    """'Get note content of a particular note' reads 'the content of the note N-1042', not '... of a note' again;
    a value goes before a participle ('the board 1001 filtered by JQL'); manage_note_config_read reads the
    config."""
    content = tool("get_note", "Get note content of a particular note, by note ID", note_id={"type": "string"})
    board = tool(
        "get_board_cards", "Get all cards linked to a board filtered by a query.", board_id={"type": "string"}
    )
    managed = tool("manage_note_config_read", "Lists or reads notes.")
    texts = [p.text for t in (content, board, managed) for p in phrasings(t)]
    assert "Can you pull up the content of the note N-1042?" in texts, texts
    assert any("the board B-1042 filtered by a query" in t for t in texts), texts
    assert "Read the note config." in texts, texts
    assert not any(re.search(r"N-1042 of a note|filtered by a query for|^Manage", t) for t in texts), texts


def test_a_thing_without_a_plural_agrees_with_its_verb() -> None:
    """Code has no plural: 'Is there any code matching "parseConfig"?', not 'Are there any code ...'; countable
    things keep 'Are there any exports ...'."""
    code = tool("search_code", "Search code by text.", query={"type": "string", "description": "Text to find"})
    exports = tool("search_exports", "Search exports by text.", query={"type": "string", "description": "Text to find"})
    code_texts = [p.text for p in phrasings(code)]
    export_texts = [p.text for p in phrasings(exports)]
    assert any(t.startswith("Is there any code ") for t in code_texts), code_texts
    assert not any(t.startswith("Are there any code") for t in code_texts), code_texts
    assert any(t.startswith("Are there any exports ") for t in export_texts), export_texts


def test_a_pair_of_actions_performed_is_one_thing() -> None:
    """'Perform drag and drop between two lists' reads 'Perform a drag-and-drop between two lists.', never
    'Would you perform the drag?' (the second action cut off)."""
    mover = tool("move_card", "Perform drag and drop between two lists.")
    texts = [p.text for p in phrasings(mover)]
    assert any("drag-and-drop between two lists" in t for t in texts), texts
    assert not any(re.search(r"the drag\b(?!-)", t) for t in texts), texts


def test_a_name_of_several_words_is_quoted_unless_it_is_a_title() -> None:
    """'named "Sign in"', never 'named Sign in' (where does the name end?); 'named Web Team' stays as it is."""
    button = tool(
        "verify_button_visible", "Verify button is visible.",
        button_name={"type": "string", "description": "Accessible name of the button", "examples": ["Sign in"]},
    )
    board = tool(
        "get_boards", "Get boards by name.",
        board_name={"type": "string", "description": "Name of the board", "examples": ["Web Team"]},
    )
    button_texts = [p.text for p in phrasings(button)]
    board_texts = [p.text for p in phrasings(board)]
    assert any('named "Sign in"' in t for t in button_texts), button_texts
    assert not any("named Sign in" in t for t in button_texts), button_texts
    assert any("Web Team" in t for t in board_texts) and not any('"Web Team"' in t for t in board_texts), board_texts


def test_a_bare_name_names_the_thing_acted_on() -> None:
    """A "name" parameter ("Tag name.") names the object: 'the tag named needs-triage from the repository
    acme/webshop', never '... from the repository acme/webshop named needs-triage' (the repository is not named
    so); a thing another value already identifies keeps its name where it was."""
    getter = Tool(name="get_tag", description="Get a specific tag from a repository.", inputSchema={
        "type": "object",
        "properties": {
            "repo": {"type": "string", "description": "Repository name"},
            "name": {"type": "string", "description": "Tag name.", "examples": ["needs-triage"]},
        },
    })
    texts = [p.text for p in phrasings(getter)]
    assert any("tag named needs-triage from the repository" in t for t in texts), texts
    assert not any("acme/webshop named" in t for t in texts), texts


def test_two_things_a_request_is_for_are_said_once_and_a_thing_removed_comes_from_one() -> None:
    """'Create a customer request for the service desk 4 and the request type 23.', never '... for the service
    desk 4 for the request type 23.'; 'Remove a watcher from the issue WEB-142 for the user dana.'"""
    creator = tool(
        "create_customer_request", "Create a customer request.",
        service_desk_id={"type": "string", "description": "Service desk ID", "examples": ["4"]},
        request_type_id={"type": "string", "description": "Request type ID", "examples": ["23"]},
    )
    remover = tool(
        "remove_watcher", "Remove a watcher.",
        issue_key={"type": "string", "description": "Jira issue key"},
        username={"type": "string", "description": "User to remove"},
    )
    texts = [p.text for t in (creator, remover) for p in phrasings(t)]
    assert "Create a customer request for the service desk 4 and the request type 23." in texts, texts
    assert "Remove a watcher from the issue WEB-142 for the user dana." in texts, texts
    assert not any(re.search(r"for the [^,]+ for the ", t) for t in texts), texts


# A value said where it belongs: (tool, a request it must give, a pattern no request of it may match).
PLACED = [
    pytest.param(
        tool("get_file_contents", "Get the contents of a file or directory.",
             path={"type": "string", "description": "Path to file/directory"},
             branch={"type": "string", "description": "Branch to get contents from"}),
        "Can you pull up the file /srv/app/config.yaml on the branch release-2.1?", r"of the branch",
        id="a thing is read on a branch, not of it",
    ),
    pytest.param(
        tool("add_watcher", "Add a watcher.", issue_key={"type": "string", "description": "Jira issue key"},
             username={"type": "string", "description": "User to add"}),
        "Add a watcher to the issue WEB-142 for the user dana.", r"for the issue WEB-142|to the .* to the ",
        id="what is added goes to a thing, with one 'to'",
    ),
    pytest.param(
        tool("set_issue_fields", "Set issue field values for an issue.",
             issue_number={"type": "integer", "description": "The issue number"}),
        "Set issue field values for the issue #142.", r"for an issue",
        id="a value goes on the thing, not on a word that modifies another",
    ),
    pytest.param(
        tool("list_commits", "List commits of a branch.",
             sha={"type": "string", "description": "Commit SHA to start listing from"}),
        "List commits of a branch up to the commit 9f3c2e1.", r"for the commit",
        id="a listing given one of its things reads up to it",
    ),
    pytest.param(
        tool("console_messages", "Returns all console messages."), "Get all console messages.", r"^Return",
        id="a request asks to get what a tool returns",
    ),
]


@pytest.mark.parametrize(("described", "wanted", "unwanted"), PLACED)
def test_a_value_is_said_where_it_belongs(described: Tool, wanted: str, unwanted: str) -> None:
    texts = [p.text for p in phrasings(described)]
    assert wanted in texts, texts
    assert not any(re.search(unwanted, t) for t in texts), texts


@pytest.mark.parametrize(
    ("name", "description", "params", "wanted", "unwanted"),
    [
        # A listing counts its things as the description does.
        ("search_member", "Search wiki members by a text query.", {"query": {"type": "string"}},
         "Search members", "Search member "),
        # The name's word only qualifies what the description lists.
        ("chart_list", "List all the Chart deployments in a namespace.", {"namespace": {"type": "string"}},
         "List Chart deployments", "List chart in"),
        # One thing named by a value: that one, not all of them.
        ("widgets_remove", "Remove a widget by name.",
         {"name": {"type": "string", "description": "Name of the widget"}},
         "Remove the widget named", "Remove widgets named"),
    ],
)
def test_requests_from_the_name_count_things_as_the_description_does(
    name: str, description: str, params: dict[str, Any], wanted: str, unwanted: str
) -> None:
    texts = [p.text for p in phrasings(Tool(name=name, description=description,
                                            inputSchema={"type": "object", "properties": params}))]
    assert any(t.startswith(wanted) for t in texts), texts
    assert not any(unwanted in t for t in texts), texts


def test_a_genitive_of_a_word_that_says_which_takes_no_article() -> None:
    """"today's lunch menu", never "the today's lunch menu"; "the project's milestones" keeps the project's "the"."""
    menu = tool("get_lunch_menu", "Get today's lunch menu of the canteen.")
    milestones = tool("get_milestones", "Get the project's milestones.")
    menus = [p.text for p in phrasings(menu)]
    assert any(t.startswith("Can you pull up today's lunch menu") for t in menus), menus
    assert not any("the today's" in t for t in menus), menus
    assert any("the project's milestones" in t and not t.startswith("Get") for t in phrasings_of(milestones)), (
        phrasings_of(milestones)
    )


def phrasings_of(t: Tool) -> list[str]:
    return [p.text for p in phrasings(t)]


def test_a_search_text_after_a_search_for_is_matched_not_for() -> None:
    """"Search for recipes matching "lentil soup"", not "Search for recipes for "lentil soup""."""
    recipes = tool("find_recipes", "Search for recipes in the cookbook.", query={"type": "string"})
    texts = phrasings_of(recipes)
    assert any(t.startswith("Search for recipes") and ' matching "' in t for t in texts), texts
    assert not any(re.search(r'\bfor\b.* for "', t) for t in texts), texts


def test_a_search_is_about_what_holds_text_and_matches_the_rest() -> None:
    frame = 'Are there any {objs} {about_any} "{query}"?'
    people = _plan(obj=_object("the", "members"), thing="member", objs="members", many=True, query="dana")
    notes = _plan(
        obj=_object("the", "notes"), thing="note", objs="notes", many=True, query="visa renewal", topic=True
    )
    assert fill(frame, people) == 'Are there any members matching "dana"?'
    assert fill(frame, notes) == 'Are there any notes about "visa renewal"?'
    members = tool("find_members", "Search members of the club.", query={"type": "string", "examples": ["dana"]})
    assert 'Are there any members matching "dana"?' in phrasings_of(members), phrasings_of(members)


def test_a_verb_with_un_or_re_before_a_known_one_is_inflected_as_that_one() -> None:
    from app.audit.suite.word_forms import inflections

    assert inflections("unstar", "VBN") == ("unstarred",)  # lemminflect alone guesses 'unstared'
    assert inflections("refit", "VBN") == ("refitted",)
    article = tool("unstar_article", "Unstar an article in the reader.", article_id={"type": "string"})
    assert any(t.endswith("still needs to be unstarred.") for t in phrasings_of(article)), phrasings_of(article)


def test_a_preposition_between_verb_and_object_stays_with_the_verb() -> None:
    """"Tap on a button" asks to tap on it: frames say "tap on the button", and no passive ("the button still needs
    to be tapped") that would ask for another thing."""
    tap = tool("tap_button", "Tap on a button in the kiosk app.", button_label={"type": "string"})
    texts = phrasings_of(tap)
    assert any("you tap on the button" in t for t in texts), texts
    assert not any(re.search(r"\btap the\b|\btapped\b", t) for t in texts), texts


def test_an_id_the_request_gives_and_a_shouted_second_action_are_not_said() -> None:
    recipe = tool("get_recipe", "Fetch a recipe from the cookbook, by recipe_id.", recipe_id={"type": "string"})
    shelf = tool("shelf_books", "List the books on a shelf OR removes a book from it.", shelf={"type": "string"})
    assert not any("recipe_id" in t or t.endswith(",.") for t in phrasings_of(recipe)), phrasings_of(recipe)
    assert phrasings_of(shelf) and not any("removes" in t for t in phrasings_of(shelf)), phrasings_of(shelf)


def test_the_plan_decides_the_determiner_of_the_object() -> None:
    today = _plan(obj=_object("", "today's lunch menu"), thing="lunch menu", objs="lunch menus")
    mine = _plan(obj=_object("my", "chat profile"), thing="chat profile", objs="chat profiles")
    assert fill("Can you pull up {obj}?", today) == "Can you pull up today's lunch menu?"
    assert fill("{obj} {be} out of date.", mine) == "my chat profile is out of date."


def test_what_is_added_says_what_it_says() -> None:
    """A frame that adds a note gives its text ('add the note saying "..." to the order'), never a bare "the note"
    the request does not give; a "to" inside the quoted text is not where the sentence splits."""
    note = tool(
        "add_order_note",
        "Add a note to an order.",
        order_id={"type": "string"},
        text={"type": "string", "description": "Text of the note.", "examples": ["ship it to Porto"]},
    )
    texts = [t for t in phrasings_of(note) if not t.startswith("Add ")]
    assert texts and all('saying "ship it to Porto"' in t for t in texts if " note" in t), texts
    assert not any('"ship it still' in t or 'needs to be added to Porto' in t for t in texts), texts


def test_a_state_is_said_before_the_thing_it_describes_but_not_when_it_is_set() -> None:
    """"List open orders", not "List orders with status open"; an update sets the status, so it keeps saying it."""
    listing = tool(
        "list_orders", "List orders of the shop.", status={"type": "string", "enum": ["open", "shipped", "returned"]}
    )
    update = tool(
        "update_order",
        "Update an order of the shop.",
        order_id={"type": "string"},
        status={"type": "string", "enum": ["open", "shipped"]},
    )
    assert "List open orders of the shop." in phrasings_of(listing), phrasings_of(listing)
    assert not any(re.search(r"\bopen order\b", t) for t in phrasings_of(update)), phrasings_of(update)


def test_where_the_tool_runs_anyway_is_not_asked_for() -> None:
    """"List the queues in the current workspace" reads "List the queues": the current workspace is where the
    tool runs, not something a person asks for."""
    queues = tool("list_queues", "List the message queues in the current workspace.")
    texts = phrasings_of(queues)
    assert "List the message queues." in texts and not any("current workspace" in t for t in texts), texts


def test_the_user_a_description_speaks_of_is_the_person_asking_unless_a_parameter_names_one() -> None:
    own = tool("list_bookmarks", "List the bookmarks in the user's reading list.")
    theirs = tool(
        "list_member_bookmarks", "List the bookmarks in the user's reading list.", username={"type": "string"}
    )
    assert "List the bookmarks in my reading list." in phrasings_of(own), phrasings_of(own)
    assert not any(" my " in t for t in phrasings_of(theirs)), phrasings_of(theirs)


def test_a_named_thing_is_the_one_unless_the_request_makes_it() -> None:
    """"Delete the queue worker named billing", not "a queue worker named billing"; "Create a queue worker named
    billing" makes a new one; a worker named after a preposition is the one ("Run a job on the queue worker ...")."""
    delete = tool("delete_worker", "Delete a queue worker of the cluster.", worker_name={"type": "string"})
    create = tool("create_worker", "Create a queue worker in the cluster.", worker_name={"type": "string"})
    run = tool("run_job", "Run a job on a queue worker.", worker_name={"type": "string"})
    assert any(re.match(r"Delete the queue worker named \S+", t) for t in phrasings_of(delete)), phrasings_of(delete)
    assert any(re.match(r"Create a queue worker named \S+", t) for t in phrasings_of(create)), phrasings_of(create)
    assert any(re.match(r"Run a job on the queue worker named \S+", t) for t in phrasings_of(run)), phrasings_of(run)
    take = tool("take_snapshot", "Take a snapshot of the volume.", snapshot_name={"type": "string"})
    assert any(re.match(r"Take a snapshot named \S+", t) for t in phrasings_of(take)), phrasings_of(take)


def test_a_thing_the_request_brings_into_being_is_a_thing_after_the_verb() -> None:
    note = tool(
        "add_order_note",
        "Add a note to an order.",
        order_id={"type": "string"},
        text={"type": "string", "description": "Text of the note.", "examples": ["ship it to Porto"]},
    )
    texts = phrasings_of(note)
    assert 'Could you add a note saying "ship it to Porto" to the order O-1042 for me?' in texts, texts
    assert 'The note saying "ship it to Porto" still needs to be added to the order O-1042.' in texts, texts
    plan = _plan(obj=_object("the", "upload note"), thing="upload note", objs="upload notes", new=True)
    assert fill("Could you add {obj}?", plan) == "Could you add an upload note?"


def test_a_setting_whose_value_is_an_adjective_is_said_as_one() -> None:
    """"List the alerts with high priority", not "with priority high"; an update keeps the value it sets last."""
    listing = tool(
        "list_alerts", "List the alerts of the pager.", priority={"type": "string", "enum": ["high", "normal"]}
    )
    texts = phrasings_of(listing)
    assert any("with high priority" in t for t in texts) and not any("priority high" in t for t in texts), texts


def test_a_message_sent_says_what_it_says_and_its_quote_ends_the_request() -> None:
    send = tool(
        "send_sms",
        "Send a text message to a phone number.",
        phone_number={"type": "string", "examples": ["+351 912 345 678"]},
        body={"type": "string", "description": "Text of the message.", "examples": ["Running late."]},
    )
    texts = phrasings_of(send)
    assert any('a text message saying "Running late."' in t for t in texts), texts
    assert not any(t.endswith('."' + ".") for t in texts), texts
    ends = _plan(obj=_object("the", 'note saying "Done."'), thing="note", objs="notes", verb="add")
    assert fill("I need you to {verb} {obj}{where}.", ends) == 'I need you to add the note saying "Done."'


def test_a_value_says_which_of_two_alternatives_offered_before_it() -> None:
    """"to a new shelf or library" given the library: "to the library L-7", not "to a new shelf or library L-7"."""
    move = tool(
        "move_book",
        "Move a book to a new shelf or library.",
        book_id={"type": "string"},
        library_id={"type": "string", "examples": ["L-7"]},
    )
    texts = phrasings_of(move)
    assert any("to the library L-7" in t for t in texts), texts
    assert not any("shelf or library" in t for t in texts), texts


def test_alternatives_of_a_modifier_stay() -> None:
    """"an image or audio file" given the path: the file is either kind, "the audio file" would say one."""
    media = tool("read_media", "Read an image or audio file.", path={"type": "string"})
    assert not any(re.search(r"\bthe audio file\b", t) for t in phrasings_of(media)), phrasings_of(media)


def test_how_many_and_how_the_tool_does_it_is_not_asked_for() -> None:
    """"Archive multiple tickets in a single operation without affecting the rest" reads "Archive tickets"."""
    archive = tool(
        "archive_tickets",
        "Archive multiple tickets in a single operation without affecting the rest of the queue.",
        queue={"type": "string"},
    )
    texts = phrasings_of(archive)
    assert texts and not any(re.search(r"multiple|single operation|without affecting", t) for t in texts), texts
