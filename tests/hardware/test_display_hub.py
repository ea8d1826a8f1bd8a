"""The hub: pairing by identity, each display its own player's view, unplug and replug, swaps."""

from __future__ import annotations

import importlib.util
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from ui_thread import Dispatcher

from companion.dice import Dice, RandomDice
from companion.game import Action, Event, Options, Outcome, RuleError, View, action_type, require
from companion.games import register, unregister
from companion.session import Session
from companion.store import Store
from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus


def wait_until(condition: Callable[[], Any], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return bool(condition())


# -- a small game with a secret per player and a way to reveal it --------------------------


@dataclass(frozen=True)
class SecretState:
    players: tuple[str, ...]
    secrets: tuple[tuple[str, ...], ...]
    revealed: frozenset[str] = frozenset()
    moves: int = 0


class SecretRules:
    """Each player holds words only they may see until revealed; the words are unique, so a leak is findable."""

    name = "display-secrets"
    title = "Secrets"
    min_players = 2
    max_players = 4
    fail_views = False

    def setup(self, options: Options) -> SecretState:
        names = options.names
        return SecretState(names, tuple(tuple(f"{n.upper()}SECRET{i}" for i in range(4)) for n in names))

    def decide(self, state: SecretState, action: Action, dice: Dice) -> Sequence[Event]:
        kind = action_type(action)
        player = action.get("player")
        require(player in state.players, f"{player!r} is not playing.")
        if kind == "reveal":
            index = action.get("index")
            require(isinstance(index, int) and 0 <= index < 4, "Pick a secret from 0 to 3.")
            return [{"type": "revealed", "word": state.secrets[state.players.index(player)][index]}]
        if kind == "pass":
            return [{"type": "passed"}]
        raise RuleError(f"No action {kind!r}.")

    def evolve(self, state: SecretState, event: Event) -> SecretState:
        if event["type"] == "revealed":
            state = replace(state, revealed=state.revealed | {event["word"]})
        return replace(state, moves=state.moves + 1)

    def current_player(self, state: SecretState) -> str | None:
        return state.players[state.moves % len(state.players)]

    def public_view(self, state: SecretState) -> View:
        return {"game": self.name, "revealed": sorted(state.revealed), "turn": self.current_player(state)}

    def private_view(self, state: SecretState, player: str) -> View:
        if self.fail_views:
            raise RuntimeError("a bug in a game's private view")
        mine = state.secrets[state.players.index(player)]
        return {
            "game": self.name,
            "player": player,
            "turn": self.current_player(state),
            "moves": state.moves,
            "mine": list(mine),
            "seen": sorted(state.revealed),
        }

    def outcome(self, state: SecretState) -> Outcome | None:
        return None


RULES = SecretRules()


def secrets_of(session: Session, player: str) -> set[str]:
    """`player`'s words that nobody else may see yet."""
    state = session.state
    return set(state.secrets[state.players.index(player)]) - state.revealed


def texts(core: DisplayCore) -> list[str]:
    """Every text a display was ever sent."""
    out = []
    for kind, payload in list(core.received):
        if kind == p.SCREEN:
            out.append("\n".join(p.unpack_screen(payload)))
        elif kind == p.REGION:
            out.append(p.unpack_region(payload)[4])
        elif kind == p.PAIR_CODE:
            out.append(p.unpack_text(payload))
    return out


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    register(RULES)
    store = Store.open(tmp_path / "games.db")
    try:
        yield Session.start(store, RULES.name, Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(5))
    finally:
        RULES.fail_views = False
        store.close()
        unregister(RULES.name)


@pytest.fixture
def dispatcher() -> Dispatcher:
    return Dispatcher()


class Table:
    """Ports in a folder (like /dev/serial/by-id) and the displays plugged into them."""

    def __init__(self, root: Path) -> None:
        self.ports = root / "ports"
        self.ports.mkdir()
        self.displays: list[PtyDisplay] = []

    def plug(self, identity: str, port: str, cols: int = 40, rows: int = 12) -> PtyDisplay:
        display = PtyDisplay(DisplayCore(identity, cols, rows), link=self.ports / port).plug()
        self.displays.append(display)
        return display

    def close(self) -> None:
        for display in self.displays:
            display.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


@pytest.fixture
def hub(tmp_path: Path, table: Table, dispatcher: Dispatcher) -> Iterator[DisplayHub]:
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")], call_soon=dispatcher) as started:
        yield started


def code_of(display: PtyDisplay) -> str:
    assert display.core.wait_for(lambda core: core.pair_code is not None), display.core.text()
    code = display.core.pair_code
    assert code is not None
    return code


def paired(hub: DisplayHub, display: PtyDisplay, player: str) -> PtyDisplay:
    assert hub.pair(code_of(display), player)
    assert display.core.wait_for_text(f"{player.upper()}SECRET0"), display.core.text()
    return display


# -- pairing ------------------------------------------------------------------------------------------


def test_an_unknown_display_gets_a_code_and_nothing_secret(hub: DisplayHub, table: Table, session: Session) -> None:
    hub.attach(session)
    display = table.plug("emu-1", "usb-display-a")
    code = code_of(display)
    assert len(code) == 3 and code.isdigit()
    assert "4 7 1".replace("4 7 1", " ".join(code)) in display.core.text()
    assert hub.pending_codes() == [code]
    assert hub.status() == [
        DisplayStatus("Ann", DisplayState.UNPAIRED),
        DisplayStatus("Bo", DisplayState.UNPAIRED),
        DisplayStatus(None, DisplayState.UNPAIRED, "emu-1", str(table.ports / "usb-display-a"), code),
    ]
    session.act({"type": "pass", "player": "Ann"})
    leaked = [t for t in texts(display.core) if "SECRET" in t]
    assert leaked == []


def test_pairing_shows_the_players_view_and_is_remembered(
    tmp_path: Path, hub: DisplayHub, table: Table, session: Session
) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    assert display.core.screen()[0] == "Ann"
    assert hub.pending_codes() == []
    assert json.loads((tmp_path / "pairings.json").read_text())["displays"] == {"emu-ann": "Ann"}
    assert hub.pair("999", "Bo") is False
    hub.close()
    display.unplug()

    # Another day, another hub: the display is known by its identity, no pairing step.
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")]) as again:
        again.attach(session)
        display.plug(link=table.ports / "usb-somewhere-else")
        assert display.core.wait_for_text("ANNSECRET0")
        assert again.status()[0] == DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", display.path)


def test_every_change_reaches_the_display(hub: DisplayHub, table: Table, session: Session) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    session.act({"type": "reveal", "player": "Bo", "index": 2})
    assert display.core.wait_for_text("seen: BOSECRET2")
    session.undo()
    assert display.core.wait_for(lambda core: "BOSECRET2" not in core.text())


def test_a_new_display_for_a_player_replaces_the_old_one(hub: DisplayHub, table: Table, session: Session) -> None:
    hub.attach(session)
    old = paired(hub, table.plug("emu-old", "usb-a"), "Ann")
    new = table.plug("emu-new", "usb-b")
    assert hub.pair(code_of(new), "Ann")
    assert new.core.wait_for_text("ANNSECRET0")
    assert old.core.wait_for(lambda core: core.pair_code is not None)
    session.act({"type": "pass", "player": "Ann"})
    assert new.core.wait_for_text("moves: 1")
    assert old.core.pair_code is not None and "SECRET" not in old.core.text()


def test_a_display_paired_with_someone_not_in_this_game_gets_a_code(
    tmp_path: Path, table: Table, session: Session
) -> None:
    (tmp_path / "pairings.json").write_text(json.dumps({"version": 1, "displays": {"emu-cy": "Cy"}}))
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")]) as hub:
        display = table.plug("emu-cy", "usb-a")
        assert display.core.wait_for_text("Cy's display")  # no game yet: a neutral screen
        hub.attach(session)
        code_of(display)
        assert not any("SECRET" in t for t in texts(display.core))


def test_leaving_the_game_leaves_neutral_screens(hub: DisplayHub, table: Table, session: Session) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    hub.detach()
    assert display.core.wait_for_text("Waiting for a game")
    assert "SECRET" not in display.core.text()
    session.act({"type": "pass", "player": "Ann"})  # no longer observed
    assert hub.status() == [DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", display.path)]


def test_unreadable_pairings_start_empty(tmp_path: Path, table: Table) -> None:
    (tmp_path / "pairings.json").write_text("{not json")
    with DisplayHub(tmp_path / "pairings.json") as hub:
        assert hub.pairings.as_dict() == {}
        assert hub.status() == []


def test_a_view_that_fails_shows_a_neutral_screen_and_never_breaks_the_game(
    hub: DisplayHub, table: Table, session: Session
) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    RULES.fail_views = True
    session.act({"type": "pass", "player": "Ann"})  # the rules are fine; only the display's view fails
    assert display.core.wait_for_text("Cannot show this view")
    assert len(session.moves) == 1


# -- unplugging, replugging, swapping ---------------------------------------------------------------


def test_unplugged_mid_game_then_back_on_another_port_within_a_second(
    hub: DisplayHub, table: Table, session: Session, dispatcher: Dispatcher
) -> None:
    strip: list[str] = []  # what a status strip on the shared screen would show, updated in the UI thread
    hub.subscribe(lambda: strip.append(hub.status()[0].state.value))
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    display.unplug()
    assert wait_until(lambda: dispatcher.run() and strip[-1] == "unplugged")

    started = time.monotonic()
    session.act({"type": "reveal", "player": "Bo", "index": 1})  # the game goes on
    session.act({"type": "pass", "player": "Bo"})
    assert time.monotonic() - started < 0.5

    display.plug(link=table.ports / "usb-b-another-port")
    plugged = time.monotonic()
    assert display.core.wait_for_text("moves: 2", timeout=1.0), display.core.text()
    assert time.monotonic() - plugged < 1.0
    assert "seen: BOSECRET1" in display.core.text()
    assert hub.status()[0] == DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", display.path)
    assert wait_until(lambda: dispatcher.run() and strip[-1] == "connected")


def test_two_displays_swapped_between_ports(hub: DisplayHub, table: Table, session: Session) -> None:
    hub.attach(session)
    ann = paired(hub, table.plug("emu-ann", "port-1"), "Ann")
    bo = paired(hub, table.plug("emu-bo", "port-2"), "Bo")
    ann.unplug()
    bo.unplug()
    assert wait_until(lambda: all(s.state is DisplayState.UNPLUGGED for s in hub.status()))
    ann.core.received.clear()
    bo.core.received.clear()
    bo.plug(link=table.ports / "port-1")
    ann.plug(link=table.ports / "port-2")
    session.act({"type": "pass", "player": "Ann"})
    assert ann.core.wait_for_text("moves: 1") and bo.core.wait_for_text("moves: 1")
    assert ann.core.screen()[0] == "Ann" and bo.core.screen()[0] == "Bo"
    assert not any(word in t for t in texts(ann.core) for word in secrets_of(session, "Bo"))
    assert not any(word in t for t in texts(bo.core) for word in secrets_of(session, "Ann"))
    ports = {s.player: s.port for s in hub.status()}
    assert ports == {"Ann": str(table.ports / "port-2"), "Bo": str(table.ports / "port-1")}


# -- keys and the UI thread --------------------------------------------------------------------------


def test_keys_page_locally_and_reach_listeners_only_through_the_dispatcher(
    hub: DisplayHub, table: Table, session: Session, dispatcher: Dispatcher
) -> None:
    main = threading.current_thread()
    heard: list[tuple[str, str, bool]] = []
    hub.on_key(lambda player, key: heard.append((player, key, threading.current_thread() is main)))
    changes: list[bool] = []
    hub.subscribe(lambda: changes.append(threading.current_thread() is main))
    hub.attach(session)
    small = table.plug("emu-ann", "usb-a", cols=20, rows=4)
    assert hub.pair(code_of(small), "Ann")
    assert small.core.wait_for(lambda core: core.screen()[0].startswith("Ann") and "1/" in core.screen()[0])
    small.press("down")
    assert small.core.wait_for(lambda core: "2/" in core.screen()[0])
    small.press("up")
    assert small.core.wait_for(lambda core: "1/" in core.screen()[0])
    small.press("ok")
    assert wait_until(lambda: dispatcher.pending and dispatcher.run() and heard)
    assert heard == [("Ann", "ok", True)]
    dispatcher.run()
    assert changes and all(changes)


# -- with the real Quin rules, once they exist ----------------------------------------------------------


def quin_available() -> bool:
    return importlib.util.find_spec("companion.games.quin") is not None


@pytest.mark.skipif(not quin_available(), reason="the Quin rules are not written yet")
def test_a_quin_display_shows_its_players_pieces(tmp_path: Path, hub: DisplayHub, table: Table) -> None:
    with Store.open(tmp_path / "quin.db") as store:
        session = Session.start(store, "quin", Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(3))
        hub.attach(session)
        display = table.plug("emu-ann", "usb-a", cols=21, rows=8)
        assert hub.pair(code_of(display), "Ann")
        assert display.core.wait_for(lambda core: core.screen()[0].startswith("Ann"))
        view = session.private_view("Ann")
        assert view["game"] == "quin"
        hub.detach()


# -- rendering --------------------------------------------------------------------------------------------

QUIN_VIEW: dict[str, Any] = {
    "game": "quin",
    "player": "Ann",
    "colour": "#e53935",
    "phase": "play",
    "turn": "Bo",
    "pieces": [
        {"label": "1", "identity": "Light", "where": "board", "moves": 2, "revealed": False},
        {"label": "12", "identity": "Artificial Light", "where": "zero-g", "moves": 5, "revealed": False},
        {"label": "7", "identity": "Peripheral", "where": "captured", "moves": 3, "revealed": True},
    ],
    "powers": {"memory_swaps_left": {"6": 1}, "time": "used", "totem": "ready"},
    "artificial_light_moves": 5,
    "last_flash": "Bo's 3 (Void) and Ann's 7 (Peripheral): both removed.",
    "setup": None,
}


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (21, 8), (16, 8), (40, 12), (8, 2), (1, 1)])
def test_pages_fit_the_screen_and_name_the_player(cols: int, rows: int) -> None:
    from hardware.display.render import render_view

    pages = render_view(QUIN_VIEW, cols, rows)
    for number, page in enumerate(pages, 1):
        assert len(page) == rows and all(len(line) <= cols for line in page)
        if rows > 1 and cols >= 8:
            assert page[0].startswith("An")  # as much of the name as the page number leaves room for
            if len(pages) > 1:
                assert page[0].endswith(f"{number}/{len(pages)}")
    text = "\n".join(line for page in pages for line in page[1:])
    if cols >= 20:
        assert "Bo's turn" in text and "AL moves" in text and "Memory 6 swaps" in text
        assert "12 Art.Light" in text or "12 A.Light" in text
        assert " 7 Periph." in text and "*" in text  # the revealed Peripheral is marked


def test_other_games_and_broken_views_fall_back_to_plain_lines() -> None:
    from hardware.display.render import render_view

    plain = render_view({"game": "quark", "player": "Bo", "energy": 7, "hand": ["UP", "DOWN"]}, 20, 4)
    assert plain[0] == ["Bo", "energy: 7", "hand: UP, DOWN", ""]
    broken = render_view({"game": "quin", "player": "Bo", "pieces": 5, "powers": "x"}, 20, 4)
    assert broken[0][0] == "Bo"
    assert render_view(None, 20, 4) == [["No game", "in progress", "", ""]]
