"""The hub: pairing by identity, each display its own player's view, unplug and replug, swaps."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from companion import small_display
from companion.dice import Dice, RandomDice
from companion.engine import Facts, RegisteredGame, everything_public
from companion.game import Action, Event, Options, Outcome, RuleError, Seat, View, require
from companion.games import register, unregister
from companion.session import Session
from companion.small_display import (
    BACK,
    DOWN,
    OK,
    UP,
    Menu,
    Page,
    is_too_small,
    menu_page,
    pages_for,
    text_pages,
    too_small,
)
from companion.store import Store
from hardware.display import protocol as p
from hardware.display.emulator import DisplayCore, PtyDisplay
from hardware.display.hub import DisplayHub, DisplayState, DisplayStatus, Pairings
from tests.support import QueuedDispatcher, wait_until
from tests.support.displays import DisplayPorts

# -- a small game with a secret per player and a way to reveal it --------------------------


@dataclass(frozen=True)
class SecretState:
    players: tuple[str, ...]
    secrets: tuple[tuple[str, ...], ...]
    revealed: frozenset[str] = frozenset()
    moves: int = 0


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Show everyone one of one's words."""

    type = "reveal"
    player: Seat
    index: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    type = "pass"
    player: Seat


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    type = "revealed"
    word: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type = "passed"


class SecretRules:
    """Each player holds words only they may see until revealed; the words are unique, so a leak is findable."""

    ACTIONS = (Reveal, Pass)
    EVENTS = (Revealed, Passed)

    def setup(self, options: Options, settings: object) -> SecretState:
        names = options.names
        return SecretState(names, tuple(tuple(f"{n.upper()}SECRET{i}" for i in range(4)) for n in names))

    def decide(self, state: SecretState, action: Action, dice: Dice) -> Sequence[Event]:
        match action:
            case Reveal(player=player, index=index):
                require(0 <= index < 4, "Pick a secret from 0 to 3.")
                word = state.secrets[state.players.index(player)][index]
                require(word not in state.revealed, f"{word} is revealed already.")
                return [Revealed(word)]
            case Pass():
                return [Passed()]
        raise RuleError(f"No action {action!r}.")

    def evolve(self, state: SecretState, event: Event) -> SecretState:
        if isinstance(event, Revealed):
            state = replace(state, revealed=state.revealed | {event.word})
        return replace(state, moves=state.moves + 1)

    def current_player(self, state: SecretState) -> str | None:
        return state.players[state.moves % len(state.players)]

    def outcome(self, state: SecretState) -> Outcome | None:
        return None

    def legal_actions(self, state: SecretState, player: str) -> list[Action]:
        return [Pass(player)]


class SecretViews:
    fail_views = False

    def public_view(self, state: SecretState) -> View:
        return {"game": "display-secrets", "revealed": sorted(state.revealed), "turn": RULES.current_player(state)}

    def private_view(self, state: SecretState, player: str) -> View:
        if self.fail_views:
            raise RuntimeError("a bug in a game's private view")
        mine = state.secrets[state.players.index(player)]
        return {
            "game": "display-secrets",
            "player": player,
            "turn": RULES.current_player(state),
            "moves": state.moves,
            "mine": list(mine),
            "seen": sorted(state.revealed),
        }

    public_event = staticmethod(everything_public)


class NoSettings:
    def read(self, raw: Mapping[str, Any]) -> object:
        return raw


# The same game with a display module that offers a menu: the words to reveal, one a key press away.


@dataclass(frozen=True)
class RevealMenu:
    """Which of my words to reveal: up and down choose, ok reveals; a refusal shows until ok or back."""

    cursor: int = 0
    refusal: str | None = None

    def press(self, view: View, key: str, cols: int, rows: int) -> tuple[RevealMenu, Action | None]:
        if self.refusal is not None:
            return (RevealMenu(self.cursor) if key in OK | BACK else self), None
        if key in UP | DOWN:
            return RevealMenu((self.cursor + (1 if key in DOWN else -1)) % len(view["mine"])), None
        if key in OK:
            return self, Reveal(view["player"], self.cursor)
        return self, None

    def refused(self, sentence: str) -> RevealMenu:
        return RevealMenu(self.cursor, sentence)

    def lines(self, view: View, cols: int, rows: int) -> Page:
        if self.refusal is not None:
            return text_pages(view["player"], "Refused", self.refusal, cols, rows)[0]
        return menu_page(view["player"], "Reveal", view["mine"], self.cursor, cols, rows)


class RevealDisplay:
    """The plain pages, and the reveal menu for as long as anything of the player's is unrevealed."""

    def pages(self, view: View, cols: int, rows: int) -> list[Page]:
        return small_display.pages(view, cols, rows)

    def menu_for(self, view: View, menu: Menu | None) -> Menu | None:
        if not set(view["mine"]) - set(view["seen"]):
            return None
        return menu if isinstance(menu, RevealMenu) else RevealMenu()


RULES = SecretRules()
VIEWS = SecretViews()
SECRETS = RegisteredGame(Facts("display-secrets", "Secrets", 2, 4), RULES, VIEWS, NoSettings())
WITH_MENU = RegisteredGame(Facts("display-secrets-menu", "Secrets", 2, 4), RULES, VIEWS, NoSettings(), RevealDisplay())


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
    """A game of Secrets between Ann and Bo, shown plainly on their displays."""
    yield from _playing(SECRETS, tmp_path)


@pytest.fixture
def with_menu(tmp_path: Path) -> Iterator[Session]:
    """A game of Secrets whose display module offers each player a menu of their words to reveal."""
    yield from _playing(WITH_MENU, tmp_path)


def _playing(entry: RegisteredGame, tmp_path: Path) -> Iterator[Session]:
    register(entry)
    store = Store.open(tmp_path / "games.db")
    try:
        yield Session.start(store, entry.name, Options.for_names("Ann", "Bo"), dice=RandomDice.seeded(5))
    finally:
        VIEWS.fail_views = False
        store.close()
        unregister(entry.name)


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


def test_an_unknown_display_gets_a_code_and_nothing_secret(
    hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
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
    tmp_path: Path, hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    assert display.core.screen()[0] == "Ann"
    assert hub.pending_codes() == []
    kept = json.loads((tmp_path / "pairings.json").read_text())["displays"]
    assert list(kept) == ["emu-ann"] and kept["emu-ann"]["player"] == "Ann"
    assert kept["emu-ann"]["key"] == display.core.key.hex(), "the host and the display keep the same key"
    assert (tmp_path / "pairings.json").stat().st_mode & 0o777 == 0o600
    assert hub.pair("999", "Bo") is False
    hub.close()
    display.unplug()

    # Another day, another hub: the display is known by its identity, no pairing step.
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")]) as again:
        again.attach(session)
        display.plug(link=table.ports / "usb-somewhere-else")
        assert display.core.wait_for_text("ANNSECRET0")
        assert again.status()[0] == DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", display.path)


def test_every_change_reaches_the_display(hub: DisplayHub, table: DisplayPorts, session: Session) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    session.act({"type": "reveal", "player": "Bo", "index": 2})
    assert display.core.wait_for_text("seen: BOSECRET2")
    session.undo()
    assert display.core.wait_for(lambda core: "BOSECRET2" not in core.text())


def test_a_new_display_for_a_player_replaces_the_old_one(
    hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
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
    tmp_path: Path, table: DisplayPorts, session: Session
) -> None:
    key = bytes(range(32))
    Pairings(tmp_path / "pairings.json").bind("emu-cy", "Cy", key)
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")]) as hub:
        display = table.plug("emu-cy", "usb-a", key=key)
        assert display.core.wait_for_text("Cy's display")  # no game yet: a neutral screen
        hub.attach(session)
        code_of(display)
        assert not any("SECRET" in t for t in texts(display.core))


def test_a_display_paired_before_keys_must_be_paired_again(
    tmp_path: Path, table: DisplayPorts, session: Session
) -> None:
    """A version 1 pairings file names a player but holds no key: the display cannot prove it, so it gets a code."""
    (tmp_path / "pairings.json").write_text(json.dumps({"version": 1, "displays": {"emu-ann": "Ann"}}))
    with DisplayHub(tmp_path / "pairings.json", ports=[str(table.ports / "*")]) as hub:
        hub.attach(session)
        display = table.plug("emu-ann", "usb-a")
        code = code_of(display)
        assert not any("SECRET" in t for t in texts(display.core))
        unproven = [s for s in hub.status() if s.code == code]
        assert unproven[0].sentence == "A display claims to be Ann's but could not prove it"
        assert hub.pair(code, "Ann")
        assert display.core.wait_for_text("ANNSECRET0")


def test_leaving_the_game_leaves_neutral_screens(hub: DisplayHub, table: DisplayPorts, session: Session) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    hub.detach()
    assert display.core.wait_for_text("Waiting for a game")
    assert "SECRET" not in display.core.text()
    session.act({"type": "pass", "player": "Ann"})  # no longer observed
    assert hub.status() == [DisplayStatus("Ann", DisplayState.CONNECTED, "emu-ann", display.path)]


def test_unreadable_pairings_start_empty(tmp_path: Path, table: DisplayPorts) -> None:
    (tmp_path / "pairings.json").write_text("{not json")
    with DisplayHub(tmp_path / "pairings.json") as hub:
        assert hub.pairings.as_dict() == {}
        assert hub.status() == []


def test_a_view_that_fails_shows_a_neutral_screen_and_never_breaks_the_game(
    hub: DisplayHub, table: DisplayPorts, session: Session
) -> None:
    hub.attach(session)
    display = paired(hub, table.plug("emu-ann", "usb-a"), "Ann")
    VIEWS.fail_views = True
    session.act({"type": "pass", "player": "Ann"})  # the rules are fine; only the display's view fails
    assert display.core.wait_for_text("Cannot show this view")
    assert len(session.moves) == 1


# -- unplugging, replugging, swapping ---------------------------------------------------------------


def test_unplugged_mid_game_then_back_on_another_port_within_a_second(
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
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


def test_two_displays_swapped_between_ports(hub: DisplayHub, table: DisplayPorts, session: Session) -> None:
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
    hub: DisplayHub, table: DisplayPorts, session: Session, dispatcher: QueuedDispatcher
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


# -- a game's menu on its player's display ------------------------------------------------------------


def on_ui(dispatcher: QueuedDispatcher, condition: Callable[[], bool]) -> bool:
    """Play the UI thread until `condition` holds."""
    return wait_until(lambda: dispatcher.run() >= 0 and condition())


def test_a_menu_choice_is_played_on_the_ui_thread(
    hub: DisplayHub, table: DisplayPorts, with_menu: Session, dispatcher: QueuedDispatcher
) -> None:
    main = threading.current_thread()
    changed_on: list[bool] = []
    with_menu.subscribe(lambda _session: changed_on.append(threading.current_thread() is main))
    keys: list[str] = []
    hub.on_key(lambda player, key: keys.append(key))
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    assert ann.core.screen()[0] == "Ann           Reveal"
    ann.press("down")
    assert wait_until(lambda: bool(dispatcher.pending))  # the key waits for the UI thread ...
    assert ">ANNSECRET0" in ann.core.screen()
    assert on_ui(dispatcher, lambda: ">ANNSECRET1" in ann.core.screen())  # ... and moves the menu there
    ann.press("ok")
    assert on_ui(dispatcher, lambda: bool(with_menu.moves))
    assert with_menu.moves[0].action == Reveal("Ann", 1)
    assert changed_on == [True]
    assert keys == []  # the menu took them: nothing for the table
    assert ann.core.wait_for_text(">ANNSECRET1")  # still there, for the next choice


def test_a_refusal_is_shown_on_that_players_display_only(
    hub: DisplayHub, table: DisplayPorts, with_menu: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    bo = paired_to_menu(hub, table.plug("emu-bo", "usb-b", cols=20, rows=4), "Bo")
    with_menu.act(Reveal("Ann", 0))  # from the table's screen
    ann.press("ok")  # the menu offers it again; the rules refuse
    refused = text_pages("Ann", "Refused", "ANNSECRET0 is revealed already.", 20, 4)
    assert refused == [["Ann          Refused", "ANNSECRET0 is", "revealed already.", ""]]
    assert on_ui(dispatcher, lambda: ann.core.screen() == refused[0]), ann.core.screen()
    assert len(with_menu.moves) == 1
    assert not any("Refused" in text or "already" in text for text in texts(bo.core))
    ann.press("back")
    assert on_ui(dispatcher, lambda: ann.core.screen()[0] == "Ann           Reveal")


def test_a_display_acts_only_for_its_own_player(
    hub: DisplayHub,
    table: DisplayPorts,
    with_menu: Session,
    dispatcher: QueuedDispatcher,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    bo = paired_to_menu(hub, table.plug("emu-bo", "usb-b", cols=20, rows=4), "Bo")
    for lying in (Reveal("Bo", 2), {"type": "reveal", "player": "Bo", "index": 2}, Pass("Cy")):
        monkeypatch.setattr(RevealMenu, "press", lambda menu, *_args, lying=lying: (menu, lying))
        ann.press("ok")
        assert on_ui(dispatcher, lambda: "Refused" in ann.core.screen()[0])
        assert " ".join(ann.core.screen()[1:]) == "This display is Ann's: it can only make Ann's choices."
        monkeypatch.undo()
        ann.press("ok")
        assert on_ui(dispatcher, lambda: ann.core.screen()[0] == "Ann           Reveal")
    assert with_menu.moves == ()
    assert not any("This display" in text for text in texts(bo.core))


def test_without_a_menu_the_keys_turn_the_pages(
    hub: DisplayHub, table: DisplayPorts, with_menu: Session, dispatcher: QueuedDispatcher
) -> None:
    hub.attach(with_menu)
    ann = paired_to_menu(hub, table.plug("emu-ann", "usb-a", cols=20, rows=4), "Ann")
    for index in range(4):
        with_menu.act(Reveal("Ann", index))
    first = pages_for(with_menu.private_view("Ann"), 20, 4, RevealDisplay())[0]
    assert ann.core.wait_for(lambda core: core.screen() == first), ann.core.screen()
    dispatcher.run()  # what pairing told the shared screen
    ann.press("down")
    assert ann.core.wait_for(lambda core: "2/" in core.screen()[0])
    assert dispatcher.run() == 0  # paged on the display's own thread: nothing for the UI


def paired_to_menu(hub: DisplayHub, display: PtyDisplay, player: str) -> PtyDisplay:
    assert hub.pair(code_of(display), player)
    assert display.core.wait_for(lambda core: core.screen()[0].endswith("Reveal")), display.core.text()
    return display


# -- rendering --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (21, 8), (16, 8), (40, 12), (8, 2), (1, 1)])
def test_plain_pages_fit_the_screen_and_name_the_player(cols: int, rows: int) -> None:
    view = SECRETS.private_view(SECRETS.setup(Options.for_names("Annabel", "Bo")), "Annabel")
    pages = pages_for(view, cols, rows)
    if is_too_small(cols, rows):
        assert pages == [too_small(cols, rows)]  # never a private view cut to fit
        return
    for number, page in enumerate(pages, 1):
        assert len(page) == rows and all(len(line) <= cols for line in page)
        if rows > 1 and cols >= 8:
            assert page[0].startswith("Annabel")  # the whole name: a cut one could read as another player's
            if len(pages) > 1:
                assert page[0].endswith(f"{number}/{len(pages)}")
    text = "\n".join(line for page in pages for line in page[1:])
    if cols >= 40:
        assert "mine: ANNABELSECRET0, ANNABELSECRET1," in text and "moves: 0" in text


def test_other_games_and_broken_views_fall_back_to_plain_lines() -> None:
    plain = pages_for({"game": "quark", "player": "Bo", "energy": 7, "hand": ["UP", "DOWN"]}, 20, 4)
    assert plain[0] == ["Bo", "energy: 7", "hand: UP, DOWN", ""]
    assert pages_for(None, 20, 4) == [["No game", "in progress", "", ""]]

    class Broken:
        def pages(self, view: View, cols: int, rows: int) -> list[Page]:
            raise KeyError("pieces")

        def menu_for(self, view: View, menu: Menu | None) -> Menu | None:
            return None

    assert pages_for({"player": "Bo", "pieces": 5}, 20, 4, Broken()) == [["Bo", "pieces: 5", "", ""]]
