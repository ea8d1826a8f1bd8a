"""The Quark screen's presenter, without a window: what the screen shows, and the actions its taps send."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.game import TIE, Options, Outcome
from companion.games.quark.rules import Annihilate, Correct, Create, Decay, DiscardDraw, Draw, EndTurn, Transform
from companion.session import Session
from companion.store import Store
from ui.presenters import quark as presenter

GOLDEN = Path(__file__).resolve().parent.parent / "games" / "golden"
PLAYERS = ("Ann", "Bo", "Cy", "Dee")
COLOURS = {"Ann": "#e53935", "Bo": "#1e88e5"}


def actions_of(name: str) -> list[dict[str, Any]]:
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip() and not line.startswith("#")]


def session(*players: str) -> Session:
    return Session.start(Store.in_memory(), "quark", Options.for_names(*(players or PLAYERS)), clock=lambda: 0.0)


def shown(game: Session) -> presenter.QuarkShown:
    return presenter.present(game.view(), COLOURS)


# -- the live table --------------------------------------------------------------------------------------


def test_a_fresh_table() -> None:
    now = shown(session())
    assert not now.over and now.player == "Ann" and now.actions_left == 2
    assert now.turn_text == "Ann to play: 2 actions left"
    assert [row.name for row in now.rows] == list(PLAYERS)
    ann = now.rows[0]
    assert (ann.energy, ann.protons, ann.hand, ann.decayed, ann.score, ann.atom) == ("2", "0", "5", "", "2", "")
    assert ann.current and not now.rows[1].current
    assert (ann.colour, now.rows[2].colour) == ("#e53935", None)  # a player without a colour gets the theme's
    assert now.supplies == "Bank: 72 energy · 16 protons · 20 neutrons"
    # Issue 21: "quark 103 + 3 up" was jargon a new group could not read.
    assert now.decks == "Quark deck 98 · 3 face up;  Baryon deck 21 · 3 face up;  Meson deck 20 · 3 face up"
    assert (now.quark_deck, now.quark_row, now.hand, now.decayed) == (98, 3, 5, 0)
    assert now.warning == ""
    assert now.rank_choices[0] == presenter.RankChoice("up", "UP   +2 energy")
    assert now.rank_choices[-1] == presenter.RankChoice("top", "TOP   +8 energy")
    # A card turns upward only: never from TOP, never into UP.
    assert now.transform_sources == ("up", "down", "strange", "charmed", "bottom")
    assert now.transform_targets == ("down", "strange", "charmed", "bottom", "top")
    assert (now.annihilate_decayed_most, now.create_decayed_most) == (0, 0)


def test_how_far_into_the_turn_and_the_decayed_cards() -> None:
    game = session()
    game.act(Decay("Ann"))
    now = shown(game)
    assert now.turn_text == "Ann to play: 1 action left"
    assert now.rows[0].decayed == "+1 decayed" and now.rows[0].hand == "4"
    assert (now.annihilate_decayed_most, now.create_decayed_most) == (1, 1)
    game.act(Decay("Ann"))
    now = shown(game)
    assert now.actions_left == 0 and now.turn_text == "Ann: both actions taken, end the turn"
    assert (now.annihilate_decayed_most, now.create_decayed_most) == (2, 2)


def test_the_warning_says_the_end_the_hand_limit_and_the_notice() -> None:
    game = session()
    for action in actions_of("quark-4p-lithium.jsonl")[:-1]:
        game.act(action)
    view = game.view()
    now = presenter.present(view)
    assert view.end is not None and now.warning.startswith(view.end.sentence)
    assert "the end is triggered" in now.warning
    assert view.notice in now.warning
    game.act(presenter.Correction(now.player, "hand", 9).action())
    assert "discard 2 down to 7 at the end of the turn" in presenter.present(game.view()).warning


def test_the_bank_says_when_it_is_empty() -> None:
    game = session()
    for action in actions_of("quark-4p-lithium.jsonl")[:-1]:
        game.act(action)
    assert shown(game).supplies.endswith("(the energy bank is empty)")


# -- the end -------------------------------------------------------------------------------------------


def test_the_scores_name_the_atom_and_the_winner() -> None:
    game = session()
    for action in actions_of("quark-4p-lithium.jsonl"):
        game.act(action)
    now = shown(game)
    assert now.over and now.player == "" and now.turn_text == "Game over"
    assert now.verdict == "Ann wins with 100 points (Lithium)."
    assert [(r.name, r.atom, r.total, r.winner) for r in now.scores] == [
        ("Ann", "Lithium 90", "100", True),
        ("Bo", "no atom", "53", False),
        ("Cy", "no atom", "70", False),
        ("Dee", "no atom", "22", False),
    ]
    assert now.scores[0].colour == "#e53935"
    lines = {line.text.split(" ")[0]: line for line in now.atoms}
    assert lines["Lithium"] == presenter.AtomLine("Lithium (3 protons, 4 neutrons, 3 energy): 90 points")
    assert lines["Hydrogen"].text == "Hydrogen (1 proton, 0 neutrons, 1 energy): 10 points"
    assert lines["Hydrogen"].note == "(our default: set it from your Atom cards)"
    assert lines["Hydrogen"].note_tone == "warn"


def test_a_tie_is_shown_as_a_tie() -> None:
    game = session("Ann", "Bo")
    for action in actions_of("quark-2p-beryllium-tie.jsonl"):
        game.act(action)
    now = shown(game)
    assert now.verdict == "A tie: Ann and Bo tie on 161 points."
    assert not any(row.winner for row in now.scores)


def test_atoms_from_the_config_file_say_so() -> None:
    game = Session.start(
        Store.in_memory(), "quark", Options.for_names("Ann", "Bo", atoms={"Helium": [2, 2, 2, 45]}), clock=lambda: 0.0
    )
    view = replace(game.view(), over=True, outcome=Outcome((), TIE))
    helium = next(line for line in presenter.present(view).atoms if line.text.startswith("Helium"))
    assert (helium.note, helium.note_tone) == ("(from your config file)", "")


# -- the taps ------------------------------------------------------------------------------------------


def test_each_tap_sends_a_typed_action() -> None:
    assert presenter.draw("Ann", "row") == Draw("Ann", "row")
    assert presenter.discard_draw("Ann", "row", "blind") == DiscardDraw("Ann", ("row", "blind"))
    assert presenter.decay("Ann") == Decay("Ann")
    assert presenter.annihilate("Ann", "top", 1) == Annihilate("Ann", "top", 1)
    game = session()
    for action in (presenter.draw("Ann", "blind"), presenter.annihilate("Ann", "top")):
        game.act(action)
    assert game.public_view()["players"][0]["energy"] == 10


def test_a_creation_becomes_its_action() -> None:
    meson = presenter.Creation("meson", points=4, source="up", target="strange")
    assert meson.action("Bo") == Create("Bo", "meson", points=4, transform=Transform("up", "strange"))
    proton = presenter.Creation("proton", points=4, decayed=1)
    assert proton.action("Bo") == Create("Bo", "proton", decayed=1)  # a proton has no points to send


def test_the_creation_preview_asks_the_rules() -> None:
    game = session()
    game.act(EndTurn("Ann"))
    assert presenter.preview_creation(game, "Bo", presenter.Creation()) == presenter.CHOOSE_A_PARTICLE
    half = presenter.Creation("meson", points=4, source="up")
    assert presenter.preview_creation(game, "Bo", half) == presenter.TRANSFORM_BOTH_ENDS
    dear = presenter.Creation("meson", points=4, source="up", target="top")
    assert presenter.preview_creation(game, "Bo", dear) == presenter.Preview(
        "Bo has 2 energy; turning UP into TOP costs 5 (5 steps up): 3 more energy needed.", False
    )
    cheap = presenter.Creation("meson", points=4, source="up", target="strange")
    assert presenter.preview_creation(game, "Bo", cheap) == presenter.Preview(
        "Bo creates a meson worth 4 points, turning UP into STRANGE for 2 energy.", True
    )
    # The engine's own checks come first: it is not Ann's turn.
    assert presenter.preview_creation(game, "Ann", cheap) == presenter.Preview("It is Bo's turn, not Ann's.", False)
    assert len(game.moves) == 1  # asking changed nothing


def test_the_hand_count_against_the_limit() -> None:
    assert presenter.hand_check(9) == presenter.HandCheck(
        "Over the limit: discard 2 cards down to 7, then end the turn.", True
    )
    assert presenter.hand_check(8).reminder == "Over the limit: discard 1 card down to 7, then end the turn."
    assert presenter.hand_check(7) == presenter.HandCheck("7 cards in hand: within the limit of 7.", False)
    assert presenter.hand_check(1).reminder == "1 card in hand: within the limit of 7."


# -- the correction popup ----------------------------------------------------------------------------------


def test_the_end_of_the_turn_sends_no_hand_count() -> None:
    """The hand is corrected with a correction, so the end of the turn is only the end of the turn."""
    assert presenter.end_turn("Ann") == EndTurn("Ann")


def test_whose_counts_can_be_corrected() -> None:
    """Issue 14: "sets any counter of any player ... and the deck counts and rows"; RULINGS: a player who
    left is "not scored", and their counts are not corrected."""
    game = session()
    game.act({"type": "leave", "player": "Cy"})
    now = shown(game)
    assert now.correctable == (("Ann", "Ann"), ("Bo", "Bo"), ("Dee", "Dee"), ("", "Table"))
    assert now.counts["Bo"] == {"energy": 2, "protons": 0, "neutrons": 0, "particle_points": 0, "hand": 5}
    assert now.counts[""]["quark_deck"] == 98 and now.counts[""]["meson_row"] == 3
    assert [words for _c, words in presenter.counter_choices("Ann")] == [
        "Energy",
        "Protons",
        "Neutrons",
        "Particle pts",
        "Hand",
    ]
    assert [c for c, _words in presenter.counter_choices("")] == [
        "quark_deck",
        "quark_row",
        "baryon_deck",
        "baryon_row",
        "meson_deck",
        "meson_row",
    ]


def test_choosing_starts_from_our_count() -> None:
    now = shown(session())
    assert presenter.choose(now, "Bo", "hand") == presenter.Correction("Bo", "hand", 5)
    # The table has no energy: its first counter instead.
    assert presenter.choose(now, "", "energy") == presenter.Correction("", "quark_deck", 98)
    assert presenter.choose(now, "Ann", "meson_row") == presenter.Correction("Ann", "energy", 2)


def test_a_correction_is_previewed_then_sent_as_one_action() -> None:
    """Issue 14: "It is visible in the log as a correction ('Correction: Ann's energy 7 → 5')"; "where that is
    impossible it refuses with a sentence"."""
    game = session()
    now = shown(game)
    same = presenter.Correction("Ann", "energy", 2)
    assert presenter.preview_correction(game, now, same) == presenter.Preview(
        "Ann's energy is 2 by our count: set what the table has.", False
    )
    up = presenter.Correction("Ann", "energy", 7)
    assert presenter.preview_correction(game, now, up) == presenter.Preview("Correction: Ann's energy 2 › 7.", True)
    too_many = presenter.Correction("Ann", "protons", 17)
    assert presenter.preview_correction(game, now, too_many) == presenter.Preview(
        "The bank has only 16 protons: Ann's protons can be at most 16.", False
    )
    deck = presenter.Correction("", "quark_deck", 90)
    assert presenter.preview_correction(game, now, deck).text == "Correction: the quark deck 98 › 90."
    assert up.action() == Correct("energy", 7, "Ann") and deck.action() == Correct("quark_deck", 90)
    game.act(up.action())
    assert shown(game).rows[0].energy == "7" and game.state.actions_left == 2
