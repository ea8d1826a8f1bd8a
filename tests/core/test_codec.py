"""`companion.codec`: typed actions and events to JSON and back, the one place the two meet.

Its promise (codec.py): "Checked on the way in: every field's type (str, int, float, bool, None, ``Literal[...]``,
``tuple[...]``, ``Mapping[str, ...]``, nested frozen dataclasses), names of seated players (`Seat`), missing and
unknown keys. Each refusal is one sentence naming the field, raised as `RuleError`." A small vocabulary of its
own, declared here as a game declares one, meets every kind of field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from companion import codec
from companion.game import Action, Event, GameView, Outcome, RuleError, Seat, Termination

SEATS = ("Ann", "Bo")


@dataclass(frozen=True)
class Square:
    row: int
    col: int


@dataclass(frozen=True)
class Place(Action):
    type = "place"
    by: Seat
    at: Square
    shade: Literal["light", "dark"] = "light"
    path: tuple[Square, ...] = ()
    pair: tuple[int, str] = (0, "")
    counts: Mapping[str, int] = field(default_factory=dict)
    weight: float = 1.0
    final: bool = False
    note: str | None = codec.optional()
    nothing: None = None
    start: str = codec.key("from", "")
    extra: Any = None


@dataclass(frozen=True)
class Kept(Event):
    type = "kept"
    by: Seat
    what: str = codec.optional("", key="kind")
    outcome: Outcome | None = None


def read(data: dict[str, Any], **how: Any) -> Place:
    return codec.from_json(Place, data, seats=SEATS, title="Squares", **how)


def test_every_kind_of_field_round_trips_through_json():
    """An action with a nested dataclass, a tuple of them, a fixed pair, a mapping, a float, a bool, a literal,
    a renamed key and an optional one: written as JSON `json.dumps` takes, read back as the same action."""
    full = Place(
        "Ann", Square(1, 2), "dark", (Square(0, 0), Square(0, 1)), (3, "x"), {"Ann": 2}, 2.5, True, "n", None, "a1", [1]
    )
    data = codec.to_json(full)
    assert data == {
        "type": "place", "by": "Ann", "at": {"row": 1, "col": 2}, "shade": "dark",
        "path": [{"row": 0, "col": 0}, {"row": 0, "col": 1}], "pair": [3, "x"], "counts": {"Ann": 2},
        "weight": 2.5, "final": True, "note": "n", "nothing": None, "from": "a1", "extra": [1],
    }  # fmt: skip
    assert json.loads(json.dumps(data)) == data
    assert read(data) == full
    assert read({"type": "place", "by": "Bo", "at": {"row": 0, "col": 0}, "weight": 3}).weight == 3.0


def test_an_optional_field_at_its_default_is_left_out():
    assert "note" not in codec.to_json(Place("Ann", Square(0, 0)))
    assert codec.to_json(Kept("Bo")) == {"type": "kept", "by": "Bo", "outcome": None}
    assert codec.to_json(Kept("Bo", "a coin")) == {"type": "kept", "by": "Bo", "kind": "a coin", "outcome": None}


def test_an_outcome_is_written_as_a_view_shows_it_and_a_plain_value_as_it_is():
    """A view's outcome carries winners, reason and detail; the termination is the store's (`to_stored`)."""
    won = Outcome(("Ann",), "five in a row")
    assert codec.to_json(Kept("Ann", outcome=won))["outcome"] == {
        "winners": ["Ann"], "reason": "five in a row", "detail": ""
    }  # fmt: skip
    assert codec.plain(Termination.TIE) is Termination.TIE  # an enum member is its word in JSON already
    assert codec.plain(({"a": (1, 2)}, [Square(1, 1)])) == [{"a": [1, 2]}, [{"row": 1, "col": 1}]]
    assert codec.plain(Square) is Square  # a class is no value to write out


def test_a_view_as_json_at_the_edges():
    """A typed view goes through `plain`; a game whose views are dicts (a bench or test game) has its dict copied."""
    assert codec.view_json(GameView(over=True, outcome=Outcome((), "tie"))) == {
        "over": True, "outcome": {"winners": [], "reason": "tie", "detail": ""}
    }  # fmt: skip
    mine = {"over": False}
    assert codec.view_json(mine) == mine and codec.view_json(mine) is not mine


AT = {"row": 0, "col": 0}


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ({"by": "Cy", "at": AT}, '"by" must name a player at the table (Ann, Bo).'),
        ({"by": "Ann"}, 'Squares\'s "place" needs "at".'),
        ({"by": "Ann", "at": AT, "colour": "red"}, 'Squares\'s "place" has no "colour"; its fields are "by", "at", '),
        ({"by": "Ann", "at": AT, "shade": "grey"}, '"shade" must be "light" or "dark"; it is \'grey\'.'),
        ({"by": "Ann", "at": "a1"}, "\"at\" must be an object; it is 'a1'."),
        ({"by": "Ann", "at": {"row": 0}}, 'Squares\'s Square needs "col".'),
        ({"by": "Ann", "at": AT, "path": "a1"}, "\"path\" must be a list; it is 'a1'."),
        ({"by": "Ann", "at": AT, "pair": [1]}, '"pair" must be a list of 2; it is [1].'),
        ({"by": "Ann", "at": AT, "counts": [1]}, '"counts" must be an object; it is [1].'),
        ({"by": "Ann", "at": AT, "counts": {"Ann": "2"}}, "\"counts\" must be a whole number; it is '2'."),
        ({"by": "Ann", "at": {"row": True, "col": 0}}, '"row" must be a whole number; it is True.'),
        ({"by": "Ann", "at": AT, "weight": "1"}, "\"weight\" must be a number; it is '1'."),
        ({"by": "Ann", "at": AT, "weight": False}, '"weight" must be a number; it is False.'),
        ({"by": "Ann", "at": AT, "final": 1}, '"final" must be true or false; it is 1.'),
        ({"by": 7, "at": AT}, '"by" must be text; it is 7.'),
        ({"by": "Ann", "at": AT, "note": 5}, '"note" must be text; it is 5.'),
        ({"by": "Ann", "at": AT, "nothing": 0}, '"nothing" must be null; it is 0.'),
    ],
)
def test_each_wrong_field_is_one_sentence_naming_it(data, sentence):
    with pytest.raises(RuleError) as refused:
        read({"type": "place", **data})
    assert str(refused.value).startswith(sentence)


def test_a_literal_of_numbers_refuses_true_for_one():
    """``True == 1`` in Python, but a player's ``true`` is not the number 1."""

    @dataclass(frozen=True)
    class Pick(Action):
        type = "pick"
        die: Literal[1, 2, 3]

    assert codec.from_json(Pick, {"type": "pick", "die": 2}) == Pick(2)
    with pytest.raises(RuleError, match=r'^"die" must be 1, 2 or 3; it is True\.$'):
        codec.from_json(Pick, {"type": "pick", "die": True})


def test_a_field_of_a_type_the_codec_cannot_read_is_the_game_authors_error():
    @dataclass(frozen=True)
    class Odd(Action):
        type = "odd"
        when: complex

    with pytest.raises(TypeError, match=r"cannot read a field typed <class 'complex'> \(when\)"):
        codec.from_json(Odd, {"type": "odd", "when": 1})


def test_what_an_earlier_version_stored_is_still_read():
    """`stored`: a key this version no longer knows (an English sentence events used to carry) is passed over,
    so that no saved game becomes unreadable; the quick reader of a class with a nested field reads the same."""
    old = {"type": "place", "by": "Ann", "at": AT, "sentence": "Ann placed a piece."}
    assert read(old, stored=True) == Place("Ann", Square(0, 0))
    assert codec.stored_reader(Place, "Squares")(old) == Place("Ann", Square(0, 0))
    with pytest.raises(RuleError, match='has no "sentence"'):
        read(old)


def test_fields_placed_among_a_bases_keep_their_json_order():
    """`json_order`: a subclass adding a field its JSON always had before its base's, written in that order."""

    @dataclass(frozen=True)
    class Base(Event):
        type = "base"
        last: str

    @dataclass(frozen=True)
    class Later(Base):
        type = "later"
        first: str = ""
        json_order = ("first", "last")

    assert list(codec.to_json(Later("z", "a"))) == ["type", "first", "last"]


def test_the_quick_reader_takes_plain_fields_as_they_are():
    """Resuming a long game reads thousands of stored events: a class of plain fields is read in one call, with
    its defaults, an old key passed over; a missing key still gets its sentence."""

    @dataclass(frozen=True)
    class Rolled(Event):
        type = "rolled"
        player: str
        die: int
        again: bool = False

    quick = codec.stored_reader(Rolled)
    assert quick({"type": "rolled", "player": "Ann", "die": 4}) == Rolled("Ann", 4)
    assert quick({"type": "rolled", "player": "Ann", "die": 6, "again": True, "said": "Six!"}) == Rolled("Ann", 6, True)
    with pytest.raises(RuleError, match=r'^This game\'s "rolled" needs "die"\.$'):
        quick({"type": "rolled", "player": "Ann"})


def test_a_field_that_may_be_empty_takes_null_or_its_type():
    @dataclass(frozen=True)
    class Answered(Event):
        type = "answered"
        yes: bool | None
        note: str | None = None

    assert codec.from_json(Answered, {"type": "answered", "yes": None, "note": None}) == Answered(None)
    assert codec.from_json(Answered, {"type": "answered", "yes": True, "note": "ok"}) == Answered(True, "ok")
    with pytest.raises(RuleError, match=r'^"yes" must be true or false; it is 1\.$'):
        codec.from_json(Answered, {"type": "answered", "yes": 1})
