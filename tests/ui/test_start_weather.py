"""Issue 22: "Never a crash loop": the real `companion run`, started on a card that is full, read-only or holds
what the app did not write, comes up on its home screen and says in one sentence what it could not do.

"Everything the app touches before its first frame (Kivy's config folder and file, Kivy's log, our log, the
config file, the pairings file, the phone codes, table choices, the games file, the backups folder) may be
missing, full, read-only, unreadable, damaged or not ours: the app still draws its home screen, with one
sentence saying what it could not do. Logging never stops the app: a log that cannot be written falls back to
stderr with one line saying so. A test starts the real `companion run` under Xvfb with each of these faults (a
real small tmpfs and a real read-only remount, as root) and sees the home screen."

Each case is a fresh home (``COMPANION_HOME``), a fault put in it, and one start of ``python -m ui.cli run``
(some with ``--appliance``) on the shared Xvfb. The app tells systemd's socket (ours here) READY after its
first frame, with the home screen built; its log says what the home screen's notice line says ("The home
screen says: ..."), which the test reads. Root ignores file modes, so "unreadable" is a folder or a pipe
where a file is expected, and "not ours" is a file of garbage bytes: each is checked to be left as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_start_weather")

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "build" / "screenshots"
DEADLINE = 60.0  # seconds for anything to happen: a slow machine, never a measurement
GARBAGE = bytes(range(256)) * 8  # not text, not JSON, not TOML, not INI: nobody's file of ours
SAYS = "The home screen says: "

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    """A real small tmpfs at `where` for the block (unmounted after, whatever happens)."""
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], check=False)


def read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)


def fill(where: Path) -> None:
    """Fill the tmpfs at `where` to its last byte."""
    with open(where / "filler", "wb", buffering=0) as out, contextlib.suppress(OSError):
        while True:
            out.write(b"\0" * 4096)


def pipe(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def garbage(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(GARBAGE)


@dataclass
class Started:
    ready: bool
    returncode: int | None
    printed: str
    said: list[str]
    """Each "The home screen says" line, in order (the first frame's, then the hardware's, if any)."""


def start(home: Path, display: str, sock_dir: Path, *, appliance: bool = False, wait_for: str = "",
          screenshot: str = "") -> Started:
    """`companion run` on `home`, up to READY (and a line holding `wait_for`, if given), then stopped as systemd
    stops it."""
    address = str(sock_dir / "notify.sock")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(address)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "WATCHDOG_", "JOURNAL_"))}
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update({"COMPANION_HOME": str(home), "DISPLAY": display, "NOTIFY_SOCKET": address, "KIVY_NO_ARGS": "1"})
    if appliance:
        env["SDL_VIDEODRIVER"] = "x11"  # the appliance's KMS/DRM is not here: its settings are, on Xvfb
    lines: list[str] = []
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(DEADLINE)
        app = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "run", *(["--appliance"] if appliance else [])],
            cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        assert app.stdout is not None
        reader = threading.Thread(target=lambda: lines.extend(app.stdout or ()), daemon=True)
        reader.start()
        ready = False
        try:
            with contextlib.suppress(TimeoutError):
                ready = listener.recv(256).decode() == "READY=1"
            if ready and wait_for:
                deadline = time.monotonic() + DEADLINE
                while not any(wait_for in line for line in list(lines)) and time.monotonic() < deadline:
                    time.sleep(0.05)
            if ready and screenshot:
                size = shoot(display, screenshot)
                assert size == (800, 480), f"the window seen on the screen is {size}"
        finally:
            app.terminate()  # SDL turns SIGTERM into a window close, as systemd's stop does
            try:
                returncode = app.wait(timeout=DEADLINE)
            except subprocess.TimeoutExpired:
                app.kill()
                returncode = app.wait()
            reader.join(timeout=10)
    printed = "".join(lines)
    said = [line.split(SAYS, 1)[1].strip() for line in lines if SAYS in line]
    return Started(ready, returncode, printed, said)


def shoot(display: str, name: str) -> tuple[int, int]:
    """The app's window as the X screen shows it (the rest of the screen is black), saved; its size."""
    from PIL import ImageGrab

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + DEADLINE
    while True:  # READY follows the first frame; X may show it a moment later on a busy machine
        screen = ImageGrab.grab(xdisplay=display)
        box = screen.getbbox()
        window = screen.crop(box) if box else screen
        if (box and len(window.getcolors(1 << 16) or range(1 << 16)) > 50) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    time.sleep(0.3)  # a frame or two more, so that the notice line is drawn
    screen = ImageGrab.grab(xdisplay=display)
    window = screen.crop(screen.getbbox() or (0, 0, *screen.size))
    window.save(SCREENSHOTS / f"{name}.png")
    return window.size


def came_up(started: Started, *, foreseen: bool = True) -> None:
    """The app drew its home screen and ran until stopped; if `foreseen`, it printed no traceback (an error
    nobody foresaw is logged with where it happened, for whoever reads the journal)."""
    assert started.ready, f"no READY (the home screen was never drawn):\n{started.printed}"
    assert started.returncode == 0, f"exit {started.returncode}:\n{started.printed}"
    if foreseen:
        assert "Traceback" not in started.printed, started.printed


def one_sentence_about(started: Started, *words: str) -> str:
    """The home screen's notice holds a sentence with each of `words`; that sentence."""
    said = " ".join(started.said)
    sentences = [s for s in said.replace("). ", ").\n").split("\n") if all(w in s for w in words)]
    assert sentences, f"no sentence on home with {words}: {started.said}\n{started.printed}"
    return sentences[0]


# -- the card: full, read-only ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lived_in(xvfb: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home after one ordinary start: Kivy's settings and log, our log, the games file."""
    home = tmp_path_factory.mktemp("lived-in") / "home"
    started = start(home, xvfb, home.parent)
    came_up(started)
    assert started.said == [], started.said  # an ordinary start says nothing
    return home


@needs_root
@pytest.mark.parametrize("appliance", [False, True], ids=["plain", "appliance"])
def test_a_full_card_at_the_first_start(xvfb: str, tmp_path: Path, appliance: bool) -> None:
    """Issue 22: "A full SD card at start: `companion run` exits 1, 4 of 4 starts (plain and `--appliance`):
    Kivy's file log raises `OSError: [Errno 28] No space left on device`"."""
    with tmpfs(tmp_path / "card", "64k") as card:
        fill(card)
        shot = f"start-weather-full-{'appliance' if appliance else 'plain'}"
        started = start(card / "home", xvfb, tmp_path, appliance=appliance, screenshot="" if appliance else shot)
    came_up(started)
    assert "SD card is full" in " ".join(started.said)
    mine = one_sentence_about(started, "runs without", "its own log", "Kivy's log", "No space left on device")
    assert "standard error" in mine
    # "a log that cannot be written falls back to stderr with one line saying so"
    assert started.printed.count("Kivy's log goes on to standard error only") == 1
    assert started.printed.count("the log goes on to standard error only") == 1


@needs_root
def test_a_full_card_with_a_lived_in_home(xvfb: str, tmp_path: Path, lived_in: Path) -> None:
    """Issue 22: a full card at start, once the card holds a home of ours (Kivy's settings, the logs, the games
    file). Kivy's log is a new file each start: it cannot be written. Ours appends to a page already there."""
    with tmpfs(tmp_path / "card", "1m") as card:
        shutil.copytree(lived_in, card / "home")
        fill(card)
        started = start(card / "home", xvfb, tmp_path, appliance=True)
    came_up(started)
    one_sentence_about(started, "runs without", "Kivy's log", "No space left on device")


@needs_root
@pytest.mark.parametrize("lived", [False, True], ids=["fresh", "lived-in"])
def test_a_read_only_card(xvfb: str, tmp_path: Path, lived_in: Path, lived: bool) -> None:
    """Issue 22: "A read-only card with a fresh data folder: exit 1, `OSError: [Errno 30] Read-only file system`
    from `ui/boot.py` creating the config folder." Also a read-only card that holds a home of ours."""
    with tmpfs(tmp_path / "card", "1m") as card:
        if lived:
            shutil.copytree(lived_in, card / "home")
        read_only(card)
        started = start(card / "home", xvfb, tmp_path, appliance=lived, screenshot="" if lived else "start-weather-ro")
    came_up(started)
    assert "SD card is read-only" in " ".join(started.said)
    one_sentence_about(started, "runs without", "its own log", "Read-only file system")


@needs_root
def test_kivys_folder_read_only(xvfb: str, tmp_path: Path) -> None:
    """Issue 22: Kivy's config folder not writable (a read-only mount of its own): the rest of the home is fine."""
    home = tmp_path / "home"
    with tmpfs(home / "config" / "kivy", "64k") as kivy:
        read_only(kivy)
        started = start(home, xvfb, tmp_path)
    came_up(started)
    mine = one_sentence_about(started, "runs without", "Kivy's settings file", "Kivy's log", "Read-only file system")
    assert "its own log" not in mine, "our own log is on a card that can be written"


# -- a file that is not what it should be: damaged, not ours, a folder or a pipe in its place -----------------


@dataclass(frozen=True)
class Fault:
    at: tuple[str, ...]
    """The paths (in the home) that hold the fault, each left as it was."""
    words: tuple[tuple[str, ...], ...]
    """For each sentence on home, words it holds."""
    late: str = ""
    """Words of a sentence that comes once the hardware is started, just after the first frame."""
    config: str = ""
    """A config file of ours to put in the home too (the phones on, to read their codes)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


NOT_OURS = {  # garbage bytes where each file or folder goes
    "kivy-folder": Fault(("config/kivy",), (("Kivy's settings file", "Kivy's log", "not a folder"),)),
    "kivy-settings": Fault(("config/kivy/config.ini",), (("Kivy's settings file", "left as it is"),)),
    "our-log": Fault(("data/logs/companion.log",), (("its own log", "left as it is", "standard error"),)),
    "config": Fault(("config/companion.toml",), (("config file", "could not be read"),)),
    "choices": Fault(("data/table-choices.json",), (("table-choices.json", "left as it is"),)),
    "pairings": Fault(("data/displays.json",), (), late="display pairings file"),
    "phone-codes": Fault(
        ("data/phone-codes.json",), (), late="seat codes last until the app stops",
        config=f"[phones]\nenabled = true\nport = {_free_port()}\n",
    ),
    "games-file": Fault(("data/games.db",), (("games.db", "not saved"),)),
    "data-folder": Fault(("data",), (("runs without", "its own log"), ("games.db", "not saved"))),
}

FILES = ("config/kivy/config.ini", "data/logs/companion.log", "config/companion.toml", "data/table-choices.json",
         "data/displays.json", "data/games.db")  # fmt: skip
"""The files the start reads or writes (the pipes and the folders go in all at once: one start each)."""
IN_PLACE_OF_EACH_FILE = (
    ("Kivy's settings file", "its own log"), ("config file",), ("table-choices.json",), ("games.db",),
)  # fmt: skip


def _fingerprint(path: Path) -> object:
    """What is at `path`, enough to tell it was not replaced, renamed, truncated or written."""
    found = path.lstat()
    content = path.read_bytes() if path.is_file() else sorted(p.name for p in path.iterdir()) if path.is_dir() else None
    return found.st_ino, found.st_mode, found.st_size, content


def _left_as_they_were(home: Path, fault: Fault, xvfb: str, tmp_path: Path) -> Started:
    before = {at: _fingerprint(home / at) for at in fault.at}
    if fault.config:
        (home / "config").mkdir(parents=True, exist_ok=True)
        (home / "config" / "companion.toml").write_text(fault.config)
    started = start(home, xvfb, tmp_path, wait_for=fault.late)
    came_up(started)
    for words in fault.words:
        one_sentence_about(started, *words)
    if fault.late:
        one_sentence_about(started, fault.late)
    for at, was in before.items():
        assert _fingerprint(home / at) == was, f"{at} was changed"
    return started


@pytest.mark.parametrize("name", list(NOT_OURS))
def test_a_file_that_is_not_ours(xvfb: str, tmp_path: Path, name: str) -> None:
    """Issue 22: each file the start touches may be "damaged or not ours: the app still draws its home screen,
    with one sentence saying what it could not do"; and what is there is left as it was."""
    fault, home = NOT_OURS[name], tmp_path / "home"
    for at in fault.at:
        garbage(home / at)
    _left_as_they_were(home, fault, xvfb, tmp_path)


def test_a_pipe_in_place_of_each_file(xvfb: str, tmp_path: Path) -> None:
    """Issue 22: each file "unreadable" (root reads any file whatever its mode: a pipe can be neither read nor
    written without a second program, and opening one waits for it: the start must not wait for ever)."""
    home = tmp_path / "home"
    for at in FILES:
        pipe(home / at)
    _left_as_they_were(home, Fault(FILES, IN_PLACE_OF_EACH_FILE, late="display pairings file"), xvfb, tmp_path)


def test_a_folder_in_place_of_each_file(xvfb: str, tmp_path: Path) -> None:
    """Issue 22: each file "unreadable": a folder where the file goes (and a file where the backups folder goes)."""
    home = tmp_path / "home"
    for at in FILES:
        (home / at / "inside").mkdir(parents=True)
    garbage(home / "data" / "backups")
    fault = Fault((*FILES, "data/backups"), IN_PLACE_OF_EACH_FILE, late="display pairings file")
    _left_as_they_were(home, fault, xvfb, tmp_path)


# -- the games file: one that raises at opening, or when the home screen reads it ------------------------------


def _schema_flipped(path: Path) -> None:
    """A games file of ours with one bit flipped in the schema's SQL text (issue 22's UnicodeDecodeError)."""
    from companion.store import Store

    Store.open(path).close()
    data = bytearray(path.read_bytes())
    data[data.index(b"CREATE TABLE") + 44] ^= 0x80
    path.write_bytes(bytes(data))


def test_a_games_file_that_raises_at_opening(xvfb: str, tmp_path: Path) -> None:
    """Issue 22: "A flipped bit in the schema's SQL text ... `companion run` exits 1 without a screen, 2 of 2
    starts." Whatever the store makes of it, the app comes up on home and says something about the file."""
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    _schema_flipped(home / "data" / "games.db")
    started = start(home, xvfb, tmp_path, appliance=True)  # the appliance: it would resume a game it finds
    came_up(started, foreseen=False)  # the store's part of issue 22 may foresee it: then no traceback either
    assert started.said, started.printed


def test_a_store_that_raises_at_opening_is_a_store_in_memory_and_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 22: the games file "may be ... damaged or not ours: the app still draws its home screen, with one
    sentence": an error nobody foresaw at opening (not a refusal, not the weather) is caught at the app's edge."""
    import ui.table
    from ui.cli import build_table

    def raises(path: Path) -> object:
        raise UnicodeDecodeError("utf-8", b"\xc5", 0, 1, "invalid continuation byte")

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(ui.table, "open_store", raises)
    table = build_table(db=tmp_path / "games.db")
    assert table.notices == [f"The games file {tmp_path / 'games.db'} could not be opened (UnicodeDecodeError); "
                             "games are played but not saved."]  # fmt: skip
    assert table.store.problem == table.notices[0]  # the game screen's banner says it too
    assert not table.store.saving


def test_a_games_file_the_home_screen_cannot_read_gives_home_on_a_store_in_memory(ui: object) -> None:
    """Issue 22: the app "still draws its home screen, with one sentence", even when reading the games file
    for the home screen (past games, unfinished ones, wins) raises."""
    import sqlite3

    from companion.store import Store
    from ui.table import Table

    broken = Store.in_memory()

    def raises(*_args: object, **_kwargs: object) -> object:
        raise sqlite3.DatabaseError("database disk image is malformed")

    for name in ("unfinished", "unfinished_games", "finished", "finished_count"):
        setattr(broken, name, raises)
    app = ui.app  # type: ignore[attr-defined]
    app.reset(Table(store=broken))
    try:
        assert app.screens.current_screen is app.home
        assert app.table.store is not broken
        assert "The games file could not be read" in app.home.notice
    finally:
        app.reset(Table(store=Store.in_memory()))


# -- the small files: never over a file the app did not write --------------------------------------------------


def test_pairings_that_are_not_ours_are_left_as_they_are_and_pairing_still_works(tmp_path: Path) -> None:
    """Issue 22: the pairings file "may be ... not ours"; and "never rename, truncate or replace a file the app
    did not create": a display paired now stays paired until the app stops."""
    from hardware.display.hub import Pairings

    path = tmp_path / "displays.json"
    garbage(path)
    pairings = Pairings(path)
    assert pairings.problem is not None and "left as it is" in pairings.problem
    pairings.bind("emu-ann", "Ann", bytes(16))
    assert pairings.player_of("emu-ann") == "Ann"
    assert path.read_bytes() == GARBAGE


def test_pairings_on_a_card_that_cannot_be_written_do_not_stop_a_pairing(tmp_path: Path) -> None:
    from hardware.display.hub import Pairings

    garbage(tmp_path / "data")  # a file where the folder goes: ENOTDIR, as a card that cannot be written
    pairings = Pairings(tmp_path / "data" / "displays.json")
    pairings.bind("emu-ann", "Ann", None)
    assert pairings.player_of("emu-ann") == "Ann"


def test_phone_codes_that_are_not_ours_say_so_and_are_left_as_they_are(tmp_path: Path) -> None:
    from hardware.phones.codes import SeatCodes

    path = tmp_path / "phone-codes.json"
    garbage(path)
    codes = SeatCodes(path)
    assert codes.problem is not None and "last until the app stops" in codes.problem
    codes.keep("1", {"Ann": "A" * 22})
    assert path.read_bytes() == GARBAGE


@pytest.mark.parametrize("kind", ["pipe", "nested", "huge"])
def test_the_apps_small_files_are_never_waited_on_nor_too_deep_nor_too_big(tmp_path: Path, kind: str) -> None:
    """Issue 22: "unreadable, damaged or not ours": a pipe would block the start for ever, brackets nested
    thousands deep raise RecursionError, a huge file would be read whole into memory."""
    from companion import app_files

    path = tmp_path / "table-choices.json"
    if kind == "pipe":
        pipe(path)
    elif kind == "nested":
        path.write_text("[" * 100_000)
    else:
        with open(path, "wb") as out:
            out.truncate(app_files.LARGEST + 1)
    with pytest.raises(app_files.NotOurs, match="left as it is"):
        app_files.read(path, "table-choices", 1)


def test_the_sentence_names_each_thing_once() -> None:
    from ui.boot import Trouble, sentence

    assert sentence([]) is None
    said = sentence([Trouble("its own log", "Read-only file system"), Trouble("Kivy's log", "Read-only file system"),
                     Trouble("Kivy's settings file", "Read-only file system")])  # fmt: skip
    assert said == ("The companion runs without its own log, Kivy's log and Kivy's settings file "
                    "(Read-only file system); its log goes to standard error only.")  # fmt: skip
