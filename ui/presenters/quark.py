"""What the Quark screen shows, and the actions its taps send: plain Python, tested without a window.

`present` turns Quark's public view into a `QuarkShown`: the live table's
rows, the supplies, the warnings, whose turn and how far into it, and at the
end the scores. The details popups ask here too: which ranks an annihilation
offers, what a creation would cost before it is confirmed (`preview_creation`
asks the rules, never guesses), and what the hand count at the end of a turn
means, and what a correction would do before it is saved. Every tap becomes
a typed action of `companion.games.quark.rules`.

Colours are asked for by meaning (``note_tone``) or are the players' own
(their hex colour from the session's options); the theme paints them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.game import TIE
from companion.games.quark import views
from companion.games.quark.rules import (
    Annihilate,
    Correct,
    Create,
    Decay,
    DiscardDraw,
    Draw,
    EndTurn,
    Transform,
    plural,
)
from companion.games.quark.scoring import Atom
from companion.games.quark.state import (
    COUNTER_WORDS,
    DECKS,
    HAND_LIMIT,
    PAIR,
    PARTICLE_CARDS,
    PARTICLES,
    PLAYER_COUNTERS,
    SOURCES,
    TABLE_COUNTERS,
    Source,
)
from companion.games.quark.views import PlayerSeen, QuarkView, ScoreSeen
from ui.presenters import on_screen

if TYPE_CHECKING:
    from companion.games.quark.state import QuarkState
    from companion.games.quark.views import QuarkOwnView
    from companion.session import Session

    QuarkSession = Session[QuarkState, QuarkView, QuarkOwnView]


# -- the live table and the scores ---------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRow:
    """One player's line in the live table (numbers as the cells show them)."""

    name: str
    colour: str | None  # the player's own colour (hex), or None: the theme's text colour
    energy: str
    protons: str
    neutrons: str
    particles: str
    hand: str
    decayed: str  # "+2 decayed", or "" with none
    score: str
    atom: str  # the atom they would build if it ended now, or ""
    current: bool
    gone: bool = False  # left the game: listed, greyed, never scored


@dataclass(frozen=True)
class ScoreRow:
    """One player's line on the scoring screen."""

    name: str
    colour: str | None
    particles: str
    atom: str  # "Lithium 90" or "no atom"
    leftover: str
    total: str
    winner: bool = False


@dataclass(frozen=True)
class AtomLine:
    """One atom of the table's atom table, and where its points come from."""

    text: str
    note: str = ""  # e.g. "(from your config file)"
    note_tone: str = ""  # "warn" for points that are only our default; "" for the line's own colour


@dataclass(frozen=True)
class RankChoice:
    """One button of the annihilation popup."""

    rank: str
    text: str  # "TOP   +8 energy"


@dataclass(frozen=True)
class QuarkShown:
    """Everything the Quark screen shows at one moment."""

    over: bool
    player: str  # whose turn it is ("" once the game is over): every popup acts for them
    actions_left: int
    turn_text: str
    warning: str
    supplies: str
    decks: str
    rows: tuple[PlayerRow, ...]
    quark_deck: int  # cards face down and face up beside the quark deck, for the draw popups
    quark_row: int
    hand: int  # the current player's cards by our count: the end-of-turn popup starts from it
    decayed: int  # the current player's decayed cards
    ranks: tuple[str, ...]  # the ladder, lowest first
    rank_choices: tuple[RankChoice, ...]
    verdict: str = ""
    scores: tuple[ScoreRow, ...] = ()
    atoms: tuple[AtomLine, ...] = ()
    counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # by whose ("" the table's), by counter

    @property
    def correctable(self) -> tuple[tuple[str, str], ...]:
        """``(whose, words)`` for the correction popup: each player still in, then the table (``""``)."""
        return (*((name, name) for name in self.counts if name), (TABLE, "Table"))

    @property
    def annihilate_decayed_most(self) -> int:
        """How many of a pair's cards may come from the decayed ones."""
        return min(PAIR, self.decayed)

    @property
    def create_decayed_most(self) -> int:
        """How many of a creation's cards may come from the decayed ones."""
        return min(max(PARTICLES.values()), self.decayed)

    @property
    def transform_sources(self) -> tuple[str, ...]:
        """Ranks a card may be turned from: a card turns upward only, so never the top one."""
        return self.ranks[:-1]

    @property
    def transform_targets(self) -> tuple[str, ...]:
        """Ranks a card may be turned into: never the lowest."""
        return self.ranks[1:]


def present(view: QuarkView, colours: Mapping[str, str] | None = None) -> QuarkShown:
    """The public `view` as the screen shows it; `colours` are the players' own, by name."""
    colours = colours or {}
    # A game ended by players leaving may still name whose turn it was: once over, nobody's.
    current = "" if view.over else view.current or ""
    me = next((p for p in view.players if p.name == current), None)
    bank, decks = view.bank, view.decks
    supplies = f"Bank: {bank.energy} energy · {bank.protons} protons · {bank.neutrons} neutrons"
    if view.bank_empty:
        supplies += "  (the energy bank is empty)"
    warnings = [view.end.sentence] if view.end else []
    warnings += [text for text in (view.reminder, view.notice) if text]
    energy = view.annihilation_energy
    shown = QuarkShown(
        over=view.over,
        player=current,
        actions_left=view.actions_left,
        turn_text=_turn_text(current, view.actions_left),
        warning="  ".join(warnings),
        supplies=supplies,
        decks=";  ".join(deck_words(name, decks[name].deck, decks[name].row) for name in DECKS),
        rows=tuple(_row(p, colours.get(p.name), p.name == current) for p in view.players),
        quark_deck=decks["quark"].deck,
        quark_row=decks["quark"].row,
        hand=me.hand if me else 0,
        decayed=me.decayed if me else 0,
        ranks=view.ranks,
        rank_choices=tuple(RankChoice(r, f"{r.upper()}   +{energy[r]} energy") for r in view.ranks),
        counts=_counts(view),
    )
    if not shown.over:
        return shown
    return _with_scores(shown, view, colours)


def deck_words(name: str, deck: int, row: int) -> str:
    """``Quark deck 103 · 3 face up``: a deck's cards face down, and its row of face-up cards beside it."""
    return f"{name.capitalize()} deck {deck} · {row} face up"


def _counts(view: QuarkView) -> dict[str, dict[str, int]]:
    """Every counter a correction may set, as the view has it: each player still in's, then the table's.

    A counter is named as the `Correct` action names it, which is the view's field (``"particle_points"``) or
    a deck's and its place (``"quark_row"``).
    """
    counts: dict[str, dict[str, int]] = {
        p.name: {counter: int(getattr(p, counter)) for counter in PLAYER_COUNTERS} for p in view.players if not p.gone
    }
    decks = view.decks
    counts[TABLE] = {
        counter: int(getattr(decks[counter.split("_")[0]], counter.split("_")[1])) for counter in TABLE_COUNTERS
    }
    return counts


def _turn_text(current: str, left: int) -> str:
    """The top bar says whose turn it is; this also says how far into the turn they are."""
    if not current:
        return "Game over"
    if left:
        return f"{current} to play: {plural(left, 'action')} left"
    return f"{current}: both actions taken, end the turn"


def _row(player: PlayerSeen, colour: str | None, current: bool) -> PlayerRow:
    decayed = player.decayed
    return PlayerRow(
        name=player.name,
        colour=colour,
        energy=str(player.energy),
        protons=str(player.protons),
        neutrons=str(player.neutrons),
        particles=str(player.particle_points),
        hand=str(player.hand),
        decayed=f"+{decayed} decayed" if decayed else "",
        score="left" if player.gone else str(player.score_now),
        atom="" if player.gone else player.atom_now or "",
        current=current,
        gone=player.gone,
    )


def _with_scores(shown: QuarkShown, view: QuarkView, colours: Mapping[str, str]) -> QuarkShown:
    outcome = view.outcome
    winners = set(outcome.winners) if outcome else set()
    detail = outcome.detail if outcome else ""
    scores = tuple(_score_row(entry, colours.get(entry.player), entry.player in winners) for entry in view.scores)
    return replace(
        shown,
        verdict=f"A tie: {detail}" if outcome is not None and outcome.termination is TIE else detail,
        scores=scores,
        atoms=tuple(_atom_line(atom) for atom in view.atoms),
    )


def _score_row(entry: ScoreSeen, colour: str | None, winner: bool) -> ScoreRow:
    if entry.left:  # a player who left is listed, never scored
        return ScoreRow(name=entry.player, colour=colour, particles="", atom="left", leftover="", total="–")
    return ScoreRow(
        name=entry.player,
        colour=colour,
        particles=str(entry.particle_points),
        atom=f"{entry.atom.name} {entry.atom.points}" if entry.atom else "no atom",
        leftover=str(entry.leftover_energy),
        total=str(entry.total),
        winner=winner,
    )


def _atom_line(atom: Atom) -> AtomLine:
    text = (
        f"{atom.name} ({plural(atom.protons, 'proton')}, {plural(atom.neutrons, 'neutron')}, "
        f"{atom.electrons} energy): {atom.points} points"
    )
    if atom.points_from == "default":
        return AtomLine(text, "(our default: set it from your Atom cards)", "warn")
    if atom.points_from == "config":
        return AtomLine(text, "(from your config file)")
    return AtomLine(text)


# -- the taps --------------------------------------------------------------------------------------


def _source(word: str) -> Source:
    return next(source for source in SOURCES if source == word)


def draw(player: str, source: str) -> Draw:
    """A draw from `source`: ``"blind"`` or ``"row"``."""
    return Draw(player, _source(source))


def discard_draw(player: str, first: str, second: str) -> DiscardDraw:
    """Discard one, then draw from `first` and `second` (each ``"blind"`` or ``"row"``)."""
    return DiscardDraw(player, (_source(first), _source(second)))


def decay(player: str) -> Decay:
    return Decay(player)


def annihilate(player: str, rank: str, decayed: int = 0) -> Annihilate:
    return Annihilate(player, rank, int(decayed))


def end_turn(player: str) -> EndTurn:
    """The end of the turn (a wrong hand count is put right with a correction first)."""
    return EndTurn(player)


# -- the creation popup ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Creation:
    """What the creation popup has chosen so far ("" where nothing is chosen yet)."""

    particle: str = ""
    points: int = 0
    source: str = ""  # turn a card from this rank...
    target: str = ""  # ...into this one
    decayed: int = 0

    @property
    def has_points(self) -> bool:
        """Whether the particle is a card with points printed on it (a baryon or a meson)."""
        return self.particle in PARTICLE_CARDS

    def action(self, player: str) -> Create:
        """The create action these choices make (the particle must be chosen)."""
        particle = next(p for p in PARTICLES if p == self.particle)
        transform = Transform(self.source, self.target) if self.source or self.target else None
        points = int(self.points) if self.has_points else None
        return Create(player, particle, points=points, transform=transform, decayed=int(self.decayed))


@dataclass(frozen=True)
class Preview:
    """What a creation would do, in one sentence, and whether it may be confirmed."""

    text: str
    allowed: bool


CHOOSE_A_PARTICLE = Preview("Choose what to create.", False)
TRANSFORM_BOTH_ENDS = Preview("A transformation needs a card to turn (from) and what it becomes (to).", False)


def preview_creation(session: QuarkSession, player: str, creation: Creation) -> Preview:
    """The rules' answer before the player confirms: the refusal, or what the creation does and costs."""
    if creation.particle not in PARTICLES:
        return CHOOSE_A_PARTICLE
    if bool(creation.source) != bool(creation.target):
        return TRANSFORM_BOTH_ENDS
    action = creation.action(player)
    refusal = session.refusal(action)
    if refusal is not None:
        return Preview(refusal, False)
    # Quark's rules answer "what would this do" (the engine's entry knows only the shared questions).
    events = session.game.rules.preview(session.state, action)  # type: ignore[attr-defined]
    return Preview(views.describe(events[0], session.state.atoms) if events else "", True)


# -- the end-of-turn popup ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandCheck:
    """The hand count at the end of a turn, against the limit."""

    reminder: str
    over_limit: bool


def hand_check(hand: int) -> HandCheck:
    """What the end-of-turn popup says about `hand` cards."""
    over = int(hand) - HAND_LIMIT
    if over > 0:
        return HandCheck(
            f"Over the limit: discard {plural(over, 'card')} down to {HAND_LIMIT}, then end the turn.", True
        )
    return HandCheck(f"{plural(int(hand), 'card')} in hand: within the limit of {HAND_LIMIT}.", False)


def ranks_text(ranks: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """``(rank, words)`` pairs for a row of rank toggles: ``("up", "UP")``."""
    return tuple((rank, rank.upper()) for rank in ranks)


# -- the correction popup ---------------------------------------------------------------------------------

TABLE = ""
"""Whose counters the decks and rows are: the table's, not a player's."""

COUNTER_BUTTONS: Mapping[str, str] = {
    "energy": "Energy",
    "protons": "Protons",
    "neutrons": "Neutrons",
    "particle_points": "Particle pts",
    "hand": "Hand",
    "quark_deck": "Quark deck",
    "quark_row": "Face-up quarks",
    "baryon_deck": "Baryon deck",
    "baryon_row": "Face-up baryons",
    "meson_deck": "Meson deck",
    "meson_row": "Face-up mesons",
}
"""Each counter's words on its button (short: six share a row; the rows say "face-up" as the supplies line does,
since "Quarks up" read as the up quark)."""


def counter_choices(whose: str) -> tuple[tuple[str, str], ...]:
    """``(counter, words)`` for the counters of `whose`: a player's, or the table's decks and rows."""
    counters = PLAYER_COUNTERS if whose else TABLE_COUNTERS
    return tuple((counter, COUNTER_BUTTONS[counter]) for counter in counters)


@dataclass(frozen=True)
class Correction:
    """What the correction popup has chosen: whose counter ("" the table's), which, and its new value."""

    whose: str = TABLE
    counter: str = ""
    value: int = 0

    def action(self) -> Correct:
        counter = next(c for c in (*PLAYER_COUNTERS, *TABLE_COUNTERS) if c == self.counter)
        return Correct(counter, int(self.value), self.whose or None)

    def words(self) -> str:
        """``Ann's energy``, ``the quark deck``."""
        return f"{self.whose}'s {COUNTER_WORDS[self.counter]}" if self.whose else f"the {COUNTER_WORDS[self.counter]}"


def choose(shown: QuarkShown, whose: str, counter: str) -> Correction:
    """A new choice of whose and which counter: its value starts at our count (the first counter if it has none)."""
    counters = [c for c, _words in counter_choices(whose)]
    counter = counter if counter in counters else counters[0]
    return Correction(whose, counter, int(shown.counts.get(whose, {}).get(counter, 0)))


def preview_correction(session: QuarkSession, shown: QuarkShown, correction: Correction) -> Preview:
    """The rules' answer before the table saves it: the refusal, or the correction as the log will say it."""
    was = shown.counts.get(correction.whose, {}).get(correction.counter)
    if was is None:
        return Preview("Choose whose count to correct, and which.", False)
    if int(correction.value) == was:
        return Preview(f"{_capital(correction.words())} is {was} by our count: set what the table has.", False)
    action = correction.action()
    refusal = session.refusal(action)
    if refusal is not None:
        return Preview(refusal, False)
    events = session.game.rules.preview(session.state, action)  # type: ignore[attr-defined]
    return Preview(on_screen(views.describe(events[0], session.state.atoms)) if events else "", True)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
