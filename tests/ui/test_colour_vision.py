"""The table's colours on the real screens, as a deuteranope sees them (issue 28).

"About one man in twelve has a red-green colour deficiency, so at a table of five it is likely that
someone does." Each test takes a screenshot and writes beside it the copy a deuteranope would see
(build/screenshots/*-deuteranopia.png); `make screenshots` copies the README's pair into docs/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion import palette
from companion.game import SEAT_COLOURS
from tests.support.colour_vision import simulate_png, simulated_name
from tests.support.many_games import ended_games, write_file
from tests.ui.test_quintet_screen import five_players_in_play

pytestmark = pytest.mark.ui


def _both(ui: Any, name: str) -> tuple[Path, Path]:
    """The screenshot `name` and its deuteranopia copy beside it."""
    shot = ui.screenshot(name)
    return shot, simulate_png(shot, shot.with_name(simulated_name(name)))


def _seat_pixels(path: Path) -> dict[str, tuple[int, int, int]]:
    """Each table colour that some pixel of `path` shows exactly (hex -> that pixel, as read back)."""
    with Image.open(path) as image:
        present = {rgb for _, rgb in image.convert("RGB").getcolors(maxcolors=1 << 20) or []}
    return {c: rgb for c in SEAT_COLOURS if (rgb := tuple(round(v * 255) for v in palette.srgb(c))) in present}


def _shows_the_simulated_seats(normal: Path, simulated: Path) -> dict[str, tuple[int, int, int]]:
    """The table colours on screen, and proof that the copy shows each as a deuteranope sees it."""
    shown = _seat_pixels(normal)
    with Image.open(normal) as before, Image.open(simulated) as after:
        assert before.size == after.size == (800, 480)
        before_rgb, after_rgb = before.convert("RGB"), after.convert("RGB")
        for rgb in shown.values():
            x, y = _first(before_rgb, rgb)
            assert after_rgb.getpixel((x, y)) == palette.seen_as(rgb, palette.DEUTERANOPIA)
    return shown


def test_five_players_of_quintet_as_a_deuteranope_sees_them(ui):
    """"at a table of five it is likely that someone does": five seats in play, each in its table colour, all
    at least ΔE 40 apart for a deuteranope; the screenshot and its deuteranopia copy are written."""
    screen, _ = five_players_in_play(ui)
    assert [p["colour"] for p in screen.session.public_view()["players"]] == list(SEAT_COLOURS)
    normal, simulated = _both(ui, "quintet-five-players.png")
    shown = _shows_the_simulated_seats(normal, simulated)
    assert len(shown) == 5, f"every seat's colour is on screen, flat: {sorted(shown)}"
    assert palette.closest_pair(list(shown), palette.DEUTERANOPIA)[1] >= 40


def test_the_wins_chart_as_a_deuteranope_sees_it(ui, tmp_path):
    """"the closest pairs are red and green at ΔE 14.8": the chart's bars wore red and green side by side; its
    players' colours are the table's, and the chart and its deuteranopia copy are written."""
    path = tmp_path / "wins.db"
    write_file(path, ended_games(200))
    ui.reopen(path)
    ui.tap(ui.screen.ids.wins_button)
    ui.settle()
    chart = ui.window.children[0]
    colours = {bar.colour for row in chart.game_rows for bar in row.ids.bars.children if hasattr(bar, "count")}
    assert colours and colours <= set(SEAT_COLOURS)
    normal, simulated = _both(ui, "home-wins-chart.png")
    assert len(_shows_the_simulated_seats(normal, simulated)) >= 3, "the bars show three or more players' colours"
    ui.tap(chart.ids.close_button)



def _first(image: Image.Image, rgb: tuple[int, int, int]) -> tuple[int, int]:
    """Where `rgb` first shows in an RGB `image` (x, y)."""
    raw, wanted = image.tobytes(), bytes(rgb)
    at = raw.find(wanted)
    while at > 0 and at % 3:  # a match across two pixels: look on
        at = raw.find(wanted, at + 1)
    assert at >= 0, f"{rgb} is not in the picture"
    return (at // 3) % image.width, (at // 3) // image.width
