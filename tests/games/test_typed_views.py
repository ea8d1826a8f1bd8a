"""Typed views: each game's views are frozen dataclasses, and their JSON is what the dicts were (issue 25).

"Each game's public and private views are frozen dataclasses ... JSON appears only at the edges ... through
`companion/codec.py`." and "The JSON printed by `companion play` and export stays the same byte for byte".
Every golden script is played and every view along it (public, revealed, each player's own) must be, as JSON,
exactly what the views were before they were typed (`data/views-before-typed.json`, written at that commit).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import pytest

from companion.game import GameView
from tests.games.data import screens_before_typed as screens
from tests.games.data.views_before_typed import SAVED, fingerprint, views_along
from tests.support.golden import game_of, scripts

TYPED = {"quintet", "quinque", "quantum-link", "quark", "quin"}
"""The games whose views are typed so far."""

BEFORE = json.loads(SAVED.read_text(encoding="utf-8"))


def _before(saved: Mapping[str, object]) -> list[Path]:
    """The golden scripts played before the views were typed: a game typed from its start has no "before"."""
    return [path for path in scripts() if path.stem in saved]


@pytest.mark.parametrize("path", _before(BEFORE), ids=lambda p: p.stem)
def test_every_view_along_every_golden_script_is_the_json_it_was(path: Path) -> None:
    assert [fingerprint(views) for views in views_along(path)] == BEFORE[path.stem]


SCREENS_BEFORE = json.loads(screens.SAVED.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _before(SCREENS_BEFORE), ids=lambda p: p.stem)
def test_every_players_display_and_phone_show_what_they_showed_from_the_json(path: Path) -> None:
    """"Presenters, the display renderer and the phone page read fields; JSON appears only at the edges": the
    displays and phones now lay out the typed own view, and every screen and page is what it was from the JSON
    (`data/screens-before-typed.json`): the bytes a display is sent are the same."""
    typed = screens.screens_along(path, lambda session, player: session.own_view(player))
    assert [screens.fingerprint(step) for step in typed] == SCREENS_BEFORE[path.stem]


def _frozen(value: object) -> bool:
    return dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", [p for p in scripts() if game_of(p) in TYPED], ids=lambda p: p.stem)
def test_every_typed_view_is_a_frozen_dataclass_to_the_last_field(path: Path) -> None:
    import contextlib

    from companion.dice import RandomDice
    from companion.game import Options, RuleError
    from companion.session import Session
    from companion.store import Store
    from tests.support.golden import read

    golden = read(path)
    with Store.in_memory() as store:
        session = Session.start(
            store, golden.game, Options.for_names(*golden.players, **golden.settings),
            dice=RandomDice.seeded(golden.seed or 0), clock=lambda: 0.0,
        )  # fmt: skip
        for _number, action in golden.actions:
            if action.get("type") in ("undo", "redo"):
                getattr(session, action["type"])()
            else:
                with contextlib.suppress(RuleError):
                    session.act(action)
            views = [session.view(), session.game.revealed(session.state)]
            views += [session.own_view(name) for name in golden.players]
            for view in views:
                assert isinstance(view, GameView) and _frozen(view)
                assert view.over == (session.outcome is not None) and view.outcome == session.outcome
                with pytest.raises(dataclasses.FrozenInstanceError):
                    view.over = not view.over  # type: ignore[misc]
                _all_frozen(view)


def _all_frozen(value: object) -> None:
    """No dict or list anywhere inside: frozen dataclasses and tuples all the way down."""
    assert not isinstance(value, dict | list), f"a {type(value).__name__} inside a typed view"
    if dataclasses.is_dataclass(value):
        assert _frozen(value), f"{type(value).__name__} is not frozen"
        for f in dataclasses.fields(value):
            _all_frozen(getattr(value, f.name))
    elif isinstance(value, tuple):
        for item in value:
            _all_frozen(item)
    elif isinstance(value, Mapping):  # a read-only mapping (MappingProxyType): its values too
        assert isinstance(value, MappingProxyType), f"a {type(value).__name__} inside a typed view"
        for item in value.values():
            _all_frozen(item)
