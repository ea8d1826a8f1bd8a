"""The config file: defaults, good values, and a sentence naming the key for every bad one."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
        "[race]\nbuttons = [5, 6]\nleds = [13, 19]\nbuzzer = 26\ntie_window_ms = 2.5\n"
        "[games.quark.atoms]\nHelium = [2, 2, 2, 45]\n"
    )
    parsed, problems = config.load(path)
    assert problems == []
    assert parsed.race == RaceConfig((5, 6), (13, 19), 26, 2.5)
    assert parsed.settings_for("quark") == {"atoms": {"Helium": [2, 2, 2, 45]}}


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


# -- whatever the file holds, the app starts --------------------------------------------------------------

_SCALARS = (
    st.text(max_size=12)
    | st.sampled_from(["auto", "simulated", "key", "arcade", "/dev/ttyACM0", ""])
    | st.integers(-3, 40)
    | st.integers()
    | st.sampled_from([115200, 9600, 12345])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.datetimes()
    | st.dates()
    | st.times()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_KNOWN = {
    "hardware": ("mode",),
    "race": ("buttons", "leds", "buzzer", "tie_window_ms"),
    "displays": ("ports", "baud"),
    "games": ("quintet", "quin", "quark", "quantum-link", "quinque"),
}


def _section(keys: tuple[str, ...]) -> st.SearchStrategy[object]:
    """A section as a table with its own keys (values of any kind) and stray ones, or anything at all."""
    table = st.fixed_dictionaries({}, optional=dict.fromkeys(keys, _VALUES))
    stray = st.dictionaries(st.text(max_size=8), _VALUES, max_size=2)
    return _VALUES | st.builds(lambda known, extra: {**extra, **known}, table, stray)


_FILES = st.builds(
    lambda known, stray: {**stray, **known},
    st.fixed_dictionaries({}, optional={name: _section(keys) for name, keys in _KNOWN.items()}),
    st.dictionaries(st.text(max_size=8), _VALUES, max_size=3),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FILES)
def test_no_value_of_any_kind_anywhere_makes_parse_raise(data):
    parsed, problems = config.parse(data)
    assert isinstance(parsed, Config) and parsed.mode in ("auto", "simulated")
    assert isinstance(parsed.race, RaceConfig) and all(isinstance(pin, int) for pin in parsed.race.buttons)
    for problem in problems:
        assert isinstance(problem, str) and problem.startswith("Config file: ") and problem.endswith(".")
        assert "\n" not in problem and len(problem) < 400, problem
    if any("using simulated hardware" in problem for problem in problems):
        assert parsed.mode == "simulated", "a hardware value that cannot be used never drives real pins"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('hardware = "simulated"\n', "hardware"),
        ("race = [17, 27]\n", "race"),
        ("displays = 115200\n", "displays"),
        ("games = true\n", "[games]"),
        ("[hardwre]\nmode = 'simulated'\n", "[hardwre]"),
        ("[race]\nbutton = [5, 6]\n", "race.button"),
        ("[games.quinn]\ncapture_rule = 'key'\n", "games.quinn"),
    ],
)
def test_a_typo_in_a_real_file_is_one_sentence_naming_the_key(tmp_path, text, key):
    path = tmp_path / "companion.toml"
    path.write_text(text)
    parsed, problems = config.load(path)
    assert len(problems) == 1 and key in problems[0], problems
    assert isinstance(parsed, Config)


def test_hardware_written_as_a_value_instead_of_a_table(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('hardware = "simulated"\n')
    parsed, problems = config.load(path)
    assert parsed.mode == "simulated" and parsed.race == RaceConfig()
    assert problems == [
        "Config file: hardware is 'simulated' but must be a table: a line [hardware] with its keys under it, "
        'like mode = "simulated"; using simulated hardware.'
    ]


def test_a_config_path_that_is_a_folder_is_a_sentence_not_a_crash(tmp_path):
    path = tmp_path / "companion.toml"
    path.mkdir()
    parsed, problems = config.load(path)
    assert parsed.mode == "simulated" and len(problems) == 1 and str(path) in problems[0]


@pytest.mark.parametrize("data", [["hardware"], "mode = 'auto'", None])
def test_parse_of_anything_but_tables_is_one_sentence(data):
    """`parse` "Never raises, whatever `data` holds": a caller handing it a list or a string (not a parsed TOML
    file) gets the safe defaults, simulated hardware, and one sentence."""
    parsed, problems = config.parse(data)
    assert parsed == Config(mode="simulated")
    assert problems == [
        f"Config file: the file must hold tables and keys, not {config._shown(data)}; using simulated hardware."
    ]


def test_a_bad_file_is_told_once_and_left_as_the_owner_wrote_it(tmp_path):
    """A file with a mistake gets one clear sentence and is never renamed, replaced or added to: the owner's
    words stay where they are, for them to mend."""
    path = tmp_path / "companion.toml"
    path.write_bytes(b"[race\nbuttons = [17, 27]\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    parsed, problems = config.load(path)
    assert parsed == Config(mode="simulated") and len(problems) == 1 and str(path) in problems[0]
    assert path.read_bytes() == b"[race\nbuttons = [17, 27]\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_games_settings_reader_that_trips_does_not_stop_the_start_up(tmp_path, monkeypatch):
    """A game's own reader failing on an odd value (a bug in a game, not the owner's mistake) is a sentence and
    the game's own value, like any refusal: the table still starts (Pig, the sixth game, as a game author's)."""
    from companion.games import register, unregister
    from tests.sixth_game import settings as pig

    def trips(raw):
        if raw.get("target") == 7:
            raise ZeroDivisionError("a game author's slip")
        return pig.PigSettings(raw.get("target", 30))

    register("tests.sixth_game")
    monkeypatch.setattr(pig, "read", trips)
    try:
        path = tmp_path / "companion.toml"
        path.write_text("[games.pig]\ntarget = 7\n")
        parsed, problems = config.load(path)
    finally:
        unregister("pig")
    assert parsed.games.get("pig", {}) == {}
    assert len(problems) == 1 and "the value could not be read (ZeroDivisionError)" in problems[0], problems
