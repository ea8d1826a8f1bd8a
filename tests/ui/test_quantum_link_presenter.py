"""Quantum Link's presenter without a window: what each hex, card and button shows, and what a tap sends."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.dice import RandomDice
from companion.game import ChooseFirst, Options, Player
from companion.games.quantum_link.rules import Pass, Place
from companion.session import Session
from companion.store import Store
from ui.presenters import quantum_link as presenter
from ui.presenters.quantum_link import HINT, QuantumLinkShown, Selection, place, present, tap_hex

GOLDEN = Path(__file__).resolve().parent.parent / "games" / "golden"
RED, BLUE = "#e53935", "#1e88e5"


def session(
    *actions: dict[str, Any], colours: tuple[str, str] = (RED, BLUE), names: tuple[str, str] = ("Ann", "Bo")
) -> Session:
    seats = tuple(Player(name, colour) for name, colour in zip(names, colours, strict=True))
    played = Session.start(Store.in_memory(), "quantum-link", Options(seats), dice=RandomDice.seeded(0))
    for action in actions:
        played.act(action)
    return played


def shown(played: Session, selection: Selection | None = None, **kwargs: Any) -> QuantumLinkShown:
    """What the screen shows, asked the way the screen asks."""
    turn = played.current_player
    legal = played.legal_actions(turn) if turn else []
    return present(played.view(), legal, selection or Selection(), **kwargs)


def golden(name: str) -> list[dict[str, Any]]:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip() and not line.startswith("#")]


def place_json(player: str, cell: tuple[int, int], face: int) -> dict[str, Any]:
    return {"type": "place", "player": player, "cell": list(cell), "face": face}


# -- the start ----------------------------------------------------------------------------


def test_an_empty_board_waits_for_the_first_die() -> None:
    now = shown(session())
    assert now.mode == "play"
    assert now.radius == 4
    assert len(now.hexes) == 61 and all(h.die is None and h.outline == "" for h in now.hexes)
    assert now.hex_at((0, 0)) is not None and now.hex_at((0, 0)).name == "E5"  # type: ignore[union-attr]
    assert now.hex_at((5, 0)) is None
    assert len(now.open_cells) == 61
    assert now.info == HINT and not now.info_is_news
    assert now.turn == "Ann" and now.turn_colour == RED
    assert now.pass_text == "Ann passes" and now.pass_action == Pass("Ann")
    assert [(p.name, p.colour, p.score, p.detail, p.active) for p in now.players] == [
        ("Ann", RED, "0", "30 dice left", True),
        ("Bo", BLUE, "0", "30 dice left", False),
    ]
    assert now.prompt == "" and now.result_text == "" and now.rematch is None


# -- two taps per die -----------------------------------------------------------------------


def test_a_tap_on_an_empty_hex_opens_the_picker_and_a_face_sends_the_placement() -> None:
    played = session()
    chosen = tap_hex(shown(played), (0, 0))
    assert chosen == Selection(cell=(0, 0))
    picking = shown(played, chosen)
    assert picking.mode == "pick"
    assert picking.prompt == "Ann's die at E5: which face is up?"
    assert picking.hex_at((0, 0)).outline == "selected"  # type: ignore[union-attr]
    action = place(picking, 4)
    assert action == Place("Ann", (0, 0), 4)
    played.act(action)
    after = shown(played, replace(chosen, cell=None))
    assert after.hex_at((0, 0)).die == presenter.DieShown(
        4, RED, covered=False, scoring=False, crossed_out=False, mark="A"
    )  # type: ignore[union-attr]
    assert after.hex_at((0, 0)).outline == "last"  # type: ignore[union-attr]
    assert after.turn == "Bo" and after.players[1].active and after.players[0].detail == "29 dice left"


def test_the_same_hex_tapped_again_lets_it_go_and_nothing_is_sent_without_a_hex() -> None:
    played = session()
    chosen = tap_hex(shown(played), (0, 0))
    assert tap_hex(shown(played, chosen), (0, 0)) == Selection()
    assert tap_hex(shown(played, chosen), (1, 0)) == Selection(cell=(1, 0))  # another hex instead
    assert place(shown(played), 3) is None


def test_a_tap_on_a_die_tells_what_it_is_doing_instead() -> None:
    played = session(place_json("Ann", (0, 0), 4))
    looking = tap_hex(shown(played), (0, 0))
    assert looking == Selection(looking_at=(0, 0))
    now = shown(played, looking)
    assert now.mode == "play"
    assert now.info == "E5: Ann's 4, 0 friendly neighbours, not scoring now."
    assert not now.info_is_news
    played.act(place_json("Bo", (3, 0), 1))
    played.act(place_json("Ann", (1, 0), 1))
    assert shown(played, Selection(looking_at=(1, 0))).info == "E6: Ann's 1, 1 friendly neighbour, scoring now."


def test_a_hex_filled_meanwhile_is_let_go() -> None:
    played = session()
    chosen = tap_hex(shown(played), (0, 0))
    played.act(place_json("Ann", (0, 0), 2))  # from a display, or a redo, while the picker was open
    now = shown(played, chosen)
    assert now.selection == Selection()
    assert now.mode == "play" and now.prompt == ""
    assert place(now, 3) is None


def test_every_hex_the_presenter_opens_takes_every_face() -> None:
    played = session(*golden("quantum-link-rules-example.jsonl")[:5], names=("Green", "Black"))
    now = shown(played)
    empty = {h.cell for h in now.hexes if h.die is None}
    assert now.open_cells == empty
    for cell in sorted(empty)[:8]:
        picking = shown(played, tap_hex(now, cell))
        for face in range(1, 7):
            action = place(picking, face)
            assert action is not None and played.refusal(action) is None
    assert now.pass_action is not None and played.refusal(now.pass_action) is None


# -- covers, scores, dead dice ----------------------------------------------------------------


def test_the_rules_example_says_which_die_to_cover_and_rings_it() -> None:
    played = session(*golden("quantum-link-rules-example.jsonl")[:8], names=("Green", "Black"))
    now = shown(played)
    assert now.info == "Cover Green's 4 at E5 (3 friendly neighbours)."
    assert now.info_is_news
    four = now.hex_at((0, 0))
    assert four is not None and four.outline == "just covered"
    assert four.die is not None and four.die.covered
    assert now.hex_at((0, 1)).outline == "last"  # type: ignore[union-attr]
    assert [p.score for p in now.players] == ["5", "3"]
    assert now.players[0].detail == "26 dice left, 1 covered"
    framed = {h.cell for h in now.hexes if h.die is not None and h.die.scoring}
    assert framed == {(1, -1), (0, -1), (-1, 1), (0, 1)}


def test_many_covers_at_once_point_at_the_board() -> None:
    view = session().view()
    view = replace(view, just_covered=((0, 0), (1, 0), (2, 0), (3, 0)), news="Cover a long list of dice.")
    now = present(view, [])
    assert now.info == "Cover the 4 dice ringed in orange on the table too."
    assert now.info_is_news


def test_dead_dice_are_crossed_out_only_when_asked() -> None:
    played = session(place_json("Ann", (4, -4), 4), place_json("Bo", (0, 0), 1))  # a 4 on a corner: dead
    assert shown(played).dead_count == 1
    assert not any(h.die and h.die.crossed_out for h in shown(played).hexes)
    asked = shown(played, Selection(show_dead=True))
    assert asked.show_dead
    assert {h.cell for h in asked.hexes if h.die and h.die.crossed_out} == {(4, -4)}


# -- the end ---------------------------------------------------------------------------------


def test_after_the_end_nothing_opens_and_the_result_shows() -> None:
    played = session(*golden("quantum-link-rules-example.jsonl"), names=("Green", "Black"))
    assert played.outcome is not None
    now = shown(played, Selection(cell=(4, 0)))
    assert now.mode == "over"
    assert now.turn is None and now.turn_colour is None
    assert now.pass_action is None and now.pass_text == "Pass"
    assert now.open_cells == frozenset() and now.selection == Selection()
    assert tap_hex(now, (4, 0)) == Selection()  # an empty hex after the end: nothing happens
    assert now.result_text == "Green wins 5 to 3 against Black."
    assert now.rematch is None and now.rematch_text == ""
    assert not any(p.active for p in now.players)


def test_a_tie_offers_a_new_game_opened_by_the_other_player() -> None:
    played = session(*golden("quantum-link-tie.jsonl"))
    now = shown(played)
    assert now.mode == "over"
    assert now.rematch_text == "New game, Ann opens"
    assert now.rematch == ChooseFirst("Ann", chosen_by="Bo", how="table")


# -- colours -----------------------------------------------------------------------------------


def test_two_players_of_one_colour_are_told_apart_with_a_spare_colour() -> None:
    played = session(place_json("Ann", (0, 0), 1), place_json("Bo", (2, 0), 1), colours=(RED, RED))
    same = shown(played)
    assert [p.colour for p in same.players] == [RED, RED]  # no spare offered: nothing to change to
    spare = shown(played, spare_colours=(RED, BLUE, "#43a047"))
    assert [p.colour for p in spare.players] == [RED, BLUE]
    assert spare.hex_at((2, 0)).die.colour == BLUE  # type: ignore[union-attr]
    assert spare.turn == "Ann" and spare.turn_colour == RED


def test_same_coloured_players_are_told_apart_by_their_initials_too() -> None:
    """Issue 28: a colour marking a player always has a second cue: the player's initial on each die."""
    played = session(place_json("Ann", (0, 0), 1), place_json("Bo", (2, 0), 1), colours=(RED, RED))
    same = shown(played)
    assert [h.die.mark for h in same.hexes if h.die] == ["A", "B"]
    assert [p.mark for p in same.players] == ["A", "B"]
    alike = shown(session(names=("Ann", "Anna")))
    assert [p.mark for p in alike.players] == ["1", "2"]  # both names start alike: their seat numbers


# -- passing ---------------------------------------------------------------------------------


def test_only_the_pass_that_ends_the_game_asks_first() -> None:
    """Issue 21: "a double tap passes twice and ends the game": the second pass in a row asks first."""
    played = session(place_json("Ann", (0, 0), 1))
    assert not shown(played).pass_ends_game  # Bo's pass: Ann may still place
    played.act(Pass("Bo"))
    now = shown(played)
    assert now.pass_action == Pass("Ann") and now.pass_ends_game
    assert presenter.pass_question(now) == (
        "Bo passed just now. If Ann passes too, both players have passed and the game ends: "
        "the dice that do not score are covered and the scores counted."
    )
    played.act(place_json("Ann", (1, 0), 2))
    assert not shown(played).pass_ends_game  # a die placed: passes in a row start over
