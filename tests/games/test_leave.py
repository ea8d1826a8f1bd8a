"""A player leaves, in every game: the engine's `leave` and each game's `left` hook.

RULINGS.md, "Every game: a player leaves":

- "`leave` takes a player out for good, at any moment, by their own wish."
- "Two players: the other wins (outcome reason "left")."
- "Quintet: the circle closes over the gap as on an elimination."
- "Quark (3-4 players): the leaver's energy, protons and neutrons go back to
  the bank, their particle cards leave the game, their turns are skipped and
  they are not scored; the equal-turns rule counts only players still in."
- "Whenever one player remains, that player wins."
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import LEFT, Options, RuleError
from companion.games import game
from companion.games.quark.rules import EndTurn
from companion.games.quark.state import ENERGY_TOKENS, NEUTRON_TOKENS, PROTON_TOKENS, EndTrigger, QuarkState
from companion.games.quintet.rules import PLAY, QuintetState
from companion.session import Session
from companion.store import Store
from tests.support import ManualClock
from ui import cli

GAMES = ("quin", "quantum-link", "quinque", "quintet", "quark")
"""Every game: each seats two."""


def leave(player: str) -> dict[str, Any]:
    return {"type": "leave", "player": player}


def start(store: Store, name: str, *players: str, seed: int = 7) -> Session:
    return Session.start(store, name, Options.for_names(*players), dice=RandomDice.seeded(seed), clock=ManualClock())


def play_a_little(session: Session, steps: int = 4) -> None:
    """A few listed actions of whoever's turn it is, so a leave comes in the middle of a game."""
    for _ in range(steps):
        player = session.current_player
        actions = list(session.legal_actions(player)) if player else []
        if not actions:
            return
        session.act(actions[0])


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with Store.open(tmp_path / "games.db") as opened:
        yield opened


# -- every game, two players --------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_two_players_the_other_wins_with_reason_left(name: str, store: Store) -> None:
    """RULINGS: "Two players: the other wins (outcome reason "left")." and "at any moment, by their own
    wish": Bo leaves whether or not it is Bo's turn."""
    session = start(store, name, "Ann", "Bo")
    play_a_little(session)
    assert session.outcome is None
    session.act(leave("Bo"))
    outcome = session.outcome
    assert outcome is not None and outcome.winners == ("Ann",) and outcome.reason == LEFT
    assert session.current_player is None and session.legal_actions("Ann") == []
    # The history holds it: the stored outcome is the one the wins count.
    record = store.game(session.game_id)
    assert record is not None and record.outcome == outcome.to_stored() and record.finished_at is not None
    # A leave is public, as it is.
    assert session.public_event(session.events[-1]) == {"type": "player_left", "player": "Bo"}


@pytest.mark.parametrize("name", GAMES)
def test_refusals_unknown_player_and_game_over(name: str, store: Store) -> None:
    """RULINGS: "`leave` takes a player out for good": only someone seated and still in may leave,
    and nobody once the game is over; each refusal is one sentence and changes nothing."""
    session = start(store, name, "Ann", "Bo")
    with pytest.raises(RuleError, match="must name a player at the table"):
        session.act(leave("Zed"))
    assert session.moves == ()
    session.act(leave("Ann"))
    before = session.state
    for who in ("Ann", "Bo"):
        with pytest.raises(RuleError, match="The game is over"):
            session.act(leave(who))
    assert session.state == before and len(session.moves) == 1


@pytest.mark.parametrize("name", GAMES)
def test_undo_takes_a_leave_back_and_redo_puts_it_back(name: str, store: Store) -> None:
    """The brief: "Undo takes a leave back like any action": the whole state and whose turn come back;
    redo re-applies the leave; the stored log folds to the same game."""
    session = start(store, name, "Ann", "Bo")
    play_a_little(session)
    state, turn, view = session.state, session.current_player, session.public_view()
    session.act(leave("Ann"))
    after = session.state
    assert session.undo()
    assert session.state == state and session.current_player == turn and session.public_view() == view
    assert session.outcome is None
    record = store.game(session.game_id)
    assert record is not None and record.outcome is None
    assert session.redo()
    assert session.state == after
    assert session.outcome is not None and session.outcome.winners == ("Bo",)
    loaded = Session.load(store, session.game_id, clock=ManualClock())
    assert loaded.state == after and loaded.outcome == session.outcome


# -- Quintet: three or more -----------------------------------------------------------------------


def quintet_in_play(store: Store, players: tuple[str, ...]) -> Session:
    """A Quintet game through the opening, the circle (in seat order) and rolling on: play has started."""
    session = start(store, "quintet", *players, seed=3)
    while session.state.phase != PLAY:
        state: QuintetState = session.state
        if state.phase == "circle":
            session.act({"type": "set_circle", "by": state.first, "order": list(players)})
        else:
            session.act({"type": "roll"})
    return session


def test_quintet_the_circle_closes_over_the_gap_and_play_goes_on(store: Store) -> None:
    """RULINGS: "Quintet: the circle closes over the gap as on an elimination." The leaver's predator
    now preys on the leaver's prey (with the same rule-8 question an elimination asks), and if the
    leaver was on turn the turn passes to the next player still in."""
    session = quintet_in_play(store, ("Ann", "Bo", "Cy", "Dee"))
    state: QuintetState = session.state
    mover = state.current
    assert mover is not None
    predator, prey = state.predator_of(mover), state.prey_of(mover)
    session.act(leave(mover))
    after: QuintetState = session.state
    assert session.outcome is None
    assert after.circle == tuple(p for p in state.circle if p != mover)
    assert after.prey_of(predator) == prey
    assert [(p.by, p.of) for p in after.alliances] == [(predator, prey)]  # as on an elimination
    assert after.gone == (mover,) and after.out == ()  # left, not knocked out
    assert after.current == state.next_seat(mover) and after.dice is None
    assert mover not in session.game.players_in(after)
    # The alliance question is settled as after an elimination, and the next player rolls.
    session.act({"type": "no_alliance_captures"})
    session.act({"type": "roll"})
    assert session.state.current == after.current


def test_quintet_someone_not_on_turn_leaves_and_the_turn_stays(store: Store) -> None:
    """RULINGS: "`leave` ... at any moment, by their own wish": a player not on turn leaves; the mover's
    turn goes on."""
    session = quintet_in_play(store, ("Ann", "Bo", "Cy"))
    state: QuintetState = session.state
    mover = state.current
    other = next(p for p in state.circle if p != mover)
    session.act(leave(other))
    assert session.state.current == mover and session.state.circle == tuple(p for p in state.circle if p != other)


def test_quintet_the_last_remaining_player_wins(store: Store) -> None:
    """RULINGS: "Whenever one player remains, that player wins." Two of three leave, one after the
    other; leaving twice is refused."""
    session = quintet_in_play(store, ("Ann", "Bo", "Cy"))
    session.act(leave("Cy"))
    with pytest.raises(RuleError, match="Cy is no longer in the game"):
        session.act(leave("Cy"))
    assert session.outcome is None
    session.act(leave("Ann"))
    outcome = session.outcome
    assert outcome is not None and outcome.winners == ("Bo",) and outcome.reason == LEFT
    assert session.current_player is None


def test_quintet_a_leave_during_the_opening_roll(store: Store) -> None:
    """RULINGS: "at any moment": before the circle is set the leaver drops out of the opening roll; the
    circle is set without them."""
    session = start(store, "quintet", "Ann", "Bo", "Cy", seed=3)
    session.act({"type": "roll"})  # Ann's opening roll
    session.act(leave("Bo"))  # Bo's roll was next
    assert session.current_player == "Cy"
    session.act({"type": "roll"})
    state: QuintetState = session.state
    assert state.phase == "circle" and state.first in ("Ann", "Cy")
    with pytest.raises(RuleError, match="Bo left the game"):
        session.act({"type": "set_circle", "order": ["Ann", "Bo", "Cy"]})
    session.act({"type": "set_circle", "order": ["Ann", "Cy"]})
    assert session.state.circle == ("Ann", "Cy")


# -- Quark: three or four -----------------------------------------------------------------------------


def quark_state(store: Store, *players: str) -> Session:
    return start(store, "quark", *players)


def test_quark_tokens_go_back_to_the_bank_and_the_leaver_is_not_scored(store: Store) -> None:
    """RULINGS: "Quark (3-4 players): the leaver's energy, protons and neutrons go back to the bank,
    their particle cards leave the game ... and they are not scored"."""
    quark = game("quark")
    state: QuarkState = quark.setup(Options.for_names("Ann", "Bo", "Cy"))
    cy = state.seat_of("Cy")
    seats = list(state.seats)
    seats[cy] = replace(seats[cy], energy=9, protons=2, neutrons=1, particle_points=40, baryons=3, mesons=2)
    state = replace(
        state,
        seats=tuple(seats),
        bank_energy=state.bank_energy - 7,
        bank_protons=PROTON_TOKENS - 2,
        bank_neutrons=NEUTRON_TOKENS - 1,
    )
    for event in quark.decide(state, quark.parse_action(leave("Cy"), state.names), RandomDice.seeded(0)):
        state = quark.evolve(state, event)
    gone = state.seats[cy]
    assert (gone.energy, gone.protons, gone.neutrons, gone.gone) == (0, 0, 0, True)
    assert state.bank_energy + sum(s.energy for s in state.seats) == ENERGY_TOKENS
    assert (state.bank_protons, state.bank_neutrons) == (PROTON_TOKENS, NEUTRON_TOKENS)
    assert quark.players_in(state) == ("Ann", "Bo")
    # The end comes once Ann and Bo have had the same turns: Cy's 40 points never count.
    state = replace(state, end=EndTrigger("Ann", "deck", "quark"))
    for player in ("Ann", "Bo"):
        for event in quark.decide(state, EndTurn(player), RandomDice.seeded(0)):
            state = quark.evolve(state, event)
    outcome = quark.outcome(state)
    assert outcome is not None and "Cy" not in outcome.winners and outcome.reason != LEFT


def test_quark_turns_skip_the_leaver(store: Store) -> None:
    """RULINGS: "their turns are skipped": Bo leaves during Ann's turn, and Ann's turn passes to Cy;
    a leaver on turn hands the turn on at once."""
    session = quark_state(store, "Ann", "Bo", "Cy", "Dee")
    session.act(leave("Bo"))
    assert session.current_player == "Ann"
    session.act({"type": "end_turn", "player": "Ann"})
    assert session.current_player == "Cy"
    session.act({"type": "draw", "player": "Cy"})
    session.act(leave("Cy"))  # on turn, one action taken: the turn goes to Dee, with both actions
    assert session.current_player == "Dee" and session.state.actions_left == 2
    with pytest.raises(RuleError, match="Bo is no longer in the game"):
        session.act(leave("Bo"))
    with pytest.raises(RuleError, match="Bo left the game"):
        session.act({"type": "count_hand", "player": "Bo", "cards": 3})
    session.act({"type": "end_turn", "player": "Dee"})
    assert session.current_player == "Ann"
    view = session.public_view()
    assert [p["gone"] for p in view["players"]] == [False, True, True, False]
    assert view["players"][0]["neighbours"] == ["Dee"]


def test_quark_equal_turns_count_only_players_still_in(store: Store) -> None:
    """RULINGS: "the equal-turns rule counts only players still in": after the end is triggered, the
    game ends once everyone still in has had as many turns, and a leave that makes them equal ends it."""
    quark = game("quark")
    state: QuarkState = quark.setup(Options.for_names("Ann", "Bo", "Cy"))
    state = replace(state, end=EndTrigger("Ann", "deck", "quark"))
    for event in quark.decide(state, EndTurn("Ann"), RandomDice.seeded(0)):
        state = quark.evolve(state, event)
    # Ann 1 turn, Bo on turn with 0, Cy 0: Bo leaves, Cy plays the last turn.
    for event in quark.decide(state, quark.parse_action(leave("Bo"), state.names), RandomDice.seeded(0)):
        state = quark.evolve(state, event)
    assert quark.outcome(state) is None and quark.current_player(state) == "Cy"
    for event in quark.decide(state, EndTurn("Cy"), RandomDice.seeded(0)):
        state = quark.evolve(state, event)
    outcome = quark.outcome(state)
    assert outcome is not None and outcome.reason != LEFT and set(outcome.winners) <= {"Ann", "Cy"}


def test_quark_the_last_remaining_player_wins(store: Store) -> None:
    """RULINGS: "Whenever one player remains, that player wins." (reason "left", not a scored end)."""
    session = quark_state(store, "Ann", "Bo", "Cy")
    session.act(leave("Ann"))
    session.act(leave("Cy"))
    outcome = session.outcome
    assert outcome is not None and outcome.winners == ("Bo",) and outcome.reason == LEFT
    assert session.undo() and session.outcome is None and session.current_player == "Bo"
    assert session.redo() and session.outcome == outcome


# -- the command line ---------------------------------------------------------------------------------


def test_companion_play_takes_a_leave_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The brief: `companion play` with a leave line works: the other player wins, reason "left"."""
    script = tmp_path / "leave.jsonl"
    lines = [
        {"type": "add", "player": "Ann", "tile": [0, 0], "skydiver": "nw"},
        {"type": "skip", "player": "Ann"},
        leave("Ann"),
        leave("Bo"),
    ]
    script.write_text("".join(json.dumps(line) + "\n" for line in lines))
    argv = ["play", "quinque", "--players", "Ann,Bo", "--actions", str(script), "--db", str(tmp_path / "p.db")]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    begin = out.index("{")
    steps = [json.loads(line) for line in out[:begin]]
    assert "refused" not in steps[2] and "The game is over" in steps[3]["refused"]
    final = json.loads("\n".join(out[begin:]))
    assert final["outcome"]["winners"] == ["Bo"] and final["outcome"]["reason"] == LEFT


def test_each_game_tells_the_table_who_left(store: Store) -> None:
    """The brief: a game supplies "its sentence in views.py"; RULINGS: "Quintet: the circle closes over the
    gap as on an elimination" is what Quintet's sentence says."""
    from companion.games.quantum_link import views as quantum_link_views
    from companion.games.quark import views as quark_views
    from companion.games.quintet import views as quintet_views

    quintet = quintet_in_play(store, ("Ann", "Bo", "Cy"))
    quintet.act(leave("Bo"))
    said = quintet_views.news(quintet.events[-1], quintet.state)
    assert said.startswith("Bo left the game. New capturing circle:")
    quark = start(store, "quark", "Ann", "Bo", "Cy")
    quark.act(leave("Cy"))
    assert quark_views.describe(quark.events[-1]).startswith("Cy leaves the game")
    link = start(store, "quantum-link", "Ann", "Bo")
    link.act(leave("Bo"))
    assert quantum_link_views.news(link.state) == "Bo left the game."
    quinque = start(store, "quinque", "Ann", "Bo")
    quinque.act(leave("Ann"))
    assert quinque.public_view()["news"] == "Ann left the game." and quinque.public_view()["winner"] == "Bo"
    quin = start(store, "quin", "Ann", "Bo")
    quin.act(leave("Ann"))
    view = quin.public_view()
    assert view["phase"] == "over" and view["outcome"]["reason"] == LEFT and view["outcome"]["winners"] == ["Bo"]


def test_every_registered_game_takes_leave() -> None:
    """RULINGS: "`leave` takes a player out for good, at any moment": every game in the registry has it."""
    from companion.games import names

    assert all("leave" in game(name).action_types for name in names())
