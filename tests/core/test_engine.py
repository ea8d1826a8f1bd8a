"""The engine's promises, held for every game: seats, turns, who starts, the end, unknown events, the edges.

Run over the test-only game Pig (tests/sixth_game) so that the engine is
tested apart from any real game's rules, and over every registered game for
the promises the contract makes about all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import codec
from companion.dice import RandomDice
from companion.engine import RegisteredGame, everything_public, told_first, told_left
from companion.game import (
    LEFT,
    Action,
    ChooseFirst,
    Event,
    FirstPlayerChosen,
    Leave,
    Options,
    Outcome,
    PlayerLeft,
    RuleError,
    SetupError,
    Termination,
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
            '"how" must be "race", "loser", "table" or "fingers"; it is \'coin\'.'
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


# -- what every game gets from the engine -----------------------------------------------------------------------


def test_the_variant_the_table_picks_goes_round_its_choices_with_words_for_each() -> None:
    """The home screen's toggle: the first choice is the default, a tap moves to the next, round and round."""
    variant = game("quin").facts.variant
    assert variant is not None
    assert variant.default == "key"
    assert variant.words("arcade") == "Capture rule: Arcade"
    assert variant.after("key") == "arcade" and variant.after("arcade") == "key"
    assert variant.has("arcade") and not variant.has("chess")
    assert not game("quinque").facts.variant.has(1)  # type: ignore[union-attr]  # 1 == True, but not a setting


def test_the_engines_sentences_for_who_starts_and_who_left() -> None:
    assert told_first(FirstPlayerChosen("Bo", "Ann", "loser")) == "Bo lost the last game and starts."
    assert told_first(FirstPlayerChosen("Bo", "Ann", "coin")) == "Bo starts."  # a way the engine has no words for
    assert told_left(PlayerLeft("Bo"), ["Ann", "Cy"]) == "Bo left the game."
    assert told_left(PlayerLeft("Bo"), ["Ann"]) == "Bo left the game. Ann is the only player left and wins!"


def test_a_game_without_secrets_shows_every_event_as_it_is() -> None:
    event = FirstPlayerChosen("Bo", "Ann", "race")
    assert everything_public(event) == codec.to_json(event) == game("quinque").public_event(event)


def test_a_package_without_its_rules_is_no_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ``display.py`` may be missing (a game without secrets); a game without ``rules.py`` is refused."""
    package = tmp_path / "half_a_game"
    package.mkdir()
    (package / "__init__.py").write_text("from tests.sixth_game import FACTS\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match=r"half_a_game\.rules"):
        RegisteredGame.from_package("half_a_game")


def test_what_the_registry_entry_tells_of_its_game() -> None:
    assert PIG.chooses_first and not game("quintet").chooses_first
    assert PIG.action_types == ("bet", "roll", "hold", "choose_first", "leave")
    assert game("quinque").endings == ("five in a row", "tie", "left", "abandoned")


def test_a_stored_outcome_reads_back_with_the_games_own_word_and_its_termination() -> None:
    """The engine owns outcomes: a stored win is the game's `Ending`, the engine's own ends their `Termination`."""
    quinque = game("quinque")
    won = quinque.read_outcome({"winners": ["Ann"], "reason": "five in a row", "detail": ""})
    assert won.reason is quinque.rules.Ending.FIVE_IN_A_ROW and won.termination is Termination.WIN
    left = quinque.read_outcome({"winners": ["Bo"], "reason": "left", "detail": "Ann left."})
    assert left.reason is Termination.LEFT and left.termination is Termination.LEFT
    older = quinque.read_outcome({"winners": [], "reason": "a reason no longer known"})  # an earlier version's
    assert older.reason == "a reason no longer known" and older.termination is Termination.WIN


def test_a_name_given_with_extra_spaces_is_refused_with_its_plain_form() -> None:
    with pytest.raises(SetupError, match="The name 'Ann' was given with extra spaces"):
        PIG.setup(Options.for_names("Ann  ", "Bo"))
    assert PIG.setup(Options.for_names("Ann  ", "Bo"), stored=True).players == ("Ann  ", "Bo")  # as it was saved


def test_an_action_of_another_game_is_refused() -> None:
    @dataclass(frozen=True)
    class Roll(Action):  # Pig's word, not Pig's action
        type = "roll"
        player: str

    with pytest.raises(RuleError, match="Pig has no action 'roll'"):
        PIG.decide(started("Ann", "Bo"), Roll("Ann"), DICE)


def test_a_player_may_leave_at_any_moment_and_the_last_one_in_wins() -> None:
    """The engine handles `Leave` in every game: not bound to the turn; one player remaining wins (`LEFT`)."""
    state = started("Ann", "Bo", "Cy")
    events = PIG.decide(state, Leave("Cy"), DICE)  # not Cy's turn: leaving is not bound to it
    assert events == [PlayerLeft("Cy")]
    state = PIG.evolve(state, events[0])
    assert PIG.players_in(state) == ("Ann", "Bo") and PIG.outcome(state) is None
    with pytest.raises(RuleError, match="Cy is no longer in the game"):
        PIG.decide(state, Leave("Cy"), DICE)
    state = PIG.evolve(state, PIG.decide(state, Leave("Ann"), DICE)[0])
    assert PIG.outcome(state) == Outcome(("Bo",), LEFT, "Bo is the only player left.")
    assert PIG.current_player(state) is None


def test_a_game_without_the_leaving_hooks_has_no_leave_and_no_players_in() -> None:
    rules = SimpleNamespace(
        ACTIONS=pig.ACTIONS, EVENTS=pig.EVENTS, setup=pig.setup, outcome=pig.outcome, current_player=pig.current_player
    )
    bench = RegisteredGame(PIG.facts, rules, PIG.views, PIG.settings)  # type: ignore[arg-type]
    assert "leave" not in bench.action_types
    with pytest.raises(TypeError, match="Pig has no players_in: it has no leave action"):
        bench.players_in(started("Ann", "Bo"))


def test_two_actions_with_one_type_word_are_a_programming_error() -> None:
    @dataclass(frozen=True)
    class Roll(Action):
        type = "roll"

    rules = SimpleNamespace(ACTIONS=(*pig.ACTIONS, Roll), EVENTS=pig.EVENTS)
    with pytest.raises(TypeError, match="Pig: Roll needs a type word of its own"):
        RegisteredGame(PIG.facts, rules, PIG.views, PIG.settings)  # type: ignore[arg-type]


def test_a_game_whose_views_are_dicts_gets_the_end_as_keys_and_its_events_told_and_hidden() -> None:
    """Pig (a test game) keeps dict views: the engine still says `over` and `outcome` in every one of them."""
    state = PIG.evolve(started("Ann", "Bo", target=3), pig.Held("Ann", 3))
    assert PIG.view(state)["over"] is True
    ended = {"winners": ["Ann"], "reason": "reached the target", "detail": "Ann reached 3."}
    assert PIG.own_view(state, "Bo")["outcome"] == ended
    assert PIG.public_event(pig.BetPlaced("Ann", "Bo")) == {"type": "bet_placed", "player": "Ann"}
    assert PIG.tell(pig.BetPlaced("Ann", "Bo"), state) == "Ann placed a bet."


def test_a_game_with_a_display_but_no_phone_page_shows_the_players_own_view_as_plain_rows() -> None:
    """A phone shows its player's own view, and theirs alone: Pig has no page of its own, so plain rows."""
    state = started("Ann", "Bo")
    page = PIG.phone_page(PIG.own_view(state, "Bo"))
    assert page is not None
    assert page["title"] == "Bo · Pig" and page["choices"] == []
    rows = [row["text"] for row in page["sections"][0]["rows"]]
    assert "my bet: Ann" in rows and "scores:" in rows


def test_whether_an_action_is_private_is_asked_of_its_type_word_alone() -> None:
    """Why a private action was refused is its player's alone, even for a malformed one: the type word decides."""
    assert PIG.is_private({"type": "bet"})  # no player, no "on": still a bet
    assert not PIG.is_private({"type": "roll", "player": "Ann"})
    assert not PIG.is_private({"type": 7}) and not PIG.is_private({"type": "jump"})
    assert not PIG.is_private(["bet"])  # type: ignore[arg-type]  # not even an object


def test_a_stored_event_the_game_never_made_or_cannot_read_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="Pig has no event 'jumped'"):
        PIG.event_from_json({"type": "jumped"})
    with pytest.raises(ValueError, match='needs "value"'):
        PIG.event_from_json({"type": "rolled", "player": "Ann"})
