"""Every game answers any action, however malformed, with events or a RuleError sentence.

A screen, a script or a display key can send nonsense (a list where a name
belongs, a missing field). No game may answer with a TypeError or KeyError:
that would crash the screen instead of telling the table what is wrong.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import games
from companion.dice import RandomDice
from companion.game import Options, RuleError
from companion.games import names
from tests.support import golden as golden_scripts


def _states(game: str) -> tuple[list[Any], list[str], list[str]]:
    """Positions from the golden games (each with its seated players), and the action types and keys they use."""
    rules = games.game(game)
    states, kinds, keys = [], set(), set()
    for path in golden_scripts.scripts(game):
        golden = golden_scripts.read(path)
        state = rules.setup(Options.for_names(*golden.players, **golden.settings))
        dice = RandomDice.seeded(golden.seed or 1)
        for action in golden.lines:
            kinds.add(action.get("type"))
            keys.update(action)
            try:
                for event in rules.decide(state, rules.parse_action(action, golden.players), dice):
                    state = rules.evolve(state, event)
            except RuleError:
                continue
            states.append((state, golden.players))
    kinds.discard(None)
    keys.discard("type")
    return states[:: max(1, len(states) // 40)], sorted(kinds), sorted(keys)


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


@pytest.mark.parametrize("game", names())
def test_malformed_actions_get_a_sentence_not_a_crash(game):
    states, kinds, keys = _states(game)
    assert states, f"no golden positions for {game}"
    rules = games.game(game)

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        index=st.integers(0, len(states) - 1),
        kind=st.sampled_from(kinds) | junk,
        fields=st.dictionaries(st.sampled_from(keys), junk, max_size=4),
    )
    def check(index: int, kind: Any, fields: dict[str, Any]) -> None:
        state, players = states[index]
        try:
            action = rules.parse_action({"type": kind, **fields}, players)  # the edge: JSON to a typed action
            rules.decide(state, action, RandomDice.seeded(0))
        except RuleError as refusal:
            assert str(refusal).strip(), "a refusal must say why"

    check()
