"""Quin on a player's own display: the page layout, the setup menu, then whole setups by keys on real terminals."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import RandomDice
from companion.game import Action, Options, RuleError
from companion.games import game
from companion.games.quin import display as quin_display
from companion.games.quin.display import OwnView, SetupMenu, in_setup, menu_for, piece_lines, short_kind
from companion.games.quin.examples import example_setup
from companion.games.quin.rules import Clone
from companion.games.quin.state import QuinState
from companion.games.quin.views import OwnPiece, OwnPowers, QuinOwnView
from companion.session import Session
from companion.small_display import GameDisplay, Page, is_too_small, pages_for, text_pages, too_small
from companion.store import Store
from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub, checking
from tests.support import QueuedDispatcher
from tests.support.displays import DisplayPorts

GAME = game("quin")

SETUP_ACTIONS = {"clone", "assign", "unassign", "setup_done"}

# -- the menu machine alone, against the real rules ------------------------------------------------


def new_game(**settings: Any) -> QuinState:
    state: QuinState = GAME.setup(Options.for_names("Ann", "Bo", **settings))
    return state


def apply(state: QuinState, action: Action) -> QuinState:
    for event in GAME.decide(state, action, RandomDice.seeded(1)):
        state = GAME.evolve(state, event)
    return state


def test_the_game_finds_its_display_module() -> None:
    assert GAME.display is quin_display
    shows: GameDisplay = quin_display  # what a player display needs of a game, `companion.small_display`
    assert shows.menu_for(GAME.own_view(new_game(), "Ann"), None) == SetupMenu()


class Pad:
    """One player's keys on a menu, with the app's part (play the action, hand a refusal back) done at once."""

    def __init__(self, state: QuinState, player: str = "Ann", cols: int = 20, rows: int = 4) -> None:
        self.state, self.player, self.cols, self.rows = state, player, cols, rows
        self.menu = SetupMenu()
        self.sent: list[dict[str, Any]] = []  # the actions, as JSON (as they are stored)
        self.refusals: list[str] = []

    @property
    def view(self) -> OwnView:
        return GAME.own_view(self.state, self.player)

    @property
    def screen(self) -> list[str]:
        return self.menu.lines(self.view, self.cols, self.rows)

    @property
    def cursor(self) -> str:
        return next((line[1:] for line in self.screen if line.startswith(">")), "")

    def press(self, *keys: str) -> Pad:
        for key in keys:
            self.menu, action = self.menu.press(self.view, key, self.cols, self.rows)
            if action is not None:
                self.sent.append(GAME.to_json(action))
                try:
                    self.state = apply(self.state, action)
                except RuleError as error:
                    self.refusals.append(str(error))
                    self.menu = self.menu.refused(str(error))
        return self

    def go_to(self, prefix: str) -> Pad:
        for _ in range(25):
            if self.cursor.lstrip().startswith(prefix):
                return self
            self.press("down")
        raise AssertionError(f"no {prefix!r} in this list: {self.screen}")

    def choose(self, prefix: str) -> Pad:
        return self.go_to(prefix).press("ok")


def test_the_first_screen_names_the_player_and_starts_on_the_clone() -> None:
    pad = Pad(new_game())
    assert pad.screen == ["Ann       Setup 0/17", ">Clone: choose", "  1 ?            off", "  2 ?            off"]
    big = Pad(new_game(), cols=21, rows=8).screen
    assert big[0].startswith("Ann") and big[1] == ">Clone: choose" and big[7].startswith("  6 ?")


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (21, 8), (16, 8)])
def test_pressing_ok_alone_walks_a_whole_legal_setup(cols: int, rows: int) -> None:
    pad = Pad(new_game(), cols=cols, rows=rows)
    presses = 0
    while in_setup(pad.view):
        pad.press("ok")
        presses += 1
        assert presses < 80, pad.screen
    assert pad.refusals == []
    assert presses == 55  # the Clone in 3, each of the 17 labels in 3, Finish in 1
    assert pad.state.side("Ann").ready and not pad.state.side("Bo").ready
    assert {a["type"] for a in pad.sent} == {"clone", "assign", "setup_done"}
    assert all(a["player"] == "Ann" for a in pad.sent)


def test_choosing_the_clone() -> None:
    pad = Pad(new_game()).press("ok")
    assert pad.screen[0] == "Ann       Clone from"
    pad.choose("Peripheral")
    assert pad.screen[0] == "Ann         Clone to" and pad.cursor == "Time"
    pad.go_to("Void")
    pad.press("back")  # back to the first list, on the face chosen there
    assert pad.screen[0].endswith("Clone from") and pad.cursor == "Peripheral"
    pad.press("ok").choose("Void")
    assert pad.sent == [{"type": "clone", "player": "Ann", "from": "Peripheral", "to": "Void"}]
    assert pad.state.side("Ann").clone == ("Peripheral", "Void")
    assert " Clone: Periph.>Void" in pad.screen
    assert pad.cursor.lstrip().startswith("1 ?")  # straight on to the first label
    # Choosing again starts from the Clone already chosen.
    pad.press("up", "ok")
    assert pad.cursor == "Peripheral"
    pad.press("ok")
    assert pad.cursor == "Void"


def test_an_identity_and_a_place_make_one_assign() -> None:
    pad = Pad(new_game()).press("ok", "ok", "ok")  # Clone: Artificial Light becomes Time
    pad.press("ok")
    assert pad.screen[0].endswith("Label 1") and pad.cursor.startswith("Light") and pad.cursor.endswith("0/1")
    pad.choose("Shadow")
    assert pad.screen[0].endswith("1 Shadow")
    assert [line[1:].split()[0] for line in pad.screen[1:3]] == ["Board", "Zero-G"]
    pad.choose("Zero-G")
    assert pad.sent[-1] == {"type": "assign", "player": "Ann", "label": "1", "identity": "Shadow", "where": "zero-g"}
    assert pad.state.piece("Ann", "1").identity == "Shadow"
    assert pad.cursor.lstrip().startswith("2 ?")  # on to the next label
    assert any(line.lstrip().startswith("1 Shadow") and line.endswith("zero-G") for line in pad.screen)


def test_take_back_clears_a_label() -> None:
    pad = Pad(new_game()).press("ok", "ok", "ok", "ok", "ok", "ok")  # label 1: Light on the board
    assert pad.state.piece("Ann", "1").identity == "Light"
    pad.press("up", "ok")
    assert pad.cursor.startswith("Light")  # the label's own identity first
    pad.choose("Take back")
    assert pad.sent[-1] == {"type": "unassign", "player": "Ann", "label": "1"}
    assert pad.state.piece("Ann", "1").identity is None
    assert pad.cursor.lstrip().startswith("1 ?")


def test_a_refusal_shows_the_rules_sentence_then_returns_to_the_choice() -> None:
    pad = Pad(new_game()).press("down", "ok", "ok", "ok")  # label 1 before any Clone
    assert len(pad.refusals) == 1 and pad.refusals[0].startswith("Choose your Clone first")
    assert pad.screen == ["Ann      Refused 1/3", "Choose your Clone", "first: one piece", "(not your Light or a"]
    pad.press("down", "down")
    assert pad.screen == ["Ann      Refused 3/3", "Light.", "", ""]
    pad.press("down")  # the last page stays
    assert pad.screen[0].endswith("3/3")
    pad.press("up", "ok")
    assert pad.screen[0].endswith("1 Light") and pad.cursor.startswith("Board")  # where the refused choice was
    pad.press("back", "back")
    assert pad.screen[0].endswith("Setup 0/17") and pad.cursor.lstrip().startswith("1 ?")


def test_a_second_light_is_refused_with_the_label_that_has_it() -> None:
    pad = Pad(new_game(), cols=21, rows=8).press(*["ok"] * 6)  # Clone, then 1 is the Light
    pad.press("ok").choose("Light").choose("Board")
    assert pad.refusals == ["You have 1 Light, already labelled 1."]
    assert "\n".join(pad.screen[1:]).replace("\n", " ").strip() == "You have 1 Light, already labelled 1."
    pad.press("back")
    assert pad.screen[0].endswith("2 Light") and pad.state.piece("Ann", "2").identity is None


def test_finish_too_early_says_what_is_missing() -> None:
    pad = Pad(new_game(), cols=21, rows=8).press("up")
    assert pad.cursor == "Finish setup"
    pad.press("ok")
    assert pad.sent == [{"type": "setup_done", "player": "Ann"}]
    assert pad.refusals[0].startswith("Your setup is not finished: choose your Clone; give an identity to labels 1")
    pad.press("ok")
    assert pad.cursor == "Finish setup"


def test_lists_wrap_and_back_at_the_top_stays_there() -> None:
    pad = Pad(new_game())
    pad.press("up")
    assert pad.cursor == "Finish setup"
    pad.press("down")
    assert pad.cursor == "Clone: choose"
    pad.press("back")
    assert pad.cursor == "Clone: choose" and pad.sent == []
    pad.press("ok", "down", "down", "back")
    assert pad.cursor == "Clone: choose"


def test_kinds_this_table_plays_without_are_not_offered() -> None:
    pad = Pad(new_game(pieces={"Reflector": 0, "Memory": 3, "Peripheral": 4, "Void": 2}), cols=21, rows=8)
    pad.press("ok")
    assert not any("Refl" in line for line in pad.screen)
    pad.choose("Peripheral").choose("Memory")
    pad.press("ok")  # label 1
    labels = [line[1:].split()[0] for line in pad.screen[1:] if line.strip()]
    assert "Reflector" not in labels and "Refl" not in "".join(labels)


def test_keys_it_does_not_know_change_nothing() -> None:
    pad = Pad(new_game())
    before = pad.menu
    pad.press("jump")
    assert pad.menu == before and pad.sent == []


def test_after_the_setup_the_menu_makes_no_more_actions() -> None:
    pad = Pad(new_game())
    while in_setup(pad.view):
        pad.press("ok")
    sent = len(pad.sent)
    pad.press("ok", "down", "back", "ok")
    assert len(pad.sent) == sent
    assert menu_for(pad.view, pad.menu) is None


@st.composite
def key_runs(draw: st.DrawFn) -> tuple[list[str], tuple[int, int]]:
    keys = draw(st.lists(st.sampled_from(["up", "down", "ok", "ok", "back"]), min_size=1, max_size=120))
    return keys, draw(st.sampled_from([(20, 4), (21, 8), (16, 8), (40, 12), (8, 2), (1, 1)]))


@given(key_runs())
@settings(max_examples=150, deadline=None)
def test_any_key_sequence_only_makes_setup_actions_for_its_player_and_every_screen_fits(
    run: tuple[list[str], tuple[int, int]],
) -> None:
    keys, (cols, rows) = run
    pad = Pad(new_game(), cols=cols, rows=rows)
    for key in keys:
        before = pad.state
        sent = len(pad.sent)
        refused = len(pad.refusals)
        pad.press(key)  # the rules refuse with a RuleError, nothing else
        for action in pad.sent[sent:]:
            assert action["type"] in SETUP_ACTIONS and action["player"] == "Ann"
        if len(pad.refusals) > refused:
            assert pad.state == before  # a refused choice changes nothing
        screen = pad.screen
        assert len(screen) == rows and all(len(line) <= cols for line in screen)
        if is_too_small(cols, rows):
            assert screen == too_small(cols, rows) and pad.sent == []  # nothing drawn, nothing chosen blind
        else:
            assert screen[0].startswith("Ann")
    assert pad.state.side("Bo") == new_game().side("Bo") and all(
        piece.identity is None for piece in pad.state.pieces_of("Bo")
    )


# -- on real pseudo-terminals, with the hub and a real session --------------------------------------------


def settle(dispatcher: QueuedDispatcher, condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Run the UI thread's queue until `condition` holds with nothing more queued (the hub queues before drawing)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition() and dispatcher.run() == 0:
            return True
        dispatcher.run()
        time.sleep(0.001)
    return False


class Seat:
    """A player at their own display. `expected()` is what the menu machine says the display must show."""

    def __init__(
        self, name: str, display: PtyDisplay, hub: DisplayHub, session: Session, dispatcher: QueuedDispatcher
    ) -> None:
        self.name, self.display, self.session, self.dispatcher = name, display, session, dispatcher
        self.hub = hub
        self.menu = SetupMenu()
        self.allowed: set[str] = set()  # every screen this display may be sent
        self.refusals: list[str] = []

    @property
    def core(self) -> DisplayCore:
        return self.display.core

    def expected(self) -> Page:
        return first_screen(self.session, self.name, self.core, self.menu)

    def note(self) -> None:
        self.allowed.add("\n".join(self.expected()))

    def settled(self) -> None:
        assert settle(self.dispatcher, lambda: self.core.screen() == self.expected()), (
            self.core.screen(),
            self.expected(),
        )
        self.note()

    def press(self, key: str, others: list[Seat]) -> None:
        view = self.session.own_view(self.name)
        menu = menu_for(view, self.menu)
        assert menu is not None, "the test presses keys only while the menu is up"
        self.menu, action = menu.press(view, key, self.core.cols, self.core.rows)
        self.allowed.add("\n".join(self.menu.lines(view, self.core.cols, self.core.rows)))  # drawn before the answer
        if action is not None:
            refusal = self.session.refusal(action)
            if refusal is not None:
                self.refusals.append(refusal)
                self.menu = self.menu.refused(refusal)
        self.display.press(key)
        handled(self.hub, self.display, self.dispatcher)  # a key that changes nothing visible is done too
        self.settled()
        for seat in others:
            seat.settled()

    @property
    def cursor(self) -> str:
        return next((line[1:] for line in self.core.screen() if line.startswith(">")), "")

    def choose(self, prefix: str, others: list[Seat]) -> None:
        """Press down until the cursor line (read off the display) starts with `prefix`, then ok."""
        for _ in range(25):
            if self.cursor.lstrip().startswith(prefix):
                self.press("ok", others)
                return
            self.press("down", others)
        raise AssertionError(f"{self.name}'s display has no {prefix!r}: {self.core.screen()}")


def first_screen(session: Session, player: str, core: DisplayCore, menu: SetupMenu | None = None) -> Page:
    """What `player`'s display shows first: their setup menu while it is up, else their first page."""
    view = session.own_view(player)
    shown = menu_for(view, menu)
    if shown is not None:
        return shown.lines(view, core.cols, core.rows)
    return pages_for(view, core.cols, core.rows, quin_display)[0]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Store.open(tmp_path / "games.db") as store:
        yield Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(7))


class Watch:
    """Who changed the game, and on which thread (the session tells its observers on the thread that changed it)."""

    def __init__(self, session: Session) -> None:
        self.main = threading.current_thread()
        self.heard: list[bool] = []  # one per change: on the UI thread?
        session.subscribe(lambda _session: self.heard.append(threading.current_thread() is self.main))


SYNC = "sync"
"""A key no menu takes and no page turns on (not one of the emulator's own): the hub hands it on to its listeners."""


def handled(hub: DisplayHub, display: PtyDisplay, dispatcher: QueuedDispatcher) -> None:
    """Wait until the hub has dealt with all `display` sent, and the UI thread with what that queued.

    The reader takes a display's frames in order, so a frame sent last is a
    barrier. From a player's display, a key no menu takes reaches the hub's
    key listeners through the UI thread's queue, behind whatever the keys
    before it queued. A display that is nobody's hands no key on: there the
    barrier is a HELLO, which the hub answers with the whole screen again.
    """
    if hub.pairings.player_of(display.core.identity) is None:
        before = len(display.core.received)
        display.write(display.core.hello_frame())
        assert display.core.wait_for(lambda core: len(core.received) > before)
        assert settle(dispatcher, lambda: True)
        return
    heard: list[str] = []
    stop = hub.on_key(lambda _player, key: heard.append(key))
    display.write(p.encode_frame(p.KEY, p.pack_text(SYNC), version=display.core.version))
    assert settle(dispatcher, lambda: SYNC in heard)
    stop()


def seat(
    name: str,
    hub: DisplayHub,
    table: DisplayPorts,
    session: Session,
    dispatcher: QueuedDispatcher,
    cols: int,
    rows: int,
) -> Seat:
    display = table.plug(f"emu-{name.lower()}", f"usb-{name.lower()}", cols, rows)
    assert display.core.wait_for(lambda core: core.pair_code is not None), display.core.text()
    assert hub.pair(str(display.core.pair_code), name)
    player = Seat(name, display, hub, session, dispatcher)
    player.settled()
    return player


# The two layouts share no identity on any label, so a line "7 Time" tells whose secret it is.
BO_CLONE = ("Reflector", "Void")
BO_LAYOUT: dict[str, tuple[str, str]] = {
    "1": ("Void", "Board"),
    "2": ("Void", "Board"),
    "3": ("Peripheral", "Board"),
    "4": ("Peripheral", "Board"),
    "5": ("Light", "Board"),
    "6": ("Memory", "Board"),
    "7": ("Memory", "Board"),
    "8": ("Shadow", "Board"),
    "9": ("Shadow", "Board"),
    "10": ("Time", "Board"),
    "11": ("Artificial Light", "Zero-G"),
    "12": ("Artificial Light", "Zero-G"),
    "13": ("Artificial Light", "Zero-G"),
    "14": ("Artificial Light", "Zero-G"),
    "15": ("Void", "Zero-G"),
    "16": ("Reflector", "Zero-G"),
    "17": ("Peripheral", "Zero-G"),
}
PREFIXES = {"Artificial Light": "A", "Light": "Light", "Shadow": "Sh", "Time": "Ti", "Reflector": "Re"}
PREFIXES |= {"Memory": "Me", "Peripheral": "Pe", "Void": "Vo"}
PIECE_LINE = re.compile(r"^[> ]?\s*(\d{1,2}) (\S+)")


def kind_of(word: str) -> str | None:
    if word.startswith("Light"):
        return "Light"
    return next((kind for kind, prefix in PREFIXES.items() if kind != "Light" and word.startswith(prefix)), None)


def screens(core: DisplayCore) -> list[str]:
    return ["\n".join(p.unpack_screen(payload)) for kind, payload in list(core.received) if kind == p.SCREEN]


CLONE_LINE = re.compile(r"Clone: ?([\w.]+(?: Light)?) ?> ?(\w+)")


def clones_shown(core: DisplayCore) -> set[tuple[str | None, str | None]]:
    """Every Clone a display was ever sent ("Clone: Refl>Void", or wrapped: "Clone: Artificial\n  Light > Time")."""
    found = set()
    for text in screens(core):
        for match in CLONE_LINE.finditer(" ".join(text.split())):
            if match.group(1) != "choose":  # "Clone: choose" above a cursor line
                found.add((kind_of(match.group(1)), kind_of(match.group(2))))
    return found


def identities_shown(core: DisplayCore) -> set[tuple[str, str]]:
    """Every (label, identity) a display was ever sent as a piece line."""
    shown = set()
    for text in screens(core):
        for line in text.split("\n"):
            match = PIECE_LINE.match(line)
            kind = kind_of(match.group(2)) if match else None
            if match and kind:
                shown.add((match.group(1), kind))
    return shown


def test_a_whole_setup_for_both_players_by_keys_alone(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
) -> None:
    watch = Watch(session)
    hub.attach(session)
    ann = seat("Ann", hub, table, session, dispatcher, 20, 4)
    bo = seat("Bo", hub, table, session, dispatcher, 21, 8)
    assert ann.core.screen()[0] == "Ann       Setup 0/17" and bo.core.screen()[0].startswith("Bo")

    # Ann takes every suggestion: ok, ok, ok...
    presses = 0
    while in_setup(session.own_view("Ann")):
        ann.press("ok", [bo])
        presses += 1
        assert presses < 80
    assert presses == 55 and ann.refusals == []
    assert ann.core.wait_for_text("Ready: waiting for")

    # Bo picks his own Clone and layout, reading his display.
    bo.press("ok", [ann])
    bo.choose(BO_CLONE[0], [ann])
    bo.choose(BO_CLONE[1], [ann])
    for label, (kind, place) in BO_LAYOUT.items():
        assert bo.cursor.lstrip().startswith(f"{label} ?"), bo.core.screen()
        bo.press("ok", [ann])
        bo.choose(kind if kind != "Artificial Light" else "Art", [ann])
        bo.choose(place, [ann])
    assert bo.cursor == "Finish setup"
    bo.press("ok", [ann])
    assert bo.refusals == []

    state = session.state
    assert state.phase == "play" and state.turn == "Ann"
    assert ann.core.wait_for_text("Your turn") and bo.core.wait_for_text("Ann's turn")
    assert state.side("Bo").clone == BO_CLONE
    assert {label: (state.piece("Bo", label).identity, state.piece("Bo", label).where) for label in BO_LAYOUT} == {
        label: (kind, "board" if place == "Board" else "zero-g") for label, (kind, place) in BO_LAYOUT.items()
    }
    # Every action came from a display, for that display's own player, through the UI thread.
    assert len(watch.heard) == len(session.moves) == 1 + 17 + 1 + 1 + 17 + 1 and all(watch.heard)
    assert [move.action.player for move in session.moves] == ["Ann"] * 19 + ["Bo"] * 19  # type: ignore[attr-defined]
    assert {type(move.action).type for move in session.moves} == {"clone", "assign", "setup_done"}
    # Replay gives the same game.
    assert Session.load(session.store, session.game_id).state == state

    # No display was ever sent anything but its own player's screens (or, while it proved its key, none)...
    for player in (ann, bo):
        proving = "\n".join(checking(player.core.cols, player.core.rows))
        for text in screens(player.core):
            if text == proving:
                continue
            assert text in player.allowed, f"{player.name}'s display was sent:\n{text}"
            assert text.split("\n")[0].startswith(player.name)
    # ... so never the other player's identities, nor their Clone.
    ann_layout = {piece.label: piece.identity for piece in state.pieces_of("Ann")}
    assert all(ann_layout[label] != kind for label, (kind, _place) in BO_LAYOUT.items())
    assert identities_shown(ann.core) == {(label, str(kind)) for label, kind in ann_layout.items()}
    assert identities_shown(bo.core) == {(label, kind) for label, (kind, _place) in BO_LAYOUT.items()}
    assert clones_shown(ann.core) == {("Artificial Light", "Time")}
    assert clones_shown(bo.core) == {BO_CLONE}


def test_a_refused_choice_shows_its_sentence_on_that_display_only(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(session)
    ann = seat("Ann", hub, table, session, dispatcher, 20, 4)
    bo = seat("Bo", hub, table, session, dispatcher, 21, 8)
    for key in ("down", "ok", "ok", "ok"):  # label 1: Light on the board, before any Clone
        ann.press(key, [bo])
    assert ann.refusals and ann.refusals[0].startswith("Choose your Clone first")
    assert ann.core.screen() == [
        "Ann      Refused 1/3",
        "Choose your Clone",
        "first: one piece",
        "(not your Light or a",
    ]
    ann.press("down", [bo])
    assert "Artificial" in ann.core.text()
    ann.press("ok", [bo])
    assert ann.core.screen()[0] == "Ann          1 Light"  # back where the choice was made
    assert session.moves == ()
    assert not any("Refused" in text or "Clone first" in text for text in screens(bo.core))

    # A second Light, once the Clone is chosen.
    # back to the main list, up to the Clone, Clone (3 keys), label 1 (3 keys), label 2: up to Light, Board.
    for key in ("back", "back", "up", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "up", "ok", "ok"):
        ann.press(key, [bo])
    assert ann.refusals[-1] == "You have 1 Light, already labelled 1."
    assert ann.core.screen() == ["Ann          Refused", "You have 1 Light,", "already labelled 1.", ""]
    assert session.state.piece("Ann", "2").identity is None
    assert not any("already labelled" in text for text in screens(bo.core))


def test_a_display_cannot_act_for_the_other_player(
    hub: DisplayHub,
    table: DisplayPorts,
    session: Session,
    dispatcher: QueuedDispatcher,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watch = Watch(session)
    hub.attach(session)
    ann = seat("Ann", hub, table, session, dispatcher, 20, 4)
    bo = seat("Bo", hub, table, session, dispatcher, 21, 8)

    # Whatever the menu came up with, the hub plays only actions for the display's own player ...
    def for_bo(self: SetupMenu, view: Mapping[str, Any], key: str, cols: int = 20, rows: int = 4) -> tuple[Any, Any]:
        return SetupMenu(), Clone("Bo", taken="Void", made="Time")

    with monkeypatch.context() as patched:
        patched.setattr(SetupMenu, "press", for_bo)
        ann.display.press("ok")
        handled(hub, ann.display, dispatcher)
    assert session.moves == () and watch.heard == []
    # ... and refuses the others on that display only.
    assert ann.core.wait_for_text("This display is")
    assert " ".join(ann.core.text().split()).endswith("This display is Ann's: it can only make Ann's choices.")
    assert not any("This display is" in text for text in screens(bo.core))
    ann.display.press("ok")
    handled(hub, ann.display, dispatcher)
    assert ann.core.wait_for_text("Setup 0/17"), ann.core.text()

    # Nor does an action in JSON naming someone else get through.
    monkeypatch.setattr(SetupMenu, "press", lambda *_args, **_kw: (SetupMenu(), {"type": "setup_done", "player": "Bo"}))
    for key in ("ok", "ok", "down", "ok"):
        ann.display.press(key)
    handled(hub, ann.display, dispatcher)
    assert session.moves == () and watch.heard == []

    # And a display nobody has paired sends nothing at all.
    stranger = table.plug("emu-stranger", "usb-x", 20, 4)
    assert stranger.core.wait_for(lambda core: core.pair_code is not None)
    for key in ("ok", "down", "ok"):
        stranger.press(key)
    handled(hub, stranger, dispatcher)
    assert session.moves == () and watch.heard == []


def test_the_menu_survives_a_replug_on_another_port(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(session)
    ann = seat("Ann", hub, table, session, dispatcher, 20, 4)
    for key in ("ok", "ok", "ok", "ok", "down"):  # Clone chosen; label 1's list, on Artificial Light
        ann.press(key, [])
    shown = ann.core.screen()
    assert shown[0].endswith("Label 1")
    ann.display.unplug()
    ann.display.plug(link=table.ports / "usb-elsewhere")
    assert settle(dispatcher, lambda: ann.core.screen() == shown)
    ann.press("ok", [])
    assert ann.core.screen()[0].endswith("1 A.Light") or ann.core.screen()[0].endswith("1 Art.Light")


def test_a_quin_display_shows_its_players_pieces(hub: DisplayHub, table: DisplayPorts, session: Session) -> None:
    hub.attach(session)
    session.act(example_setup("Ann"))
    session.act(example_setup("Bo"))
    display = table.plug("emu-ann", "usb-a", cols=21, rows=8)
    assert display.core.wait_for(lambda core: core.pair_code is not None)
    assert hub.pair(str(display.core.pair_code), "Ann")
    pages = pages_for(session.own_view("Ann"), 21, 8, quin_display)
    assert display.core.wait_for(lambda core: core.screen() == pages[0]), display.core.text()
    assert pages[0][0] == f"Ann{' ' * 15}1/{len(pages)}"
    assert " 1 Light" in "\n".join(line for page in pages for line in page)
    for page in pages[1:]:
        display.press("down")
        assert display.core.wait_for(lambda core, page=page: core.screen() == page)
    hub.detach()


def test_the_menu_is_up_while_the_setup_is_unfinished_then_the_pages_come_back(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(session)
    display = table.plug("emu-ann", "usb-ann", 20, 4)
    assert display.core.wait_for(lambda core: core.pair_code is not None)
    assert hub.pair(str(display.core.pair_code), "Ann")
    assert display.core.wait_for(lambda core: core.screen()[0] == "Ann       Setup 0/17")
    session.act(example_setup("Ann"))  # done on the table's screen instead
    first = pages_for(session.own_view("Ann"), 20, 4, quin_display)[0]
    assert first[1] == "Setting up"
    assert display.core.wait_for(lambda core: core.screen() == first), display.core.text()
    settle(dispatcher, lambda: True)  # what pairing told the shared screen
    display.press("down")  # the pages turn: no menu any more
    assert display.core.wait_for(lambda core: "2/" in core.screen()[0])
    assert dispatcher.run() == 0
    session.undo()
    assert display.core.wait_for(lambda core: core.screen()[0] == "Ann       Setup 0/17")


def test_a_displays_choice_the_rules_refuse_is_shown_there_and_changes_nothing(
    hub: DisplayHub,
    table: DisplayPorts,
    session: Session,
    dispatcher: QueuedDispatcher,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub.attach(session)
    ann = seat("Ann", hub, table, session, dispatcher, 21, 8)
    ann.press("ok", [])
    ann.choose("Void", [])
    ann.choose("Time", [])
    assert session.state.side("Ann").clone == ("Void", "Time")  # played, and no refusal
    assert ann.refusals == []
    # A Clone no menu offers (the Light), as a lying menu might send it: the rules' sentence, on Ann's display.
    monkeypatch.setattr(SetupMenu, "press", lambda menu, *_a, **_k: (menu, Clone("Ann", taken="Light", made="Time")))
    ann.display.press("ok")
    handled(hub, ann.display, dispatcher)
    sentence = session.refusal(Clone("Ann", taken="Light", made="Time"))
    assert sentence is not None
    first = text_pages("Ann", "Refused", sentence, 21, 8)[0]
    assert first[0] == "Ann       Refused 1/2"
    assert ann.core.wait_for(lambda core: core.screen() == first), ann.core.screen()
    assert session.state.side("Ann").clone == ("Void", "Time")


# -- the pages ---------------------------------------------------------------------------------------------

QUIN_VIEW = QuinOwnView(
    game="quin",
    player="Ann",
    colour="#e53935",
    rival="Bo",
    phase="play",
    turn="Bo",
    pieces=(
        OwnPiece(label="1", identity="Light", where="board", moves=2, revealed=False),
        OwnPiece(label="12", identity="Artificial Light", where="zero-g", moves=5, revealed=False),
        OwnPiece(label="7", identity="Peripheral", where="captured", moves=3, revealed=True),
    ),
    powers=OwnPowers(memory_swaps_left={"6": 1}, time="used", totem="ready"),
    artificial_light_moves=5,
    last_flash="Bo's 3 (Void) and Ann's 7 (Peripheral): both removed.",
    setup=None,
)


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (21, 8), (16, 8), (40, 12), (8, 2), (1, 1)])
def test_pages_fit_the_screen_and_name_the_player(cols: int, rows: int) -> None:
    pages = pages_for(QUIN_VIEW, cols, rows, quin_display)
    assert pages == quin_display.pages(QUIN_VIEW, cols, rows)
    if is_too_small(cols, rows):
        assert pages == [too_small(cols, rows)]  # below 16×4: no private view at all, rather than a cut one
        return
    for number, page in enumerate(pages, 1):
        assert len(page) == rows and all(len(line) <= cols for line in page)
        assert page[0].startswith("Ann")  # the whole name, on every page
        if len(pages) > 1:
            assert page[0].endswith(f"{number}/{len(pages)}")
    text = "\n".join(line for page in pages for line in page[1:])
    assert "Bo's turn" in text and "Memory 6 swaps" in text
    assert "Artificial Light moves" in text or "Art.Light moves" in text
    assert "12 Artificial Light" in text or "12 Art.Light" in text
    assert " 7 Peripheral*" in text or " 7 Periph.*" in text  # the revealed Peripheral is marked


def test_a_view_quins_layout_cannot_read_is_shown_plainly_never_an_error_on_the_display() -> None:
    """A layout that fails on a view (a bug) leaves the display showing the view plainly, under the player's name."""
    broken = replace(QUIN_VIEW, powers="x", pieces=())
    pages = pages_for(broken, 20, 4, quin_display)
    assert pages[0] == ["Ann              1/5", "over: no", "outcome: -", "colour: #e53935"]
    assert "powers: x" in pages[2]


def test_identities_are_shortened_to_their_declared_forms_and_places_never() -> None:
    """Issue 13: "Shadow" must never become "Shad"; an identity is whole or its declared short form, a place whole."""
    assert short_kind("Artificial Light", 16) == "Artificial Light"
    assert short_kind("Artificial Light", 9) == "Art.Light"
    assert short_kind("Artificial Light", 2) == "Art.Light"  # never cut, even where it does not fit
    assert short_kind("Shadow", 4) == "Shadow"
    assert piece_lines(OwnPiece("7", "Peripheral", "zero-g", 3, revealed=True), 20) == [
        " 7 Periph.*   zero-G"  # " 7 Peripheral* zero-G" would be 21
    ]
    assert piece_lines(OwnPiece("12", "Artificial Light", "captured", 5, revealed=False), 16) == [
        "12 Art.Light",
        "        captured",
    ]


def test_someone_not_playing_sees_the_sentence_saying_so_and_no_piece() -> None:
    """A display or phone bound to a name not at this table shows why, under that name, and nothing of anyone's."""
    view = GAME.own_view(new_game(), "Cy")
    assert quin_display.pages(view, 20, 4) == [["Cy", "Cy is not playing", "  this game.", ""]]
    page = quin_display.phone_page(view)
    assert page["notice"] == "Cy is not playing this game." and page["sections"] == page["choices"] == []
    assert menu_for(view, None) is None


def test_a_menu_kept_past_the_end_of_the_setup_says_the_setup_is_finished() -> None:
    """Keys held while the setup ends: the menu draws no list it could act on, and its keys do nothing."""
    pad = Pad(new_game())
    while in_setup(pad.view):
        pad.press("ok")
    menu = SetupMenu()
    assert menu.lines(pad.view, 20, 4) == ["Ann", "Setup finished.", "", ""]
    assert menu.press(pad.view, "ok") == (menu, None)
