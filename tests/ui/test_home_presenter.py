"""The home presenter's unfinished games, without a window: "The home screen lists all unfinished games:
game, players, moves, last played. Each has Resume and Discard, and Discard asks first." (issue 14)."""

from __future__ import annotations

import hashlib
from datetime import datetime

from companion.game import ABANDONED, LEFT, TIE, Options
from companion.session import Session
from companion.store import Store
from ui.presenters.home import (
    PAST_PER_PAGE,
    PastPage,
    last_played_words,
    moves_words,
    past_games,
    player_colour,
    result_words,
    unfinished_entries,
    wins_chart,
    wins_line,
    wins_strip,
)
from ui.theme import SEAT_COLOURS


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


# -- wins and past games ("the home screen shows each player's wins per game as a small chart", issue 14) -----


def test_wins_chart_has_a_row_per_game_in_the_registry_order_with_its_top_players():
    wins = {"quinque": {"Bo": 4, "Ann": 2, "Cy": 2, "Di": 1}, "quintet": {"Ann": 3}, "gone-game": {"Ed": 1}}
    rows = wins_chart(wins)
    assert [(r.game, r.title) for r in rows] == [
        ("quintet", "Quintet"),
        ("quinque", "Quinque"),
        ("gone-game", "gone-game"),
    ]
    quintet, quinque, _gone = rows
    assert [(b.name, b.count, b.share) for b in quinque.bars] == [("Bo", 4, 1.0), ("Ann", 2, 0.5), ("Cy", 2, 0.5)]
    assert quinque.more == 1 and quinque.more_words == "+1 more" and quintet.more_words == ""
    assert quintet.bars[0].share == 1.0, "each row's best fills its bar"


def test_a_player_has_one_colour_in_every_chart_and_every_time():
    """Issue 21: "in Wins per game, Cy (yellow) was drawn red once and blue the next time." A player's colour
    follows from their name alone (a stable rule): not from their rank, which changes with every win."""
    before = wins_chart({"quin": {"Bo": 1, "Ann": 1}, "quark": {"Ann": 5, "Cy": 1}})
    after = wins_chart({"quin": {"Bo": 1, "Ann": 1, "Cy": 9}, "quark": {"Ann": 5, "Cy": 7}, "quinque": {"Cy": 1}})
    strip = wins_strip({"Cy": 17, "Ann": 6, "Bo": 1})
    colours: dict[str, set[str]] = {}
    for bar in [*(b for row in [*before, *after] for b in row.bars), *strip]:
        colours.setdefault(bar.name, set()).add(bar.colour)
    assert all(len(seen) == 1 for seen in colours.values()), colours
    assert {name: seen.pop() for name, seen in colours.items()} == {n: player_colour(n) for n in ("Ann", "Bo", "Cy")}
    # the same in another run of Python (not `hash`, which changes with every start), and for the same look
    assert player_colour("Cy") == player_colour("cy") == player_colour("Cy\u200b")
    assert player_colour("Cy") == SEAT_COLOURS[int(hashlib.sha256(b"cy").hexdigest()[:8], 16) % len(SEAT_COLOURS)]


def test_no_wins_no_rows_and_the_strip_says_so():
    assert wins_chart({}) == [] and wins_strip({}) == ()
    assert wins_line({}) == "No finished games yet."
    assert [b.name for b in wins_strip({"Ann": 9, "Bo": 3, "Cy": 2, "Di": 2, "Ed": 1})] == ["Ann", "Bo", "Cy"]


def test_result_words_a_win_a_leave_a_shared_win_and_a_tie():
    """RULINGS: "Two players: the other wins (outcome reason "left")." and "Whenever one player remains, that
    player wins." The past games say why."""
    assert result_words({"winners": ["Ann"], "reason": "five in a row"}, ["Ann", "Bo"]) == "won by Ann"
    assert result_words({"winners": ["Ann"], "reason": LEFT}, ["Ann", "Bo"]) == "won by Ann: Bo left"
    # Issue 21: '"won by Cy: the others left" shown when Ann was knocked out (not left)': say only what is known
    assert result_words({"winners": ["Cy"], "reason": LEFT}, ["Ann", "Bo", "Cy"]) == "won by Cy, the last one still in"
    assert result_words({"winners": [], "reason": ABANDONED}, ["Ann", "Bo"]) == "Ended without a result"
    assert result_words({"winners": ["Ann", "Bo"], "reason": "shared"}, ["Ann", "Bo"]) == "won by Ann, Bo"
    assert result_words({"winners": [], "reason": TIE}, ["Ann", "Bo"]) == "a tie"


def test_past_games_pages_of_five_newest_first():
    page = PastPage(1, 2000)
    assert (page.pages, page.offset, page.has_newer, page.has_older) == (400, 0, False, True)
    assert page.words == "Games 1–5 of 2,000, newest first"
    last = page.to(999)
    assert (last.page, last.offset, last.has_older, last.words) == (
        400,
        1995,
        False,
        "Games 1,996–2,000 of 2,000, newest first",
    )
    assert page.to(0).page == 1
    assert PastPage(1, 7).to(2).words == "Games 6–7 of 7, newest first"
    assert PastPage(1, 0).words == "No finished games yet." and not PastPage(1, 0).has_older


def test_past_games_entries_game_players_result_and_when(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        session = Session.start(
            store, "quantum-link", Options.for_names("Ann", "Bo"), clock=lambda: _at(2026, 11, 22, 21, 4)
        )
        session.act({"type": "leave", "player": "Bo"})
        (entry,) = past_games(store.finished(limit=PAST_PER_PAGE), now=_at(2026, 11, 23, 20, 0))
    assert (entry.game_id, entry.title, entry.players) == (session.game_id, "Quantum Link", "Ann, Bo")
    assert (entry.result, entry.when) == ("won by Ann: Bo left", "yesterday 21:04")


def test_names_are_shown_whole_or_counted_never_cut():
    """Issue 21: "An unfinished game's players read 'An...r 4, Player 5'"."""
    from ui.presenters.home import names_that_fit

    def width(text: str) -> float:
        return 10.0 * len(text)

    names = ["Bartholomew Fenn", "Ann", "Cy"]
    assert names_that_fit(names, 1000, width) == "Bartholomew Fenn, Ann, Cy"
    assert names_that_fit(names, 240, width) == "Bartholomew Fenn, Ann +1"
    assert names_that_fit(names, 190, width) == "Bartholomew Fenn +2"
    assert names_that_fit(names, 100, width) == "3 players"


def test_a_chip_number_reads_on_its_colour():
    """The one ink rule (companion.palette.is_light, WCAG contrast): blue takes dark ink, as in the leave picker."""
    from ui.presenters.home import ink_on

    assert ink_on("#fdd835") == "#000000" and ink_on("#1e88e5") == "#000000" and ink_on("#8e24aa") == "#ffffff"


def test_a_tool_put_away_says_how_it_ended_not_a_tie() -> None:
    """Issue 27: a dice tray put away has no winner, but nobody tied: Past games says what its outcome says."""
    from ui.presenters.home import result_words

    put_away = {"winners": [], "reason": "put away", "detail": "The dice were put away after 3 rolls."}
    assert result_words(put_away, ["Ann"], tool=True) == "The dice were put away after 3 rolls."
    assert result_words({"winners": [], "reason": "tie"}, ["Ann", "Bo"]) == "a tie"


def test_home_offers_each_game_for_the_seats_home_has() -> None:
    """Issue 27: the tools take up to 8-10 players through `companion play`, but home seats up to 5 (its seat
    colours): home's list says what a table can start from it ("1–5 players"), never "1–8 players"."""
    from companion import games
    from ui.presenters import home as presenter

    for entry in presenter.game_entries():
        facts = games.facts(entry.game)
        low, high = facts.min_players, min(facts.max_players, presenter.MAX_SEATS)
        assert entry.seats == presenter.seats_text(low, high), entry.game
        assert low <= high <= presenter.MAX_SEATS
    seats = {entry.game: entry.seats for entry in presenter.game_entries()}
    assert seats["score-pad"] == "1–5 players" and seats["quin"] == "2 players"
