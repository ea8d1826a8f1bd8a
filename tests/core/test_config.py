"""The config file: defaults, good values, and a sentence naming the key for every bad one."""

from __future__ import annotations

import tomllib

import pytest

from companion import config
from companion.config import Config, RaceConfig


def test_no_file_means_defaults_and_no_complaint(tmp_path):
    assert config.load(tmp_path / "missing.toml") == (Config(), [])


def test_the_readme_example_is_valid_and_means_the_defaults():
    parsed, problems = config.parse(tomllib.loads(config.EXAMPLE))
    assert problems == []
    assert parsed.race == RaceConfig() and parsed.mode == "auto"
    assert parsed.settings_for("quin")["capture_rule"] == "key"


def test_a_good_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        "[race]\nbuttons = [5, 6]\nleds = [13, 19]\nbuzzer = 26\ntie_window_ms = 2.5\n[games.quark]\nx = 1\n"
    )
    parsed, problems = config.load(path)
    assert problems == []
    assert parsed.race == RaceConfig((5, 6), (13, 19), 26, 2.5)
    assert parsed.settings_for("quark") == {"x": 1}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[race]\nbuttons = [17]", "race.buttons"),
        ("[race]\nbuttons = [17, 99]", "race.buttons[1]"),
        ("[race]\nbuttons = [17, 17]", "one pin twice"),
        ("[race]\nbuzzer = 'loud'", "race.buzzer"),
        ("[race]\ntie_window_ms = -1", "race.tie_window_ms"),
        ("[hardware]\nmode = 'real'", "hardware.mode"),
        ("[displays]\nbaud = 12345", "displays.baud"),
        ("[displays]\nports = '/dev/ttyACM0'", "displays.ports"),
    ],
)
def test_a_bad_hardware_value_names_its_key_and_falls_back_to_simulation(tmp_path, text, key):
    path = tmp_path / "c.toml"
    path.write_text(text)
    parsed, problems = config.load(path)
    assert parsed.mode == "simulated"
    assert len(problems) == 1 and key in problems[0] and "simulated" in problems[0]


def test_a_file_that_is_not_toml_still_starts(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b"[race\nbuttons = = 3\n\xff")
    parsed, problems = config.load(path)
    assert parsed.mode == "simulated"
    assert len(problems) == 1 and str(path) in problems[0]


def test_a_bad_game_table_is_left_out_not_fatal(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[games]\nquin = 3\n[race]\nbuttons = [5, 6]\n")
    parsed, problems = config.load(path)
    assert parsed.race.buttons == (5, 6) and parsed.mode == "auto"
    assert problems == ["Config file: games.quin must be a table; ignored."]
