"""The score pad's presenter, without a window: the grid's words, the leader, End's question, the number pad,
and the names played before (issue 27)."""

from __future__ import annotations

from companion.game import Options, wins_under
from companion.games.score_pad.rules import Clear, Score
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from ui.presenters import home
from ui.presenters.score_pad import MINUS, NumberPad, name_action, past_titles, points_text, present

COLOURS = {"Ann": "#e53935", "Bo": "#006ef2"}


def session_of(*players: str, title: str = "Carcassonne") -> Session:
    session = Session.start(Store.in_memory(), "score-pad", Options.for_names(*players), clock=ManualClock())
    session.act({"type": "name", "title": title})
    return session


def test_the_grid_the_totals_and_who_leads_in_words() -> None:
    """"running totals and who leads": the leader's total is marked, and said in words."""
    session = session_of("Ann", "Bo")
    shown = present(session.view(), COLOURS)
    assert shown.named and shown.leader == "Tap a cell to score it." and not shown.can_end
    session.act({"type": "score", "player": "Ann", "round": 1, "points": 83})
    session.act({"type": "score", "player": "Bo", "round": 1, "points": -4})
    shown = present(session.view(), COLOURS)
    assert [[c.text for c in row] for row in shown.rows] == [["83", f"{MINUS}4"]]
    assert [(c.player, c.total, c.leads) for c in shown.columns] == [("Ann", "83", True), ("Bo", f"{MINUS}4", False)]
    assert shown.leader == "Ann leads with 83." and shown.can_end
    assert shown.end_question == "End the game? Ann wins with 83.", "the issue's words"
    session.act({"type": "score", "player": "Bo", "round": 2, "points": 87})
    shown = present(session.view(), COLOURS)
    assert shown.leader == "Ann and Bo lead with 83."
    assert shown.end_question == "End the game? Ann and Bo share the win with 83."
    session.act({"type": "end"})
    shown = present(session.view(), COLOURS)
    assert shown.over and not shown.tappable and not shown.can_end and not shown.can_add_round
    assert shown.leader == "Game over. Ann and Bo share the win in Carcassonne with 83."


def test_a_colour_means_one_seat_past_the_fifth() -> None:
    """The table's colours come round again past the fifth seat: only the first player in a colour wears it."""
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
    session = Session.start(Store.in_memory(), "score-pad", Options.for_names(*names), clock=ManualClock())
    colours = {p.name: p.colour for p in session.options.players}
    assert colours["Flo"] == colours["Ann"]
    shown = present(session.view(), colours)
    assert shown.columns[0].colour == colours["Ann"] and shown.columns[5].colour == ""


def test_the_number_pad_types_negative_numbers_clears_and_gives_the_action() -> None:
    """"a tap on a cell opens a big number pad (negative numbers too)": digits, minus, Clear, OK."""
    pad = NumberPad("Ann", 3)
    assert pad.heading == "Ann, round 3" and pad.ok() is None, "OK on an empty cell with nothing typed: nothing"
    for key in ("0", "1", "2", MINUS):
        pad.press(key)
    assert pad.shown == f"{MINUS}12" and pad.ok() == Score("Ann", 3, -12)
    pad.press(MINUS)
    assert pad.ok() == Score("Ann", 3, 12), "the minus goes off again"
    pad.press("Clear")
    assert pad.shown == "" and pad.ok() is None
    for _ in range(9):
        pad.press("9")
    assert pad.shown == "999999", "six digits at most"
    scored = NumberPad("Bo", 2, was=7)
    assert "Now 7" in scored.hint and scored.ok() == Clear("Bo", 2), "OK with nothing typed empties a scored cell"
    scored.press("7")
    assert scored.ok() is None, "the same points again change nothing"


def test_the_names_played_before_come_from_the_wins_most_played_first() -> None:
    """"the names used before are offered again, read from the store's past score-pad games"."""
    wins = {
        "quin": {"Ann": 3},
        wins_under("score-pad", "Catan"): {"Ann": 1},
        wins_under("score-pad", "Azul"): {"Ann": 2, "Bo": 1},
        wins_under("other-tool", "Chess"): {"Bo": 1},
    }
    assert past_titles(wins) == ["Azul", "Catan"]
    assert name_action("  Ticket  to Ride ", "lowest").title == "Ticket to Ride"
    assert points_text(None) == "" and points_text(-5) == f"{MINUS}5"


def test_home_shows_a_named_game_s_wins_under_its_name_beside_the_games() -> None:
    """"Wins per game on home then show Carcassonne beside Quin"; tools are listed apart, under "Any game"."""
    rows = home.wins_chart({wins_under("score-pad", "Carcassonne"): {"Ann": 1}, "quin": {"Bo": 2}})
    assert [(row.title, row.bars[0].name) for row in rows] == [("Quin", "Bo"), ("Carcassonne", "Ann")]
    entries = {entry.game: entry for entry in home.game_entries()}
    assert entries["score-pad"].tool and not entries["quin"].tool
