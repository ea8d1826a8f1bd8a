"""The registry of games: found by looking in `companion/games/`, a game from elsewhere by `register`."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.games as registry
from companion.games import facts, game, names, register, settings_module, unregister

UNKNOWN = r"^There is no game called 'chess'; the games are: quintet, quin, quark, quantum-link, quinque(, [a-z-]+)*\.$"
"""The five games first, then the tools for any game (issue 27), in the registry's order."""


def test_an_unknown_name_gets_one_sentence_naming_the_games() -> None:
    """A name no game has is answered with the games there are, whichever question is asked."""
    for question in (facts, settings_module, game):
        with pytest.raises(LookupError, match=UNKNOWN):
            question("chess")


def test_a_game_of_this_folder_tells_its_facts_and_settings_without_its_rules() -> None:
    """Listing the games "reads only each package's Facts": the title and the settings come from the package."""
    assert facts("quantum-link").title == "Quantum Link"
    assert settings_module("quantum-link").__name__ == "companion.games.quantum_link.settings"


def test_a_registered_game_is_asked_like_the_games_of_this_folder() -> None:
    """Pig (tests/sixth_game) is registered from outside: its facts and settings come from its own package."""
    entry = register("tests.sixth_game")
    try:
        assert names()[-1] == "pig"
        assert facts("pig") is entry.facts
        assert settings_module("pig") is entry.settings
        assert game("pig") is entry
    finally:
        unregister("pig")
    assert "pig" not in names()


def test_only_packages_in_the_folder_are_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the registry's words, "each game is a package here": a plain module beside them is not a game."""
    (tmp_path / "helper.py").write_text("x = 1\n")  # imported as a game it would fail: it has no FACTS
    packages = dict(registry._packages())  # the folder's own: the five games, then the tools
    assert list(packages)[:5] == list(registry.FIRST_ON_HOME)
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    registry._packages.cache_clear()
    try:
        assert registry._packages() == packages
        assert all(module == f"companion.games.{name.replace('-', '_')}" for name, module in packages.items())
    finally:
        monkeypatch.undo()
        registry._packages.cache_clear()
