"""The ``companion`` command: the composition root.

This is the one place that wires the core, the hardware (through
`ui.wiring.start_hardware`) and the UI together, which is why it lives in the top
layer. Each command imports only what it needs: ``companion play`` never loads Kivy, ``companion run`` loads it last.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion import config as config_file
from companion import paths
from companion.choices import TableChoices
from companion.dice import RandomDice
from companion.game import ABANDONED, Options, Refusal, RuleError, SetupError
from companion.games import names
from companion.store import Store, StoreRefused
from companion.store import check as check_store
from ui.wiring import load_hardware, start_hardware  # the one place the hardware is wired (Kivy not loaded)

if TYPE_CHECKING:  # sessions are loaded by the commands that play (`companion run` after its first frame)
    from companion.session import AnySession

EXIT_BAD_INPUT = 2
"""Bad arguments, an unreadable actions file, or a games file that is not ours or is in use."""

EXIT_NO_SCREEN = 3
"""A window was asked for where there is no screen to draw it on (`boot.NO_SCREEN` says what to do)."""

EXIT_CLOSED_PIPE = 141
"""Standard output was closed early (piped into `head`): the command stops quietly, as if SIGPIPE ended it."""

MAX_DEPTH = 32
"""The deepest nesting of brackets an action line or a --setting may hold (actions need 3 or 4)."""
MAX_DIGITS = 18
"""The most digits a whole number in an action or a setting may have: every one fits SQLite's 64 bits."""
MAX_LINE = 1_000_000
"""The longest action line read, in characters."""


def main(argv: Sequence[str] | None = None) -> int:
    # Files for the owner only: the games file and its WAL, backups, logs and the display pairings
    # hold hidden identities and pairing keys. Put back on return for callers that run us in-process.
    previous_umask = os.umask(0o077)
    try:
        return _main(argv)
    except BrokenPipeError:
        # `companion history | head`: the reader has all it wanted. Stop quietly, without Python's complaint
        # when it flushes standard output at exit; what was saved before stays saved.
        _quiet_stdout()
        return EXIT_CLOSED_PIPE
    finally:
        os.umask(previous_umask)


def _quiet_stdout() -> None:
    if sys.stdout is not sys.__stdout__ or sys.__stdout__ is None:
        return  # a caller's own stream (tests running us in-process): theirs to handle
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _main(argv: Sequence[str] | None) -> int:
    parser = _parser()
    args, rest = parser.parse_known_args(argv)
    if args.command == "display-emulator":
        from hardware.display.emulator import build_parser
        from hardware.display.emulator import main as emulator_main

        wanted = build_parser().parse_args(rest)
        if not (wanted.headless or wanted.firmware):  # a window: asked before any port is made
            from ui import boot

            no_screen = boot.screen_missing(os.environ, appliance=False, sentence=boot.NO_SCREEN_FOR_EMULATOR)
            if no_screen:
                print(no_screen, file=sys.stderr)
                return EXIT_NO_SCREEN

        def window(display: Any) -> int:
            from ui import boot

            boot.prepare()  # Kivy's config and logs in our own directory, and a quiet start, as for the app
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
    if args.command == "check":
        return check(args)
    if args.command == "export":
        return export(args)
    return run(args)


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argument that is a whole number from `low` to `high`, or a sentence saying what it must be."""

    def parse(text: str) -> int:
        try:
            number = int(text) if len(text.strip()) <= 30 else None
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number.") from None
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"{text} is out of range: it must be from {low:,} to {high:,}.")
        return number

    return parse


_ID = _whole(1, 2**63 - 1)
_SEED = _whole(-(2**63), 2**64 - 1)
_PAGE = _whole(-(10**9), 10**9)  # below 1 is refused by `history` itself, with its own sentence

SIZES = (100, 10_000)
"""The smallest and largest window side --size accepts, in pixels."""


def _window_size(text: str) -> str:
    """--size WIDTHxHEIGHT, checked here so that the window is never asked for a size it cannot have."""
    low, high = SIZES
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: write WIDTHxHEIGHT in pixels, like 800x480.")
    if not all(len(part.strip()) <= 6 and low <= int(part) <= high for part in parts):
        raise argparse.ArgumentTypeError(f"{text} is out of range: each side must be from {low} to {high:,} pixels.")
    return text


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
    run_cmd.add_argument(
        "--size", default="800x480", type=_window_size, help="window size on a laptop, WIDTHxHEIGHT (default 800x480)"
    )
    run_cmd.add_argument("--seed", type=_SEED, help="seeded dice, for demonstrations and bug reports")
    run_cmd.add_argument("--db", type=Path, help="games database (default: in the user data directory)")

    play_cmd = commands.add_parser(
        "play",
        help="run a game headless from a file of JSON actions",
        description='Apply one JSON action per line (e.g. {"type": "roll", "player": "Ann"}) and print each '
        "line's events as the whole table may read them, or the sentence refusing it, then the final public view "
        "and outcome as JSON. Nothing printed names a hidden identity: a private action (a setup step, a secret "
        'bet) that was refused shows as "refused (private)", its reason only with --private. '
        'Besides each game\'s own actions, {"type": "undo"} and {"type": "redo"} work in every game. '
        "With --actions - each line of standard input is applied (and its result printed) as it arrives. "
        "Exit status 2: bad arguments or actions file, or a --db that is not a games file or is in use.",
    )
    play_cmd.add_argument("game", nargs="?", choices=names(), help="which game (optional with --resume)")
    play_cmd.add_argument("--players", help="comma-separated names in seat order, e.g. Ann,Bo (not with --resume)")
    play_cmd.add_argument("--actions", required=True, help="file of JSON actions, one per line ('-' for stdin)")
    play_cmd.add_argument("--seed", type=_SEED, help="seed the dice so the same file gives the same game")
    play_cmd.add_argument("--db", type=Path, help="keep the game in this SQLite file (default: in memory)")
    play_cmd.add_argument(
        "--resume",
        action="store_true",
        help="continue the unfinished game in --db instead of starting one "
        "(dice it already rolled are kept; --seed seeds the ones rolled from here on)",
    )
    play_cmd.add_argument(
        "--game",
        dest="game_id",
        type=_ID,
        metavar="ID",
        help="with --resume: which unfinished game, by its number (needed when --db holds several)",
    )
    play_cmd.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help='a game setting, e.g. --setting capture_rule=\\"arcade\\" (repeatable)',
    )
    play_cmd.add_argument(
        "--private",
        action="store_true",
        help="also print what is for one player's eyes only: why a private action (a setup step, a secret bet) "
        "was refused, and each player's private view at the end",
    )

    config_cmd = commands.add_parser("config", help="where the config file is, an example, or a check of it")
    group = config_cmd.add_mutually_exclusive_group()
    group.add_argument("--path", action="store_true", help="print the config file's path")
    group.add_argument("--example", action="store_true", help="print a commented example config")
    group.add_argument("--check", action="store_true", help="read the config file and report problems")

    history_cmd = commands.add_parser("history", help="list finished games and wins per player")
    history_cmd.add_argument("--db", type=Path, help="games database (default: in the user data directory)")
    history_cmd.add_argument("--page", type=_PAGE, default=1, help="which page of games, newest first (default 1)")
    history_cmd.add_argument(
        "--per-page", type=_PAGE, default=HISTORY_PAGE, help=f"games a page (default {HISTORY_PAGE})"
    )

    check_cmd = commands.add_parser(
        "check",
        help="verify every game and move in the games file, changing nothing",
        description="Check every game and move in the games file without changing it. Exit status: 0 healthy, "
        "1 damage found (each problem and what the app's repair would keep are printed), 2 it cannot be read "
        "at all (missing, not a games file).",
    )
    check_cmd.add_argument("--db", type=Path, help="games database (default: in the user data directory)")

    export_cmd = commands.add_parser(
        "export",
        help="write one game's public record (players, times, outcome, every move's events) to standard output",
        description="Write game GAME_ID's public record to standard output: the game, its players and settings, "
        "when it started and ended, its outcome, and every move that stands (undone ones left out) with its "
        "time and its events as the whole table may read them. Nothing hidden is written, except that a "
        "finished game is revealed in full (each player's own view at the end). --format json (the default) is "
        "described in the README; --format text is the table's sentences. Reading changes nothing. "
        "Exit status 2: no such game, or a --db that is not a games file.",
    )
    export_cmd.add_argument("game_id", type=_ID, metavar="GAME_ID", help="the game's number (as history lists it)")
    export_cmd.add_argument("--format", choices=("json", "text"), default="json", help="json (default) or text")
    export_cmd.add_argument("--db", type=Path, help="games database (default: in the user data directory)")
    commands.add_parser(
        "display-emulator",
        help="emulate a player display on a pseudo-terminal (see `companion display-emulator --help`)",
        add_help=False,
    )
    return parser


# -- play ------------------------------------------------------------------------


def play(args: argparse.Namespace) -> int:
    def refuse(sentence: object) -> int:
        print(f"companion play: {sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if args.resume and args.db is None:
        return refuse("--resume continues a game saved in a games file: name it with --db PATH.")
    if args.game_id is not None and not args.resume:
        return refuse("--game ID names an unfinished game to continue: use it with --resume.")
    if not args.resume and (args.game is None or args.players is None):
        return refuse(
            "name the game and the players (e.g. quintet --players Ann,Bo), or continue a saved game "
            "with --resume --db PATH."
        )
    try:
        settings = dict(_setting(s) for s in args.setting)
        lines = _read_actions(args.actions)
    except OSError as error:
        return refuse(f"the actions file {args.actions} cannot be read ({error.strerror or error}).")
    except UnicodeDecodeError:
        return refuse(f"the actions file {args.actions} is not text (UTF-8).")
    except ValueError as problem:
        return refuse(problem)
    dice = RandomDice.seeded(args.seed) if args.seed is not None else RandomDice()
    try:
        store = Store.open(args.db) if args.db else Store.in_memory()
    except StoreRefused as refused:  # not a games file of ours, or another companion is writing it
        return refuse(refused)
    from companion.session import Session

    with store:
        told = _Telling(store)
        told()
        try:
            if args.resume:
                session = _resume(store, args, settings, dice)
            else:
                named = [name.strip() for name in args.players.split(",") if name.strip()]
                options = Options(Options.for_names(*named).players, settings)  # each seat in the table's colour
                session = Session.start(store, args.game, options, dice=dice, clock=lambda: 0.0)
        except (SetupError, LookupError, Refusal) as problem:
            told()  # a repair made while reading the game is said before the refusal
            return refuse(problem)
        told()
        try:
            for number, line in lines:
                result = _apply(session, line, private=args.private)
                told()
                print(json.dumps({"line": number, **result}, ensure_ascii=False), flush=True)
        except ValueError as problem:  # standard input that is not text
            return refuse(f"standard input could not be read ({problem}).")
        outcome = session.outcome
        final: dict[str, Any] = {
            "public_view": session.public_view(),
            "outcome": outcome.to_json() if outcome else None,
        }
        if args.private:
            final["private_views"] = {p.name: session.private_view(p.name) for p in session.options.players}
        print(json.dumps(final, indent=2, ensure_ascii=False, sort_keys=True), flush=True)
    return 0


class _Telling:
    """Says on stderr each sentence the store has about the games file (damage repaired, the card's weather), once.

    Not only at opening: a damaged row found while a game is read or played is repaired then, and the repair
    is said then. The exit status stays 0 when the game could go on: the sentence is the news.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._said: set[str] = set()

    def __call__(self) -> None:
        for sentence in (self._store.notice, self._store.problem):
            if sentence and sentence not in self._said:
                self._said.add(sentence)
                print(sentence, file=sys.stderr, flush=True)


def _resume(store: Store, args: argparse.Namespace, settings: dict[str, Any], dice: RandomDice) -> AnySession:
    """The unfinished game in `store` (the one `--game ID` names, if several); the game, players and settings
    named too must be its own."""
    waiting = [item.record for item in store.unfinished_games()]
    if not waiting:
        raise LookupError(f"there is no unfinished game in {args.db} to resume.")
    # "3: quintet with Ann, Bo, Cy; 1: quark with Di, Ed", newest first
    listed = "; ".join(f"{r.id}: {r.game} with {', '.join(Options.from_json(r.options).names)}" for r in waiting)
    if args.game_id is not None:
        record = next((r for r in waiting if r.id == args.game_id), None)
        if record is None:
            raise LookupError(f"{args.db} has no unfinished game {args.game_id} (it has {listed}).")
    elif len(waiting) > 1:
        raise LookupError(f"{args.db} has {len(waiting)} unfinished games, so name one with --game ID: {listed}.")
    else:
        record = waiting[0]
    if args.game is not None and args.game != record.game:
        raise LookupError(f"the unfinished game in {args.db} is {record.game}, not {args.game}.")
    options = Options.from_json(record.options)
    if args.players is not None:
        named = [name.strip() for name in args.players.split(",") if name.strip()]
        if named != list(options.names):
            raise LookupError(f"the unfinished game in {args.db} is played by {', '.join(options.names)}.")
    if any(key not in options.settings or options.settings[key] != value for key, value in settings.items()):
        raise LookupError(f"the unfinished game in {args.db} was started with other settings.")
    from companion.session import Session

    return Session.load(store, record.id, dice=dice, clock=lambda: 0.0)


REFUSED_PRIVATE = "refused (private)"
"""What `companion play` prints, without --private, for a private action the rules refused."""


def _apply(session: AnySession, line: str, *, private: bool = False) -> dict[str, Any]:
    """One line's result as printed: its events as the whole table may read them, or the refusal.

    The rules' reason for refusing a private action (a Quin setup step, a secret bet) may name
    that player's secrets ("You have 2 Shadows, already labelled 2 and 3."), so it is printed
    only with `private`, saying whose it is; otherwise just `REFUSED_PRIVATE`.
    """
    try:
        action = read_json(line)
    except json.JSONDecodeError as problem:
        return {"refused": f"This line is not JSON ({problem.msg} at column {problem.colno})."}
    except ValueError as problem:  # past the limits: nested too deep, a number too big
        return {"refused": str(problem)}
    if not isinstance(action, dict):
        return {"refused": 'An action is a JSON object, like {"type": "pass"}.'}
    try:
        if action.get("type") == "undo":
            return {"undone": session.undo()}
        if action.get("type") == "redo":
            return {"redone": session.redo()}
        return {"events": [session.public_event(event) for event in session.act(action)]}
    except RuleError as refusal:
        if not session.game.is_private(action):
            return {"refused": str(refusal)}
        owner = action.get("player")
        whose = {"for": owner} if isinstance(owner, str) and owner in session.options.names else {}
        return {"refused": str(refusal) if private else REFUSED_PRIVATE, **whose}
    except Refusal as refusal:  # the card would not take the move (`NotSaved`): the same for every action
        return {"refused": str(refusal)}


def _read_actions(source: str) -> Iterable[tuple[int, str]]:
    """Numbered action lines (every line counts; blank and ``#`` lines are skipped).

    A file is read whole at once, so that a missing one is an error before anything starts;
    standard input is read line by line as it comes, so that a script can hold a game open.
    """
    if source == "-":
        return _actions(_stdin_lines(sys.stdin))
    return list(_actions(Path(source).read_text(encoding="utf-8").splitlines()))


def _stdin_lines(stream: TextIO) -> Iterator[str]:
    # readline, not iteration: no read-ahead, so each line is applied as soon as it is written.
    for chunk in iter(stream.readline, ""):
        yield from chunk.splitlines() or [""]  # the same lines as splitting the whole text would give


def _actions(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines, start=1):
        if line.strip() and not line.startswith("#"):
            yield number, line


def _setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"--setting {text!r} must look like KEY=JSON")
    try:
        return key, read_json(value, "The value")
    except json.JSONDecodeError:
        return key, value  # a bare word is a string
    except ValueError as problem:
        raise ValueError(f"--setting {key}: {problem}") from None


def read_json(text: str, what: str = "This line") -> Any:
    """JSON from outside (an action line, a setting), within limits: nesting `MAX_DEPTH` deep at most, whole
    numbers of `MAX_DIGITS` digits at most, no infinities. Past them, `ValueError` with one sentence (where
    Python's own reader would raise RecursionError, or SQLite OverflowError later)."""
    if len(text) > MAX_LINE:
        raise ValueError(f"{what} is longer than {MAX_LINE:,} characters: it was not read.")
    if _depth(text) > MAX_DEPTH:
        raise ValueError(f"{what} is nested more than {MAX_DEPTH} brackets deep: it was not read.")
    return json.loads(text, parse_int=_small_int, parse_float=_finite, parse_constant=_no_constant)


def _depth(text: str) -> int:
    """The deepest nesting of [ and { outside strings (a quick look, before the parser's recursion)."""
    deepest = depth = 0
    inside = escaped = False
    for char in text:
        if inside:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                inside = False
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"The number {text[:24]}{'…' if len(text) > 24 else ''} is too big: it was not read.")
    return int(text)


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(f"The number {text[:24]} is too big: it was not read.")
    return number


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not a number an action can hold: it was not read.")


# -- config and history --------------------------------------------------------------


def show_config(args: argparse.Namespace) -> int:
    path = paths.config_path()
    if args.example:
        print(config_file.EXAMPLE, end="")
        return 0
    if args.check:
        loaded, problems = config_file.load(path)
        for problem in problems:
            print(problem)
        exposed = config_file.exposure(loaded.phones.interface) if loaded.phones.enabled else None
        if exposed:
            print(exposed)
        if not problems:
            print(f"{path}: fine." if path.exists() else f"{path} does not exist: the defaults are used.")
        choices = TableChoices.load(paths.table_choices_path())
        if choices.problem:
            print(choices.problem)
        elif choices.phones is not None:
            turned = f"turned on for {choices.phones.listen}" if choices.phones.on else "turned off"
            print(f"Phones are {turned} in Settings on the home screen: that wins over [phones] enabled and interface.")
        return 1 if problems or choices.problem else 0
    print(path)
    return 0


HISTORY_PAGE = 50


def history(args: argparse.Namespace) -> int:
    """Finished games and wins, read without locking, moving or writing anything."""
    path = args.db or paths.database_path()
    if not os.path.lexists(path):
        print("No games have been played yet.")
        return 0
    try:
        store = Store.read(path)
    except StoreRefused as refused:
        print(f"companion history: {refused}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.page < 1 or args.per_page < 1:
        print("companion history: --page and --per-page count from 1.", file=sys.stderr)
        return EXIT_BAD_INPUT
    with store:
        lines = []
        # every game that ended (one ended without a result too, said so): the page says where it is among
        # them, never a silent cap; only the page's rows are read
        total = store.past_count()
        first = (args.page - 1) * args.per_page
        for game in store.past(limit=args.per_page, offset=first):
            players = ", ".join(p["name"] for p in game.options.get("players", []))
            outcome = game.outcome or {}
            if outcome.get("reason") == ABANDONED:
                ended = "ended without a result"
            else:
                ended = f"won by {', '.join(outcome.get('winners', [])) or 'tie'}"
            lines.append(f"{game.game}\t{players}\t{ended}\t{round(game.elapsed)} s")
        if total > args.per_page or args.page > 1:  # one page holds them all: nothing to say
            shown = f"{first + 1}–{min(first + args.per_page, total)}" if first < total else "none"
            more = f"; --page {args.page + 1} for older ones" if first + args.per_page < total else ""
            lines.append(f"Games {shown} of {total:,}, newest first{more}.")
        for name, count in store.win_counts().items():
            lines.append(f"{name}: {count} win{'s' if count != 1 else ''}")
        if store.notice:  # damage found (and read around): the file is left for the app or `companion check`
            print(store.notice, file=sys.stderr)
    print("\n".join(lines) if lines else "No game has been finished yet.")
    return 0


def check(args: argparse.Namespace) -> int:
    """Verify the games file; the exit status is 0 healthy, 1 damaged, 2 unreadable."""
    path = args.db or paths.database_path()
    report = check_store(path)
    if report.status != 0:
        for line in report.lines():
            print(line)
        if report.salvage:  # the news, where a script watching only stderr sees it too
            print(f"companion check: {path} is damaged. {report.salvage}", file=sys.stderr)
        return report.status
    try:
        store = Store.read(path)
    except StoreRefused as refused:  # gone or replaced since it was checked
        print(refused)
        return 2
    with store:
        games, moves = store.counts()
    print(f"{path} is healthy: {games} game{'s' if games != 1 else ''}, {moves} move{'s' if moves != 1 else ''}.")
    return 0


# -- export ------------------------------------------------------------------------


def export(args: argparse.Namespace) -> int:
    """One game's public record (`companion.record`, as the Log screen reads it), changing nothing."""
    from companion import record

    path = args.db or paths.database_path()

    def refuse(sentence: object) -> int:
        print(f"companion export: {sentence}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if not os.path.lexists(path):
        return refuse(f"There is no game number {args.game_id}: no games have been played yet.")
    try:
        store = Store.read(path)
    except StoreRefused as refused:
        return refuse(refused)
    with store:
        if store.notice:  # damage found (and read around): the file is left for the app or `companion check`
            print(store.notice, file=sys.stderr)
        try:
            told = record.story(store, args.game_id)
        except (LookupError, SetupError, ValueError) as problem:
            return refuse(problem)
    if args.format == "text":
        print("\n".join(record.text_lines(told)))
    else:
        print(json.dumps(record.to_json(told), indent=2, ensure_ascii=False, sort_keys=True))
    return 0


# -- run --------------------------------------------------------------------------


def run(args: argparse.Namespace, *, on_first_frame: Callable[[], None] | None = None) -> int:
    """Open the app. Kivy is imported last, after its environment is set."""
    from ui import quiet_gc

    appliance = bool(getattr(args, "appliance", False))
    from ui import boot, logs

    no_screen = boot.screen_missing(os.environ, appliance=appliance)
    if no_screen:
        print(no_screen, file=sys.stderr)
        return EXIT_NO_SCREEN
    quiet_gc.hold()  # no garbage collection until home's first frame is drawn
    width, height = _size(getattr(args, "size", "800x480"))

    troubles = boot.prepare(appliance=appliance, width=width, height=height)
    logs.start()  # after Kivy's own logging, which importing Kivy set up: ours to stderr (the journal) and a file
    if logs.trouble:
        troubles.insert(0, boot.Trouble("its own log", logs.trouble))
    table = build_table(
        db=getattr(args, "db", None),
        seed=getattr(args, "seed", None),
        simulated=bool(getattr(args, "simulated", False)),
    )
    said = boot.sentence(troubles)  # a full or read-only card: one sentence for the app's own files (issue 22)
    if said:
        table.notices.append(said)
    import kivy.app  # noqa: F401  (Kivy's modules, loaded before its window is made: frozen with ours, below)

    quiet_gc.loaded()  # the window, made as ui.app loads, collects in full: not through what is loaded by now
    from ui.app import CompanionApp
    from ui.dispatch import clock_dispatcher

    table.dispatch = clock_dispatcher
    CompanionApp(
        table,
        on_first_frame=on_first_frame,
        start_hardware=start_hardware,
        load_hardware=load_hardware,
        resume_on_start=appliance,
        warm_up=True,
        rest=True,
    ).run()
    return 0


def build_table(*, db: Path | None = None, seed: int | None = None, simulated: bool = False) -> Any:
    """Everything the app needs but the hardware, each problem a notice rather than a crash.

    Each file is read by code that never raises; should one raise all the same (an error nobody foresaw),
    the app still starts, without that file, and says so: under systemd a crash is a restart loop.
    """
    from companion.config import Config
    from ui.table import Table, open_store

    notices: list[str] = []
    try:
        config, notices = config_file.load(paths.config_path())
    except Exception as error:
        config = Config(mode="simulated")
        notices.append(_unforeseen(error, f"The config file {paths.config_path()}", "simulated hardware is used"))
    if simulated:
        config = replace(config, mode="simulated")
    path = db or paths.database_path()
    try:
        store, store_notices = open_store(path)  # a refused file is a notice
    except Exception as error:  # the games file or its folder as nothing foresaw: play in memory, say so
        sentence = _unforeseen(error, f"The games file {path}", "games are played but not saved")
        store, store_notices = Store.in_memory(problem=sentence), [sentence]
    notices.extend(store_notices)
    dice = RandomDice.seeded(seed) if seed is not None else RandomDice()
    try:
        choices = TableChoices.load(paths.table_choices_path())  # what Settings chose (phones), across restarts
    except Exception as error:
        choices = TableChoices(paths.table_choices_path(), None, None, writable=False)
        choices.problem = _unforeseen(error, f"The table's choices {paths.table_choices_path()}", "Settings start over")
    if choices.problem:
        notices.append(choices.problem)
    return Table(store=store, config=config, dice=dice, notices=notices, choices=choices)


def _unforeseen(error: Exception, what: str, instead: str) -> str:
    """The sentence for a file that raised while the app started; the error itself goes to the log."""
    import logging

    logging.getLogger(__name__).exception("%s could not be opened", what)
    why = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
    return f"{what} could not be opened ({why}); {instead}."


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        return 800, 480
    return width, height


if __name__ == "__main__":
    sys.exit(main())
