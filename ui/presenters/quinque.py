"""What the Quinque screen shows, and what a tap on it does: plain Python, tested without a window.

`present` turns the public view, the legal actions of the player on turn and
the screen's one piece of its own state (the tile chosen to move) into a
`QuinqueShown`: the cells of the formation with their looks, the players'
rows, the hint, the note on how tiles move, whether Skip is on. The screen
(`ui.screens.quinque`) lays those cells out in pixels and copies the rest
onto its widgets.

A tap goes back through the same `QuinqueShown`: `tap_skydiver`,
`tap_space` and `skip` answer with a `Tap`, the typed action to send (the
rules decide; a refusal's sentence reaches the banner) and the tile chosen
afterwards. What may be done comes from the legal actions, never from words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.game import Action, Outcome
from companion.games.quinque.board import CORNERS, Corner, Pos
from companion.games.quinque.rules import Add, Mark, Move, Skip
from companion.games.quinque.views import QuinqueView, Skydivers, how_tiles_move

CellKind = Literal["tile", "open", "space"]
"""A placed tile; a faint space where a tile may be added (with four skydivers to tap); an empty space."""


@dataclass(frozen=True)
class SkydiverShown:
    """One skydiver: free (a ring) or wearing a parachute in its owner's colour, with their initial."""

    corner: Corner
    seat: int | None = None  # whose parachute, as the index of a player; None while free
    initial: str = ""
    in_line: bool = False  # one of the five of the winning line: it glows


@dataclass(frozen=True)
class CellShown:
    """One cell of the grid: a tile, a faint open space, or an empty space a chosen tile may move to."""

    at: Pos
    kind: CellKind
    skydivers: tuple[SkydiverShown, ...] = ()  # four for a tile or an open space, none for an empty one
    chosen: bool = False  # the tile chosen to move
    movable: bool = False  # a tile that may move now
    outlined: bool = False  # a tile that may move, while none is chosen: outlined to say so
    lit: bool = False  # a space the chosen tile may move to
    stays: str | None = None  # why this tile cannot move now (the rules' sentence)


@dataclass(frozen=True)
class PlayerShown:
    """A player's row: their colour, name and what they have left."""

    name: str
    colour: str | None  # their own colour (``"#e53935"``), or None: the theme's colour for their seat
    counts: str
    active: bool


@dataclass(frozen=True)
class Tap:
    """What a tap does: the tile chosen afterwards, the action to send, a sentence for the banner."""

    chosen: Pos | None
    action: Action | None = None
    say: str | None = None  # None: the banner stays as it is; "" clears it
    error: bool = False


@dataclass(frozen=True)
class QuinqueShown:
    """Everything the Quinque screen shows at one moment."""

    cells: tuple[CellShown, ...]
    players: tuple[PlayerShown, ...]
    hint: str
    note: str
    can_skip: bool
    player: str | None  # who is on turn (None once the game is over)
    step: str  # "mark", "move" or "over"
    chosen: Pos | None = None
    line_ends: tuple[Pos, Pos] | None = None  # the winning line's first and last skydiver, to ring them
    left: int = 0  # the grid's first column and row, and its size in cells
    top: int = 0
    columns: int = 1
    rows: int = 1

    def cell(self, at: Pos) -> CellShown | None:
        return next((c for c in self.cells if c.at == at), None)

    # -- taps --------------------------------------------------------------------------------

    def tap_skydiver(self, at: Pos, corner: Corner) -> Tap:
        """In the mark step: mark that skydiver, or add its tile and mark it; a parachute's tap picks up its
        tile, since the first action may be a move. In the move step: its tile."""
        if self.step == "move":
            return self.tap_tile(at)
        if self.player is None:
            return Tap(chosen=None)
        cell = self.cell(at)
        if cell is not None and cell.kind == "tile":
            worn = cell.skydivers[CORNERS.index(corner)].seat is not None if cell.skydivers else False
            if worn and (cell.movable or self.chosen == at):
                return self.tap_tile(at)
            return Tap(chosen=None, action=Mark(self.player, at, corner))
        return Tap(chosen=None, action=Add(self.player, at, corner))

    def tap_tile(self, at: Pos) -> Tap:
        """Choose the tile to move, or let it go; a tile that cannot move says why."""
        cell = self.cell(at)
        if cell is None or cell.kind != "tile" or self.step == "over":
            return Tap(chosen=self.chosen)
        if self.chosen == at:
            return Tap(chosen=None)
        if not cell.movable:
            return Tap(chosen=None, say=cell.stays or "", error=bool(cell.stays))
        return Tap(chosen=at, say="")

    def tap_space(self, at: Pos) -> Tap:
        """Move the chosen tile to the space `at`: sent even if it is not lit, so the rules say why not."""
        if self.chosen is None or self.player is None:
            return Tap(chosen=None, say="Tap the tile you want to move first, then where it goes.")
        return Tap(chosen=None, action=Move(player=self.player, start=self.chosen, to=at))

    def skip(self) -> Tap:
        """End the turn without moving a tile."""
        if self.player is None:
            return Tap(chosen=None)
        return Tap(chosen=None, action=Skip(self.player))


# -- presenting --------------------------------------------------------------------------------



def empty_ring(tiles: Iterable[Pos]) -> set[Pos]:
    """The empty places around the tiles (beside them and corner to corner): where the move step shows spaces."""
    placed = set(tiles)
    return {(c + dc, r + dr) for c, r in placed for dc in (-1, 0, 1) for dr in (-1, 0, 1)} - placed

def present(
    view: QuinqueView,
    legal: Sequence[Action],
    *,
    chosen: Pos | None = None,
    outcome: Outcome | None = None,
    colours: Sequence[str] = (),
) -> QuinqueShown:
    """The screen for `view`, given what the player on turn may do (`legal`), the chosen tile and the outcome.

    `colours` are the players' own colours in seat order; when two are alike
    the seats' theme colours are shown instead, so parachutes stay apart.
    """
    names = [p.name for p in view.players]
    seats = {name: i for i, name in enumerate(names)}
    initials = _initials(names)
    moves: dict[Pos, set[Pos]] = {}
    for action in legal:
        if isinstance(action, Move):
            moves.setdefault(action.start, set()).add(action.to)
    opens = sorted({a.tile for a in legal if isinstance(a, Add)}, key=_row_major)
    if chosen not in moves:
        chosen = None  # the tile may not move any more (undo, the turn passed): let it go
    lit = moves.get(chosen, set()) if chosen is not None else set()
    line = set(view.line)

    def skydivers(at: Pos, owners: Skydivers | None) -> tuple[SkydiverShown, ...]:
        shown = []
        for i, corner in enumerate(CORNERS):
            owner = owners.at(corner) if owners is not None else None
            skydiver = (2 * at[0] + i % 2, 2 * at[1] + i // 2)
            seat = seats.get(owner) if owner else None
            shown.append(SkydiverShown(corner, seat, initials.get(owner, "") if owner else "", skydiver in line))
        return tuple(shown)

    tiles = {t.at: t for t in view.tiles}
    cells: list[CellShown] = []
    if (view.step == "move" or chosen is not None) and tiles:  # a tile chosen before the mark moves first
        cells += [CellShown(at, "space", lit=at in lit) for at in sorted(empty_ring(tiles), key=_row_major)]
    cells += [CellShown(at, "open", skydivers(at, None)) for at in opens if chosen is None]
    for at, tile in tiles.items():
        cells.append(
            CellShown(
                at,
                "tile",
                skydivers(at, tile.skydivers),
                chosen=at == chosen,
                movable=at in moves,
                outlined=at in moves and chosen is None,
                stays=tile.stays,
            )
        )
    spread = [c.at for c in cells] or [(0, 0)]
    left, top = min(c for c, _ in spread), min(r for _, r in spread)
    ends = sorted(line)  # a line runs left to right, or straight down: its ends sort first and last
    return QuinqueShown(
        cells=tuple(cells),
        players=_players(view, colours),
        hint=_hint(view, chosen, bool(moves), bool(opens), outcome),
        note=how_tiles_move(view.advanced),
        can_skip=any(isinstance(a, Skip) for a in legal),
        player=view.current,
        step=view.step,
        chosen=chosen,
        line_ends=(ends[0], ends[-1]) if ends else None,
        left=left,
        top=top,
        columns=max(c for c, _ in spread) - left + 1,
        rows=max(r for _, r in spread) - top + 1,
    )


def _players(view: QuinqueView, colours: Sequence[str]) -> tuple[PlayerShown, ...]:
    distinct = len(colours) == len(view.players) and len(set(colours)) == len(colours)
    return tuple(
        PlayerShown(
            name=p.name,
            colour=colours[i] if distinct else None,
            counts=f"{p.parachutes_left} parachutes · {p.tiles_left} tiles",
            active=p.name == view.current,
        )
        for i, p in enumerate(view.players)
    )


def _hint(view: QuinqueView, chosen: Pos | None, can_move: bool, can_add: bool, outcome: Outcome | None) -> str:
    """One line telling the player on turn what their taps do now."""
    if view.step == "over":
        return outcome.detail if outcome is not None else ""
    who = view.current
    if view.step == "mark":
        if not view.tiles:
            return f"{who}: tap a skydiver on the first tile to place it with a parachute."
        if chosen is not None:
            return "Tap a lit space to move the tile there, or the tile again to let it go."
        extra = ", or one in a faint space to add a tile" if can_add else ""
        first_move = ", or a parachute to move its tile" if can_move else ""
        return f"{who}: tap a free skydiver to give it a parachute{extra}{first_move}."
    if chosen is not None:
        return "Tap a lit space to move the tile there, or the tile again to let it go."
    if can_move:
        return f"{who}: tap a tile to move it (outlined ones can), or Skip."
    return f"{who}: no tile can move now; tap Skip."


def _initials(names: Sequence[str]) -> dict[str, str]:
    """A letter per player, shown on their parachutes (two letters if both names start alike)."""
    firsts = [n[:1].upper() for n in names]
    if len(set(firsts)) == len(firsts):
        return dict(zip(names, firsts, strict=True))
    return {n: n[:2].title() for n in names}


def _row_major(at: Pos) -> tuple[int, int]:
    return (at[1], at[0])
