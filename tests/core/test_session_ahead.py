"""Issue 26: a new game's screen is made before the table chooses it (`ui.kept_screens`), on a session made ahead
(`Session.ahead`) that nothing writes until the table does (`Session.begin`). Begun, it is the very game `start`
would have made: the same record, the same state, the same next dice. Until then it leaves no trace, takes no
move, and a card that will not take it leaves it unwritten, to be begun once it will."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice import RandomDice
from companion.game import Options, SetupError
from companion.session import Session
from companion.store import NotSaved, Store
from tests.core.test_store_weather import _fill, card  # noqa: F401  (`card`: a fixture)

OPTIONS = Options.for_names("Ann", "Bo", target=30)


def _written(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything the games file holds of game `game_id`: its record and its moves."""
    return (store.game(game_id), tuple(store.moves(game_id)))


def test_a_game_made_ahead_and_begun_is_the_game_start_makes(tiny: object) -> None:
    """Begun, it is written at the tap's time as `start` writes a new game, and plays as that game plays: the
    same states after the same moves, the same dice drawn and written, the same next dice."""
    now = [1000.0]
    ahead_dice, start_dice = RandomDice.seeded(5), RandomDice.seeded(5)
    with Store.in_memory() as ahead_store, Store.in_memory() as start_store:
        ahead = Session.ahead(ahead_store, "tiny", OPTIONS, dice=ahead_dice, clock=lambda: now[0])
        assert ahead.game_id == 0 and ahead.paused, "no number, its clock stopped"
        now[0] = 1500.0  # the table looks at home a while, then taps
        assert ahead_store.unfinished_games() == [], "nothing written while the table has not chosen it"
        ahead.begin()
        ahead.resume_clock()  # as its screen showing starts it
        started = Session.start(start_store, "tiny", OPTIONS, dice=start_dice, clock=lambda: now[0])
        assert ahead.game_id == started.game_id == 1
        record = ahead_store.game(1)
        assert record is not None and record.started_at == 1500.0, "written at the tap, not when it was made"
        assert _written(ahead_store, 1) == _written(start_store, 1)
        for session in (ahead, started):
            for _ in range(3):
                session.act({"type": "roll", "player": session.current_player})
        assert ahead.state == started.state and ahead.moves == started.moves
        assert ahead.view() == started.view()
        assert _written(ahead_store, 1) == _written(start_store, 1), "the same moves and draws written"
        assert [ahead_dice.roll() for _ in range(5)] == [start_dice.roll() for _ in range(5)], "the same next dice"


def test_options_start_refuses_are_refused_ahead_in_the_same_words(tiny: object) -> None:
    too_few = Options.for_names("Ann")
    with Store.in_memory() as store:
        with pytest.raises(SetupError) as at_start:
            Session.start(store, "tiny", too_few)
        with pytest.raises(SetupError) as ahead:
            Session.ahead(store, "tiny", too_few)
        assert str(ahead.value) == str(at_start.value)
        assert store.unfinished_games() == []


def test_a_game_made_ahead_takes_no_move_and_is_begun_once(tiny: object) -> None:
    with Store.in_memory() as store:
        session = Session.ahead(store, "tiny", OPTIONS)
        with pytest.raises(RuntimeError):
            session.act({"type": "roll", "player": "Ann"})
        assert session.moves == () and store.unfinished_games() == [], "the move refused wrote nothing"
        session.begin()
        with pytest.raises(RuntimeError):
            session.begin()
        assert [g.record.id for g in store.unfinished_games()] == [session.game_id], "one game written, once"


def test_a_full_card_leaves_a_game_made_ahead_unwritten_and_it_begins_once_space_comes_back(
    card: Path,  # noqa: F811
    tiny: object,
) -> None:
    """The card's own ENOSPC (a real tmpfs): the tap is refused in the store's words, the session keeps no number
    and writes nothing; once a file is deleted, the same session begins."""
    path = card / "games.db"
    with Store.open(path) as store:
        session = Session.ahead(store, "tiny", OPTIONS)
        filler = _fill(card)
        with pytest.raises(NotSaved):
            for _ in range(200):  # the WAL may still have room for a few new games
                Session.start(store, "tiny", Options.for_names("Cy", "Dee", target=10**9, note="x" * 3000))
            session.begin()
        kept = len(store.unfinished_games())
        with pytest.raises(NotSaved):
            session.begin()
        assert session.game_id == 0 and len(store.unfinished_games()) == kept, "nothing written, no number"
        filler.unlink()
        session.begin()
        assert session.game_id and store.game(session.game_id) is not None
