"""The finger chooser on the real screen (issue 27): fingers as Kivy multi-touch events through the real window,
2 to 10 of them; "each finger gets a ring in a distinct colour"; "when the fingers have been still for 2 s, one is
chosen at random, its ring grows and the others fade"; "a finger lifted before the choice restarts the count";
teams. The still count's time is stepped by the test (the glass's `now`), never waited for."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.metrics import dp
from kivy.tests.common import UnitTestTouch

from companion.games.finger_chooser.rules import MAX_FINGERS
from ui.presenters.finger_chooser import STILL_SECONDS, STILL_TOLERANCE
from ui.widgets.finger_chooser import FADED, GROWN, RADIUS

pytestmark = pytest.mark.ui


class Glass:
    """Fingers on the chooser's glass: real touches through the window, and the glass's clock, stepped."""

    def __init__(self, ui: Any, chooser: Any) -> None:
        self.ui, self.chooser, self.time = ui, chooser, 100.0
        chooser.now = lambda: self.time
        self.down: list[UnitTestTouch] = []

    def spot(self, index: int) -> tuple[float, float]:
        """Where finger `index` goes: spread over the glass in two rows, as hands round a table would be."""
        x0, y0 = self.chooser.to_window(*self.chooser.pos)
        w, h = self.chooser.size
        column, row = index % 5, index // 5
        return x0 + w * (0.1 + 0.2 * column), y0 + h * (0.3 + 0.35 * row)

    def put(self, count: int) -> list[UnitTestTouch]:
        fingers = []
        for _ in range(count):
            touch = UnitTestTouch(*self.spot(len(self.down)))
            touch.touch_down()
            self.down.append(touch)
            fingers.append(touch)
        self.ui.frames(1)
        return fingers

    def lift(self, touch: UnitTestTouch) -> None:
        touch.touch_up()
        self.down.remove(touch)
        self.ui.frames(1)

    def lift_all(self) -> None:
        for touch in list(self.down):
            self.lift(touch)

    def wait(self, seconds: float) -> None:
        """The glass's clock moves on `seconds`, and the glass looks at its count (as its tick does)."""
        self.time += seconds
        self.chooser.tick()
        self.ui.frames(1)

    def rings(self) -> list[Any]:
        return sorted(self.chooser.rings.values(), key=lambda ring: int(ring.label) if ring.label.isdigit() else 0)


def start(ui: Any, players: int = 3) -> tuple[Any, Glass]:
    screen = ui.start_game("finger-chooser", ["Ann", "Bo", "Cy", "Dee", "Eve", "Flo"][:players])
    return screen, Glass(ui, screen.chooser)


@pytest.mark.parametrize("count", range(2, MAX_FINGERS + 1))
def test_every_finger_gets_a_numbered_ring_and_one_is_chosen_after_two_still_seconds(ui: Any, count: int) -> None:
    """2 to 10 fingers: each gets a ring of its own colour with its number on it; nothing is chosen before 2 s of
    stillness; then one is chosen from the dice, stored, its ring grows and the others fade."""
    screen, glass = start(ui)
    glass.put(count)
    rings = glass.rings()
    assert [ring.label for ring in rings] == [str(n) for n in range(1, count + 1)]
    assert len({tuple(ring.colour) for ring in rings}) == count, "each finger a distinct colour"
    for ring, touch in zip(rings, glass.down, strict=True):
        assert ring.finger == pytest.approx(list(screen.chooser.to_widget(*touch.pos)), abs=1)
    glass.wait(STILL_SECONDS - 0.1)
    assert screen.session.view().last is None, "not before the fingers have been still for 2 s"
    glass.wait(0.2)
    last = screen.session.view().last
    assert last is not None and last.fingers == tuple(range(1, count + 1))
    assert screen.chooser.phase == "chosen"
    def at_rest() -> bool:
        return all(
            ring.radius == pytest.approx(dp(RADIUS) * GROWN, rel=0.01) and ring.opacity == 1
            if ring.label == str(last.chosen)
            else ring.opacity == pytest.approx(FADED, abs=0.01)
            for ring in glass.rings()
        )

    # The rings' growth and fading: an animation of 0.4 s from the chooser's next tick (on a loaded machine its
    # last frames come later: a limit, not a measurement).
    ui.wait(0.6)
    assert ui.wait_until(at_rest, timeout=5.0), [(r.label, r.radius, r.opacity) for r in glass.rings()]
    assert screen.chooser.headline == f"Ring {last.chosen} is chosen!"
    glass.lift_all()
    assert not screen.chooser.rings and screen.chooser.phase == "waiting"
    assert last.said in screen.board.said


def test_a_finger_lifted_before_the_choice_restarts_the_count(ui: Any) -> None:
    """ "A finger lifted before the choice restarts the count"; so does one put down, and one slid away; a finger
    that only trembles (within the tolerance) does not."""
    screen, glass = start(ui)
    first = glass.put(3)
    glass.wait(1.5)
    glass.lift(first[1])
    glass.wait(1.5)  # 3 s since the start, 1.5 since the lift
    assert screen.session.view().last is None
    glass.put(1)  # put back: the count starts again, for three fingers
    assert [ring.label for ring in glass.rings()] == ["1", "2", "3"], "the lowest free number again"
    glass.wait(1.9)
    assert screen.session.view().last is None
    x, y = first[0].pos
    first[0].touch_move(x + STILL_TOLERANCE / 2, y)  # a tremble
    glass.wait(0.0)
    glass.wait(0.2)
    assert screen.session.view().last is not None, "a tremble is still"
    glass.lift_all()
    fingers = glass.put(4)
    glass.wait(1.8)
    x, y = fingers[2].pos
    fingers[2].touch_move(x + STILL_TOLERANCE * 3, y)  # slid away
    glass.wait(1.8)
    assert len(screen.session.view().rounds) == 1, "a finger slid away restarts the count"
    glass.wait(0.3)
    assert len(screen.session.view().rounds) == 2
    glass.lift_all()


def test_teams_split_the_fingers_and_every_ring_wears_its_team(ui: Any) -> None:
    """ "Optionally split the fingers into teams": 2 teams of 7 fingers, every ring lettered and coloured by team."""
    screen, glass = start(ui)
    ui.tap(screen.way_buttons[2])
    glass.put(7)
    glass.wait(STILL_SECONDS + 0.1)
    last = screen.session.view().last
    assert last is not None and len(last.teams) == 2 and sorted(sum(last.teams, ())) == list(range(1, 8))
    labels = sorted(ring.label for ring in screen.chooser.rings.values())
    assert labels == sorted(["A"] * len(last.teams[0]) + ["B"] * len(last.teams[1]))
    assert screen.chooser.headline == "Teams A and B: find your ring's letter"
    glass.lift_all()
    ui.tap(screen.way_buttons[3])
    glass.put(2)
    glass.wait(STILL_SECONDS + 0.1)
    assert len(screen.session.view().rounds) == 1, "3 teams wait for 3 fingers"
    assert screen.chooser.headline == "3 teams need 3 fingers at least"
    glass.lift_all()


def test_undo_takes_a_choice_back_and_the_same_fingers_get_the_same_ring(ui: Any) -> None:
    """Undoable like every game, and "undo never re-draws": undone, the same five fingers get the same ring."""
    screen, glass = start(ui)
    glass.put(5)
    glass.wait(STILL_SECONDS)
    chosen = screen.session.view().last.chosen
    glass.lift_all()
    ui.tap(ui.find(screen, "undo_button"))
    assert screen.session.view().last is None
    glass.put(5)
    glass.wait(STILL_SECONDS)
    assert screen.session.view().last.chosen == chosen
    glass.lift_all()


def test_screenshots_five_fingers_down_and_after_the_choice(ui: Any) -> None:
    screen, glass = start(ui, players=5)
    glass.put(5)
    glass.wait(1.0)
    ui.screenshot("finger-chooser-five-fingers.png")
    glass.wait(1.1)
    ui.wait(0.6)
    ui.screenshot("finger-chooser-chosen.png")
    glass.lift_all()
    ui.tap(screen.way_buttons[2])
    glass.put(5)
    glass.wait(STILL_SECONDS)
    ui.wait(0.6)
    ui.screenshot("finger-chooser-teams.png")
    glass.lift_all()
    ui.tap(screen.way_buttons[4])
    glass.put(10)
    glass.wait(STILL_SECONDS)
    ui.wait(0.6)
    ui.screenshot("finger-chooser-ten-in-four-teams.png")
    glass.lift_all()


def test_after_a_power_cut_the_chooser_comes_back_with_its_choices(ui: Any) -> None:
    """ "Resumable after a power cut": the games file opened again, the app goes back into the chooser, which shows
    the last choice, and Undo still takes it back."""
    screen, glass = start(ui)
    glass.put(4)
    glass.wait(STILL_SECONDS)
    said = screen.session.view().last.said
    glass.lift_all()
    ui.reopen(ui.store.path)
    resumed = ui.app.start_where_left()
    ui.frames(4)
    assert ui.screen is resumed and resumed.session.game.name == "finger-chooser"
    assert resumed.board.said == f"Last: {said}"
    ui.tap(ui.find(resumed, "undo_button"))
    assert resumed.session.view().last is None
