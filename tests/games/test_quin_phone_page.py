"""Quin's phone page (``display.phone_page``): a player's own view on their phone, over random games.

DESIGN.md, Secrets: "only `private_view(state, p)` exposes it, and only to
player p's own display"; issue 15: the page shows "the full identity list",
"the Zero-G card", "the powers left", "the last flash" and "Quin's private
setup, done by tapping on the phone".
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game import Options, Player, RuleError
from companion.games.quin import display
from companion.games.quin.state import QuinState
from companion.session import Session
from companion.store import Store
from tests.games.test_quin_secrets import NAMES, hidden_kinds, random_action, random_setup, table_settings, twins
from tests.support.quin import ANN, BO, GAME, identity_words, new_game, started

TONES = {"normal", "muted", "accent", "warn"}


def page_of(state: QuinState, player: str) -> dict[str, Any]:
    page = GAME.phone_page(GAME.own_view(state, player))
    assert page is not None
    return page


def check_page(state: QuinState, player: str) -> None:
    """`player`'s page: every one of their own identities, nothing that tells the rival's hidden ones."""
    rival = BO if player == ANN else ANN
    page = page_of(state, player)
    text = json.dumps(page, ensure_ascii=False)
    rows = [row["text"] for section in page["sections"] for row in section["rows"]]
    for piece in state.pieces_of(player):
        assert f"{piece.label}  {piece.identity or '?'}" in rows, f"{player}'s {piece.label} is not on the page"
    # Which hidden piece of the rival is which never changes the page (swapped twins give the same JSON).
    for twin in twins(state, rival):
        assert json.dumps(page_of(twin, player), ensure_ascii=False) == text
    for piece in state.pieces_of(rival):
        if piece.identity and not piece.revealed:
            assert f"{rival}'s {piece.label} ({piece.identity})" not in text
    # A kind only the rival holds, still hidden, is nowhere in what the page tells (its choices are menus).
    own = {p.identity for p in state.pieces_of(player)} | {k for k, n in state.counts_for(player).items() if n}
    own |= set(state.side(player).clone or ())  # their own Clone names the face it replaced
    secret = hidden_kinds(state, rival) - own
    assert not identity_words(json.dumps(page["sections"]), secret), f"{player}'s page names {secret}"
    for section in page["sections"]:
        assert all(row["tone"] in TONES for row in section["rows"])
    for choice in page["choices"]:
        assert choice["action"]["player"] == player, "a choice acts for the page's own player only"
        assert choice["tone"] in TONES


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(table=table_settings(), data=st.data())
def test_a_page_carries_every_own_identity_and_never_a_hidden_one_of_the_rival(table: Any, data: Any) -> None:
    """Issue 15: "Assert that each page shows its own player's identities and never the rival's, at every step"."""
    session = Session.start(Store.in_memory(), "quin", Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), table))
    for player in data.draw(st.permutations(NAMES)):
        session.act(random_setup(data, session.state, player))
        for someone in NAMES:
            check_page(session.state, someone)
    for _ in range(data.draw(st.integers(5, 60))):
        if session.outcome is not None:
            break
        action = random_action(data, session.state)
        if action.get("type") == "undo":
            session.undo()
        else:
            with contextlib.suppress(RuleError):
                session.act(action)
        for someone in NAMES:
            check_page(session.state, someone)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=table_settings(), data=st.data())
def test_a_whole_private_setup_done_only_by_tapping_the_page_reaches_ready(table: Any, data: Any) -> None:
    """Issue 15: "Quin's private setup, done by tapping on the phone": every tap one setup action, through a Session."""
    session = Session.start(Store.in_memory(), "quin", Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), table))
    order = data.draw(st.permutations(NAMES))
    for player in order:
        for _tap in range(200):
            view = session.own_view(player)
            if not display.in_setup(view):
                break
            choices = page_of(session.state, player)["choices"]
            assert choices, "a player still setting up always has something to tap"
            taps = [c for c in choices if c["action"]["type"] != "unassign"]
            # Now and then a take-back, as a player correcting a tap would.
            pool = choices if data.draw(st.integers(0, 9)) == 0 else taps
            choice = data.draw(st.sampled_from(pool))
            try:
                session.act(choice["action"])
            except RuleError as refused:
                raise AssertionError(f"the page offered {choice['label']!r}, refused: {refused}") from None
            check_page(session.state, player)
        setup = session.own_view(player).setup
        assert setup is None or setup.done
    assert session.state.phase == "play", "both sides set up by their pages alone: play begins"


def test_the_choices_are_the_setup_menus_own_actions() -> None:
    """A tap sends what the small display's setup menu would send: `clone`, `assign`, `unassign`, `setup_done`."""
    state = new_game()
    first = page_of(state, ANN)["choices"]
    assert {c["action"]["type"] for c in first} == {"clone"}
    assert any(c["label"] == "Clone: Artificial Light → Time" for c in first)
    chosen = next(c["action"] for c in first if c["label"] == "Clone: Artificial Light → Time")
    assert chosen == {"type": "clone", "player": ANN, "from": "Artificial Light", "to": "Time"}
    session = Session.start(Store.in_memory(), "quin", Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), {}))
    session.act(chosen)
    taps = page_of(session.state, ANN)["choices"]
    shadow = next(c for c in taps if c["label"] == "1 is a Shadow · board")
    assert shadow["action"] == {"type": "assign", "player": ANN, "label": "1", "identity": "Shadow", "where": "board"}
    assert not any("Artificial Light · board" in c["label"] for c in taps), "Artificial Lights start on the card"
    session.act(shadow["action"])
    after = page_of(session.state, ANN)["choices"]
    assert {"label": "Take back 1 (Shadow)", "action": {"type": "unassign", "player": ANN, "label": "1"}} | {
        "tone": "muted"
    } in after
    assert page_of(session.state, BO)["choices"][0]["action"]["type"] == "clone", "Bo's page is Bo's own setup"


def test_in_play_the_page_shows_powers_the_zero_g_card_and_whose_turn() -> None:
    """Issue 15: the page shows "the Zero-G card", "the powers left", "the last flash"; in play nothing to tap."""
    state = started()
    page = page_of(state, ANN)
    headings = [s["heading"] for s in page["sections"]]
    assert headings[0] == "Powers left" and "Your pieces" in headings
    assert any(h.startswith("Zero-G card (7)") for h in headings)
    assert page["choices"] == []
    assert page["title"] == "Ann · Quin"
    assert page["status"] in ("Your turn", "Bo to play")


def test_a_game_without_private_views_has_no_phone_page() -> None:
    """A game with no display module has nothing private for a phone: None (the panel offers no codes)."""
    from companion.games import game

    quintet = game("quintet")
    assert quintet.phone_page(quintet.own_view(quintet.setup(Options.for_names(ANN, BO)), ANN)) is None


def test_the_clone_offers_only_real_changes_and_the_notice_names_the_next_step() -> None:
    """Issue 21: "The phone's setup page (390×844) puts its first button 2.4 screens down, under 24 Clone
    buttons that include 'Artificial Light → Artificial Light' and 'Void → Void'." RULINGS: the Clone turns
    one piece, not Light, not Shadow, into Time, Memory, Void or Artificial Light: never a kind into itself."""
    from companion.games.quin.pieces import CLONE_FROM, CLONE_TO

    page = page_of(new_game(), ANN)
    clones = [(c["action"]["from"], c["action"]["to"]) for c in page["choices"]]
    assert clones == [(taken, made) for taken in CLONE_FROM for made in CLONE_TO if made != taken]
    assert len(clones) == 20
    assert not any(
        c["label"] in ("Clone: Artificial Light → Artificial Light", "Clone: Void → Void") for c in page["choices"]
    )
    assert page["notice"].startswith("Next: your Clone.")
    session = Session.start(Store.in_memory(), "quin", Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), {}))
    session.act(page["choices"][0]["action"])
    page = GAME.phone_page(session.own_view(ANN))
    assert page is not None and page["notice"].startswith("Next: label 1.")
    assert page["choices"][0]["label"].startswith("1 is ")


def test_the_page_draws_the_next_step_before_the_sections() -> None:
    """Issue 21: "The first thing on the phone page is the next step": the choices come right after the
    notice, before the sections, in the page every phone loads."""
    from pathlib import Path

    html = (Path(__file__).resolve().parents[2] / "hardware" / "phones" / "static" / "seat.html").read_text()
    assert html.index('id="notice"') < html.index('id="choices"') < html.index('id="sections"')
