"""Where an object phrase names a thing, and the value placed there as a typed noun phrase (noun_phrase.py and
placing.place), on phrases written for these tests."""

from __future__ import annotations

import re

from app.audit.suite.explicit import determined
from app.audit.suite.frames import frame_plan
from app.audit.suite.mentions import mention_of, with_name
from app.audit.suite.noun_phrase import Noun, Phrase, Slot, find, heads
from app.audit.suite.placed_words import described
from app.audit.suite.placing import place, with_values
from app.audit.suite.reading import read_tool
from app.audit.suite.tool_requests import phrasings
from app.audit.suite.values import Value, tool_values

from .helpers import tool


def _ref(noun: str, text: str, param: str = "id") -> Value:
    return Value(param=param, text=text, role="ref", noun=noun, source="name")


def test_find_reads_determiners_modifiers_and_the_head() -> None:
    phrase = Phrase.of("the shared parking permit of a tenant")
    found = next(find(phrase, "permit"))
    assert (found.start, found.modifiers, found.noun, found.end) == (0, 1, 3, 4)
    assert heads(phrase, found)


def test_a_noun_that_modifies_the_next_is_not_a_head() -> None:
    phrase = Phrase.of("the garage door remotes")
    assert not heads(phrase, next(find(phrase, "garage")))
    assert heads(phrase, next(find(phrase, "remotes")))


def test_a_participle_after_the_noun_describes_it() -> None:
    phrase = Phrase.of("a locker reserved by a member")
    assert heads(phrase, next(find(phrase, "locker")))


def test_a_noun_of_two_words_is_found_written_with_a_hyphen() -> None:
    phrase = Phrase.of("a sub-ledger entry for a ledger")
    assert next(find(phrase, "sub ledger")).noun == 1


def test_a_value_already_said_after_a_noun_is_not_found_again() -> None:
    assert list(find(Phrase.of("the locker L-17 of the gym"), "locker")) == []


def test_a_naming_word_after_the_noun_goes_with_it() -> None:
    phrase = Phrase.of("the locker number for a member")
    found = next(find(phrase, "locker"))
    assert found.end == found.noun_end + 1


def test_a_value_becomes_the_noun_phrase_of_its_thing() -> None:
    phrase, done = place(Phrase.of("the bookings of a tenant in a building"), [_ref("tenant", "t-77")])
    assert str(phrase) == "the bookings of the tenant t-77 in a building"
    assert phrase.nouns() == [Noun("the", (), "tenant", "t-77")]
    assert len(done) == 1


def test_a_genitive_keeps_its_ending_after_the_value() -> None:
    phrase, _ = place(Phrase.of("a tenant's parking permits"), [_ref("tenant", "t-77")])
    assert str(phrase) == "the tenant t-77's parking permits"


def test_the_alternative_a_value_rules_out_goes() -> None:
    phrase, _ = place(Phrase.of("a locker or cabinet in a gym"), [_ref("locker", "L-17")])
    assert str(phrase) == "the locker L-17 in a gym"


def test_two_values_of_one_kind_are_said_together() -> None:
    values = [_ref("locker", "L-17", "from_locker"), _ref("locker", "L-18", "to_locker")]
    phrase, done = place(Phrase.of("a swap between two gym lockers"), values)
    assert str(phrase) == "a swap between the gym lockers L-17 and L-18"
    assert len(done) == 2


def test_a_value_after_the_object_is_a_typed_slot() -> None:
    slot = mention_of(_ref("locker", "L-17"))
    assert slot == Slot("ref", "for", Noun("the", (), "locker", "L-17"))
    assert str(slot) == "for the locker L-17"
    scope = Value(param="gym", text="riverside", role="scope", noun="gym", source="examples")
    assert mention_of(scope) == Slot("scope", "in", "riverside")


def test_slots_of_one_kind_are_said_together_and_a_lone_to_is_a_place() -> None:
    values = [_ref("locker", "L-17", "first_locker"), _ref("locker", "L-18", "second_locker")]
    assert str(with_values("the swap", "swap", values)) == "the swap for the lockers L-17 and L-18"
    to = Value(param="to_gym", text="riverside", role="scope", noun="", source="examples")
    assert str(with_values("the swap", "swap", [to])) == "the swap in riverside"
    assert str(with_values("the locker", "locker", [to], verb="move")) == "the locker to riverside"


def test_a_frame_object_is_headed_by_its_noun_phrase() -> None:
    reserve = tool(
        "hold_locker",
        "Holds a gym locker for a member.",
        locker_id={"type": "string", "description": "The locker to hold.", "examples": ["L-17"]},
    )
    plan = frame_plan(read_tool(reserve), tool_values(reserve))
    assert plan.obj is not None
    head = plan.obj.items[0]
    assert isinstance(head, Noun)
    assert (head.determiner, head.modifiers, head.head, head.value) == ("the", ("gym",), "locker", "L-17")


def test_a_to_inside_quoted_text_does_not_split_the_object() -> None:
    said = Slot("content", "saying", '"the class moved to Thursday"')
    phrase = Phrase((Noun("the", (), "notice"), said, Slot("ref", "to", Noun("the", (), "member", "dana"))))
    assert phrase.complement() == 2
    assert Phrase.of("the ranges to access the lockers").complement() is None
    assert Phrase.of("the locker L-17 assigned to dana").complement() is None


def test_one_thing_a_request_names_takes_a_determiner() -> None:
    assert str(determined(Phrase.of("locker for dana"), "locker", "open")) == "the locker for dana"
    assert str(determined(Phrase.of("locker in riverside"), "locker", "create")) == "a locker in riverside"
    assert str(determined(Phrase.of("entry pass for dana"), "entry pass", "add")) == "an entry pass for dana"
    named = Phrase((Noun("", ("gym",), "locker", "named blue"), "in", "riverside"))
    assert str(determined(named, "gym locker", "inspect")) == "the gym locker named blue in riverside"


def test_what_a_request_reads_is_the_one_there_already() -> None:
    assert str(determined(Phrase.of("opening time"), "opening time", "get")) == "the opening time"
    assert str(determined(Phrase.of("gym occupancy status"), "gym occupancy status", "read")) == (
        "the gym occupancy status"
    )


def test_what_holds_the_things_asked_for_is_the_one_that_holds_them() -> None:
    listed = determined(Phrase.of("list of lockers in riverside"), "lockers", "get")
    assert str(listed) == "the list of lockers in riverside"
    assert str(determined(Phrase.of("summary of the locker L-17"), "locker", "get")) == "the summary of the locker L-17"
    assert str(determined(Phrase.of("details of the locker L-17"), "locker", "get")) == "details of the locker L-17"
    assert str(determined(Phrase.of("lockers of the gym"), "lockers", "get")) == "lockers of the gym"


def test_things_that_take_no_determiner_keep_none() -> None:
    assert str(determined(Phrase.of("lockers in riverside"), "lockers", "list")) == "lockers in riverside"
    assert str(determined(Phrase.of("gym drill"), "gym drill", "simulate")) == "gym drill"  # nothing more said
    assert str(determined(Phrase.of("timetable"), "timetable", "get")) == "timetable"  # one word: too little to ask
    assert str(determined(Phrase.of("information for dana"), "information", "get")) == "information for dana"
    assert str(determined(Phrase.of("today's timetable in riverside"), "today's timetable", "get")).startswith("today")
    assert str(determined(Phrase.of("Zumba in riverside"), "Zumba", "book")) == "Zumba in riverside"
    assert str(determined(Phrase.of("the locker"), "locker", "open")) == "the locker"
    assert str(determined(Phrase.of("locker to riverside"), "locker", "move")) == "the locker to riverside"


def test_a_photo_taken_is_a_new_one_and_a_remark_is_made_on_a_thing() -> None:
    snap = tool("take_photo", "Take a photo of the front door camera.")
    texts = [p.text for p in phrasings(snap)]
    assert "Take a photo of the front door camera." in texts, texts
    assert not any("take the photo" in t.lower() for t in texts), texts
    remark = tool("comment_post", "Comment a post in the club forum.", text={"type": "string"})
    texts = [p.text for p in phrasings(remark)]
    assert any(t.startswith("Comment on a post in the club forum") for t in texts), texts
    assert not any(re.search(r"comment (?:a|the) post", t, re.IGNORECASE) for t in texts), texts


def test_a_thing_taken_away_from_another_is_not_said_to_be_gone() -> None:
    leave = tool(
        "remove_class_member",
        "Remove a member from a yoga class.",
        member={"type": "string", "description": "The member to remove.", "examples": ["dana"]},
        class_id={"type": "string", "description": "The yoga class.", "examples": ["Y-12"]},
    )
    texts = [p.text for p in phrasings(leave)]
    assert not any("no longer needed" in t or t.startswith("Get rid of") for t in texts), texts
    assert any(re.search(r"still needs to be removed from the yoga class Y-12", t) for t in texts), texts


def test_a_pull_request_after_or_is_a_thing_not_a_second_action() -> None:
    react = tool("add_note_reaction", "Add a reaction to an issue or pull request note.")
    assert read_tool(react).object == "a reaction to an issue or pull request note"
    two = tool("open_or_pull", "Open a door or pull the handle.")
    assert read_tool(two).object == "a door"


def test_alternatives_of_a_modifier_share_the_phrase_determiner() -> None:
    phrase, _ = place(Phrase.of("a badge for a member or guest pass"), [_ref("pass", "P-9")], later=True)
    assert str(phrase) == "a badge for the member or guest pass P-9"


def test_a_thing_after_the_verbs_preposition_is_there_already() -> None:
    said = determined(Phrase.of("to waiting list in riverside"), "to waiting list", "add")
    assert str(said) == "to the waiting list in riverside"


def test_a_thing_added_to_a_named_one_is_a_new_one() -> None:
    note = tool(
        "add_booking_note",
        "Attach text to a booking.",
        booking_id={"type": "string", "description": "The booking.", "examples": ["B-77"]},
    )
    texts = [p.text for p in phrasings(note)]
    assert "Add a note to the booking B-77." in texts, texts
    assert not any("the note to the booking" in t for t in texts), texts


def test_a_new_thing_given_its_name_stays_a_new_one() -> None:
    phrase, _ = place(Phrase.of("a new locker in a gym"), [_ref("locker", "L-20")], later=True)
    assert str(phrase) == "a new locker L-20 in a gym"
    phrase, _ = place(Phrase.of("a spare locker in a gym"), [_ref("locker", "L-20")], later=True)
    assert str(phrase) == "the spare locker L-20 in a gym"


def test_what_a_request_makes_is_not_a_thing_it_already_named() -> None:
    photos = tool("upload_photos", "Upload photos to the club gallery.")
    texts = [p.text for p in phrasings(photos)]
    assert "Could you upload photos to the club gallery for me?" in texts, texts
    assert not any("upload the photos" in t for t in texts), texts
    booking = tool("book_court", "Book a tennis court.", **{"court": {"type": "string", "examples": ["C-3"]}})
    plan = frame_plan(read_tool(booking), tool_values(booking))
    assert plan.new is False  # the court C-3 exists: it is named


def test_an_item_of_a_thing_is_that_thing_once_its_value_is_given() -> None:
    phrase, _ = place(Phrase.of("the notes for a studio booking item"), [_ref("booking", "B-1")], later=True)
    assert str(phrase) == "the notes for the studio booking B-1"


def test_the_thing_a_request_is_about_comes_before_the_place_it_is_in() -> None:
    gym = Value(param="gym", text="riverside", role="scope", noun="gym", source="examples")
    member = _ref("member", "dana", "member_id")
    assert str(with_values("the badge", "badge", [gym, member])) == "the badge for the member dana in riverside"
    when = Value(param="since", text="2026-02-01", role="other", noun="date", source="format")
    assert str(with_values("visits", "visits", [gym, when])) == "visits in riverside since 2026-02-01"


def test_a_general_word_given_a_named_thing_says_which_thing() -> None:
    phrase, _ = place(Phrase.of("tags on wiki content"), [_ref("page", "W-5", "page_id")], later=True)
    assert str(phrase) == "tags on the wiki page W-5"
    # Not when the thing is said already: "the content of a locker" given the locker keeps its content.
    phrase, _ = place(Phrase.of("the content of a locker"), [_ref("locker", "L-17")], later=True)
    assert str(phrase) == "the content of the locker L-17"


def test_a_names_words_are_spelled_as_the_description_writes_them() -> None:
    assign = tool(
        "assign_robomop_to_room",
        "Assign RoboMop to a room of the office.",
        room={"type": "string", "description": "The room.", "examples": ["R-12"]},
    )
    texts = [p.text for p in phrasings(assign)]
    assert "Assign RoboMop to room." in texts, texts  # from the name's words
    assert not any("robomop" in t for t in texts), texts


def test_the_thing_of_a_names_object_is_the_words_before_what_is_said_of_it() -> None:
    said = determined(Phrase.of("locker for the member dana"), "locker for member", "get")
    assert str(said) == "the locker for the member dana"
    said = determined(Phrase.of("over door handle in hall"), "door handle", "hover")
    assert str(said) == "over the door handle in hall"


def test_a_name_the_description_says_without_an_article_takes_none() -> None:
    assign = tool(
        "assign_robomop",
        "Assign RoboMop to a room of the office.",
        room_id={"type": "string", "description": "The room.", "examples": ["R-12"]},
    )
    texts = [p.text for p in phrasings(assign)]
    assert any(t.startswith("Could you assign RoboMop to") for t in texts), texts
    assert not any("the RoboMop" in t for t in texts), texts


def test_a_frame_plan_without_a_thing_to_name_has_no_object() -> None:
    """A head that names no thing ("locker once it") given a bare id: no object, and no crash."""
    archive = tool("archive_locker", "Archive a locker once it is empty.", id={"type": "string", "description": "Id."})
    plan = frame_plan(read_tool(archive), tool_values(archive))
    assert plan.obj is None
    assert phrasings(archive)


def test_a_value_is_said_where_the_object_leaves_its_thing_open() -> None:
    """'assigned to a member' and the assignee dana: 'assigned to dana', not '... to a member assigned to dana'."""
    assignee = {"type": "string", "description": "Login of the member the locker is assigned to.", "examples": ["dana"]}
    finder = tool("find_lockers", "Find the lockers assigned to a member.", assignee=assignee)
    texts = [p.text for p in phrasings(finder)]
    assert "Find the lockers assigned to dana." in texts, texts
    assert not any("a member" in t for t in texts), texts


def test_a_frame_says_whom_things_are_assigned_to() -> None:
    assignee = {"type": "string", "description": "Login of the member the locker is assigned to.", "examples": ["dana"]}
    finder = tool("find_lockers", "Find lockers.", assignee=assignee)
    plan = frame_plan(read_tool(finder), tool_values(finder))
    assert str(plan.obj) == "the lockers assigned to dana"


def test_work_comes_from_a_source_branch_goes_into_a_target_and_is_done_on_a_branch() -> None:
    def said(param: str) -> str:
        value = Value(param=param, text="spring-rota", role="ref", noun="branch", source="examples")
        return str(mention_of(value, "compare", "timetable"))

    assert said("source_branch") == "from the branch spring-rota"
    assert said("target_branch") == "into the branch spring-rota"
    assert said("branch") == "on the branch spring-rota"


def test_a_state_is_said_before_its_thing_but_not_before_the_setting_itself() -> None:
    state = Value(param="state", text="open", role="other", noun="state", source="enum")
    listed = described(Phrase.of("the lockers in riverside"), "lockers", state, "list")
    assert str(listed) == "the open lockers in riverside"
    assert described(Phrase.of("the status of the locker"), "status", state, "get") is None
    assert described(Phrase.of("the lockers in riverside"), "gyms", state, "list") is None


def test_a_name_said_before_a_possessive_stays_with_its_owner() -> None:
    member = Value(param="member_name", text="dana", role="ref", noun="", named="member", source="examples")
    assert str(with_name(member, Phrase.of("the member's locker"))) == "the member dana's locker"


def test_a_bare_thing_after_a_preposition_of_place_is_the_one_there() -> None:
    def read(description: str) -> str:
        return read_tool(tool("pin_note", description)).object

    assert read("Pin a note onto board.") == "a note onto the board"
    assert read("Paste the snippet into open editor or terminal.") == "the snippet into the open editor or terminal"
    assert read("Copy files from folders to a drive.") == "files from folders to a drive"  # plural: none
    assert read("Create lockers in bulk.") == "lockers in bulk"  # "in" takes bare nouns in set phrases
    assert read("Wait for the bell to ring.") == "for the bell to ring"
    assert read("Build the image from scratch.") == "the image from scratch"  # set phrases of English
    assert read("Scroll the element into view.") == "the element into view"
    assert read("Run the backup at night.") == "the backup at night"


def test_a_frame_says_a_place_where_the_object_leaves_it_open() -> None:
    """'in a location' and the city Lisbon: 'the opening hours in Lisbon', not '... in a location in Lisbon'."""
    city = {"type": "string", "description": "City to look in.", "examples": ["Lisbon"]}
    hours = tool("get_opening_hours", "Get the opening hours in a location.", city=city)
    plan = frame_plan(read_tool(hours), tool_values(hours))
    assert (str(plan.obj), plan.where) == ("the opening hours in Lisbon", "")


def test_two_things_joined_by_and_are_counted_as_many() -> None:
    def many(description: str) -> bool:
        planner = tool("plan_trip", description)
        return frame_plan(read_tool(planner), tool_values(planner)).many

    assert many("Calculate the route and fare for a trip.")
    assert not many("Calculate the quick and cheap route for a trip.")
