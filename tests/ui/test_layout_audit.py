"""The layout audit (issue 21): every screen state the golden scripts reach, and Home, Past games, Wins,
Settings, every Menu and popup, checked mechanically at 800×480 (and a sample at 1280×800).

Issue 21: "A layout audit in `make test` that walks every screen state the golden scripts of every game reach
[...] In each state it checks, mechanically: 1. Nothing cut [...] 2. Targets [...] 3. Stability [...] 4. No
sideways scrolling [...] The audit prints what it checked (states × checks) and fails naming the screen, the
widget and its text." Issue 28: "the layout audit checks that every player-coloured widget also carries a
text cue".

The checks are `tests/support/layout_audit.py`; this file drives the real app through the states, in
shards that the test workers take in parallel: the tables and Home, and the large screen here, the golden scripts of
Quark in `test_layout_audit_quark.py` and of the other four games in `test_layout_audit_golden.py`. Each shard
writes every finding to build/layout-audit-<shard>.txt and saves its five states with the most findings as
build/screenshots/audit-<shard>-*.png. Findings already known (and being fixed) are in `KNOWN_FINDINGS`, each with
its owner; the test fails on any other finding, and on a known one that no longer occurs (the list only
shrinks).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.dice import RandomDice
from companion.game import SEAT_COLOURS, Options, RuleError
from companion.games import game as game_entry
from companion.games import names as game_names
from tests.support import golden
from tests.support.layout_audit import (
    CHECKS,
    Finding,
    Scene,
    Seat,
    Snapshot,
    any_player,
    audit,
    seats_of,
    stability_findings,
)

pytestmark = pytest.mark.ui

BUILD = Path(__file__).resolve().parents[2] / "build"
SCREENSHOTS = BUILD / "screenshots"
SMALL, LARGE = (800, 480), (1280, 800)
LONGEST_NAME = 16
"""The longest name a player may type (the name limit)."""
LONG_NAMES = ("Wilhelmina Mayer", "Maximilian Worth", "Bartholomew Kemp", "Gwendolyn Hawkes", "Montgomery Quinn")
SHORT_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")
EVERY = 10
"""Every how many golden steps a state is checked (always the first and last; every step of the shortest script)."""


@dataclass(frozen=True)
class Known:
    """A finding already known and being fixed: matched on its surface, widget and what (regular expressions)."""

    surface: str
    widget: str  # matched against `Finding.where`: "Class#kv_id 'text'", "Class 'text'" or "Class"
    what: str
    owner: str
    shard: str  # the shard that finds it: "tables", "large", "quark", "golden" or a tool's

    def matches(self, finding: Finding) -> bool:
        return bool(
            re.search(self.surface, finding.surface)
            and re.search(self.widget, finding.where)
            and re.search(self.what, f"{finding.check}: {finding.what}")
        )


SHELL = "shell: the shared game screen, Menu, popups, Log, replay, race, phones panel, pairing"
HOME = "home: the home screen and its popups"
QUIN = "quin: Quin's screen"
GAMES = "games: Quintet, Quinque, Quantum Link and Quark"

KNOWN_FINDINGS: list[Known] = [
]
"""Findings being fixed elsewhere, each with who fixes it. The lead empties this list as the fixes merge."""


class Auditor:
    """Walks the app through states, checks each, and keeps every finding."""

    def __init__(self, ui: Any) -> None:
        self.ui = ui
        self.findings: list[Finding] = []
        self.states = 0
        self.worst: dict[str, tuple[int, str, Path]] = {}  # surface -> (kinds of finding, state, screenshot)
        self.seats: list[Seat] = []
        self.surfaces: Counter[str] = Counter()

    @property
    def size(self) -> tuple[int, int]:
        return (int(self.ui.window.width), int(self.ui.window.height))

    def snapshot(self) -> Snapshot:
        return Snapshot.take(self.ui.window, self.ui.app.screens)

    def look(self, state: str) -> list[Finding]:
        """Check the state the window shows now."""
        from tests.support.layout_audit import surface_of

        self.ui.settle()
        surface, roots = surface_of(self.ui.window, self.ui.app.screens)
        name = f"{state} @{self.size[0]}x{self.size[1]}"
        scene = Scene.measure(surface, name, roots, self.size)
        seats = any_player(SEAT_COLOURS) if surface in ("WinsPopup", "PastGamesPopup") else self.seats
        found = audit(scene, seats, check_size=self.size == SMALL)
        self.surfaces[surface] += 1
        self.findings.extend(found)
        self.states += 1
        self._keep_if_worst(len({f.key for f in found}), name, surface)  # the worst: the most kinds of finding
        return found

    def _keep_if_worst(self, count: int, state: str, surface: str) -> None:
        """A screenshot of the state with the most kinds of finding on each surface (the report keeps five)."""
        best = self.worst.get(surface)
        if count == 0 or (best is not None and count <= best[0]):
            return
        with drawing(self.ui.window):
            shot = self.ui.screenshot(f"audit-candidate-{len(self.worst)}-{self.states}.png")
        if best is not None:
            best[2].unlink(missing_ok=True)
        self.worst[surface] = (count, state, shot)

    def worst_five(self) -> list[tuple[int, str, Path]]:
        """The five worst states, each on another surface; the other candidates' screenshots are deleted."""
        ranked = sorted(self.worst.values(), key=lambda w: -w[0])
        for _, _, shot in ranked[5:]:
            shot.unlink(missing_ok=True)
        return ranked[:5]

    def tap(self, widget: Any, state: str) -> None:
        """A real tap; what was tappable before it and is still there must not have moved."""
        before = self.snapshot()
        self.ui.tap(widget)
        self.ui.settle()
        self.findings.extend(stability_findings(before, self.snapshot(), f"{state} @{self.size[0]}x{self.size[1]}"))

    def act(self, change: Callable[[], Any], state: str) -> None:
        """One action as a tap sends it (a golden step); the tappables are compared as for a tap."""
        before = self.snapshot()
        change()
        self.ui.frames(2)
        self.ui.settle()
        self.findings.extend(stability_findings(before, self.snapshot(), f"{state} @{self.size[0]}x{self.size[1]}"))

    def close_popups(self) -> None:
        from kivy.uix.modalview import ModalView

        for view in list(self.ui.window.children):
            if isinstance(view, ModalView):
                view.dismiss(animation=False)
        self.ui.frames(2)

    def top_popup(self) -> Any:
        from kivy.uix.modalview import ModalView

        return next((w for w in self.ui.window.children if isinstance(w, ModalView)), None)

    # -- the states ---------------------------------------------------------------------------------

    def start(self, game: str, names: Iterable[str], **settings: Any) -> Any:
        options = Options.for_names(*names, **settings)
        screen = self.ui.app.start_game(game, options)
        self.ui.frames(4)
        self.seats = seats_of([(p.name, p.colour) for p in options.players])
        return screen

    def golden_script(self, path: Path, *, every: int, menus: bool = False, names: tuple[str, ...] = ()) -> None:
        """Step through a golden script on the live screen, checking a sample of its states.

        With `names`, its players get those names instead (every action names them the same way).
        """
        script = golden.read(path)
        self.ui.table.dice = RandomDice.seeded(script.seed or 1)
        lines = script.lines
        players = list(script.players)
        if names:
            renamed = dict(zip(players, names, strict=False))
            lines = [json.loads(_renamed(json.dumps(line), renamed)) for line in lines]
            players = [renamed[p] for p in players]
        screen = self.start(script.game, players, **script.settings)
        count = len(lines)
        sampled = {0, count, *range(0, count, every)}
        label = path.stem + (", long names" if names else "")
        self.look(f"{label} step 0/{count}")
        if menus:
            self.menu_states(screen, f"{label} step 0")
        for step, action in enumerate(lines, start=1):
            state = f"{label} step {step}/{count}"
            kind = action.get("type")
            if kind in ("undo", "redo"):
                button = self.ui.find(screen, f"{kind}_button")
                if not button.disabled:
                    self.tap(button, state)  # a real tap on the real button
                continue
            if step in sampled:
                self.act(lambda a=action: self._send(screen, a), state)
                self.look(state)
                if step % (2 * every) == 0 and screen.session.can_undo:
                    self.tap(self.ui.find(screen, "undo_button"), f"{state}, Undo")
                    self.look(f"{state}, Undo")
                    self.tap(self.ui.find(screen, "redo_button"), f"{state}, Redo")
            else:
                self._send(screen, action)
                self.ui.frames(1)
            if step == count // 2 and menus and script.game == "quark":
                self.quark_popups(screen, state)
        self.ui.settle()
        self.look(f"{label} end")
        if menus:
            self.menu_states(screen, f"{label} end")
        self.close_popups()

    def quark_popups(self, screen: Any, where: str) -> None:
        """Quark's own popups, each opened by its button and closed again."""
        for button_id in (
            "draw_button",
            "discard_draw_button",
            "annihilate_button",
            "create_button",
            "end_turn_button",
            "correct_button",
        ):
            button = self.ui.find(screen, button_id)
            if button.disabled or button.get_root_window() is None or button.opacity == 0:
                continue
            self.tap(button, f"{where}: {button.text}")
            self.look(f"{where}: {button.text} popup")
            self.close_popups()

    def phones_and_pairing(self, screen: Any, where: str, names: Iterable[str]) -> None:
        """The phones panel (as the Menu's Phones opens it) and a display's pairing question."""
        from ui.widgets.displays import PairingPopup

        screen.open_phones()
        self.look(f"{where}: phones panel")
        self.close_popups()
        PairingPopup(code="4 7 1", players=list(names), on_choice=lambda *_: None, warning=None).open()
        self.look(f"{where}: pairing")
        self.close_popups()

    def home(self, path: Path, unfinished: int, *, popups: bool) -> None:
        """Home on a games file with `unfinished` unfinished games (and a few finished ones), and its popups."""
        ui = self.ui
        ui.reopen(path)
        scripts = [p for p in golden.scripts() if len(golden.read(p).lines) > 4]
        for path_ in scripts[:3]:
            golden.play(ui.store, path_)  # finished: Past games and Wins have rows
        for n in range(unfinished):
            script = scripts[(3 + 2 * n) % len(scripts)]
            golden.play(ui.store, script, upto=2 + n)
        ui.app.home.refresh()
        home = ui.app.home
        where = f"home, {unfinished} unfinished"
        self.seats = seats_of([(row.name, row.colour) for row in home.rows])
        self.look(where)
        if not popups:
            return
        while len(home.rows) < 5:  # the seats list grows under the finger's Add
            self.tap(ui.find(home, "add_player"), f"{where}, Add a player")
        for row, name in zip(home.rows, LONG_NAMES, strict=True):
            row.name = name  # as typed: the longest names allowed
        self.seats = seats_of([(row.name, row.colour) for row in home.rows])
        self.look(f"{where}, 5 seats with long names")
        for button_id, opens in (
            ("history_button", "Past games"),
            ("wins_button", "Wins"),
            ("settings_button", "Settings"),
        ):
            self.tap(ui.find(home, button_id), f"{where}: {opens}")
            self.look(f"{where}: {opens}")
            top = self.top_popup()
            if opens == "Past games" and top is not None and top.game_rows:
                self.tap(top.game_rows[0], f"{where}: a past game")
                self.look(f"{where}: a past game's Log")
                log = self.top_popup()
                if log is not None and "mode_button" in log.ids and not log.ids.mode_button.disabled:
                    self.tap(log.ids.mode_button, f"{where}: a past game's replay")
                    self.look(f"{where}: a past game's replay")
            self.close_popups()
        if home.unfinished_rows:  # the unfinished games have a page of their own, a tap away
            self.tap(ui.find(home, "unfinished_tab"), f"{where}: Unfinished")
            self.look(f"{where}: Unfinished")
            self.tap(home.unfinished_rows[0].ids.discard_button, f"{where}: Discard")
            self.look(f"{where}: Discard?")
            self.close_popups()

    def _send(self, screen: Any, action: dict[str, Any]) -> None:
        with contextlib.suppress(RuleError):
            screen.send(action)  # a refused line shows its sentence in the banner, as on the table

    def menu_states(self, screen: Any, where: str) -> None:
        """The Menu, and every popup it opens that can be left again by a tap."""
        ui = self.ui
        menu_button = ui.find(screen, "menu_button")
        self.tap(menu_button, f"{where}: Menu")
        self.look(f"{where}: Menu")
        menu = self.top_popup()
        for button_id, opens in (
            ("log_button", "Log"),
            ("leave_button", "Someone leaves"),
            ("race_button", "Who goes first"),
        ):
            if menu is None or button_id not in menu.ids or menu.ids[button_id].disabled:
                continue
            self.tap(menu.ids[button_id], f"{where}: Menu, {opens}")
            self.look(f"{where}: {opens}")
            self._inside(opens, where)
            self.close_popups()
            if ui.app.screens.current_screen is not screen:
                self._back_to(screen)
            self.tap(menu_button, f"{where}: Menu again")
            menu = self.top_popup()
        self.close_popups()

    def _inside(self, opened: str, where: str) -> None:
        """One step further into what the Menu opened."""
        ui = self.ui
        top = self.top_popup()
        if opened == "Log" and top is not None and "mode_button" in top.ids and not top.ids.mode_button.disabled:
            self.tap(top.ids.mode_button, f"{where}: Log, Replay")
            self.look(f"{where}: Replay")
        elif opened == "Someone leaves" and top is not None and "names" in top.ids:
            names = [w for w in top.ids.names.children if hasattr(w, "text")]
            if names:
                self.tap(names[-1], f"{where}: Someone leaves, first name")
                self.look(f"{where}: Someone leaves, confirm")
        elif opened == "Who goes first":
            screen = ui.app.screens.current_screen
            self.look(f"{where}: race")
            _ = screen

    def _back_to(self, screen: Any) -> None:
        race = self.ui.app.screens.current_screen
        if hasattr(race, "close"):
            back = race.ids.get("back_button")
            if back is not None and not back.disabled:
                self.ui.tap(back)
                self.ui.settle()
        if self.ui.app.screens.current_screen is not screen:
            race.close()
            self.ui.app.screens.current = screen.name


@contextlib.contextmanager
def not_drawing(window: Any) -> Iterator[None]:
    """The window lays out, takes touches and runs its clock, but draws nothing (what is measured is geometry:
    under software GL, drawing is most of a frame). `drawing` turns it back on for a screenshot."""
    from kivy.clock import Clock

    global _stop_drawing
    _stop_drawing = True
    window.fbind("on_draw", _skip)
    window.fbind("on_flip", _skip)
    fps, Clock._max_fps = Clock._max_fps, 0  # nothing is drawn: no frame need wait for the screen's 60 a second
    try:
        yield
    finally:
        Clock._max_fps = fps
        window.funbind("on_draw", _skip)
        window.funbind("on_flip", _skip)
        _stop_drawing = False


_stop_drawing = False


def _skip(*_: Any) -> bool:
    return _stop_drawing  # True stops the window's own handler: nothing is drawn


@contextlib.contextmanager
def drawing(window: Any) -> Iterator[None]:
    global _stop_drawing
    before, _stop_drawing = _stop_drawing, False
    window.canvas.ask_update()
    try:
        yield
    finally:
        _stop_drawing = before


Part = Callable[["Auditor", Path], None]

GOLDEN_SHARDS = {
    "quark": ("quark",),
    "golden": ("quintet", "quin", "quantum-link", "quinque"),
    "dice-tray": ("dice-tray",),  # test_layout_audit_dice_tray.py, with the tray's own popups
    "finger-chooser": ("finger-chooser",),  # test_layout_audit_chooser.py, with fingers on the glass
    "turn-clock": ("turn-clock",),  # test_layout_audit_turn_clock.py
    "score-pad": ("score-pad",),  # test_layout_audit_score_pad.py, with the number pad and the End question
}
"""Which games' golden scripts each golden shard walks (Quark's are the longest, a shard alone)."""


def test_every_game_s_golden_scripts_are_in_one_shard() -> None:
    """A game added later is audited too: its golden scripts belong to exactly one shard."""
    sharded = [g for games in GOLDEN_SHARDS.values() for g in games]
    assert sorted(sharded) == sorted(game_names())


def run_audit(ui: Any, tmp_path: Path, shard: str, parts: Iterable[Part]) -> None:
    """Walk `parts` with one auditor and report them as `shard`: fails on any finding not known for this shard,
    and on a known one of this shard no longer found."""
    started = time.monotonic()
    auditor = Auditor(ui)
    with not_drawing(ui.window):
        for part in parts:
            t0, s0 = time.monotonic(), auditor.states
            part(auditor, tmp_path)
            print(f"{getattr(part, '__name__', part)}: {auditor.states - s0} states, {time.monotonic() - t0:.1f} s")
    report(auditor, time.monotonic() - started, shard)


@pytest.mark.timeout(600)
def test_layout_audit(ui: Any, tmp_path: Path) -> None:
    """Issue 21: "The audit prints what it checked (states × checks) and fails naming the screen, the widget
    and its text." Every finding not in `KNOWN_FINDINGS` fails it, and so does a known one no longer found.
    This shard: each game at each table size, Home and its popups."""
    run_audit(ui, tmp_path, "tables", (table_sizes, home_states))


@pytest.mark.timeout(600)
def test_layout_audit_at_the_large_screen(ui: Any, tmp_path: Path) -> None:
    """Issue 21's audit as `test_layout_audit`, at 1280×800: a shard of its own, so that the two test workers
    can share the audit's longest walks."""
    run_audit(ui, tmp_path, "large", (large_screen,))


def _only(name: str) -> bool:
    """While working on the audit: AUDIT_ONLY=quark runs only the parts and scripts that name it."""
    wanted = os.environ.get("AUDIT_ONLY", "")
    return not wanted or wanted in name


def golden_states(*games: str) -> Part:
    """Every golden script of `games` on the real screen at 800×480: every state of the shortest script of each
    game (with its Menu and popups), every `EVERY`th of the others, and the shortest again with the longest
    names."""

    def golden_states(auditor: Auditor, tmp_path: Path) -> None:
        for game in games:
            scripts = sorted(golden.scripts(game), key=lambda p: len(golden.read(p).lines))
            for n, path in enumerate(scripts):
                if _only(path.stem):
                    auditor.golden_script(path, every=1 if n == 0 else EVERY, menus=n == 0)
            if _only(scripts[0].stem):
                auditor.golden_script(scripts[0], every=3, names=LONG_NAMES)

    return golden_states


def table_sizes(auditor: Auditor, tmp_path: Path) -> None:
    """Each game started with 2, 3 and 5 players (as many as it seats), with names of the longest length allowed,
    and with short ones: its first screen, its Menu and the popups the Menu opens."""
    assert all(len(name) == LONGEST_NAME for name in LONG_NAMES)
    for game in game_names():
        if not _only(game):
            continue
        entry = game_entry(game)
        for count in (2, 3, 5):
            if not entry.min_players <= count <= entry.max_players:
                continue
            for names in (LONG_NAMES[:count], SHORT_NAMES[:count]):
                if names[0] == SHORT_NAMES[0] and count == 2:
                    continue  # the golden scripts have two short names
                where = f"{game}, {count} players, {'long' if len(names[0]) == LONGEST_NAME else 'short'} names"
                screen = auditor.start(game, names)
                auditor.look(where)
                auditor.menu_states(screen, where)
                if game == "quark":
                    auditor.quark_popups(screen, where)
                if entry.display is not None:
                    auditor.phones_and_pairing(screen, where, names)
        auditor.ui.app.go_home()


def home_states(auditor: Auditor, tmp_path: Path) -> None:
    """Home with 0, 1, 3 and 5 unfinished games, and its Past games, Wins, Settings and Discard popups."""
    if not _only("home"):
        return
    for unfinished in (0, 1, 3, 5):
        auditor.home(tmp_path / f"home-{unfinished}.db", unfinished, popups=unfinished in (0, 3))


def large_screen(auditor: Auditor, tmp_path: Path) -> None:
    """A smaller sample at 1280×800: each game's shortest script (every sixth state), Home, the Menus."""
    if not _only("large"):
        return
    auditor.ui.resize(*LARGE)
    try:
        for game in game_names():
            shortest = min(golden.scripts(game), key=lambda p: len(golden.read(p).lines))
            auditor.golden_script(shortest, every=6, menus=True)
        auditor.home(tmp_path / "home-large.db", 3, popups=True)
    finally:
        auditor.ui.resize(*SMALL)


def _renamed(text: str, names: dict[str, str]) -> str:
    for old, new in names.items():
        text = text.replace(json.dumps(old), json.dumps(new))
    return text


def report(auditor: Auditor, seconds: float, shard: str) -> None:
    findings = auditor.findings
    unique: dict[tuple[str, ...], list[Finding]] = defaultdict(list)
    for finding in findings:
        unique[finding.key].append(finding)
    known = [k for k in KNOWN_FINDINGS if k.shard == shard]
    known_used: Counter[int] = Counter()
    new: list[list[Finding]] = []
    for group in unique.values():
        hit = next((i for i, k in enumerate(known) if k.matches(group[0])), None)
        if hit is None:
            new.append(group)
        else:
            known_used[hit] += 1
    stale = [k for i, k in enumerate(known) if not known_used[i]]
    lines = [
        f"layout audit ({shard}): {auditor.states} states × {len(CHECKS)} checks, {len(findings)} findings "
        f"({len(unique)} distinct, {len(new)} not known), {seconds:.0f} s",
        "surfaces checked: " + ", ".join(f"{name} ×{n}" for name, n in sorted(auditor.surfaces.items())),
        "",
    ]
    by_surface: dict[str, list[list[Finding]]] = defaultdict(list)
    for group in unique.values():
        by_surface[group[0].surface].append(group)
    for surface in sorted(by_surface):
        lines.append(f"== {surface}")
        for group in sorted(by_surface[surface], key=lambda g: (g[0].check, g[0].widget, g[0].kv_id, g[0].what)):
            lines.append(f"  [{group[0].check}] {group[0].line()}  ×{len(group)}")
            texts = sorted({f.text[:40] for f in group if f.text} - {group[0].text[:40]})
            if texts:
                shown = ", ".join(repr(t) for t in texts[:8])
                lines.append(f"      also: {shown}{f' and {len(texts) - 8} more' if len(texts) > 8 else ''}")
        lines.append("")
    BUILD.mkdir(exist_ok=True)
    (BUILD / f"layout-audit-{shard}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    worst = auditor.worst_five()
    for old in SCREENSHOTS.glob(f"audit-{shard}-[0-9].png"):
        old.unlink()
    for rank, (_, _, shot) in enumerate(worst, start=1):
        shot.replace(SCREENSHOTS / f"audit-{shard}-{rank}.png")
    for rank, (count, state, _) in enumerate(worst, start=1):
        print(f"audit-{shard}-{rank}.png: {count} kinds of finding in {state}")
    print(lines[0])
    problems = [f"{g[0].line()}  ×{len(g)}" for g in new] + [f"stale known finding: {k}" for k in stale]
    assert not problems, "\n".join(problems)


def test_each_check_finds_what_it_is_for_and_nothing_in_a_tidy_layout(ui: Any) -> None:
    """The checks themselves, on widgets made to break each rule, and on a layout that breaks none (issue 21:
    "fails naming the screen, the widget and its text")."""
    from kivy.graphics import Color, Rectangle
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.widget import Widget
    from kivy.utils import get_color_from_hex

    def whats(found: list[Finding]) -> set[str]:
        return {f"{f.check}: {f.what}" for f in found}

    tidy = [
        placed(Button(text="Roll"), 10, 10, 120, 60),
        placed(Button(text="Pass"), 140, 10, 120, 60),
        placed(Label(text="Ann to play"), 10, 100, 200, 40),
    ]
    assert checked(ui, *tidy) == []

    wide = placed(Label(text="A sentence far too long for its box"), 10, 300, 60, 30)
    assert "nothing cut: text wider than its box" in whats(checked(ui, wide))
    short = placed(Label(text="Wilhelmina Mayer to play", shorten=True, text_size=(80, None)), 10, 300, 80, 30)
    found = checked(ui, short)
    assert "nothing cut: shortened with an ellipsis (no tap shows the whole text)" in whats(found)
    assert (found[0].surface, found[0].widget, found[0].text) == ("test", "Label", "Wilhelmina Mayer to play")

    assert "targets: smaller than 48x48 px" in whats(checked(ui, placed(Button(text="x"), 10, 10, 30, 30)))
    near = [placed(Button(text="A"), 10, 10, 60, 60), placed(Button(text="B"), 72, 10, 60, 60)]
    assert "targets: closer than 8 px to another tappable" in whats(checked(ui, *near))
    under = [placed(Button(text="A"), 10, 10, 60, 60), placed(Button(text="B"), 40, 40, 60, 60)]
    assert "targets: lies under or over another tappable" in whats(checked(ui, *under))

    swatch = placed(Widget(), 10, 10, 60, 60)
    with swatch.canvas:
        Color(*get_color_from_hex(SEAT_COLOURS[0]))
        Rectangle(pos=swatch.pos, size=swatch.size)
    colour = "colour cue: drawn in a player's colour with no name, initial or seat number in or beside it"
    assert colour in whats(checked(ui, swatch))

    scroller = placed(ScrollView(do_scroll_x=True), 10, 10, 200, 100)
    scroller.add_widget(Widget(size_hint=(None, None), size=(600, 100)))
    assert "scrolling: scrolls sideways" in whats(checked(ui, scroller))

    button = placed(Button(text="Undo"), 10, 10, 120, 60)
    with on_window(ui, button) as manager:
        before = Snapshot.take(ui.window, manager)
        button.x += 30
        ui.frames(2)
        moved = stability_findings(before, Snapshot.take(ui.window, manager), "one tap later")
    assert [(f.check, f.text, f.what) for f in moved] == [("stability", "Undo", "moved or changed size one tap apart")]


def placed(widget: Any, x: float, y: float, w: float, h: float) -> Any:
    widget.size_hint = (None, None)
    widget.pos, widget.size = (x, y), (w, h)
    return widget


@contextlib.contextmanager
def on_window(ui: Any, *widgets: Any) -> Iterator[Any]:
    """`widgets` on the window in a layout of their own, as the current screen of a stand-in ScreenManager."""
    from types import SimpleNamespace

    from kivy.uix.floatlayout import FloatLayout

    root = FloatLayout(size=ui.window.size)
    root.name = "test"
    for widget in widgets:
        root.add_widget(widget)
    ui.window.add_widget(root)
    try:
        ui.frames(3)
        yield SimpleNamespace(current_screen=root)
    finally:
        ui.window.remove_widget(root)


def checked(ui: Any, *widgets: Any) -> list[Finding]:
    with on_window(ui, *widgets) as manager:
        root = manager.current_screen
        return audit(Scene.measure("test", "made", [root], SMALL), seats_of([("Ann", SEAT_COLOURS[0])]))


def test_the_hexes_of_a_hex_board_are_checked_by_the_hex_grid_rule(ui: Any) -> None:
    """Issue 21: "every tappable widget is at least 48 px in both directions at 800×480 [...] and at least 8 px
    from the next one". Quantum Link's hexes touch (a tap anywhere goes to the nearest hex), so the audit
    skipped them; now each is a target checked by the hex grid's rule: its inscribed circle at least 48 px
    across, and no hex over another."""
    from kivy.uix.label import Label

    from tests.support.layout_audit import hex_shape

    class Hex(Label):
        is_tap_target = True
        tap_shape = "hex"

        def __init__(self, radius: float, squash: float, centre: tuple[float, float]) -> None:
            super().__init__(size_hint=(None, None))
            self.hex_radius, self.squash = radius, squash
            self.size = (3**0.5 * radius, 2 * radius * squash)
            self.center = centre

    def whats(found: list[Finding]) -> set[str]:
        return {f"{f.check}: {f.what}" for f in found}

    step = 3**0.5 * 31  # side by side, touching: a tidy grid
    assert checked(ui, Hex(31, 1.0, (100, 100)), Hex(31, 1.0, (100 + step, 100))) == []
    small = whats(checked(ui, Hex(24, 1.0, (100, 100))))
    assert small == {"targets: a hex whose inscribed circle is under 48 px across"}
    over = whats(checked(ui, Hex(31, 1.0, (100, 100)), Hex(31, 1.0, (100 + step / 2, 100))))
    assert "targets: a hex over another hex" in over

    # The real board at 800x480: every hex is a live target, a finger wide, and the audit finds nothing.
    screen = ui.start_game("quantum-link", ["Ann", "Bo"])
    ui.settle()
    hexes = list(screen.board.cells.values())
    assert len(hexes) == 61 and all(hex_shape(h) is not None for h in hexes)
    narrowest = min(2 * hex_shape(h)[2] for h in hexes)  # type: ignore[index]
    print(f"hex inscribed circle: {narrowest:.1f} px across")
    assert narrowest >= 48 - 1
    from tests.support.layout_audit import surface_of, target_findings

    surface, roots = surface_of(ui.window, ui.app.screens)
    scene = Scene.measure(surface, "quantum link", roots, SMALL)
    assert {id(h) for h in hexes} <= {id(w) for w in scene.tappables}
    assert target_findings(scene) == []
