"""Quark's numbers, and the game as the companion keeps it: counts, never cards.

Everything here is a fact of the table (how many energy tokens, which seat
plays next); the rules that change it are in `rules`, the words in `views`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from companion.game import Event
from companion.games.quark.scoring import Atom

# -- the numbers of the game -----------------------------------------------------

Rank = Literal["up", "down", "strange", "charmed", "bottom", "top"]
RANKS: tuple[Rank, ...] = ("up", "down", "strange", "charmed", "bottom", "top")
"""The ladder of quark ranks, lowest first."""

ANNIHILATION_ENERGY: Mapping[Rank, int] = {"up": 2, "down": 3, "strange": 4, "charmed": 5, "bottom": 6, "top": 8}
"""Energy a quark/anti-quark pair of each rank releases to the player who annihilates it."""

NEIGHBOUR_SHARE = 1
"""Energy each neighbour (left and right) takes from the bank when someone annihilates."""

ENERGY_TOKENS = 80
PROTON_TOKENS = 16
NEUTRON_TOKENS = 20
QUARK_CARDS = 88 + 33  # quark and anti-quark cards, shuffled together
BARYON_CARDS = 24
MESON_CARDS = 23
ROW = 3  # face-up cards beside each deck
START_HAND = 5
START_ENERGY = 2
ACTIONS_PER_TURN = 2
PAIR = 2  # the cards of a quark/anti-quark pair
HAND_LIMIT = 7
MAX_POINTS = 99  # a sanity bound on the points printed on one particle card

Particle = Literal["baryon", "meson", "proton", "neutron"]
PARTICLES: Mapping[Particle, int] = {"baryon": 3, "meson": 2, "proton": 3, "neutron": 3}
"""Each particle a player may create, and how many quark cards it uses."""

PARTICLE_CARDS: tuple[Particle, ...] = ("baryon", "meson")
"""The particles that are cards from a deck's face-up row, with points printed on them."""

PARTICLE_QUARKS: Mapping[Particle, tuple[Rank, ...]] = {
    "proton": ("up", "up", "down"),
    "neutron": ("up", "down", "down"),
}
"""The quarks of the atomic building blocks (baryons and mesons have theirs printed on the card)."""

DeckName = Literal["quark", "baryon", "meson"]
DECKS: tuple[DeckName, ...] = ("quark", "baryon", "meson")
CARDS_IN: Mapping[DeckName, int] = {"quark": QUARK_CARDS, "baryon": BARYON_CARDS, "meson": MESON_CARDS}
"""How many cards each deck of the game has: every one of them is always somewhere."""

Source = Literal["blind", "row"]
SOURCES: tuple[Source, ...] = ("blind", "row")
"""Where a drawn card comes from: the top of the deck, or the face-up row."""


PlayerCounter = Literal["energy", "protons", "neutrons", "particle_points", "hand"]
PLAYER_COUNTERS: tuple[PlayerCounter, ...] = ("energy", "protons", "neutrons", "particle_points", "hand")
"""A player's counters the table may correct."""

TableCounter = Literal["quark_deck", "quark_row", "baryon_deck", "baryon_row", "meson_deck", "meson_row"]
TABLE_COUNTERS: tuple[TableCounter, ...] = (
    "quark_deck",
    "quark_row",
    "baryon_deck",
    "baryon_row",
    "meson_deck",
    "meson_row",
)
"""The table's counters the table may correct: each deck's face-down cards and its face-up row."""

Counter = Literal[PlayerCounter, TableCounter]

COUNTER_WORDS: Mapping[str, str] = {
    "energy": "energy",
    "protons": "protons",
    "neutrons": "neutrons",
    "particle_points": "particle points",
    "hand": "hand",
    "quark_deck": "quark deck",
    "quark_row": "face-up quark cards",
    "baryon_deck": "baryon deck",
    "baryon_row": "face-up baryons",
    "meson_deck": "meson deck",
    "meson_row": "face-up mesons",
}
"""Each counter as the table says it: ``Ann's particle points``, ``the face-up baryons``."""

BANKED: Mapping[str, str] = {"energy": "bank_energy", "protons": "bank_protons", "neutrons": "bank_neutrons"}
"""The counters whose tokens come from, and go back to, the bank: the counter and its supply in `QuarkState`."""


def rank_name(rank: str) -> str:
    """``"charmed"`` -> ``"CHARMED"``: ranks as the cards print them."""
    return rank.upper()


# -- state -------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """One player's counts: their tokens, their cards (as counts) and their turns."""

    name: str
    energy: int = START_ENERGY
    protons: int = 0
    neutrons: int = 0
    particle_points: int = 0
    baryons: int = 0  # baryon cards created
    mesons: int = 0  # meson cards created
    hand: int = START_HAND
    decayed: int = 0  # cards decayed in front of the player (outside the hand limit)
    turns: int = 0  # turns finished
    gone: bool = False  # left the game: turns skipped, not scored

    @property
    def particles(self) -> int:
        """The baryon and meson cards created."""
        return self.baryons + self.mesons

    def cards_of(self, name: DeckName) -> int:
        """How many cards of deck `name` this player holds: the hand and decayed ones, or the created particles."""
        if name == "quark":
            return self.hand + self.decayed
        return self.baryons if name == "baryon" else self.mesons


@dataclass(frozen=True)
class Deck:
    """One deck's cards that are not a player's, as counts.

    Face down in the `deck`, face up in its `row`, on its `discard` pile (for
    the quark deck the discard pile of play; for the others the cards a
    correction took off the table), and `out` of the game with a player who left.
    """

    name: DeckName
    deck: int
    row: int = ROW
    discard: int = 0
    out: int = 0

    def has(self, source: Source) -> bool:
        """Whether a card can be taken from `source`."""
        return (self.deck if source == "blind" else self.row) > 0

    def after_taking(self, source: Source) -> Deck:
        """This deck once a card is taken from `source` (which must have one).

        A face-up card's gap in the row is refilled from the deck at once,
        while the deck lasts; after that the row shrinks.
        """
        if source == "blind" or self.deck > 0:
            return replace(self, deck=self.deck - 1)
        return replace(self, row=self.row - 1)


@dataclass(frozen=True)
class EndTrigger:
    """Who triggered the end of the game, and how: the last card of a deck, or the end atom."""

    by: str
    cause: Literal["deck", "atom"]
    deck: DeckName | None = None
    atom: str | None = None


@dataclass(frozen=True)
class QuarkState:
    """A game of Quark as the companion keeps it."""

    seats: tuple[Counts, ...]
    atoms: tuple[Atom, ...]
    decks: tuple[Deck, ...]
    bank_energy: int
    bank_protons: int = PROTON_TOKENS
    bank_neutrons: int = NEUTRON_TOKENS
    start: int = 0  # seat of the start player
    current: int = 0  # seat whose turn it is
    actions_left: int = ACTIONS_PER_TURN
    end: EndTrigger | None = None
    over: bool = False
    last: Event | None = None  # the last action's event (or turn end): what the table's notice is about
    unrefilled: DeckName | None = None  # the deck whose face-up row that action could not refill

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def names_in(self) -> tuple[str, ...]:
        """The players who have not left, in seat order."""
        return tuple(s.name for s in self.seats if not s.gone)

    def seat_of(self, name: str) -> int:
        return self.names.index(name)

    def deck(self, name: DeckName) -> Deck:
        return self.decks[DECKS.index(name)]

    @property
    def discard(self) -> int:
        """The quark discard pile: where used, annihilated and discarded quark cards go."""
        return self.deck("quark").discard

    def cards_counted(self, name: DeckName) -> int:
        """Every card of deck `name` the companion counts, wherever it is: always the game's total of that deck."""
        deck = self.deck(name)
        return deck.deck + deck.row + deck.discard + deck.out + sum(s.cards_of(name) for s in self.seats)


def neighbours(names: Sequence[str], seat: int) -> tuple[str, ...]:
    """Who sits beside `seat`: left (plays next) then right; one neighbour with two players."""
    count = len(names)
    left, right = names[(seat + 1) % count], names[(seat - 1) % count]
    return (left,) if left == right else (left, right)


def turns_left(state: QuarkState) -> tuple[str, ...]:
    """After the end is triggered: whose turns remain (the current one first) before play reaches the start player."""
    if state.end is None or state.over:
        return ()
    count = len(state.seats)
    remaining = (state.start - state.current - 1) % count + 1
    # Until play comes round to the start seat again (even if its player left); the gone are skipped.
    seats = (state.seats[(state.current + i) % count] for i in range(remaining))
    return tuple(s.name for s in seats if not s.gone)
