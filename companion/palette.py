"""How far apart colours look, to normal eyes and to colour-blind eyes: the seat colours' measure.

A colour (``"#e53935"``) goes sRGB -> linear RGB -> (for a colour-blind eye) the
Machado, Oliveira & Fernandes (2009) simulation at full severity, applied in
linear RGB and clipped to the gamut as colorspacious and DaltonLens do -> CIE
XYZ (D65) -> CIE L*a*b*. Two colours' distance is CIE76 ΔE, the straight line
in Lab: about 2.3 is just noticeable, and the seat colours keep 40 apart, so
that a glance across the table tells two players apart.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
Triple = tuple[float, float, float]

NORMAL = "normal"
PROTANOPIA = "protanopia"
DEUTERANOPIA = "deuteranopia"
TRITANOPIA = "tritanopia"
VISIONS: tuple[str, ...] = (NORMAL, DEUTERANOPIA, PROTANOPIA, TRITANOPIA)
"""The four ways of seeing the seat colours are measured in."""

# Machado et al. 2009, Table 1 at severity 1.0 (linear RGB in, linear RGB out).
_SIMULATION: dict[str, Matrix] = {
    PROTANOPIA: (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    DEUTERANOPIA: (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    TRITANOPIA: (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# IEC 61966-2-1 (sRGB), linear RGB -> XYZ with Y of white = 1; and D65's white in that scale.
_RGB_TO_XYZ: Matrix = (
    (0.4124, 0.3576, 0.1805),
    (0.2126, 0.7152, 0.0722),
    (0.0193, 0.1192, 0.9505),
)
_WHITE: Triple = (0.95047, 1.0, 1.08883)


def _apply(matrix: Matrix, v: Triple) -> Triple:
    r0, r1, r2 = matrix
    return (
        r0[0] * v[0] + r0[1] * v[1] + r0[2] * v[2],
        r1[0] * v[0] + r1[1] * v[1] + r1[2] * v[2],
        r2[0] * v[0] + r2[1] * v[1] + r2[2] * v[2],
    )


def srgb(colour: str) -> Triple:
    """``"#e53935"`` as sRGB channels from 0 to 1 (``"#rgb"`` is not accepted: the table's colours are six digits)."""
    digits = colour.removeprefix("#")
    if len(digits) != 6:
        raise ValueError(f"{colour!r} is not a colour like '#e53935'.")
    try:
        r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        raise ValueError(f"{colour!r} is not a colour like '#e53935'.") from None
    return (r, g, b)


def linear(colour: str) -> Triple:
    """The colour's linear-light RGB (the sRGB transfer curve undone)."""
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb(colour))
    return (r, g, b)


def simulate(colour: str, vision: str) -> Triple:
    """The linear RGB that an eye with `vision` sees for `colour` (unchanged for ``normal``)."""
    rgb = linear(colour)
    if vision == NORMAL:
        return rgb
    if vision not in _SIMULATION:
        raise ValueError(f"{vision!r} is none of {', '.join(VISIONS)}.")
    r, g, b = (min(1.0, max(0.0, c)) for c in _apply(_SIMULATION[vision], rgb))
    return (r, g, b)


def seen_as(pixel: tuple[int, int, int], vision: str) -> tuple[int, int, int]:
    """An 8-bit sRGB pixel as an eye with `vision` sees it, as the 8-bit sRGB pixel that shows that to anyone."""
    r, g, b = simulate("#{:02x}{:02x}{:02x}".format(*pixel), vision)
    return (_encode(r), _encode(g), _encode(b))


def _encode(c: float) -> int:
    """One linear channel (0 to 1) back to 8-bit sRGB."""
    return round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055))


def lab(colour: str, vision: str = NORMAL) -> Triple:
    """CIE L*a*b* (D65) of `colour` as an eye with `vision` sees it."""
    xyz = _apply(_RGB_TO_XYZ, simulate(colour, vision))

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(first: str, second: str, vision: str = NORMAL) -> float:
    """CIE76 ΔE between two colours as an eye with `vision` sees them."""
    return math.dist(lab(first, vision), lab(second, vision))


def distances(colours: Sequence[str], vision: str = NORMAL) -> dict[tuple[int, int], float]:
    """ΔE of every pair of `colours` (by index, the lower first) as an eye with `vision` sees them."""
    seen = [lab(c, vision) for c in colours]
    return {(i, j): math.dist(seen[i], seen[j]) for i, j in itertools.combinations(range(len(colours)), 2)}


def closest_pair(colours: Sequence[str], vision: str = NORMAL) -> tuple[tuple[int, int], float]:
    """The two `colours` (by index) that look most alike to an eye with `vision`, and their ΔE."""
    if len(colours) < 2:
        raise ValueError("a pair needs two colours")
    return min(distances(colours, vision).items(), key=lambda item: item[1])


def hard_pairs(colours: Sequence[str], threshold: float = 40) -> list[tuple[int, int]]:
    """The pairs of `colours` (by index) closer than `threshold` ΔE in any of the four visions."""
    hard = {pair for vision in VISIONS for pair, d in distances(colours, vision).items() if d < threshold}
    return sorted(hard)


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21): text wants 4.5, a large mark 3."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def is_light(colour: str) -> bool:
    """Whether dark ink reads better on `colour` than light text: black's WCAG contrast with it beats white's.

    The one rule for text or a mark on a player's colour, on every screen (Quin's pieces, Quantum Link's dice
    and cards, Quintet's tokens, the leave picker, Home's seat chips): ``"#fdd835"`` (yellow) and ``"#1e88e5"``
    (blue) take dark ink, ``"#8e24aa"`` (purple) light text. A colour that cannot be read takes light text,
    as on the theme's dark panels.
    """
    try:
        return contrast(colour, "#000000") > contrast(colour, "#ffffff")
    except ValueError:
        return False


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a colour (0 black, 1 white)."""
    r, g, b = linear(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
