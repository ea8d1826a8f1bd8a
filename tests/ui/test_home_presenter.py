"""The home presenter's unfinished games, without a window: "The home screen lists all unfinished games:
game, players, moves, last played. Each has Resume and Discard, and Discard asks first." (issue 14)."""

from __future__ import annotations

from datetime import datetime

from companion.game import Options
from companion.session import Session
from companion.store import Store
from ui.presenters.home import last_played_words, moves_words, unfinished_entries


def _at(*when: int) -> float:
    return datetime(*when).timestamp()  # type: ignore[arg-type]  # local time, as the appliance shows it


def test_last_played_says_today_yesterday_or_the_date():
    now = _at(2026, 11, 23, 20, 0)
    assert last_played_words(_at(2026, 11, 23, 19, 4), now) == "today 19:04"
    assert last_played_words(_at(2026, 11, 22, 23, 59), now) == "yesterday 23:59"
    assert last_played_words(_at(2026, 11, 3, 8, 30), now) == "3 Nov 08:30"


def test_moves_are_counted_in_words():
    assert [moves_words(n) for n in (0, 1, 12)] == ["0 moves", "1 move", "12 moves"]


def test_every_unfinished_game_is_listed_newest_first_with_players_moves_and_last_move_time(tmp_path):
    """The "last played" time is the time of the game's last move, not when it started."""
    now = [_at(2026, 11, 23, 18, 0)]  # the store's clock stamps each move
    with Store.open(tmp_path / "games.db", clock=lambda: now[0]) as store:
        first = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=lambda: now[0])
        first.act({"type": "choose_first", "player": "Ann", "chosen_by": "Ann", "how": "table"})
        now[0] = _at(2026, 11, 23, 18, 7)
        first.act({"type": "place", "player": "Ann", "cell": [0, 0], "face": 1})
        now[0] = _at(2026, 11, 23, 19, 0)
        second = Session.start(store, "quintet", Options.for_names("Cy", "Di", "Ed"), clock=lambda: now[0])
        entries = unfinished_entries(store.unfinished_games(), now=_at(2026, 11, 23, 20, 0))
    assert [e.game_id for e in entries] == [second.game_id, first.game_id]
    newest, oldest = entries
    assert (newest.title, newest.players, newest.detail) == ("Quintet", "Cy, Di, Ed", "0 moves · today 19:00")
    assert (oldest.title, oldest.players, oldest.detail) == ("Quantum Link", "Ann, Bo", "2 moves · today 18:07")
    assert oldest.question.startswith("Discard Quantum Link with Ann, Bo (2 moves)?")


def test_an_undone_move_is_not_counted(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(store, "quantum-link", Options.for_names("Ann", "Bo"), clock=lambda: 0.0)
        session.act({"type": "choose_first", "player": "Ann", "chosen_by": "Ann", "how": "table"})
        session.act({"type": "place", "player": "Ann", "cell": [0, 0], "face": 1})
        assert session.undo()
        (item,) = store.unfinished_games()
    assert item.moves == 1 and item.record.id == session.game_id


def test_no_unfinished_games_no_rows(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        assert unfinished_entries(store.unfinished_games(), now=0.0) == []
