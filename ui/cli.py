"""The ``companion`` command: the composition root.

This is the one place that wires the core, the hardware and the UI together,
which is why it lives in the top layer. Each command imports only what it
needs: ``companion play`` never loads Kivy, ``companion run`` loads it last.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion import config as config_file
from companion import paths
from companion.dice import RandomDice
from companion.game import Options, Player, RuleError, SetupError, public_event
from companion.games import names
from companion.session import Session
from companion.store import Store

EXIT_BAD_INPUT = 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "display-emulator":
        from hardware.display.emulator import main as emulator_main

        def window(display: Any) -> int:
            from ui.display_emulator import run_window

            return run_window(display)

        return int(emulator_main(rest, window=window) or 0)
    if rest:
        parser.error(f"unrecognised arguments: {' '.join(rest)}")
    if args.command == "play":
        return play(args)
    if args.command == "config":
        return show_config(args)
    if args.command == "history":
        return history(args)
    return run(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Tabletop Companion: dice, races, secrets and scores for Quintet, Quin, Quark, "
        "Quantum Link and Quinque. Without a command it opens the touchscreen app.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run_cmd = commands.add_parser("run", help="open the touchscreen app (the default command)")
    run_cmd.add_argument("--appliance", action="store_true", help="full screen on the Pi's own display (systemd)")
    run_cmd.add_argument("--simulated", action="store_true", help="simulated hardware even on a Raspberry Pi")
    run_cmd.add_argument("--size", default="800x480", help="window size on a laptop, WIDTHxHEIGHT (default 800x480)")
    run_cmd.add_argument("--seed", type=int, help="seeded dice, for demonstrations and bug reports")
    run_cmd.add_argument("--db", type=Path, help="games database (default: in the user data directory)")

    play_cmd = commands.add_parser(
        "play",
        help="run a game headless from a file of JSON actions",
        description="Apply one JSON action per line (e.g. {\"type\": \"roll\", \"player\": \"Ann\"}) and print each "
        "line's events or the sentence refusing it, then the final public view and outcome as JSON. "
        'Besides each game\'s own actions, {"type": "undo"} and {"type": "redo"} work in every game.',
    )
    play_cmd.add_argument("game", choices=names(), help="which game")
    play_cmd.add_argument("--players", required=True, help="comma-separated names in seat order, e.g. Ann,Bo")
    play_cmd.add_argument("--actions", required=True, help="file of JSON actions, one per line ('-' for stdin)")
    play_cmd.add_argument("--seed", type=int, help="seed the dice so the same file gives the same game")
    play_cmd.add_argument("--db", type=Path, help="keep the game in this SQLite file (default: in memory)")
    play_cmd.add_argument("--setting", action="append", default=[], metavar="KEY=JSON",
                          help='a game setting, e.g. --setting capture_rule=\\"arcade\\" (repeatable)')
    play_cmd.add_argument("--private", action="store_true", help="also print each player's private view at the end")

    config_cmd = commands.add_parser("config", help="where the config file is, an example, or a check of it")
    group = config_cmd.add_mutually_exclusive_group()
    group.add_argument("--path", action="store_true", help="print the config file's path")
    group.add_argument("--example", action="store_true", help="print a commented example config")
    group.add_argument("--check", action="store_true", help="read the config file and report problems")

    commands.add_parser("history", help="list finished games and wins per player")
    commands.add_parser(
        "display-emulator",
        help="emulate a player display on a pseudo-terminal (see `companion display-emulator --help`)",
        add_help=False,
    )
    return parser


# -- play ------------------------------------------------------------------------


def play(args: argparse.Namespace) -> int:
    players = tuple(Player(name.strip()) for name in args.players.split(",") if name.strip())
    try:
        settings = dict(_setting(s) for s in args.setting)
        lines = _read_actions(args.actions)
    except (OSError, ValueError) as problem:
        print(f"companion play: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    dice = RandomDice.seeded(args.seed) if args.seed is not None else RandomDice()
    store = Store.open(args.db) if args.db else Store.in_memory()
    if store.notice:
        print(store.notice, file=sys.stderr)
    try:
        session = Session.start(store, args.game, Options(players, settings), dice=dice, clock=lambda: 0.0)
    except SetupError as problem:
        print(f"companion play: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for number, line in lines:
        print(json.dumps({"line": number, **_apply(session, line)}, ensure_ascii=False))
    outcome = session.outcome
    final: dict[str, Any] = {
        "public_view": session.public_view(),
        "outcome": outcome.to_json() if outcome else None,
    }
    if args.private:
        final["private_views"] = {p.name: session.private_view(p.name) for p in players}
    print(json.dumps(final, indent=2, ensure_ascii=False, sort_keys=True))
    store.close()
    return 0


def _apply(session: Session, line: str) -> dict[str, Any]:
    try:
        action = json.loads(line)
    except json.JSONDecodeError as problem:
        return {"refused": f"This line is not JSON ({problem.msg} at column {problem.colno})."}
    if not isinstance(action, dict):
        return {"refused": 'An action is a JSON object, like {"type": "pass"}.'}
    if action.get("type") == "undo":
        return {"undone": session.undo()}
    if action.get("type") == "redo":
        return {"redone": session.redo()}
    try:
        return {"events": [public_event(session.rules, event) for event in session.act(action)]}
    except RuleError as refusal:
        return {"refused": str(refusal)}


def _read_actions(source: str) -> list[tuple[int, str]]:
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip() and not line.startswith("#")]


def _setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--setting {text!r} must look like KEY=JSON")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value  # a bare word is a string


# -- config and history --------------------------------------------------------------


def show_config(args: argparse.Namespace) -> int:
    path = paths.config_path()
    if args.example:
        print(config_file.EXAMPLE, end="")
        return 0
    if args.check:
        _, problems = config_file.load(path)
        for problem in problems:
            print(problem)
        if not problems:
            print(f"{path}: fine." if path.exists() else f"{path} does not exist: the defaults are used.")
        return 1 if problems else 0
    print(path)
    return 0


def history(_args: argparse.Namespace) -> int:
    with Store.open(paths.database_path()) as store:
        for game in store.finished(limit=1000):
            players = ", ".join(p["name"] for p in game.options.get("players", []))
            winners = ", ".join((game.outcome or {}).get("winners", [])) or "tie"
            print(f"{game.game}\t{players}\twon by {winners}\t{round(game.elapsed)} s")
        for name, count in store.win_counts().items():
            print(f"{name}: {count} win{'s' if count != 1 else ''}")
    return 0


# -- run --------------------------------------------------------------------------


def run(args: argparse.Namespace, *, on_first_frame: Callable[[], None] | None = None) -> int:
    """Open the app. Kivy is imported last, after its environment is set."""
    appliance = bool(getattr(args, "appliance", False))
    width, height = _size(getattr(args, "size", "800x480"))
    from ui import boot

    boot.prepare(appliance=appliance, width=width, height=height)
    table = build_table(
        db=getattr(args, "db", None),
        seed=getattr(args, "seed", None),
        simulated=bool(getattr(args, "simulated", False)),
    )
    from ui.app import CompanionApp
    from ui.dispatch import clock_dispatcher

    table.dispatch = clock_dispatcher
    CompanionApp(
        table, on_first_frame=on_first_frame, start_hardware=start_hardware, resume_on_start=appliance
    ).run()
    return 0


def build_table(*, db: Path | None = None, seed: int | None = None, simulated: bool = False) -> Any:
    """Everything the app needs but the hardware, each problem a notice rather than a crash."""
    from ui.table import Table

    config, notices = config_file.load(paths.config_path())
    if simulated:
        config = replace(config, mode="simulated")
    store = Store.open(db or paths.database_path())
    if store.notice:
        notices.append(store.notice)
    dice = RandomDice.seeded(seed) if seed is not None else RandomDice()
    return Table(store=store, config=config, dice=dice, notices=notices)


def start_hardware(table: Any) -> list[str]:
    """Open the pins (lgpio on a Pi, mock elsewhere) once the first screen is up.

    Done after the first frame so that the table sees the app at once; the
    notices it returns (simulated hardware, a busy chip) appear on the home screen.
    """
    from hardware import pins
    from hardware.display.hub import DisplayHub
    from hardware.race_buttons import RaceButtons

    choice = pins.choose(table.config.mode)
    table.pin_factory = choice.factory
    table.simulated = choice.simulated
    notices = [choice.reason] if choice.simulated else []
    try:
        table.race = RaceButtons(table.config.race, pin_factory=choice.factory)
    except Exception as error:  # a pin already in use, a missing chip: the table can still choose by hand
        notices.append(f"The race buttons could not be opened ({error}).")
    ports = list(table.config.displays.ports)
    if choice.simulated:  # emulated displays (`companion display-emulator`) name their ports here
        ports.append(str(paths.emulated_displays_dir() / "*"))
    table.displays = DisplayHub(
        paths.pairings_path(),
        call_soon=table.dispatch,
        ports=ports,
        baudrate=table.config.displays.baud,
    ).start()
    return notices


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        return 800, 480
    return width, height


if __name__ == "__main__":
    sys.exit(main())
