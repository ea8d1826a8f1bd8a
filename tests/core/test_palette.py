"""Seat colours every player can tell apart, measured (issue 28).

"About one man in twelve has a red-green colour deficiency, so at a table of five it is likely that
someone does."
"""

from __future__ import annotations

import pytest

from companion import palette
from companion.game import SEAT_COLOURS
from companion.palette import DEUTERANOPIA, NORMAL, PROTANOPIA, VISIONS

OLD = ("#e53935", "#1e88e5", "#43a047", "#fdd835", "#8e24aa")
RED, BLUE, GREEN, YELLOW, PURPLE = range(5)

# The theme's background, panels and the two text colours a chip can carry (ui/theme.py: BG, PANEL, INK, TEXT).
BG, PANEL, INK, TEXT = "#171a21", "#262b36", "#000000", "#f2f2f2"


@pytest.mark.parametrize(
    ("vision", "pair", "expected"),
    [
        (DEUTERANOPIA, (RED, GREEN), 14.8),
        (DEUTERANOPIA, (BLUE, PURPLE), 18.9),
        (PROTANOPIA, (BLUE, PURPLE), 24.4),
        (PROTANOPIA, (RED, GREEN), 25.0),
        (NORMAL, (BLUE, PURPLE), 59.2),
    ],
)
def test_the_old_palettes_figures_are_reproduced(vision: str, pair: tuple[int, int], expected: float) -> None:
    """ "Simulated for deuteranopia (Machado et al. 2009, full severity), the closest pairs are red and green
    at ΔE 14.8 (CIE76 in Lab) and blue and purple at 18.9; for protanopia, blue and purple at 24.4 and red
    and green at 25.0. With normal vision the closest pair is 59.2." The same numbers prove the maths."""
    assert palette.distances(OLD, vision)[pair] == pytest.approx(expected, abs=0.2)


def test_the_old_palettes_closest_pairs_are_the_issues() -> None:
    """ "the closest pairs are red and green ... for protanopia, blue and purple": the closest, not merely close."""
    assert palette.closest_pair(OLD, DEUTERANOPIA)[0] == (RED, GREEN)
    assert palette.closest_pair(OLD, PROTANOPIA)[0] == (BLUE, PURPLE)
    assert palette.closest_pair(OLD, NORMAL)[0] == (BLUE, PURPLE)
    assert (RED, GREEN) in palette.hard_pairs(OLD) and (BLUE, PURPLE) in palette.hard_pairs(OLD)


def test_the_simulation_leaves_grey_grey_and_normal_vision_unchanged() -> None:
    """Machado's matrices keep white white (each row sums to 1): a grey chip looks the same to everyone."""
    for vision in VISIONS:
        assert palette.delta_e("#808080", "#808080", vision) == 0
        white = palette.lab("#ffffff", vision)
        assert white[0] == pytest.approx(100, abs=0.01) and abs(white[1]) < 0.02 and abs(white[2]) < 0.02
    assert palette.lab("#e53935", NORMAL) == palette.lab("#e53935")


def test_the_table_colours_are_at_least_delta_e_40_apart_in_every_vision() -> None:
    """ "every pair at least ΔE 40 in each of normal vision, deuteranopia, protanopia and tritanopia": at a table
    of five, nobody's colour looks like a neighbour's, whichever of these ways they see."""
    assert len(SEAT_COLOURS) == 5
    assert palette.hard_pairs(SEAT_COLOURS) == []
    for vision in VISIONS:
        assert palette.closest_pair(SEAT_COLOURS, vision)[1] >= 40, vision


@pytest.mark.parametrize("colour", SEAT_COLOURS)
def test_each_table_colour_reads_on_the_dark_theme(colour: str) -> None:
    """ "each colour readable on the dark theme": a chip, bar or name in the colour stands out 3:1 (WCAG's
    measure for marks and large text) from the background and the panels, and ink or light text on the chip
    reads at 4.5:1."""
    assert palette.contrast(colour, BG) >= 3
    assert palette.contrast(colour, PANEL) >= 3
    assert max(palette.contrast(colour, INK), palette.contrast(colour, TEXT)) >= 4.5


def test_colours_are_hex_and_visions_are_named() -> None:
    """A colour that is not ``#rrggbb`` or a vision that is not one of the four is refused with a sentence."""
    with pytest.raises(ValueError, match="not a colour"):
        palette.lab("red")
    with pytest.raises(ValueError, match="not a colour"):
        palette.lab("#zz0000")
    with pytest.raises(ValueError, match="none of"):
        palette.lab("#e53935", "achromatopsia")
    with pytest.raises(ValueError, match="two colours"):
        palette.closest_pair(["#e53935"])


def test_a_screenshot_pixel_is_seen_as_an_eye_with_each_vision_sees_it():
    """`seen_as` turns a screenshot into what a colour-blind player sees (the colour-vision UI test's filter):
    unchanged for normal vision, and the old red and green seats a near match for a deuteranope."""
    assert palette.seen_as((229, 57, 53), NORMAL) == (229, 57, 53)
    assert (
        palette.seen_as((0, 0, 0), DEUTERANOPIA) == (0, 0, 0) and palette.seen_as((255,) * 3, PROTANOPIA) == (255,) * 3
    )
    red, green = palette.seen_as((229, 57, 53), DEUTERANOPIA), palette.seen_as((67, 160, 71), DEUTERANOPIA)
    assert max(abs(a - b) for a, b in zip(red, green, strict=True)) < 40  # the pair issue 28 replaced


@pytest.mark.parametrize(
    ("colour", "light"),
    [("#fdd835", True), ("#1e88e5", True), ("#8e24aa", False), (BG, False), ("not a colour", False), ("#12", False)],
)
def test_ink_on_a_players_colour_is_the_one_that_reads_better(colour, light):
    """`is_light`: "``"#fdd835"`` (yellow) and ``"#1e88e5"`` (blue) take dark ink, ``"#8e24aa"`` (purple) light
    text. A colour that cannot be read takes light text, as on the theme's dark panels."""
    assert palette.is_light(colour) is light
