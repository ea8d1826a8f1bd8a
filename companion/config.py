"""The config file: pins, player displays, and the numbers a table may change.

A TOML file in the user config directory (`companion config --path`). Every
problem becomes a sentence naming the key; the app then uses safe defaults
(simulated hardware, the games' own numbers) rather than refusing to start.
"""

from __future__ import annotations

import json
import reprlib
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

[phones]
# Phones as private screens: each player scans a code on the touchscreen. Off unless enabled here
# or in Settings on the home screen (whose choice then wins over enabled and interface).
enabled = false
interface = "127.0.0.1"   # where to listen; "0.0.0.0" is every interface (the table's Wi-Fi too)
port = 8470
# tls = true                                   # https, with your own certificate and key:
# tls_certificate = "/home/pi/companion.crt"
# tls_key = "/home/pi/companion.key"

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
class PhonesConfig:
    """`[phones]`: the phone server (off by default); `tls` the certificate and key files, or None (http)."""

    enabled: bool = False
    interface: str = "127.0.0.1"
    port: int = 8470
    tls: tuple[Path, Path] | None = None


@dataclass(frozen=True)
class Config:
    """The whole config, already checked. `Config()` is the defaults."""

    mode: str = "auto"  # "auto" or "simulated"
    race: RaceConfig = field(default_factory=RaceConfig)
    displays: DisplaysConfig = field(default_factory=DisplaysConfig)
    games: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    phones: PhonesConfig = field(default_factory=PhonesConfig)

    def settings_for(self, game: str) -> dict[str, Any]:
        """The `[games.<game>]` table, passed to the game as its settings."""
        return dict(self.games.get(game, {}))


def load(path: Path) -> tuple[Config, list[str]]:
    """Read `path`; return the config and a sentence per problem found.

    A missing file is the defaults with no complaint. A file that is not TOML
    is the defaults with one sentence. A bad hardware value makes the hardware
    simulated; a game setting the game cannot use is left out (the game uses its own value).
    """
    try:
        if not path.exists():
            return Config(), []
        if not path.is_file():  # a folder, or a pipe that would block the start-up for ever
            raise IsADirectoryError(f"{path} is not a file")
        import tomllib  # only when there is a file: the defaults need none (issue 26: start-up)

        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError, OSError) as error:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        return Config(mode="simulated"), [
            f"The config file {path} could not be read ({_short(str(error), 120)}); "
            "using simulated hardware and default rules."
        ]
    return parse(data)


def parse(data: Any) -> tuple[Config, list[str]]:
    """The config that `data` (a parsed TOML file) describes, and a sentence per problem.

    Never raises, whatever `data` holds: each section is checked on its own, and a
    section with a problem is replaced by its defaults (a hardware one also makes
    the hardware simulated, so a typo can never drive the wrong pins).
    """
    problems: list[str] = []
    if not isinstance(data, Mapping):
        return Config(mode="simulated"), [
            f"Config file: the file must hold tables and keys, not {_shown(data)}; using simulated hardware."
        ]
    simulated = False
    parts: dict[str, Any] = {"hardware": "auto", "race": RaceConfig(), "displays": DisplaysConfig()}
    for section, read in (("hardware", _hardware), ("race", _race), ("displays", _displays)):
        try:
            parts[section] = read(data.get(section, {}), problems)
        except ConfigError as error:
            problems.append(f"Config file: {error}; using simulated hardware.")
            simulated = True
    games = _games(data.get("games", {}), problems)
    try:
        phones = _phones(data.get("phones", {}), problems)
    except ConfigError as error:  # phones are an extra: a bad value turns them off, the rest still runs
        problems.append(f"Config file: {error}; phones stay off.")
        phones = PhonesConfig()
    for name in data:
        if name not in _SECTIONS:
            problems.append(
                f"Config file: [{_key(name)}] is not a section the companion knows ({', '.join(_SECTIONS)}); ignored."
            )
    mode = "simulated" if simulated else parts["hardware"]
    return Config(mode, parts["race"], parts["displays"], games, phones), problems


_SECTIONS = ("hardware", "race", "displays", "phones", "games")
_BAUDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)


def _table(value: Any, section: str, example: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(
            f"{section} is {_shown(value)} but must be a table: "
            f"a line [{section}] with its keys under it, like {example}"
        )
    return value


def _unknown(table: Mapping[str, Any], section: str, known: tuple[str, ...], problems: list[str]) -> None:
    for name in table:
        if name not in known:
            problems.append(
                f"Config file: {section}.{_key(name)} is not a key the companion knows "
                f"(in [{section}]: {', '.join(known)}); ignored."
            )


def _hardware(value: Any, problems: list[str]) -> str:
    table = _table(value, "hardware", 'mode = "simulated"')
    _unknown(table, "hardware", ("mode",), problems)
    return _choice(table.get("mode", "auto"), "hardware.mode", ("auto", "simulated"))


def _choice(value: Any, key: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(f"{key} is {_shown(value)} but must be one of {', '.join(map(repr, allowed))}")
    return value


def _pin(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 27:
        raise ConfigError(f"{key} is {_shown(value)} but must be a BCM pin number from 0 to 27")
    return value


def _pins(value: Any, key: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(f"{key} is {_shown(value)} but must be two pin numbers, like [17, 27]")
    first, second = (_pin(v, f"{key}[{i}]") for i, v in enumerate(value))
    return first, second


def _race(value: Any, problems: list[str]) -> RaceConfig:
    table = _table(value, "race", "buttons = [17, 27]")
    _unknown(table, "race", ("buttons", "leds", "buzzer", "tie_window_ms"), problems)
    default = RaceConfig()
    buttons = _pins(table.get("buttons", list(default.buttons)), "race.buttons")
    leds = _pins(table["leds"], "race.leds") if "leds" in table else default.leds
    buzzer = _pin(table["buzzer"], "race.buzzer") if "buzzer" in table else default.buzzer
    window = table.get("tie_window_ms", default.tie_window_ms)
    if isinstance(window, bool) or not isinstance(window, int | float) or not 0 <= window <= 100:
        raise ConfigError(f"race.tie_window_ms is {_shown(window)} but must be a number of milliseconds from 0 to 100")
    used = [*buttons, *(leds or ()), *([buzzer] if buzzer is not None else [])]
    if len(set(used)) != len(used):
        raise ConfigError(f"the race pins {used} use one pin twice")
    return RaceConfig(buttons, leds, buzzer, float(window))


def _displays(value: Any, problems: list[str]) -> DisplaysConfig:
    table = _table(value, "displays", "baud = 115200")
    _unknown(table, "displays", ("ports", "baud"), problems)
    ports = table.get("ports", list(DisplaysConfig.ports))
    if not isinstance(ports, list) or not all(isinstance(p, str) and p for p in ports):
        raise ConfigError(f"displays.ports is {_shown(ports)} but must be a list of device paths or patterns")
    baud = table.get("baud", DisplaysConfig.baud)
    if isinstance(baud, bool) or not isinstance(baud, int) or baud not in _BAUDS:
        raise ConfigError(f"displays.baud is {_shown(baud)} but must be a standard rate such as 115200")
    return DisplaysConfig(tuple(ports), baud)


def _phones(value: Any, problems: list[str]) -> PhonesConfig:
    """`[phones]`; a bad value raises `ConfigError` naming its key (and the phones stay off)."""
    table = _table(value, "phones", "enabled = true")
    _unknown(table, "phones", ("enabled", "interface", "port", "tls", "tls_certificate", "tls_key"), problems)
    default = PhonesConfig()
    enabled = table.get("enabled", default.enabled)
    if not isinstance(enabled, bool):
        raise ConfigError(f"phones.enabled is {_shown(enabled)} but must be true or false")
    interface = table.get("interface", default.interface)
    if not isinstance(interface, str) or not _is_interface(interface):
        raise ConfigError(
            f"phones.interface is {_shown(interface)} but must be an address to listen on, "
            'like "127.0.0.1" (this machine only) or "0.0.0.0" (every interface)'
        )
    port = table.get("port", default.port)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError(f"phones.port is {_shown(port)} but must be a port number from 1 to 65535, like 8470")
    files = [table.get(key) for key in ("tls_certificate", "tls_key")]
    if (files[0] is None) != (files[1] is None):
        given, missing = ("tls_certificate", "tls_key") if files[0] is not None else ("tls_key", "tls_certificate")
        raise ConfigError(f"phones.{given} is set but phones.{missing} is not: give both files or neither")
    # `tls = true` asks for https; both files alone ask for it too (the first slice had no `tls` key).
    wants_tls = table.get("tls", files[0] is not None)
    if not isinstance(wants_tls, bool):
        raise ConfigError(f"phones.tls is {_shown(wants_tls)} but must be true or false")
    if wants_tls and files[0] is None:
        # Never serve the private pages in the clear when the owner asked for https.
        raise ConfigError(
            "phones.tls is true but needs your certificate and key: set phones.tls_certificate and phones.tls_key"
        )
    tls = None
    if wants_tls:
        found = []
        for key, file in zip(("tls_certificate", "tls_key"), files, strict=True):
            if not isinstance(file, str) or not file:
                raise ConfigError(f"phones.{key} is {_shown(file)} but must be the path of a file")
            path = Path(file).expanduser()
            if not path.is_file():
                raise ConfigError(f"phones.{key} is {_shown(file)} but there is no such file")
            found.append(path)
        tls = (found[0], found[1])
    return PhonesConfig(enabled, interface, port, tls)


def exposure(interface: str) -> str | None:
    """What `companion config --check` says of a `[phones] interface` that listens on every address, or None."""
    import ipaddress

    try:
        address = ipaddress.ip_address(interface)
    except ValueError:
        return None
    if not address.is_unspecified:
        return None
    family = "IPv6" if address.version == 6 else "IPv4"
    return (
        f'phones.interface = "{interface}" listens on every {family} address of every network this machine is '
        "on (Wi-Fi, Ethernet, a VPN, a hotspot): anyone on any of them reaches the phone server and may try "
        "seat codes. To listen on the table's network only, give its address, or choose it in Settings."
    )


def _is_interface(value: str) -> bool:
    import ipaddress

    if value == "localhost":
        return True
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def _games(value: Any, problems: list[str]) -> dict[str, dict[str, Any]]:
    """The `[games.<name>]` tables; each bad one is left out (that game uses its own numbers)."""
    if not isinstance(value, Mapping):
        problems.append(f"Config file: [games] must be a table of game names, not {_shown(value)}; ignored.")
        return {}
    from companion.games import names  # imports no game: each game's module loads on first use

    known = names()
    kept = {}
    for name, table in value.items():
        if name not in known:
            problems.append(f"Config file: games.{_key(name)} is not a game (the games: {', '.join(known)}); ignored.")
        elif isinstance(table, Mapping):
            kept[name], found = game_settings(name, table)
            problems.extend(found)
        else:
            problems.append(f"Config file: games.{_key(name)} must be a table; ignored.")
    return kept


def game_settings(name: str, table: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The `[games.<name>]` table without what game `name` cannot use, and a sentence for each thing left out.

    The game's own ``settings.read`` judges, so `companion config --check` and starting the game agree;
    a key missing from the game's ``DEFAULTS`` (if it lists them) is not one of its settings.
    Each setting is tried on its own first: a bad one falls back to the game's own value (each entry of
    a table the game lists in ``EACH_ENTRY_ALONE``, such as Quark's atoms, falls back alone). If the
    settings left are good one by one but not together, the game uses all its own settings.
    """
    from companion.games import facts, settings_module

    module: Any = settings_module(name)
    title = facts(name).title
    defaults: Mapping[str, Any] | None = getattr(module, "DEFAULTS", None)
    problems: list[str] = []
    if defaults is not None:  # the game lists its settings: a misspelt one is named, not silently unused
        for key in table:
            if key not in defaults:
                problems.append(
                    f"Config file: games.{_key(name)}.{_short(_key(key), 40)} is not a {title} setting "
                    f"(its settings: {', '.join(defaults)}); ignored."
                )
        table = {key: value for key, value in table.items() if key in defaults}
    if _fault(module, table) is None:
        return dict(table), problems
    defaults = defaults or {}
    alone: tuple[str, ...] = getattr(module, "EACH_ENTRY_ALONE", ())
    kept: dict[str, Any] = {}
    for key, value in table.items():
        if key in alone and isinstance(value, Mapping):
            entries = {}
            own = defaults.get(key, {})
            for entry, entry_value in value.items():
                fault = _fault(module, {key: {entry: entry_value}})
                if fault is None:
                    entries[entry] = entry_value
                else:
                    where = f"{_key(key)}.{_key(entry)}"
                    problems.append(_fallback(name, title, where, fault, own.get(entry)))
            kept[key] = entries
        else:
            fault = _fault(module, {key: value})
            if fault is None:
                kept[key] = value
            else:
                problems.append(_fallback(name, title, _key(key), fault, defaults.get(key)))
    fault = _fault(module, kept)
    if fault is not None:
        problems.append(
            f"Config file: [games.{_key(name)}]: {_short(fault.rstrip('.'), 250)}; these settings do not fit "
            f"together, so {title} uses all its own settings."
        )
        return {}, problems
    return kept, problems


def _fault(module: Any, raw: Mapping[str, Any]) -> str | None:
    """The game's sentence refusing the settings `raw`, or None if it takes them."""
    from companion.game import SetupError

    try:
        module.read(raw)
    except SetupError as error:
        return str(error)
    except Exception as error:  # a game's reader tripping on an odd value must not stop the start-up
        return f"the value could not be read ({type(error).__name__})"
    return None


def _fallback(game: str, title: str, key: str, fault: str, own: Any) -> str:
    """One sentence: the game's reason, and what the game uses instead."""
    key = _short(key, 40)
    if own is None:
        instead = "ignored"
    else:
        written = _toml(own)  # a long default (all of Quark's atoms) is not worth the line it would take
        instead = f"{title} uses its own {key}" + (f" = {written}" if len(written) <= 80 else "")
    sentence = f"Config file: games.{_key(game)}.{key}: {_short(fault.rstrip('.'), 220)}; {instead}"
    return _short(sentence, 398) + "."


def _toml(value: Any) -> str:
    """A value as the config file would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return str(value)


def _key(name: Any) -> str:
    """A key as it would be written in the file: bare if it can be, quoted otherwise."""
    text = str(name)
    return text if text and all(c.isascii() and (c.isalnum() or c in "-_") for c in text) else json.dumps(text)


def _shown(value: Any) -> str:
    """A value as a sentence can quote it: on one line, and short (however big or deep it is)."""
    if isinstance(value, Mapping):
        return "a table"
    return _short(_REPR.repr(value), 60)


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxlist, _REPR.maxdict, _REPR.maxstring, _REPR.maxother = 3, 4, 2, 40, 40


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
