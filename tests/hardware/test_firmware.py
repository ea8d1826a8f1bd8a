"""The display's very firmware under MicroPython, against the real hub and a real game of Quin.

Issue 13: "The very `main.py` and `protocol.py` that go onto a Pico then run as
a MicroPython process, against the real host hub on that pty." Each board here
is `hardware/display/firmware/main.py` run by MicroPython's Unix port, its keys
pins held low, its OLED a real ``framebuf.FrameBuffer`` (128×64, 16×8 cells),
its flash a folder that survives unplugging. The host is a real `DisplayHub`
scanning a folder of ports, and the game a real `Session` of Quin in SQLite.

The pictures (`build/screenshots/oled-*.png`, 4×) are the framebuffer itself.
"""

from __future__ import annotations

import logging
import os
import platform
import queue
import random
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from subprocess import PIPE

import pytest

from companion.dice import RandomDice
from companion.game import Options
from companion.games.quin import display as quin_display
from companion.games.quin.display import SetupMenu, in_setup, menu_for
from companion.games.quin.examples import example_setup
from companion.session import Session
from companion.small_display import Page, pages_for
from companion.store import Store
from hardware.display import protocol as p
from hardware.display.firmware.main import COLS, ROWS, Device, KeyFile
from hardware.display.firmware_process import PACKAGE, FirmwareDisplay, find_micropython
from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus
from hardware.display.link import DisplayLink, Hello
from tests.support import QueuedDispatcher, wait_until
from tests.support.displays import DisplayPorts
from tests.support.quin import ANN, BO, flash, pass_

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
PAIRING_SCREEN = ["Pair display", "", "Code: {}", "", "Tap your name", "on the table."]
START_SCREEN = ["Tabletop", "Companion", "", "Waiting for", "the table..."]


def _micropython_here() -> bool:
    try:
        find_micropython()
    except RuntimeError:
        return False
    return True


# Only off x86_64: there (CI) a missing MicroPython fails the tests, as it must.
needs_micropython = pytest.mark.skipif(
    platform.machine() != "x86_64" and not _micropython_here(),
    reason=f"MicroPython's Unix port ({PACKAGE}) has a wheel only for x86_64, and this {platform.machine()} machine "
    "has no `micropython` command: the firmware's own tests run on x86_64 (CI)",
)

# -- the firmware's logic under CPython: the handshake and the version screen -----------------------------


class Screen:
    def __init__(self) -> None:
        self.shown: list[list[str]] = []

    def show(self, lines: list[str]) -> None:
        self.shown.append(lines)


def replies(sent: list[bytes]) -> list[tuple[int, bytes]]:
    return [p.decode_frame(frame[:-1]) for frame in sent]


def test_bind_keeps_the_key_in_flash_and_challenge_is_answered_with_its_proof(tmp_path: Path) -> None:
    """Issue 13: "The display keeps it in its flash, as a file"; "the display answers with an HMAC-SHA256 of it"."""
    sent: list[bytes] = []
    device = Device("pico-1", Screen(), sent.append, key_file=KeyFile(str(tmp_path / "display.key")))
    nonce = bytes(range(p.NONCE_SIZE))
    device.feed(p.encode_frame(p.CHALLENGE, nonce))
    assert replies(sent) == [(p.PROOF, b"")]  # no key yet: "I hold no key"
    key = bytes(range(100, 100 + p.KEY_SIZE))
    device.feed(p.encode_frame(p.BIND, key) + p.encode_frame(p.CHALLENGE, nonce))
    assert replies(sent)[1:] == [(p.PROOF, p.prove(key, nonce))]  # BIND itself says nothing
    assert (tmp_path / "display.key").read_bytes() == key and not (tmp_path / "display.key.new").exists()
    # Power cycled: the key comes back from the flash.
    again = Device("pico-1", Screen(), sent.append, key_file=KeyFile(str(tmp_path / "display.key")))
    again.feed(p.encode_frame(p.CHALLENGE, nonce))
    assert replies(sent)[-1] == (p.PROOF, p.prove(key, nonce))


def test_a_power_cut_never_leaves_half_a_key(tmp_path: Path) -> None:
    """Brief: "write display.key.new then os.rename over display.key (a power cut never leaves half a key)"."""
    old, new = bytes([1]) * p.KEY_SIZE, bytes([2]) * p.KEY_SIZE
    (tmp_path / "display.key").write_bytes(old)
    (tmp_path / "display.key.new").write_bytes(new[:7])  # cut while writing the new one
    assert KeyFile(str(tmp_path / "display.key")).load() == old
    (tmp_path / "display.key").unlink()
    (tmp_path / "display.key.new").write_bytes(new)  # cut between removing the old and renaming the new
    assert KeyFile(str(tmp_path / "display.key")).load() == new


def test_a_wrong_sized_key_or_nonce_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A malformed BIND or CHALLENGE is counted and skipped: the key kept stays the key."""
    sent: list[bytes] = []
    key = bytes([7]) * p.KEY_SIZE
    (tmp_path / "display.key").write_bytes(key)
    device = Device("pico-1", Screen(), sent.append, key_file=KeyFile(str(tmp_path / "display.key")))
    device.feed(p.encode_frame(p.BIND, b"short") + p.encode_frame(p.CHALLENGE, b"n"))
    assert sent == [] and device.errors == {p.MALFORMED: 2}
    assert (tmp_path / "display.key").read_bytes() == key and device.pairing_key == key


@pytest.mark.parametrize(
    ("version", "advice"), [(1, ["Update the", "companion app."]), (3, ["Update this", "display."])]
)
def test_another_version_is_told_on_the_screen_once_per_burst(version: int, advice: list[str]) -> None:
    """Issue 13: "Bump the protocol version. A display with the old firmware is told, on its own screen, to update."

    Brief: the firmware says which side to update, at most once per burst.
    """
    screen = Screen()
    device = Device("pico-1", screen, [].append)
    device.feed(b"".join(p.encode_frame(p.ASK, version=version) for _ in range(20)))
    device.feed(p.encode_frame(p.SCREEN, b"x", version=version))
    assert len(screen.shown) == 1 and device.errors == {p.WRONG_VERSION: 21}
    lines = screen.shown[0]
    assert lines[0] == "Versions differ" and lines[-2:] == advice
    assert f"v{version}" in " ".join(lines) and f"v{p.VERSION}" in " ".join(lines)
    assert all(len(line) <= COLS for line in lines) and len(lines) <= ROWS
    device.feed(p.encode_frame(p.SCREEN, p.pack_screen(["Back to", "normal"])))
    assert screen.shown[-1][:2] == ["Back to", "normal"]


# -- boards on the table --------------------------------------------------------------------------------------


class Boards:
    """Firmware boards plugged into the table's ports, each with its own flash folder."""

    def __init__(self, root: Path, table: DisplayPorts) -> None:
        self.root = root
        self.table = table
        self.boards: list[FirmwareDisplay] = []

    def plug(self, name: str, *, unique_id: bytes | None = None, flash: Path | None = None) -> FirmwareDisplay:
        """A board called `name` on the port ``usb-pico-<name>`` (its id made from the name unless given)."""
        board = FirmwareDisplay(
            flash or self.root / f"flash-{name}",
            unique_id=unique_id if unique_id is not None else name.encode().ljust(8, b"\0")[:8],
            link=self.table.ports / f"usb-pico-{name}",
        )
        self.boards.append(board)
        return board.plug()

    def close(self) -> None:
        for board in self.boards:
            board.close()


@pytest.fixture
def boards(tmp_path: Path, table: DisplayPorts) -> Iterator[Boards]:
    try:
        find_micropython()
    except RuntimeError as error:
        pytest.fail(str(error))
    plugged = Boards(tmp_path, table)
    try:
        yield plugged
    finally:
        plugged.close()


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    """A game of Quin between Ann and Bo, in a real games file."""
    with Store.open(tmp_path / "games.db") as store:
        yield Session.start(store, "quin", Options.for_names(ANN, BO), dice=RandomDice.seeded(7))


def settle(dispatcher: QueuedDispatcher, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Run the UI thread's queue until `condition` holds with nothing more queued."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition() and dispatcher.run() == 0:
            return True
        dispatcher.run()
        time.sleep(0.002)
    return False


def fitted(page: Page) -> list[str]:
    """A page as the OLED's rows read back: ROWS rows, trailing spaces dropped."""
    assert len(page) <= ROWS and all(len(line) <= COLS for line in page), page  # the firmware never has to cut
    return [line.rstrip() for line in page] + [""] * (ROWS - len(page))


def pairing_code(board: FirmwareDisplay) -> str:
    assert board.wait_for(lambda b: b.text().startswith("Pair display")), board.text()
    match = re.search(r"Code: (\d) (\d) (\d)", board.text())
    assert match, board.text()
    return "".join(match.groups())


def first_screen(session: Session, player: str, menu: SetupMenu | None = None) -> list[str]:
    """What `player`'s display shows first: their setup menu while it is up, else their first page."""
    view = session.own_view(player)
    shown = menu_for(view, menu)
    if shown is not None:
        return fitted(shown.lines(view, COLS, ROWS))
    return fitted(pages_for(view, COLS, ROWS, quin_display)[0])


def pair(hub: DisplayHub, board: FirmwareDisplay, session: Session, player: str) -> None:
    """The pairing step as the table does it: read the code off the OLED, tap the name; then the handshake."""
    assert hub.pair(pairing_code(board), player)
    assert board.wait_for(lambda b: b.screen() == first_screen(session, player)), board.screen()


def link_of(hub: DisplayHub, board: FirmwareDisplay) -> DisplayLink:
    assert wait_until(lambda: any(link.identity == board.identity for link, _ in hub.displays()))
    return next(link for link, _ in hub.displays() if link.identity == board.identity)


def picture(board: FirmwareDisplay, name: str) -> None:
    board.save_png(SCREENSHOTS / name)


def drawn(board: FirmwareDisplay) -> set[str]:
    return {"\n".join(screen) for screen in board.history()}


# -- HELLO and pairing -------------------------------------------------------------------------------------------


@needs_micropython
def test_the_firmware_says_hello_and_shows_the_pairing_code(
    hub: DisplayHub, boards: Boards, table: DisplayPorts, session: Session
) -> None:
    """Issue 13: tests with the MicroPython process cover "HELLO and pairing"; a new display shows a code."""
    hub.attach(session)
    board = boards.plug("ann")
    code = pairing_code(board)
    assert board.screen() == fitted([line.format(" ".join(code)) for line in PAIRING_SCREEN])
    assert link_of(hub, board).hello == Hello(board.identity, COLS, ROWS, ("up", "down", "ok", "back"))
    assert board.identity == "pico-" + b"ann".ljust(8, b"\0").hex()  # "pico-" and machine.unique_id()
    port = str(table.ports / "usb-pico-ann")
    assert DisplayStatus(None, DisplayState.UNPAIRED, board.identity, port, code) in hub.status()
    assert board.history()[0] == fitted(START_SCREEN)  # its own screen until the table speaks
    assert list(board.log) == []  # nothing the host sent was refused
    picture(board, "oled-pairing-code.png")


@needs_micropython
def test_pairing_binds_a_key_in_flash_and_the_display_proves_it_again_after_a_replug(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 13: "host and display agree on a random key. The display keeps it in its flash"; "On every later
    connection the host challenges with a fresh nonce, and the display answers"; "unplug and replug (kill and
    restart the process)"; "every reconnect makes the host send the full current screen"."""
    caplog.set_level(logging.INFO, logger="hardware.display.hub")
    hub.attach(session)
    board = boards.plug("ann")
    pair(hub, board, session, ANN)
    key = board.key_file.read_bytes()
    pairing = hub.pairings.get(board.identity)
    assert pairing is not None and pairing.player == ANN and pairing.key == key and len(key) == p.KEY_SIZE
    assert sorted(path.name for path in board.flash.iterdir()) == ["display.key"]
    assert settle(
        dispatcher, lambda: DisplayStatus(ANN, DisplayState.CONNECTED, board.identity, board.path) in hub.status()
    )

    board.unplug()  # the process is killed: its memory is gone, its flash is not
    assert settle(dispatcher, lambda: DisplayStatus(ANN, DisplayState.UNPLUGGED, board.identity) in hub.status())
    session.act(example_setup(ANN))  # the game goes on meanwhile: Ann's screen is another one now
    board.plug()
    assert board.wait_for(lambda b: b.screen() == first_screen(session, ANN)), board.screen()
    assert board.key_file.read_bytes() == key  # proved with the key it kept, not given a new one
    assert hub.pairings.get(board.identity) == pairing
    assert board.starts == 2 and list(board.log) == []
    proofs = [r.getMessage() for r in caplog.records if "proved" in r.getMessage()]
    assert len(proofs) == 2 and all(board.identity in proof for proof in proofs)  # at pairing, and at the replug


@needs_micropython
@pytest.mark.parametrize("kept", [None, bytes([9]) * p.KEY_SIZE], ids=["no key", "another key"])
def test_a_board_claiming_anns_identity_without_her_key_gets_nothing_private(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher, kept: bytes | None
) -> None:
    """Issue 13: "A device that claims a paired identity without the key gets nothing private. The shared screen
    says "A display claims to be Ann's but could not prove it", and the status strip never shows it as Ann's"."""
    hub.attach(session)
    ann = boards.plug("ann")
    pair(hub, ann, session, ANN)
    ann.unplug()
    impostor_flash = boards.root / "flash-impostor"
    if kept is not None:
        impostor_flash.mkdir()
        (impostor_flash / "display.key").write_bytes(kept)
    impostor = boards.plug("impostor", unique_id=ann.unique_id, flash=impostor_flash)
    assert impostor.identity == ann.identity  # the very HELLO of Ann's display
    pairing_code(impostor)
    claims = [status for status in hub.status() if status.claims == ANN]
    assert [status.sentence for status in claims] == ["A display claims to be Ann's but could not prove it"]
    assert claims[0].player is None
    assert not any(s.player == ANN and s.state == DisplayState.CONNECTED for s in hub.status())
    assert not any("Ann" in "\n".join(screen) for screen in impostor.history())  # no view of Ann's, ever
    assert impostor.key_file.exists() == (kept is not None)  # and it was given no key


# -- every Quin screen, key presses, pictures --------------------------------------------------------------------


@needs_micropython
def test_keys_on_the_board_do_anns_whole_private_setup(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher
) -> None:
    """Issue 13: tests with the MicroPython process cover "key presses doing the private setup"; each screen
    the OLED shows is the one the setup menu says, at the firmware's 16×8."""
    hub.attach(session)
    board = boards.plug("ann")
    pair(hub, board, session, ANN)
    link = link_of(hub, board)
    menu = SetupMenu()

    def press(key: str) -> None:
        """Press `key` on the board; the OLED must then show what the setup menu says, once the hub has played."""
        nonlocal menu
        view = session.own_view(ANN)
        shown = menu_for(view, menu)
        assert shown is not None
        menu, action = shown.press(view, key, COLS, ROWS)
        refusal = session.refusal(action) if action is not None else None
        if refusal is not None:
            menu = menu.refused(refusal)  # shown on Ann's board only
        frames = link.stats.frames
        board.press(key)  # returns once the firmware has sent its KEY
        assert wait_until(lambda: link.stats.frames > frames)
        want = menu
        assert settle(dispatcher, lambda: board.screen() == first_screen(session, ANN, want)), (
            board.screen(),
            first_screen(session, ANN, want),
        )

    press("up")  # "Finish setup", too early: the rules' sentence on the board
    press("ok")
    assert board.text().startswith("Ann") and "Refused" in board.screen()[0]
    assert "Your setup is not finished" in " ".join(board.screen())
    press("ok")  # back to the list, on Finish
    press("down")  # round to the top
    assert session.moves == ()
    presses = 0
    while in_setup(session.own_view(ANN)):
        press("ok")
        presses += 1
        if presses == 12:
            picture(board, "oled-setup.png")  # the Clone chosen, three labels given
        assert presses < 80
    assert presses == 55  # the Clone in 3, each of the 17 labels in 3, Finish in 1
    state = session.state
    assert state.side(ANN).ready and not state.side(BO).ready
    assert {getattr(move.action, "player", None) for move in session.moves} == {ANN}  # each made on her board
    assert board.text().startswith("Ann") and list(board.log) == []


@needs_micropython
def test_every_page_of_every_quin_state_and_the_pictures(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher
) -> None:
    """Issue 13: tests cover "every Quin screen it receives"; "Take one [picture] per Quin display state: pairing
    code, setup, identity list, flash result, and the end reveal"; no line cut ("Shadow" never "Shad")."""
    hub.attach(session)
    board = boards.plug("ann")
    pair(hub, board, session, ANN)
    session.act(example_setup(ANN))
    session.act(example_setup(BO))
    expected: set[str] = set()
    page = 0

    def every_page(name: str, shot: Callable[[Page], bool]) -> None:
        """Turn through every page of Ann's view with the down key, each as the host renders it."""
        nonlocal page
        pages = [fitted(lines) for lines in pages_for(session.own_view(ANN), COLS, ROWS, quin_display)]
        page = min(page, len(pages) - 1)  # the hub keeps the page a display was on, if it still has it
        assert board.wait_for(lambda b: b.screen() == pages[page]), (board.screen(), pages[page])
        taken = False
        for _ in range(len(pages)):
            expected.add("\n".join(pages[page]))
            if not taken and shot(pages[page]):
                picture(board, name)
                taken = True
            board.press("down")
            page = (page + 1) % len(pages)
            assert settle(dispatcher, lambda shown=pages[page]: board.screen() == shown), (board.screen(), pages[page])
        assert taken, f"no page for {name}"

    every_page("oled-identities.png", lambda lines: any(re.match(r"\s*1 Light", line) for line in lines))
    session.act(flash(ANN, "8", "2"))  # Ann's Peripheral on Bo's Shadow
    every_page("oled-flash.png", lambda lines: "captures" in " ".join(lines))
    session.act(pass_(BO))
    session.act(flash(ANN, "1", "1"))  # Light takes Light: Ann wins, every identity shown
    assert session.state.result is not None
    # The end reveal: every identity shown to the rival, so each piece line carries its "*".
    every_page("oled-end.png", lambda lines: sum(line.rstrip().endswith("*") or "*" in line for line in lines) >= 4)
    unexpected = drawn(board) - expected
    assert all(screen.startswith(("Tabletop", "Pair display", "Display", "Ann")) for screen in unexpected)
    assert list(board.log) == []


# -- resets and garbage ---------------------------------------------------------------------------------------------


@needs_micropython
def test_a_reboot_mid_frame_shows_the_current_screen(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher
) -> None:
    """Issue 13: "A display that reboots mid-frame (half a frame, then HELLO) stays blank until the view next
    changes"; tests cover "a reboot mid-frame": the host sends the whole current screen again."""
    hub.attach(session)
    board = boards.plug("ann")
    pair(hub, board, session, ANN)
    board.freeze()
    session.act(example_setup(ANN))  # the host writes Ann's new screen...
    head = board.take_from_host(12)  # ...the firmware had read its first bytes when the board was reset
    assert 0 not in head and board.waiting_from_host() > 0  # the rest of the frame is still on the line
    board.reboot()
    assert board.wait_for(lambda b: b.screen() == first_screen(session, ANN)), board.screen()
    assert board.starts == 2
    assert any("ignored input" in line for line in board.log)  # the frame's tail, counted and skipped


@needs_micropython
def test_garbage_from_the_host_side_is_counted_and_the_next_good_frame_is_drawn(
    hub: DisplayHub, boards: Boards, session: Session, dispatcher: QueuedDispatcher
) -> None:
    """Issue 13: tests cover "garbage from the host side"; brief: "the firmware survives, counts, and still draws
    the next good frame". The line noise ends at a zero byte, where COBS finds the next frame."""
    hub.attach(session)
    board = boards.plug("ann")
    pair(hub, board, session, ANN)
    noise = random.Random(13)
    garbage = bytes(noise.randrange(256) for _ in range(6000)) + bytes(noise.randrange(1, 256) for _ in range(3000))
    board.write_from_host(garbage + b"\x00")
    assert wait_until(lambda: board.waiting_from_host() == 0)  # the firmware read it all
    session.act(example_setup(ANN))
    assert board.wait_for(lambda b: b.screen() == first_screen(session, ANN)), board.screen()
    assert board.running
    kinds = {match.group(1) for line in board.log if (match := re.search(r"ignored input \((\w+)", line))}
    assert {p.GARBAGE, p.OVERSIZE} <= kinds, list(board.log)


@needs_micropython
def test_holding_back_at_power_up_leaves_the_serial_line_to_the_repl(tmp_path: Path) -> None:
    """The firmware's promise: "To get the REPL back, hold the "back" key while plugging in": no frame, no drawing."""
    with FirmwareDisplay(tmp_path / "flash") as board:
        board.unplug()
        board.hold("back")
        board.plug()
        assert board.wait_for(lambda b: not b.running)
        assert board.read_as_host() == b"" and board.draws == 0
        board.release("back")
        board.reboot()
        assert board.wait_for(lambda b: b.draws > 0)
        said = b""
        while said.count(b"\x00") < 2:
            more = board.read_as_host(timeout=5)
            assert more, said
            said += more
        assert said.startswith(b"\x00")  # a zero first: it ends any half frame sent before a reset
        assert [p.decode_frame(frame)[0] for frame in p.FrameSplitter().feed(said)] == [p.HELLO]


@needs_micropython
def test_the_firmware_answers_ping_and_handshake_frames_on_its_serial_line(tmp_path: Path) -> None:
    """The protocol under MicroPython, no host library in between: PING is PONGed, CHALLENGE is proved."""
    with FirmwareDisplay(tmp_path / "flash") as board:
        assert board.wait_for(lambda b: b.draws > 0)
        splitter = p.FrameSplitter()
        heard: list[tuple[int, bytes]] = []

        def hear(count: int) -> list[tuple[int, bytes]]:
            while len(heard) < count:
                data = board.read_as_host(timeout=5)
                assert data, heard
                heard.extend(p.decode_frame(frame) for frame in splitter.feed(data))
            return heard

        assert hear(1)[0][0] == p.HELLO
        key, nonce = bytes(range(p.KEY_SIZE)), bytes(range(50, 50 + p.NONCE_SIZE))
        board.write_from_host(p.encode_frame(p.PING, b"tok") + p.encode_frame(p.CHALLENGE, nonce))
        assert hear(3)[1:] == [(p.PONG, b"tok"), (p.PROOF, b"")]
        board.write_from_host(p.encode_frame(p.BIND, key) + p.encode_frame(p.CHALLENGE, nonce))
        assert hear(4)[3] == (p.PROOF, p.prove(key, nonce))  # MicroPython's HMAC equals CPython's
        assert board.key_file.read_bytes() == key


@needs_micropython
def test_the_desktop_firmware_display_prints_its_port_and_its_oled_and_takes_keys(tmp_path: Path) -> None:
    """Brief: `companion display-emulator --firmware` runs the firmware: "prints the port path, key names from
    stdin like --headless does, prints the OLED text on each change"."""
    code = (
        "import argparse, sys\n"
        "from hardware.display.firmware_process import main_firmware\n"
        "sys.exit(main_firmware(argparse.Namespace(identity='pico-0102030405060708', link=None)))\n"
    )
    env = {**os.environ, "COMPANION_HOME": str(tmp_path)}
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdin=PIPE, stdout=PIPE, stderr=PIPE, text=True, env=env, cwd=root
    )
    assert process.stdin is not None and process.stdout is not None
    printed: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [printed.put(line) for line in process.stdout or ()], daemon=True).start()

    def until(needle: str) -> list[str]:
        lines = []
        while needle not in "".join(lines):
            lines.append(printed.get(timeout=10))
        return lines

    port = Path(printed.get(timeout=10).strip())
    assert port == tmp_path / "data" / "emulated-displays" / "pico-0102030405060708" and port.is_symlink()
    until("|Tabletop        |")  # its own screen, boxed
    fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, p.encode_frame(p.SCREEN, p.pack_screen(["Ann         1/3", "Your turn"])))
        assert "|Your turn       |" in "".join(until("Your turn"))
        process.stdin.write("ok\n")
        process.stdin.flush()
        splitter, heard = p.FrameSplitter(), []
        while (p.KEY, b"ok") not in heard:
            assert select.select([fd], [], [], 10)[0], heard
            heard += [p.decode_frame(frame) for frame in splitter.feed(os.read(fd, 4096))]
        assert heard[0][0] == p.HELLO
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(10) == 0
    finally:
        os.close(fd)
        process.kill()
        process.wait()
    assert not port.exists()  # unplugged on the way out
