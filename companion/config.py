"""The config file: pins, player displays, and the numbers a table may change.

A TOML file in the user config directory (`companion config --path`). Every
problem becomes a sentence naming the key; the app then uses safe defaults
(simulated hardware, the games' own numbers) rather than refusing to start.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXAMPLE = """\
# Tabletop Companion configuration. Every key is optional.

[hardware]
# "auto": real GPIO on a Raspberry Pi, simulated elsewhere; "simulated": always simulated.
mode = "auto"

[race]
# BCM pin numbers. Each button connects its pin to ground (internal pull-up).
buttons = [17, 27]      # left player, right player
leds = [22, 23]         # the light in each button (through a resistor), optional
buzzer = 24             # active buzzer, optional
tie_window_ms = 5       # presses closer than this are a tie

[displays]
# Where player displays may appear; by-id names survive replugging.
ports = ["/dev/serial/by-id/usb-*"]
baud = 115200

[games.quin]
capture_rule = "key"    # or "arcade"
[games.quin.pieces]     # these four must add up to 9
Reflector = 2
Memory = 2
Peripheral = 3
Void = 2

[games.quark.atoms]     # protons, neutrons, electrons (energy), points
Hydrogen = [1, 0, 1, 10]
Helium = [2, 2, 2, 40]
Lithium = [3, 4, 3, 90]
Beryllium = [4, 5, 4, 160]

[games.quinque]
advanced = false        # true: how far a tile moves depends on the parachutes on it
"""


class ConfigError(ValueError):
    """A config value that cannot be used; the message names the key."""


@dataclass(frozen=True)
class RaceConfig:
    buttons: tuple[int, int] = (17, 27)
    leds: tuple[int, int] | None = (22, 23)
    buzzer: int | None = 24
    tie_window_ms: float = 5.0


@dataclass(frozen=True)
class DisplaysConfig:
    ports: tuple[str, ...] = ("/dev/serial/by-id/usb-*",)
    baud: int = 115200


@dataclass(frozen=True)
class Config:
    """The whole config, already checked. `Config()` is the defaults."""

    mode: str = "auto"  # "auto" or "simulated"
    race: RaceConfig = field(default_factory=RaceConfig)
    displays: DisplaysConfig = field(default_factory=DisplaysConfig)
    games: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def settings_for(self, game: str) -> dict[str, Any]:
        """The `[games.<game>]` table, passed to the game as its settings."""
        return dict(self.games.get(game, {}))


def load(path: Path) -> tuple[Config, list[str]]:
    """Read `path`; return the config and a sentence per problem found.

    A missing file is the defaults with no complaint. A file that is not TOML
    is the defaults with one sentence. A bad hardware value makes the hardware
    simulated; a bad game table is left out (the game uses its own numbers).
    """
    if not path.exists():
        return Config(), []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as error:
        return Config(mode="simulated"), [
            f"The config file {path} could not be read ({error}); using simulated hardware and default rules."
        ]
    return parse(data)


def parse(data: Mapping[str, Any]) -> tuple[Config, list[str]]:
    problems: list[str] = []
    mode = "auto"
    race, displays = RaceConfig(), DisplaysConfig()
    try:
        mode = _choice(data, "hardware.mode", ("auto", "simulated"), "auto")
        race = _race(data.get("race", {}))
        displays = _displays(data.get("displays", {}))
    except ConfigError as error:
        problems.append(f"Config file: {error}; using simulated hardware.")
        mode = "simulated"
    games = data.get("games", {})
    if not isinstance(games, Mapping):
        problems.append("Config file: [games] must be a table of game names; ignored.")
        games = {}
    kept = {}
    for name, table in games.items():
        if isinstance(table, Mapping):
            kept[name] = dict(table)
        else:
            problems.append(f"Config file: games.{name} must be a table; ignored.")
    return Config(mode, race, displays, kept), problems


def _choice(data: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    section, name = key.split(".")
    value = data.get(section, {}).get(name, default)
    if value not in allowed:
        raise ConfigError(f"{key} is {value!r} but must be one of {', '.join(map(repr, allowed))}")
    return str(value)


def _pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise ConfigError(f"{key} is {value!r} but must be a BCM pin number from 0 to 27")
    return value


def _pins(value: Any, key: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(f"{key} is {value!r} but must be two pin numbers, like [17, 27]")
    first, second = (_pin(v, f"{key}[{i}]") for i, v in enumerate(value))
    return first, second


def _race(table: Any) -> RaceConfig:
    if not isinstance(table, Mapping):
        raise ConfigError("[race] must be a table")
    default = RaceConfig()
    buttons = _pins(table.get("buttons", list(default.buttons)), "race.buttons")
    leds = _pins(table["leds"], "race.leds") if "leds" in table else default.leds
    buzzer = _pin(table["buzzer"], "race.buzzer") if "buzzer" in table else default.buzzer
    window = table.get("tie_window_ms", default.tie_window_ms)
    if isinstance(window, bool) or not isinstance(window, int | float) or not 0 <= window <= 100:
        raise ConfigError(f"race.tie_window_ms is {window!r} but must be a number of milliseconds from 0 to 100")
    used = [*buttons, *(leds or ()), *([buzzer] if buzzer is not None else [])]
    if len(set(used)) != len(used):
        raise ConfigError(f"the race pins {used} use one pin twice")
    return RaceConfig(buttons, leds, buzzer, float(window))


def _displays(table: Any) -> DisplaysConfig:
    if not isinstance(table, Mapping):
        raise ConfigError("[displays] must be a table")
    ports = table.get("ports", list(DisplaysConfig.ports))
    if not isinstance(ports, list) or not all(isinstance(p, str) and p for p in ports):
        raise ConfigError(f"displays.ports is {ports!r} but must be a list of device paths or patterns")
    baud = table.get("baud", DisplaysConfig.baud)
    if baud not in (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600):
        raise ConfigError(f"displays.baud is {baud!r} but must be a standard rate such as 115200")
    return DisplaysConfig(tuple(ports), int(baud))
