"""The engine's promises, held for every game: seats, turns, who starts, the end, unknown events, the edges.

Run over the test-only game Pig (tests/sixth_game) so that the engine is
tested apart from any real game's rules, and over every registered game for
the promises the contract makes about all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from companion import codec
from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import (
    ChooseFirst,
    Event,
    FirstPlayerChosen,
    Options,
    RuleError,
    SetupError,
    UnknownEvent,
)
from companion.games import game, names
from tests.sixth_game import rules as pig

PIG = RegisteredGame.from_package("tests.sixth_game")
DICE = RandomDice.seeded(7)


def started(*players: str, **settings: object) -> object:
    state = PIG.setup(Options.for_names(*players, **settings))
    for player in players:
        state = PIG.evolve(state, pig.BetPlaced(player, players[0]))
    return state


def test_the_engine_checks_the_seats_for_the_game():
    with pytest.raises(SetupError, match=r"Pig is for 2 to 4 players; 1 are seated\."):
        PIG.setup(Options.for_names("Ann"))
    with pytest.raises(SetupError, match="same name"):
        PIG.setup(Options.for_names("Ann", "Ann"))
    with pytest.raises(SetupError, match="needs a name"):
        PIG.setup(Options.for_names("Ann", " "))


def test_settings_are_read_by_the_game_with_one_sentence():
    with pytest.raises(SetupError, match='"target" must be a whole number'):
        PIG.setup(Options.for_names("Ann", "Bo", target="lots"))
    assert PIG.setup(Options.for_names("Ann", "Bo", target=5)).target == 5


def test_an_action_out_of_turn_is_refused_by_the_engine():
    with pytest.raises(RuleError, match=r"It is Ann's turn, not Bo's\."):
        PIG.decide(started("Ann", "Bo"), pig.Roll("Bo"), DICE)


def test_every_action_is_refused_once_the_game_is_over():
    state = PIG.evolve(started("Ann", "Bo", target=3), pig.Held("Ann", 3))
    assert PIG.outcome(state) is not None
    with pytest.raises(RuleError, match="The game is over"):
        PIG.decide(state, pig.Roll("Bo"), DICE)
    assert PIG.legal_actions(state, "Bo") == []


def test_choose_first_is_the_engines_until_play_begins():
    state = started("Ann", "Bo")
    events = PIG.decide(state, ChooseFirst("Bo", "Ann", "race"), DICE)
    assert events == [FirstPlayerChosen("Bo", "Ann", "race")]
    assert PIG.current_player(PIG.evolve(state, events[0])) == "Bo"
    with pytest.raises(RuleError, match="only before play begins"):
        PIG.decide(state, ChooseFirst("Bo", "Ann", "race"), DICE, begun=True)


def test_an_event_the_game_never_makes_raises():
    @dataclass(frozen=True)
    class Stranger(Event):
        type = "stranger"

    with pytest.raises(UnknownEvent):
        PIG.evolve(started("Ann", "Bo"), Stranger())


def test_json_at_the_edge_is_checked_field_by_field():
    seats = ("Ann", "Bo")
    assert PIG.parse_action({"type": "roll", "player": "Ann"}, seats) == pig.Roll("Ann")
    refusals = {
        '{"player": "Ann"}': 'Every action needs a "type"',
        '{"type": "jump", "player": "Ann"}': 'Pig has no action "jump"; the actions are "bet", "roll", "hold"',
        '{"type": "roll"}': "Pig's \"roll\" needs \"player\".",
        '{"type": "roll", "player": "Cy"}': '"player" must name a player at the table (Ann, Bo).',
        '{"type": "roll", "player": 3}': '"player" must be text; it is 3.',
        '{"type": "roll", "player": "Ann", "die": 6}': "Pig's \"roll\" has no \"die\"",
        '{"type": "choose_first", "player": "Ann", "chosen_by": "Bo", "how": "coin"}': (
            '"how" must be "race", "loser" or "table"; it is \'coin\'.'
        ),
    }
    import json

    for line, sentence in refusals.items():
        with pytest.raises(RuleError) as refused:
            PIG.parse_action(json.loads(line), seats)
        assert sentence in str(refused.value), line


def test_events_round_trip_through_json():
    for event in (pig.BetPlaced("Ann", "Bo"), pig.Rolled("Ann", 4), FirstPlayerChosen("Bo", "Ann", "loser")):
        assert PIG.event_from_json(codec.to_json(event)) == event


def test_refusal_answers_without_acting():
    state = started("Ann", "Bo")
    assert PIG.refusal(state, pig.Hold("Ann")) == "Roll at least once before you hold."
    assert PIG.refusal(state, pig.Roll("Ann")) is None


@pytest.mark.parametrize("name", names())
def test_every_game_has_the_one_shape(name):
    """Every registered game is a package the engine assembled, with public_event required and no old wrapper."""
    entry = game(name)
    assert isinstance(entry, RegisteredGame), f"{name} is still in the old shape"
    for module, required in (
        (entry.rules, ("ACTIONS", "EVENTS", "setup", "decide", "evolve", "outcome", "current_player", "legal_actions")),
        (entry.views, ("public_view", "private_view", "public_event", "tell", "revealed_view")),
        (entry.settings, ("read",)),
    ):
        missing = [attr for attr in required if not hasattr(module, attr)]
        assert not missing, f"{module.__name__} lacks {missing}"
    assert not hasattr(__import__(f"companion.games.{name.replace('-', '_')}", fromlist=["x"]), "RULES")


def test_the_quick_reader_of_stored_json_agrees_with_the_careful_one():
    """Resuming reads stored rows through `codec.stored_reader`; it must give what `from_json` gives, or refuse."""

    @dataclass(frozen=True, kw_only=True, slots=True)
    class Moved(Event):
        type = "moved"
        start: str = codec.key("from")
        to: str
        note: str = codec.optional("")

    read = codec.stored_reader(Moved)
    for data in ({"type": "moved", "from": "a", "to": "b"}, {"type": "moved", "from": "a", "to": "b", "note": "n"}):
        assert read(data) == codec.from_json(Moved, data, stored=True)
    assert read({"type": "moved", "from": "a", "to": "b", "sentence": "An old key."}) == Moved(start="a", to="b")
    with pytest.raises(RuleError, match='needs "to"'):
        read({"type": "moved", "from": "a"})


def test_the_registry_entry_and_the_contract_have_names_of_their_own():
    """"`companion/game.py` (the contract) and `engine.Game` (a registry entry) share a name": no more."""
    import companion.engine

    assert not hasattr(companion.engine, "Game")
    assert game("quinque").__class__ is RegisteredGame
