"""Quin flashes: every cell of the capture table (Key and Arcade), the special cases, the flash-back rule."""

from __future__ import annotations

import pytest

from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    KINDS,
    LIGHT,
    MEMORY,
    PERIPHERAL,
    REFLECTOR,
    SHADOW,
    TIME,
    VOID,
)
from companion.games.quin.rules import CAPTURED_LIGHT, Flashed
from tests.support.quin import (
    ANN,
    BO,
    GAME,
    LABEL,
    act,
    bring_in,
    events_of,
    flash,
    identity_words,
    move,
    pass_,
    refused,
    started,
    where,
)

# The expected outcome of every flash, written out by hand from RULINGS.md
# (rows: attacker; columns: defender, in the order below), so that a mistake
# in the code's table cannot hide in the test's table.
#   W  Light takes Light and wins (rule 1)      S  Shadows swap (rule 2)
#   X  mutual destruction (rule 3)              A  annihilation by a Void (rule 4)
#   C  capture (rule 5)                         s  swap places (rule 6)
ORDER = (LIGHT, ARTIFICIAL_LIGHT, SHADOW, TIME, REFLECTOR, MEMORY, PERIPHERAL, VOID)
KEY_TABLE = {
    #             L    AL   Sh   T    R    M    P    V
    LIGHT:      ("W", "C", "C", "C", "C", "C", "C", "C"),
    ARTIFICIAL_LIGHT: ("C", "X", "C", "s", "s", "C", "C", "C"),
    SHADOW:     ("C", "C", "S", "s", "C", "C", "C", "A"),
    TIME:       ("C", "C", "C", "X", "C", "C", "C", "A"),
    REFLECTOR:  ("s", "s", "s", "s", "X", "s", "s", "A"),
    MEMORY:     ("s", "s", "s", "s", "s", "X", "s", "A"),
    PERIPHERAL: ("s", "s", "C", "s", "s", "s", "X", "A"),
    VOID:       ("C", "C", "C", "C", "C", "C", "C", "X"),
}  # fmt: skip
ARCADE_TABLE = {
    #             L    AL   Sh   T    R    M    P    V
    LIGHT:      ("W", "C", "C", "C", "C", "C", "C", "C"),
    ARTIFICIAL_LIGHT: ("C", "X", "C", "C", "C", "C", "C", "C"),
    SHADOW:     ("C", "C", "S", "C", "C", "C", "C", "A"),
    TIME:       ("C", "C", "C", "X", "C", "C", "C", "A"),
    REFLECTOR:  ("s", "s", "s", "s", "X", "s", "s", "A"),
    MEMORY:     ("s", "s", "s", "s", "s", "X", "s", "A"),
    PERIPHERAL: ("C", "C", "C", "C", "C", "C", "X", "A"),
    VOID:       ("C", "C", "C", "C", "C", "C", "C", "X"),
}  # fmt: skip
RESULT_OF = {
    "W": "light takes light",
    "S": "shadows swap",
    "X": "mutual destruction",
    "A": "annihilation",
    "C": "capture",
    "s": "swap",
}
CELLS = [
    (rule, attacker, defender, table[attacker][ORDER.index(defender)])
    for rule, table in (("key", KEY_TABLE), ("arcade", ARCADE_TABLE))
    for attacker in ORDER
    for defender in ORDER
]


def ready_to_flash(attacker: str, defender: str, rule: str = "key"):
    """Ann to play, with a piece of each kind on the board (Artificial Lights brought in first)."""
    state = started(capture_rule=rule)
    state = act(state, bring_in(ANN, LABEL[ARTIFICIAL_LIGHT]) if attacker == ARTIFICIAL_LIGHT else pass_(ANN))
    return act(state, bring_in(BO, LABEL[ARTIFICIAL_LIGHT]) if defender == ARTIFICIAL_LIGHT else pass_(BO))


def test_the_tables_cover_every_cell():
    assert set(ORDER) == set(KINDS)
    assert len(CELLS) == 2 * 64


@pytest.mark.parametrize(("rule", "attacker", "defender", "code"), CELLS, ids=lambda v: str(v))
def test_every_cell_of_the_capture_table(rule, attacker, defender, code):
    state = ready_to_flash(attacker, defender, rule)
    a, d = LABEL[attacker], LABEL[defender]
    events = events_of(state, flash(ANN, a, d))
    flashed = events[0]
    assert isinstance(flashed, Flashed)
    assert flashed.result == RESULT_OF[code]
    after = act(state, flash(ANN, a, d))
    # Both pieces are revealed, whatever happened.
    assert after.piece(ANN, a).revealed and after.piece(BO, d).revealed
    won = code == "W" or (code == "C" and defender == LIGHT)
    if code in ("W", "C"):
        assert (where(after, ANN, a), where(after, BO, d)) == ("board", "captured")
    elif code in ("X", "A"):
        assert (where(after, ANN, a), where(after, BO, d)) == ("removed", "removed")
    else:
        assert (where(after, ANN, a), where(after, BO, d)) == ("board", "board")
    if won:
        outcome = GAME.outcome(after)
        assert outcome is not None and outcome.winners == (ANN,) and outcome.reason == CAPTURED_LIGHT
        assert after.phase == "over"
    else:
        assert GAME.outcome(after) is None
        assert after.turn == BO  # a flash ends the turn
    # The sentence names both pieces with their identities.
    sentence = GAME.public_view(after)["last_flash"]["sentence"]
    assert f"Ann's {a} ({attacker})" in sentence and f"Bo's {d} ({defender})" in sentence


def test_taken_pieces_go_face_up_to_the_rival_zero_g_card():
    state = ready_to_flash(MEMORY, MEMORY)
    state = act(state, flash(ANN, "6", "6"))  # mutual destruction
    view = GAME.public_view(state)
    ann_card, bo_card = (p["zero_g"] for p in view["players"])
    assert {"owner": BO, "label": "6", "identity": MEMORY, "how": "destroyed"} in ann_card["face_up"]
    assert {"owner": ANN, "label": "6", "identity": MEMORY, "how": "destroyed"} in bo_card["face_up"]
    state = act(state, flash(BO, "8", "2"))  # Bo's Peripheral captures Ann's Shadow
    bo_card = GAME.public_view(state)["players"][1]["zero_g"]
    assert {"owner": ANN, "label": "2", "identity": SHADOW, "how": "captured"} in bo_card["face_up"]


def test_annihilation_puts_each_piece_on_the_other_card():
    state = act(ready_to_flash(SHADOW, VOID), flash(ANN, "2", "9"))
    view = GAME.public_view(state)
    assert view["players"][0]["zero_g"]["face_up"] == [
        {"owner": BO, "label": "9", "identity": VOID, "how": "annihilated"}
    ]
    assert view["players"][1]["zero_g"]["face_up"] == [
        {"owner": ANN, "label": "2", "identity": SHADOW, "how": "annihilated"}
    ]


def test_revealed_pieces_stay_revealed_after_a_swap():
    state = act(ready_to_flash(PERIPHERAL, TIME), flash(ANN, "8", "4"))  # Peripheral cannot take Time: swap
    state = act(state, pass_(BO), pass_(ANN), pass_(BO))
    ann, bo = GAME.public_view(state)["players"]
    assert ann["pieces"][7] == {"label": "8", "where": "board", "revealed": True, "identity": PERIPHERAL}
    assert bo["pieces"][3] == {"label": "4", "where": "board", "revealed": True, "identity": TIME}


@pytest.mark.parametrize("capturer", [VOID, ARTIFICIAL_LIGHT, SHADOW, TIME, LIGHT])
def test_capturing_the_rival_light_wins_whatever_captures_it(capturer):
    state = act(ready_to_flash(capturer, LIGHT), flash(ANN, LABEL[capturer], "1"))
    outcome = GAME.outcome(state)
    assert outcome.winners == (ANN,) and outcome.reason == CAPTURED_LIGHT
    assert "Ann wins" in outcome.detail


def test_arcade_peripheral_takes_the_light_and_wins():
    state = act(ready_to_flash(PERIPHERAL, LIGHT, "arcade"), flash(ANN, "8", "1"))
    assert GAME.outcome(state).winners == (ANN,)


def test_key_peripheral_cannot_take_the_light():
    state = act(ready_to_flash(PERIPHERAL, LIGHT), flash(ANN, "8", "1"))
    assert GAME.outcome(state) is None
    assert where(state, BO, "1") == "board"


def test_at_the_end_every_identity_is_public():
    state = act(ready_to_flash(LIGHT, LIGHT), flash(ANN, "1", "1"))
    view = GAME.public_view(state)
    for player in view["players"]:
        assert all(p["revealed"] and p["identity"] for p in player["pieces"])
    assert view["outcome"]["winners"] == [ANN]
    refused(state, pass_(BO), "game is over")


# -- refusals ---------------------------------------------------------------------------------


def test_a_piece_not_on_the_board_cannot_flash():
    state = started()
    refused(state, flash(ANN, "12", "2"), "Your 12 is not on the board .*Zero-G.*cannot flash")


def test_a_piece_not_on_the_board_cannot_be_flashed():
    state = started()
    refused(state, flash(ANN, "2", "12"), "Bo's 12 is not on the board")


def test_a_taken_piece_cannot_flash():
    state = act(started(), pass_(ANN), flash(BO, "8", "2"))  # Ann's Shadow 2 is captured
    refused(state, flash(ANN, "2", "8"), "Your 2 is not on the board .*taken")


def test_flash_back_of_the_same_pair_on_the_very_next_turn_is_refused():
    state = act(started(), flash(ANN, "8", "4"))  # Peripheral vs Time: they swap, both stay
    sentence = refused(state, flash(BO, "4", "8"), "may not flash back")
    assert identity_words(sentence) == set()
    # The ban is public and names the pair.
    assert GAME.public_view(state)["flash_back_ban"]["sentence"] == "Bo's 4 may not flash Ann's 8 back this turn."
    # Other flashes are fine on that turn, and the same pair is fine a turn later.
    act(state, flash(BO, "4", "6"))
    later = act(state, pass_(BO), pass_(ANN))
    assert GAME.public_view(later)["flash_back_ban"] is None
    after = act(later, flash(BO, "4", "8"))  # Time captures Peripheral
    assert where(after, ANN, "8") == "captured"


def test_the_attacker_may_flash_the_same_piece_again():
    state = act(started(), flash(ANN, "8", "4"), pass_(BO))
    act(state, flash(ANN, "8", "4"))


def test_flash_back_rule_applies_to_the_defender_only():
    state = act(started(), flash(ANN, "8", "4"))
    act(state, flash(BO, "2", "8"))  # another of Bo's pieces may flash Ann's 8


def test_flash_ends_the_turn_and_is_the_last_move():
    state = act(started(), flash(ANN, "2", "8", **{"from": "A3", "to": "B4"}))
    view = GAME.public_view(state)
    assert view["turn"] == BO
    assert view["last_move"] == {"player": ANN, "steps": ["Ann's 2 (Shadow) captures Bo's 8 (Peripheral)."]}


def test_a_flash_by_reflector_needs_a_reflector_sending_a_light():
    state = act(started(), bring_in(ANN, "11"), pass_(BO))
    sentence = refused(state, flash(ANN, "2", "8", reflector="5"), "cannot send your 2")
    assert identity_words(sentence) <= {REFLECTOR, LIGHT, ARTIFICIAL_LIGHT}  # names the power, not the pieces
    refused(state, flash(ANN, "11", "8", reflector="6"), "cannot send your 11")
    after = act(state, flash(ANN, "11", "8", reflector="5"))
    view = GAME.public_view(after)
    assert view["players"][0]["powers_used"]["reflector"] == 1
    assert view["last_move"]["steps"][0].startswith("Ann used a Reflector. Ann's 11 (Artificial Light) captures")
    assert not after.piece(ANN, "5").revealed  # the Reflector itself stays hidden


def test_a_swapped_piece_cannot_flash_on_that_turn():
    state = act(started(), {"type": "swap", "player": ANN, "memory": "6", "with": "2"})
    refused(state, flash(ANN, "2", "8"), "Memory swap this turn")
    refused(state, flash(ANN, "6", "8"), "Memory swap this turn")
    act(state, flash(ANN, "3", "8"))  # any other piece may


def test_move_to_a_named_point_is_recorded():
    state = act(started(), move(ANN, "3", **{"from": "Gateway 1", "to": "Ring 2"}))
    assert GAME.public_view(state)["last_move"]["steps"] == ["Ann moved 3 from Gateway 1 to Ring 2."]
