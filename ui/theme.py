"""The theme's colours, by name: the one place a colour of the app is written down.

`ui/theme.kv` gives them to every rules file as ``theme_<name>`` (e.g.
``theme_accent``); Python code imports them from here. Players' colours are
data (``"#e53935"`` in the options), turned into Kivy colours by `rgba`.
"""

from __future__ import annotations

from kivy.utils import get_color_from_hex

from companion import game

RGBA = tuple[float, float, float, float]


def solid(colour: RGBA, under: RGBA) -> RGBA:
    """`colour` as it shows over `under` (itself as it shows over `BG` if not opaque), made opaque.

    For a line wider than a pixel: Kivy draws one in a colour that is not opaque through a stencil of its own,
    which costs a stencil pass a line and, inside a ScrollView (its own stencil), let pixels of lines past the
    view's edge show beside it.
    """
    if under[3] < 1:
        under = solid(under, BG)
    alpha = colour[3]
    r, g, b = (c * alpha + u * (1 - alpha) for c, u in zip(colour[:3], under[:3], strict=True))
    return (r, g, b, 1.0)


def rgba(colour: str, alpha: float | None = None) -> RGBA:
    """``"#e53935"`` (or ``"#e53935cc"``) as Kivy's ``(r, g, b, a)``; `alpha` replaces the alpha."""
    values = get_color_from_hex(colour)
    if len(values) != 4:
        raise ValueError(f"{colour!r} is not a colour like '#e53935'.")
    r, g, b, a = values
    return (r, g, b, a if alpha is None else alpha)


# -- the screen -------------------------------------------------------------------------
BG = rgba("#171a21")  # behind every screen
PANEL = rgba("#262b36")  # panels and cards on the background
BUTTON = rgba("#3d4557")  # an ordinary button
TEXT = rgba("#f2f2f2")  # body text
MUTED = rgba("#a6adbd")  # secondary text: headings of columns, hints
ACCENT = rgba("#4fc3f7")  # the one thing to tap, the chosen toggle, scores
WARN = rgba("#ffb74d")  # refusals and warnings
GO = rgba("#66e673")  # GO!, a winner, a pressed button
INK = rgba("#000000")  # text on an accent (or any light) background
DISABLED_TEXT = rgba("#737885")
DISABLED_BUTTON = rgba("#303642")
HIGHLIGHT = rgba("#4fc3f7", 0.22)  # the accent, faint: whose turn it is, who won, behind a row

# -- the race and the simulated table hardware --------------------------------------------------
WINNER_CARD = rgba("#334d38")  # a racer card of the race's winner
STRIP = rgba("#1f2129")  # the simulated table-hardware strip
LAMP_OFF = rgba("#474d59")
LAMP_ON = rgba("#ffd933")  # a lit LED in a race button
PRESSED = rgba("#73809e")  # an on-screen hardware button held down

# -- the Quinque formation ------------------------------------------------------------------------
TILE = rgba("#333b4a")  # a placed tile
TILE_CHOSEN = rgba("#4d576b")  # the tile chosen to move
TILE_EDGE = rgba("#ffffff", 0.18)
SPACE = rgba("#ffffff", 0.025)  # an empty space beside the formation, in the move step
OPEN_SPACE = rgba("#4fc3f7", 0.10)  # where a tile may be added (the accent, faint)
LIT_SPACE = rgba("#4fc3f7", 0.35)  # where the chosen tile may go
WINNING_LINE = rgba("#ffd633")  # the ring and glow of five in a row

# -- the Quantum Link board -----------------------------------------------------------------------
HEX = rgba("#333845")  # an empty hex
HEX_EDGE = rgba("#52596b")  # its outline (a chosen, just-covered or last-placed hex wears ACCENT or WARN)
SCORING_FRAME = rgba("#ffffff")  # around a die that scores now
CHIP_LINE = rgba("#0d0d12")  # the rim of a counter covering a die, and the edge of a cross
DEAD = rgba("#ff7373")  # the cross over a die that can no longer score
DIMMED = rgba("#000000", 0.5)  # laid over a crossed-out die
DEAD_SHOWN = rgba("#732e2e")  # the dead-dice button while dead dice are crossed out

# -- the Quintet dice -----------------------------------------------------------------------------
DIE = rgba("#f5f5ed")  # a die's face (drawn faint before the first roll)
PIP = rgba("#1a1a1f")

# -- player displays ------------------------------------------------------------------------------
CONNECTED = rgba("#66cc73")
UNPLUGGED = WARN
UNPAIRED = MUTED

TONES: dict[str, RGBA] = {"text": TEXT, "muted": MUTED, "accent": ACCENT, "warn": WARN, "go": GO}
"""Colours a presenter may ask for by meaning (a headline's ``tone``), never by value."""

SEAT_COLOURS = game.SEAT_COLOURS
"""Five clearly different colours, one per seat, that read on a dark screen (players' data, as hex; the core's)."""

# -- drawing --------------------------------------------------------------------------------------
CIRCLE_SEGMENTS = 48
"""Segments of every drawn circle (an `Ellipse`'s ``segments``, a circle `Line`'s sixth value). Kivy's default is
about 180 (and a line has a round joint at each): under software GL a tap on Quinque's formation took 33 ms with
it, 21 ms with these (issue 26). At 48, a circle 150 px across is round to within a quarter of a pixel."""
