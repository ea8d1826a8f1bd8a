"""The engine's end, in every game: a view says "over" exactly when there is an outcome, and a player who
left is never a winner and never scored (issue 29; RULINGS, "Every game: a player leaves").

Random games of every game in the registry, through a real `Session` on an in-memory store: whoever may act
takes one of their listed actions, and now and then a player still in leaves, at any moment.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.game import Leave, Options, PlayerLeft, RuleError
from companion.games import game, names
from companion.session import Session
from companion.store import Store

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eve")
UNLISTED = {
    "quintet": lambda session, rng: {
        "type": "set_circle",
        "order": rng.sample(session.players_in, k=len(session.players_in)),
    }
}
"""Actions a game does not list because the table chooses them freely (Quintet's capturing circle)."""


def check_end(session: Session, gone: set[str]) -> None:
    """RULINGS: "A player who leaves has no score … and cannot be among the winners"; the view's "over" is the
    engine's outcome, in the public view and every player's own."""
    outcome = session.outcome
    views = [session.public_view(), *(session.private_view(p) for p in session.options.names)]
    for view in views:
        assert view["over"] is (outcome is not None)
        assert view["outcome"] == (outcome.to_json() if outcome else None)
    if outcome is not None:
        assert not gone & set(outcome.winners)
    for entry in views[0].get("scores") or []:  # a game that scores lists a leaver with no total
        if isinstance(entry, dict) and entry.get("player") in gone:
            assert entry["total"] is None


@pytest.mark.parametrize("name", sorted(names()))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), leave_rate=st.sampled_from([0.0, 0.02, 0.1]))
def test_over_exactly_when_there_is_an_outcome_and_a_leaver_never_wins(name: str, seed: int, leave_rate: float) -> None:
    rules = game(name)
    rng = random.Random(seed)
    players = rng.randint(rules.min_players, min(rules.max_players, len(NAMES)))
    session = Session.start(Store.in_memory(), name, Options.for_names(*NAMES[:players]), dice=RandomDice.seeded(seed))
    gone: set[str] = set()
    check_end(session, gone)
    for _ in range(300):
        if session.outcome is not None:
            break
        still_in = session.players_in
        action: Any
        if rng.random() < leave_rate:
            action = Leave(rng.choice(still_in))
        else:
            choices: list[Any] = [a for p in still_in for a in session.legal_actions(p)]
            if name in UNLISTED:
                choices.append(UNLISTED[name](session, rng))
            action = rng.choice(choices)
        try:
            session.act(action)
        except RuleError:
            continue
        gone |= {e.player for e in session.events if isinstance(e, PlayerLeft)}
        check_end(session, gone)


@pytest.mark.parametrize("name", sorted(names()))
def test_a_game_everyone_leaves_is_over(name: str) -> None:
    """Found by the walk above (a one-player dice tray left by its player stayed in play with nobody to end it):
    whoever leaves, one after another, the game ends at the latest when nobody is left."""
    rules = game(name)
    players = NAMES[: max(rules.min_players, 2)]
    session = Session.start(Store.in_memory(), name, Options.for_names(*players), dice=RandomDice.seeded(1))
    for player in players:
        if session.outcome is not None:
            break
        session.act(Leave(player))
    assert session.outcome is not None, "nobody left to end it"
    check_end(session, set(players) - set(session.players_in))
