"""The Quin screen's presenter, without a window: what the table and a private setup show, what taps send."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence

from companion.games.quin.examples import example_setup
from companion.games.quin.rules import (
    Assign,
    BringIn,
    ClaimFirstSight,
    Clone,
    Flash,
    Gravity,
    Move,
    Pass,
    Reflect,
    Resurrect,
    Setup,
    SetupDone,
    Swap,
    Unassign,
    UseTime,
)
from companion.games.quin.settings import QuinSettings
from companion.games.quin.state import QuinState
from tests.support.quin import ANN, BO, GAME, act, flash, identity_words, new_game, pass_, started
from ui.presenters.quin import TAKE_BACK, QuinShown, Selection, SetupPicks, present, present_setup

RED, BLUE = "#e53935", "#1e88e5"
NOTHING = Selection()
NO_PICKS = SetupPicks()


def shown_for(state: QuinState, selection: Selection = NOTHING, colours: Sequence[str] = (RED, BLUE)) -> QuinShown:
    return present(GAME.view(state), selection, colours=colours, can_race=True)


def piece(shown: QuinShown, owner: str, label: str):
    side = next(s for s in shown.sides if s.name == owner)
    return next(p for p in side.pieces if p.key == (owner, label))


def every_text(shown: object) -> str:
    return json.dumps(shown, default=lambda o: o.__dict__)


# -- the shared table ------------------------------------------------------------------------------


def test_the_setup_offers_each_player_a_private_setup_and_the_race():
    shown = shown_for(act(new_game(), example_setup(ANN)))
    assert shown.phase == "setup"
    assert shown.setup_lines == ("Ann: setup done", "Bo: set up in private")
    assert shown.first_text == "Who goes first? The water race" and shown.race_open
    assert [s.status for s in shown.sides] == ["setup done", "setting up"]
    assert {p.look for s in shown.sides for p in s.pieces} == {"off"}
    assert identity_words(every_text(shown)) == set()  # nothing of Ann's finished setup shows
    chosen = shown_for(act(new_game(), {"type": "choose_first", "player": BO, "chosen_by": ANN, "how": "race"}))
    assert chosen.first_text == "Bo goes first" and not chosen.race_open


def test_play_shows_where_pieces_are_and_only_what_was_revealed():
    state = act(started(), flash(ANN, "8", "2"))  # Ann's Peripheral captures Bo's Shadow
    shown = shown_for(state)
    assert shown.result == "Ann's 8 (Peripheral) captures Bo's 2 (Shadow)."
    assert piece(shown, ANN, "8").text == "[b]8[/b][size=10sp]\nPeripheral[/size]"
    assert piece(shown, BO, "2").look == "taken" and "Shadow" in piece(shown, BO, "2").text
    assert piece(shown, ANN, "12").look == "waiting" and piece(shown, ANN, "1").look == "board"
    assert piece(shown, ANN, "1").text == "[b]1[/b]"
    assert shown.sides[0].card == "Zero-G card: face down 11 12 13 14 15 16 17; face up Bo's 2 (Shadow, captured)"
    assert [s.status for s in shown.sides] == ["", "to play"] and shown.sides[1].active
    assert identity_words(every_text(shown)) == {"Peripheral", "Shadow"}


def test_alike_colours_give_way_to_the_seat_colours():
    assert [s.colour for s in shown_for(started()).sides] == [RED, BLUE]
    assert [s.colour for s in shown_for(started(), colours=(RED, RED)).sides] == [None, None]


def test_a_flash_is_two_taps():
    shown = shown_for(started())
    tap = shown.tap_piece((ANN, "8"))
    assert tap.action is None and tap.selection.pieces == ((ANN, "8"),)
    shown = shown_for(started(), tap.selection)
    assert piece(shown, ANN, "8").mark == "attacker"
    assert shown.hint == "Ann's 8 selected: tap a piece of Bo's to flash it, or choose below."
    tap = shown.tap_piece((BO, "2"))
    assert tap.action == Flash(ANN, "8", "2") and tap.selection == Selection()


def test_own_pieces_are_selected_in_order_and_let_go_on_a_second_tap():
    shown = shown_for(started())
    selection = shown.tap_piece((ANN, "6")).selection
    selection = shown_for(started(), selection).tap_piece((ANN, "2")).selection
    shown = shown_for(started(), selection)
    assert selection.pieces == ((ANN, "6"), (ANN, "2"))
    assert (piece(shown, ANN, "6").mark, piece(shown, ANN, "2").mark) == ("attacker", "selected")
    assert shown.tap_piece((ANN, "6")).selection.pieces == ((ANN, "2"),)


def test_each_play_button_sends_its_action():
    state = started()

    def verb(name: str, *labels: str):
        selection = Selection(tuple((ANN, label) for label in labels))
        return shown_for(state, selection).verb(name).action

    assert verb("move", "3") == Move(ANN, "3")
    assert verb("first_sight", "1") == ClaimFirstSight(ANN, "1")
    assert verb("totem", "2") == Resurrect(ANN, "2")
    assert verb("bring_in", "11", "12") == BringIn(ANN, labels=("11", "12"))
    assert verb("swap", "6", "2") == Swap(ANN, "6", "2")
    assert verb("reflect", "5", "1") == Reflect(ANN, "5", "1")
    assert verb("gravity", "9", "10") == Gravity(ANN, "9", ("10",))
    assert verb("pass") == Pass(ANN)
    assert verb("clear", "3") is None


def test_a_button_without_its_pieces_says_what_to_select():
    tap = shown_for(started(), Selection(((ANN, "6"),))).verb("swap")
    assert tap.action is None and tap.error
    assert tap.say == "Select the Memory, then the piece it swaps with, then tap Swap."
    assert tap.selection.pieces == ((ANN, "6"),)  # kept, to add the second piece


def test_time_aims_at_the_next_rival_piece():
    shown = shown_for(started(), Selection(((ANN, "4"), (ANN, "2"))))
    tap = shown.verb("time")
    assert tap.action is None and tap.selection == Selection(((ANN, "4"),), aiming_time=True)
    shown = shown_for(started(), tap.selection)
    assert shown.hint == "Time: tap the piece of Bo's that it moves back."
    assert shown.tap_piece((BO, "8")).action == UseTime(ANN, "4", "8")


def test_the_last_move_is_one_tap_away_and_the_flash_back_ban_is_hinted():
    state = act(started(), flash(ANN, "8", "4"))  # Peripheral and Time swap places
    shown = shown_for(state)
    assert shown.hint.endswith("Bo's 4 may not flash Ann's 8 back this turn.")
    tap = shown.verb("last_move")
    assert shown_for(state, tap.selection).result == (
        "Last move (Ann): Ann's 8 (Peripheral) cannot capture Bo's 4 (Time), so they swap places."
    )
    assert not shown_for(state, tap.selection).verb("last_move").selection.showing_last_move
    state = act(state, {"type": "swap", "player": BO, "memory": "6", "with": "3"})
    shown = shown_for(state, Selection(showing_last_move=True))
    assert shown.result.endswith("This turn so far: Bo made a Memory swap: 3 and 6 swapped places.")


def test_the_end_shows_the_outcome():
    state = act(started(), pass_(ANN), flash(BO, "1", "1"))
    shown = shown_for(state)
    assert shown.result == "Bo's 1 (Light) takes Ann's 1 (Light); Bo wins. Every identity is now shown."
    assert shown.hint == "The game is over." and [s.status for s in shown.sides] == ["", "wins"]


# -- one player's private setup --------------------------------------------------------------------------


def setup_for(state: QuinState, picks: SetupPicks = NO_PICKS, player: str = ANN):
    return present_setup(GAME.own_view(state, player), picks)


def test_the_clone_is_sent_once_both_faces_are_picked():
    shown = setup_for(new_game())
    al = "Artificial\nLight"
    assert [c.text for c in shown.clone_from] == [al, "Time", "Reflector", "Memory", "Peripheral", "Void"]
    assert [c.text for c in shown.clone_to] == ["Time", "Memory", "Void", al]
    tap = shown.pick_clone("from", "Peripheral")
    assert tap.action is None and tap.picks.clone_from == "Peripheral"
    assert [c.value for c in setup_for(new_game(), tap.picks).clone_from if c.chosen] == ["Peripheral"]
    tap = setup_for(new_game(), tap.picks).pick_clone("to", "Time")
    assert tap.action == Clone(ANN, "Peripheral", "Time") and tap.picks == SetupPicks()
    state = act(new_game(), tap.action)
    again = setup_for(state).pick_clone("to", "Void")  # the other face is the one the rules hold
    assert again.action == Clone(ANN, "Peripheral", "Void")


def test_a_tap_on_a_label_gives_the_chosen_identity_and_place_or_takes_it_back():
    state = act(new_game(), Clone(ANN, "Peripheral", "Time"))
    shown = setup_for(state, SetupPicks(kind="Light", place="zero-g"))
    assert shown.tap_label("1").action == Assign(ANN, "1", "Light", "zero-g")
    state = act(state, shown.tap_label("1").action)
    shown = setup_for(state, SetupPicks(kind=TAKE_BACK))
    assert shown.pieces[0].look == "waiting" and "Light\nZero-G" in shown.pieces[0].text
    assert next(c for c in shown.kinds if c.value == "Light").text == "Light\n1 of 1"
    assert shown.kinds[-1].chosen and shown.tap_label("1").action == Unassign(ANN, "1")
    assert shown.message.startswith("Still to do: give an identity to labels 2, 3")


def test_deal_and_done():
    shown = setup_for(new_game())
    dealt = shown.deal(QuinSettings(), random.Random(4))
    assert isinstance(dealt, Setup) and not dealt.done and len(dealt.board) == 10 and len(dealt.zero_g) == 7
    state = act(new_game(), dealt)
    shown = setup_for(state)
    assert shown.message == "All set: tap Done to finish (it cannot be changed afterwards)."
    assert shown.finish() == SetupDone(ANN)


def test_a_private_setup_shows_its_player_only():
    state = act(new_game(), example_setup(BO))
    shown = setup_for(state, player=ANN)
    assert all(p.look == "unassigned" for p in shown.pieces)
    assert identity_words(every_text(shown.pieces)) == set()


def test_the_presenter_needs_no_kivy():
    code = "import sys, ui.presenters.quin; sys.exit('kivy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_finished_game_takes_no_tap_and_tells_its_end():
    """Issue 21: "a finished Quin game's action buttons look live": once over, nothing stays selected, a tap
    on a piece or a button sends nothing, no side is highlighted as to play, and the big line tells the end."""
    state = act(started(), flash(ANN, "1", "1"))  # Light takes Light: Ann wins
    shown = shown_for(state, Selection(((ANN, "5"),), showing_last_move=True))
    assert shown.over and shown.selection == Selection() and shown.turn is None
    assert shown.result.startswith("Ann's 1 (Light) takes Bo's 1 (Light); Ann wins.")
    assert not any(side.active for side in shown.sides)
    assert shown.tap_piece((BO, "3")).action is None
    for verb in ("move", "pass", "time", "last_move", "clear"):
        assert shown.verb(verb).action is None and shown.verb(verb).say is None


def test_the_look_away_words_only_for_a_seat_that_sets_up_here():
    """Issue 21: "Quin still says 'each player in turn, while the other looks away' when both players have
    displays." The big line says who sets up where; the look-away words only for a seat without its own screen."""
    view = GAME.view(new_game())
    alone = present(view, NOTHING)
    assert alone.result == "Private setup: each player in turn, while the other looks away."
    both = present(view, NOTHING, screens={ANN: "display", BO: "display"})
    assert both.result == "Private setup: Ann on their display and Bo on their display."
    assert "look" not in both.result
    one = present(view, NOTHING, screens={BO: "phone"})
    assert one.result == "Private setup: Bo on their phone; Ann here, while Bo looks away."
    assert one.setup_lines == ("Ann: set up in private", "Bo: on their phone, or here")


def test_the_setup_names_the_capture_rule_in_plain_words():
    """Issue 21: "Captures: the Key / Arcade" is jargon: plain words first, the rules' term beside them."""
    from companion.games import game

    assert [words for _value, words in game("quin").facts.variant.choices] == [
        "Capture rule: the Key",
        "Capture rule: Arcade",
    ]
    key = present(GAME.view(new_game()), NOTHING).hint
    assert "Capture rule: the Key (each piece captures what the Key's table says)." in key
    arcade = present(GAME.view(new_game(capture_rule="arcade")), NOTHING).hint
    assert "Capture rule: Arcade (every piece but Memory and Reflector captures)." in arcade
