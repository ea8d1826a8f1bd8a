"""Game settings in the config file: each game's own reader judges them, at `config --check` and at start.

README, the config file: "A setting the game cannot use (...) gets one sentence naming the game and the
key, and the game uses its own value for that key" and "Settings each good alone but not together (...) give
one sentence and the game uses all its own settings."
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import config
from companion.dice import RandomDice
from companion.game import Options, SetupError
from companion.games import game, names
from companion.games.quin.pieces import ADJUSTABLE, DEFAULT_ADJUSTABLE
from companion.session import Session
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]
SEATS = {"quintet": ("Ann", "Bo"), "quin": ("Ann", "Bo"), "quark": ("Ann", "Bo"),
         "quantum-link": ("Ann", "Bo"), "quinque": ("Ann", "Bo")}


def checked(text: str, tmp_path: Path) -> tuple[config.Config, list[str]]:
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return config.load(path)


def started(parsed: config.Config, name: str, tmp_path: Path) -> Any:
    """The first state of game `name` started as the app starts it: the config's table as its settings."""
    with Store.open(tmp_path / "games.db") as store:
        options = Options.for_names(*SEATS[name], **parsed.settings_for(name))
        return Session.start(store, name, options, dice=RandomDice.seeded(1), clock=lambda: 0.0).state


# The examples, and at least one bad value per game: (file, game, key named, what the game uses).
BAD = [
    ('[games.quin]\ncapture_rule = "lava"\n', "Quin", "games.quin.capture_rule", 'capture_rule = "key"'),
    ("[games.quin.pieces]\nReflector = 2\nMemory = 2\nPeripheral = 3\nVoid = 16\n", "Quin", "games.quin.pieces",
     "pieces = { Reflector = 2, Memory = 2, Peripheral = 3, Void = 2 }"),
    ('[games.quintet]\ncapture_rule = "lava"\n', "Quintet", "games.quintet.capture_rule", "ignored"),
    ("[games.quark.atoms]\nHelium = [2, 2, 40]\n", "Quark", "games.quark.atoms.Helium",
     "atoms.Helium = [2, 2, 2, 40]"),
    ("[games.quark.atoms]\nBoron = { points = 250 }\n", "Quark", "games.quark.atoms.Boron", "ignored"),
    ('[games.quinque]\nadvanced = "yes"\n', "Quinque", "games.quinque.advanced", "advanced = false"),
    ("[games.quinque]\ntiles = 0\n", "Quinque", "games.quinque.tiles", "tiles = 16"),
    ("[games.quantum-link]\nboard_size = 6\n", "Quantum Link", "games.quantum-link.board_size", "ignored"),
]


@pytest.mark.parametrize(("text", "title", "key", "instead"), BAD)
def test_a_bad_setting_is_one_sentence_naming_game_and_key_and_the_game_still_starts(
    tmp_path: Path, text: str, title: str, key: str, instead: str
) -> None:
    """"A bad value gets one sentence naming the key, and the game falls back to its own numbers.\""""
    parsed, problems = checked(text, tmp_path)
    assert len(problems) == 1, problems
    sentence = problems[0]
    assert sentence.startswith(f"Config file: {key}: ") and sentence.endswith(".") and "\n" not in sentence
    assert title in sentence and instead in sentence, sentence
    name = key.split(".")[1]
    started(parsed, name, tmp_path)  # the game starts: no SetupError


def test_the_fallbacks_are_the_games_own_numbers(tmp_path: Path) -> None:
    """"...and the game falls back to its own numbers": the start uses the default for the bad key only."""
    parsed, problems = checked(
        '[games.quin]\ncapture_rule = "lava"\n[games.quin.pieces]\nVoid = 16\n'
        '[games.quinque]\nadvanced = "yes"\nparachutes = 20\n'
        "[games.quark.atoms]\nHelium = [2, 2, 40]\nLithium = [3, 4, 3, 95]\n",
        tmp_path,
    )
    assert len(problems) == 4, problems
    quin = started(parsed, "quin", tmp_path / "quin")
    assert quin.capture_rule == "key"
    assert all(quin.counts_for("Ann")[kind] == DEFAULT_ADJUSTABLE[kind] for kind in ADJUSTABLE)
    quinque = started(parsed, "quinque", tmp_path / "quinque")
    assert quinque.advanced is False and quinque.parachutes_left == (20, 20), "the good setting beside is kept"
    atoms = {atom.name: atom for atom in started(parsed, "quark", tmp_path / "quark").atoms}
    assert (atoms["Helium"].electrons, atoms["Helium"].points) == (2, 40), "the bad atom is our own again"
    assert atoms["Lithium"].points == 95, "the good atom beside it is the table's"


def test_settings_good_alone_but_not_together_mean_all_the_games_own(tmp_path: Path) -> None:
    """"...or all its defaults if values are inconsistent together" and the sentence says so."""
    parsed, problems = checked("[games.quinque]\ntiles = 10\nparachutes = 30\n", tmp_path)
    assert len(problems) == 1 and "games.quinque" in problems[0] and "Quinque uses all its own settings" in problems[0]
    assert parsed.settings_for("quinque") == {}
    state = started(parsed, "quinque", tmp_path)
    assert state.tiles_left == (16, 16) and state.parachutes_left == (18, 18)


def test_good_settings_pass_untouched(tmp_path: Path) -> None:
    """The README example and a table's own good values raise no complaint and reach the game as written."""
    text = (
        '[games.quin]\ncapture_rule = "arcade"\n[games.quin.pieces]\nReflector = 1\nMemory = 3\n'
        "[games.quinque]\nadvanced = true\ntiles = 10\nparachutes = 20\n"
        "[games.quark.atoms]\nBoron = [5, 6, 5, 250]\n"
    )
    parsed, problems = checked(text, tmp_path)
    assert problems == []
    assert parsed.settings_for("quin") == {"capture_rule": "arcade", "pieces": {"Reflector": 1, "Memory": 3}}
    assert started(parsed, "quin", tmp_path / "quin").capture_rule == "arcade"


_ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | st.dates(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=10,
)
_KEYS = st.sampled_from(["capture_rule", "pieces", "atoms", "advanced", "tiles", "parachutes", "Helium", "x"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(names()), st.dictionaries(_KEYS | st.text(max_size=6), _ANY, max_size=3))
def test_a_game_refuses_any_odd_settings_with_a_sentence_and_config_keeps_only_what_it_takes(
    name: str, table: dict[str, Any]
) -> None:
    """"Every game setting is checked by its game's settings module": refusals are `SetupError`s (a sentence),
    and what the config keeps, the game takes."""
    try:
        game(name).read_settings(table)
    except SetupError as refusal:
        assert str(refusal).strip()
    kept, problems = config.game_settings(name, table)
    game(name).read_settings(kept)
    for problem in problems:
        assert problem.startswith("Config file: ") and problem.endswith(".") and len(problem) < 400, problem
        assert "could not be read" not in problem, f"{name}'s reader raised something other than SetupError"


def companion(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def test_config_check_reports_each_bad_game_setting_and_exits_1(tmp_path: Path) -> None:
    """`companion config --check` "reports each problem and exits non-zero"; a good file is "fine" with 0."""
    path = tmp_path / "config" / "companion.toml"
    path.parent.mkdir()
    path.write_text("".join(text for text, *_ in BAD[:3]) + BAD[5][0] + BAD[3][0], encoding="utf-8")
    done = companion("config", "--check", home=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5, lines
    for key in ("games.quin.capture_rule", "games.quin.pieces", "games.quintet.capture_rule",
                "games.quinque.advanced", "games.quark.atoms.Helium"):
        assert sum(line.startswith(f"Config file: {key}: ") for line in lines) == 1, (key, lines)
    path.write_text(config.EXAMPLE, encoding="utf-8")
    fine = companion("config", "--check", home=tmp_path)
    assert fine.returncode == 0 and fine.stdout.strip() == f"{path}: fine."


def test_companion_run_gets_the_sentence_as_a_notice_and_starts_with_the_fallback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`companion run`: the table it builds carries the sentence (the home screen shows its notices), and a game
    started from it, as `CompanionApp.start_game` starts one, uses the game's own value."""
    from ui import cli

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    path = tmp_path / "config" / "companion.toml"
    path.parent.mkdir()
    path.write_text('[games.quinque]\nadvanced = "yes"\n', encoding="utf-8")
    table = cli.build_table(db=tmp_path / "games.db", seed=1, simulated=True)
    try:
        assert any(n.startswith("Config file: games.quinque.advanced: ") for n in table.notices), table.notices
        settings_at_start = {**table.config.settings_for("quinque")}  # what start_game merges under the toggle's
        session = Session.start(table.store, "quinque", Options.for_names("Ann", "Bo", **settings_at_start),
                                dice=table.dice, clock=lambda: 0.0)
        assert session.state.advanced is False
    finally:
        table.store.close()


def test_a_misspelt_setting_is_named_not_silently_unused(tmp_path: Path) -> None:
    """A key the game does not have is "a setting the game does not have": one sentence, and the rest is kept."""
    parsed, problems = checked('[games.quin]\ncapture_rul = "arcade"\ncapture_rule = "arcade"\n', tmp_path)
    assert problems == [
        "Config file: games.quin.capture_rul is not a Quin setting (its settings: capture_rule, pieces); ignored."
    ]
    assert parsed.settings_for("quin") == {"capture_rule": "arcade"}
