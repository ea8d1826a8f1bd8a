"""Quark: the companion keeps the table's counts and scores the end.

The cards stay physical: which quark a player holds, and its rank, is on the
card in their hand. The companion keeps what the table would otherwise keep
in tokens and heads: each player's energy, protons, neutrons and particle
points, the finite supplies (80 energy, 16 protons, 20 neutrons), the three
decks as counts with their face-up rows of three, how many cards each player
holds and has decayed, the two actions of each turn, the end of the game and
the final score. When a card's rank matters (annihilating, transforming) the
player says it.

Seating: players sit in session order, clockwise. A player's left neighbour
is the next seat (who plays after them), the right neighbour the seat before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import Dice
from companion.game import (
    Action,
    Event,
    Options,
    Outcome,
    Reason,
    RuleError,
    SetupError,
    View,
    action_type,
    first_player_chosen,
    require,
)

# -- the numbers of the game -----------------------------------------------------

RANKS: tuple[str, ...] = ("up", "down", "strange", "charmed", "bottom", "top")
"""The ladder of quark ranks, lowest first."""

ANNIHILATION_ENERGY: Mapping[str, int] = {"up": 2, "down": 3, "strange": 4, "charmed": 5, "bottom": 6, "top": 8}
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
HAND_LIMIT = 7
MAX_POINTS = 99  # a sanity bound on the points printed on one particle card

PARTICLES: Mapping[str, int] = {"baryon": 3, "meson": 2, "proton": 3, "neutron": 3}
"""Each particle a player may create, and how many quark cards it uses."""

PARTICLE_QUARKS: Mapping[str, tuple[str, ...]] = {"proton": ("up", "up", "down"), "neutron": ("up", "down", "down")}
"""The quarks of the atomic building blocks (baryons and mesons have theirs printed on the card)."""

DECKS: tuple[str, ...] = ("quark", "baryon", "meson")

SOURCES: tuple[str, ...] = ("blind", "row")
"""Where a drawn quark card comes from: the top of the deck, or the face-up row."""


@dataclass(frozen=True)
class Atom:
    """One Atom card: what it takes to build and what it scores.

    `points_from` says where the points come from: ``"rules"`` (printed in the
    rules text), ``"default"`` (our guess, to be checked against the table's
    Atom cards) or ``"config"`` (set by the table in the config file).
    """

    name: str
    protons: int
    neutrons: int
    electrons: int
    points: int
    points_from: str = "config"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "protons": self.protons,
            "neutrons": self.neutrons,
            "electrons": self.electrons,
            "points": self.points,
            "points_from": self.points_from,
        }


DEFAULT_ATOMS: tuple[Atom, ...] = (
    Atom("Hydrogen", 1, 0, 1, 10, "default"),
    Atom("Helium", 2, 2, 2, 40, "default"),
    Atom("Lithium", 3, 4, 3, 90, "rules"),
    Atom("Beryllium", 4, 5, 4, 160, "default"),
)
"""The atom table (see RULINGS): Lithium's 90 points are in the rules, the other points are ours."""

END_ATOM_SMALL_TABLE = "Beryllium"  # creating it ends a 2 or 3-player game
END_ATOM_FULL_TABLE = "Lithium"  # creating it ends a 4-player game


def end_atom_name(players: int) -> str:
    """The atom whose creation triggers the end for this many players."""
    return END_ATOM_FULL_TABLE if players >= 4 else END_ATOM_SMALL_TABLE


def rank_name(rank: str) -> str:
    """``"charmed"`` -> ``"CHARMED"``: ranks as the cards print them."""
    return rank.upper()


def transformation_cost(source: str, target: str) -> int:
    """Energy to turn a `source` quark into a `target` one: 1 per step up the ladder.

    Raises `RuleError` for an unknown rank or a step that is not upward.
    """
    source, target = _rank(source, "transform.from"), _rank(target, "transform.to")
    steps = RANKS.index(target) - RANKS.index(source)
    require(
        steps > 0,
        f"A quark transforms up the ladder only ({' < '.join(map(rank_name, RANKS))}); "
        f"{rank_name(source)} to {rank_name(target)} is not a step up.",
    )
    return steps


# -- state -------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """One player's counts: their tokens, their cards (as counts) and their turns."""

    name: str
    energy: int = START_ENERGY
    protons: int = 0
    neutrons: int = 0
    particle_points: int = 0
    particles: int = 0  # baryon and meson cards created
    hand: int = START_HAND
    decayed: int = 0  # cards decayed in front of the player (outside the hand limit)
    turns: int = 0  # turns finished


@dataclass(frozen=True)
class Deck:
    """A draw deck as counts: cards face down, and cards face up in its row."""

    name: str
    deck: int
    row: int = ROW


@dataclass(frozen=True)
class EndTrigger:
    """Why and during whose turn the end of the game was triggered."""

    by: str
    cause: str  # "deck" or "atom"
    sentence: str


@dataclass(frozen=True)
class QuarkState:
    """A game of Quark as the companion keeps it."""

    seats: tuple[Seat, ...]
    atoms: tuple[Atom, ...]
    decks: tuple[Deck, ...]
    bank_energy: int
    bank_protons: int = PROTON_TOKENS
    bank_neutrons: int = NEUTRON_TOKENS
    discard: int = 0
    start: int = 0  # seat of the start player
    current: int = 0  # seat whose turn it is
    actions_left: int = ACTIONS_PER_TURN
    moved: bool = False  # any move made yet (choose_first is refused after)
    end: EndTrigger | None = None
    over: bool = False
    notice: str = ""  # one sentence about the last action (bank ran dry, deck empty)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def seat_of(self, name: str) -> int:
        return self.names.index(name)

    def deck(self, name: str) -> Deck:
        return self.decks[DECKS.index(name)]


@dataclass(frozen=True)
class Score:
    """What one player scores if the game ends now."""

    player: str
    particle_points: int
    atom: Atom | None
    leftover_energy: int

    @property
    def atom_points(self) -> int:
        return self.atom.points if self.atom else 0

    @property
    def total(self) -> int:
        return self.particle_points + self.atom_points + self.leftover_energy

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "particle_points": self.particle_points,
            "atom": self.atom.to_json() if self.atom else None,
            "atom_points": self.atom_points,
            "leftover_energy": self.leftover_energy,
            "total": self.total,
        }


def best_atom(protons: int, neutrons: int, energy: int, atoms: Sequence[Atom]) -> Atom | None:
    """The one atom worth most (its points plus the energy it leaves over), or None.

    An atom needs its protons and neutrons, and one energy per electron. Only
    one atom is built; the energy it does not use scores 1 point each.
    """
    buildable = [a for a in atoms if a.protons <= protons and a.neutrons <= neutrons and a.electrons <= energy]
    if not buildable:
        return None
    best = max(buildable, key=lambda a: (a.points - a.electrons, a.points))
    # Building nothing keeps every energy token as a point: an atom must beat that.
    return best if best.points - best.electrons > 0 else None


def score(seat: Seat, atoms: Sequence[Atom]) -> Score:
    """`seat`'s score if the game ended now."""
    atom = best_atom(seat.protons, seat.neutrons, seat.energy, atoms)
    leftover = seat.energy - (atom.electrons if atom else 0)
    return Score(seat.name, seat.particle_points, atom, leftover)


# -- setup ---------------------------------------------------------------------------------


def atoms_from_settings(settings: Mapping[str, Any]) -> tuple[Atom, ...]:
    """The atom table: our defaults, with the config's ``atoms`` entries over them.

    An entry is ``Name = [protons, neutrons, electrons, points]`` (as in the
    config file) or a table with any of those four keys (for a known atom).
    Raises `SetupError` naming the key at fault.
    """
    table = {a.name: a for a in DEFAULT_ATOMS}
    given = settings.get("atoms", {})
    if not isinstance(given, Mapping):
        raise SetupError(
            f"Quark setting atoms must be a table of atoms, like Lithium = [3, 4, 3, 90]; it is {given!r}."
        )
    for name, value in given.items():
        key = f"atoms.{name}"
        if not isinstance(name, str) or not name.strip():
            raise SetupError(f"Quark setting atoms has an atom without a name ({name!r}).")
        default = table.get(name)
        fields = ("protons", "neutrons", "electrons", "points")
        if isinstance(value, list | tuple):
            if len(value) != 4:
                raise SetupError(
                    f"Quark setting {key} must be four whole numbers [protons, neutrons, electrons, points], "
                    f"like [3, 4, 3, 90]; it is {value!r}."
                )
            numbers = dict(zip(fields, value, strict=True))
        elif isinstance(value, Mapping):
            unknown = sorted(set(map(str, value)) - set(fields))
            if unknown:
                raise SetupError(f"Quark setting {key} has unknown keys {unknown}; the keys are {', '.join(fields)}.")
            if default is None and set(value) != set(fields):
                raise SetupError(f"Quark setting {key} is a new atom, so it needs all of {', '.join(fields)}.")
            numbers = {f: value.get(f, getattr(default, f, 0)) for f in fields}
        else:
            raise SetupError(
                f"Quark setting {key} must be [protons, neutrons, electrons, points], like [3, 4, 3, 90]; "
                f"it is {value!r}."
            )
        for field_name, number in numbers.items():
            if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= 999:
                raise SetupError(
                    f"Quark setting {key}: {field_name} must be a whole number from 0 to 999; it is {number!r}."
                )
        if numbers["protons"] < 1:
            raise SetupError(f"Quark setting {key}: an atom needs at least one proton.")
        same_as_default = default is not None and all(getattr(default, f) == numbers[f] for f in fields)
        source = default.points_from if same_as_default and default is not None else "config"
        table[name] = Atom(
            name, numbers["protons"], numbers["neutrons"], numbers["electrons"], numbers["points"], source
        )
    return tuple(sorted(table.values(), key=lambda a: (a.points, a.protons, a.name)))


def _setup(options: Options) -> QuarkState:
    names = options.names
    if not 2 <= len(names) <= 4:
        raise SetupError(f"Quark is for 2 to 4 players; {len(names)} are seated.")
    unknown = sorted(set(options.settings) - {"atoms"})
    if unknown:
        raise SetupError(f"Unknown Quark setting {', '.join(unknown)}; the one setting is atoms.")
    atoms = atoms_from_settings(options.settings)
    decks = (
        Deck("quark", QUARK_CARDS - START_HAND * len(names) - ROW),
        Deck("baryon", BARYON_CARDS - ROW),
        Deck("meson", MESON_CARDS - ROW),
    )
    return QuarkState(
        seats=tuple(Seat(n) for n in names),
        atoms=atoms,
        decks=decks,
        bank_energy=ENERGY_TOKENS - START_ENERGY * len(names),
    )


# -- reading actions ---------------------------------------------------------------------------


def _rank(value: Any, key: str = "rank") -> str:
    if isinstance(value, str) and value.strip().lower() in RANKS:
        return value.strip().lower()
    if isinstance(value, str) and value.strip().lower() == "charm":
        return "charmed"
    raise RuleError(f'"{key}" must be one of {", ".join(RANKS)}; it is {value!r}.')


def _whole(action: Action, key: str, low: int, high: int, default: int | None = None) -> int:
    value = action.get(key, default)
    if value is None:
        raise RuleError(f'This action needs "{key}": a whole number from {low} to {high}.')
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(f'"{key}" must be a whole number from {low} to {high}; it is {value!r}.')
    return value


def _player(state: QuarkState, action: Action, key: str = "player") -> str:
    name = action.get(key)
    if not isinstance(name, str):
        raise RuleError(f'This action needs "{key}": the name of a player ({", ".join(state.names)}).')
    require(name in state.names, f"{name} is not playing; the players are {', '.join(state.names)}.")
    return name


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _cards(seat: Seat, needed: int, from_decayed: int, what: str) -> None:
    """Refuse unless `seat` has the cards: `from_decayed` decayed ones, the rest from the hand."""
    from_hand = needed - from_decayed
    require(
        seat.decayed >= from_decayed,
        f"{seat.name} has {_plural(seat.decayed, 'decayed card')} in front of them; "
        f"{what} names {from_decayed} from there.",
    )
    require(
        seat.hand >= from_hand,
        f"{seat.name} holds {_plural(seat.hand, 'card')} by our count; {what} needs {from_hand} from the hand. "
        f"If the count is wrong, correct it with the hand count.",
    )


# -- deciding ------------------------------------------------------------------------------------


def _decide(state: QuarkState, action: Action) -> list[Event]:
    kind = action_type(action)
    if state.over:
        raise RuleError("The game is over; the scores are final.")
    if kind == "choose_first":
        return _choose_first(state, action)
    if kind == "count_hand":
        player = _player(state, action)
        seat = state.seats[state.seat_of(player)]
        cards = _whole(action, "cards", 0, QUARK_CARDS)
        return [{"type": "hand_counted", "player": player, "was": seat.hand, "cards": cards}]
    handlers = {
        "draw": _draw,
        "discard_draw": _discard_draw,
        "decay": _decay,
        "annihilate": _annihilate,
        "create": _create,
        "end_turn": _end_turn,
    }
    if kind not in handlers:
        raise RuleError(
            f"Quark has no action {kind!r}; the actions are choose_first, draw, discard_draw, decay, "
            "annihilate, create, end_turn and count_hand."
        )
    player = _player(state, action)
    turn = state.seats[state.current].name
    require(player == turn, f"It is {turn}'s turn, not {player}'s.")
    if kind != "end_turn":
        require(
            state.actions_left > 0,
            f"{player} has taken both actions of this turn; end the turn.",
        )
    return _with_atom_trigger(state, handlers[kind](state, action))


def _choose_first(state: QuarkState, action: Action) -> list[Event]:
    require(not state.moved, "The start player is chosen before the first move; the game is already under way.")
    return [first_player_chosen(action, state.names)]


def _source(value: Any) -> str:
    if isinstance(value, str) and value in SOURCES:
        return str(value)
    raise RuleError(f'A draw is "from": "blind" (the quark deck) or "row" (a face-up card); it is {value!r}.')


def _check_draws(state: QuarkState, sources: Sequence[str]) -> tuple[list[str], bool]:
    """Refuse draws the quark deck and row cannot give; return notices and whether the deck ran out."""
    quark = state.deck("quark")
    deck, row = quark.deck, quark.row
    notices: list[str] = []
    emptied = False
    for source in sources:
        if source == "blind":
            require(
                deck > 0,
                "The quark deck is empty; draw a face-up card instead."
                if row
                else "The quark deck and its face-up row are both empty: there is nothing to draw.",
            )
            deck -= 1
            emptied = emptied or deck == 0
        else:
            require(
                row > 0,
                "There is no face-up quark card left; draw blind instead."
                if deck
                else "The quark deck and its face-up row are both empty: there is nothing to draw.",
            )
            if deck:
                deck -= 1  # the gap in the row is refilled from the deck
                emptied = emptied or deck == 0
            else:
                row -= 1
                notices.append("The quark deck is empty, so the face-up row is not refilled.")
    return notices, emptied


def _deck_trigger(state: QuarkState, player: str, deck: str) -> list[Event]:
    if state.end is not None:
        return []
    sentence = f"The last card of the {deck} deck was drawn"
    return [{"type": "end_triggered", "by": player, "cause": "deck", "deck": deck, "sentence": sentence}]


def _draw(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    source = _source(action.get("from", "blind"))
    notices, emptied = _check_draws(state, [source])
    event: dict[str, Any] = {"type": "drew", "player": player, "from": source}
    if notices:
        event["notice"] = " ".join(notices)
    return [event, *(_deck_trigger(state, player, "quark") if emptied else [])]


def _discard_draw(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    raw = action.get("from", ["blind", "blind"])
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise RuleError('Discard one, draw two: "from" lists the two draws, like ["row", "blind"].')
    sources = [_source(s) for s in raw]
    seat = state.seats[state.current]
    require(seat.hand >= 1, f"{player} holds no card by our count, so there is nothing to discard.")
    notices, emptied = _check_draws(state, sources)
    event: dict[str, Any] = {"type": "discarded_and_drew", "player": player, "from": sources}
    if notices:
        event["notice"] = " ".join(dict.fromkeys(notices))
    return [event, *(_deck_trigger(state, player, "quark") if emptied else [])]


def _decay(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    seat = state.seats[state.current]
    require(seat.hand >= 1, f"{player} holds no card by our count, so there is nothing to decay.")
    energy = 1 if state.bank_energy > 0 else 0
    event: dict[str, Any] = {"type": "decayed", "player": player, "energy": energy}
    if not energy:
        event["notice"] = f"The energy bank is empty: {player}'s decay releases no energy token."
    return [event]


def neighbours(names: Sequence[str], seat: int) -> tuple[str, ...]:
    """Who sits beside `seat`: left (plays next) then right; one neighbour with two players."""
    count = len(names)
    left, right = names[(seat + 1) % count], names[(seat - 1) % count]
    return (left,) if left == right else (left, right)


def _annihilate(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    rank = _rank(action.get("rank"))
    from_decayed = _whole(action, "decayed", 0, 2, 0)
    seat = state.seats[state.current]
    _cards(seat, 2, from_decayed, "annihilating a pair")
    bank = state.bank_energy
    wanted = [(player, ANNIHILATION_ENERGY[rank])] + [
        (n, NEIGHBOUR_SHARE) for n in neighbours(state.names, state.current)
    ]
    paid: dict[str, int] = {}
    for name, amount in wanted:
        paid[name] = min(amount, bank)
        bank -= paid[name]
    short = sum(a for _, a in wanted) - sum(paid.values())
    quark = state.deck("quark")
    drew = quark.deck > 0
    event: dict[str, Any] = {
        "type": "annihilated",
        "player": player,
        "rank": rank,
        "decayed": from_decayed,
        "paid": paid,
        "short": short,
        "drew": drew,
    }
    notices = []
    if short:
        got = ", ".join(f"{n} {paid[n]} of {a}" for n, a in wanted)
        notices.append(f"The energy bank ran dry: payments stopped at what was left ({got}).")
    if not drew:
        notices.append(f"The quark deck is empty, so {player} draws no card.")
    if notices:
        event["notice"] = " ".join(notices)
    return [event, *(_deck_trigger(state, player, "quark") if drew and quark.deck == 1 else [])]


def _create(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    particle = action.get("particle")
    if not isinstance(particle, str) or particle not in PARTICLES:
        raise RuleError(f'"particle" must be one of {", ".join(PARTICLES)}; it is {particle!r}.')
    seat = state.seats[state.current]
    needed = PARTICLES[particle]
    from_decayed = _whole(action, "decayed", 0, needed, 0)
    if particle in ("baryon", "meson"):
        deck = state.deck(particle)
        require(deck.row > 0, f"There is no face-up {particle} left to create.")
        points = _whole(action, "points", 0, MAX_POINTS)
    else:
        require("points" not in action, f"A {particle} has no points of its own; it counts toward an atom.")
        supply = state.bank_protons if particle == "proton" else state.bank_neutrons
        total = PROTON_TOKENS if particle == "proton" else NEUTRON_TOKENS
        require(supply > 0, f"The {particle} supply is empty: all {total} {particle}s have been created.")
        points = 0
    transform = action.get("transform")
    cost = 0
    if transform is not None:
        if not isinstance(transform, Mapping):
            raise RuleError('"transform" names one card\'s change, like {"from": "up", "to": "down"}.')
        source, target = _rank(transform.get("from"), "transform.from"), _rank(transform.get("to"), "transform.to")
        cost = transformation_cost(source, target)
        if particle in PARTICLE_QUARKS:
            quarks = PARTICLE_QUARKS[particle]
            require(
                target in quarks,
                f"A {particle} is made of {', '.join(map(rank_name, quarks))}: "
                f"a {rank_name(target)} does not belong in it.",
            )
        require(
            seat.energy >= cost,
            f"{player} has {seat.energy} energy; turning {rank_name(source)} into {rank_name(target)} "
            f"costs {cost} ({_plural(cost, 'step')} up): {cost - seat.energy} more energy needed.",
        )
        transform = {"from": source, "to": target, "cost": cost}
    _cards(seat, needed, from_decayed, f"a {particle}")
    event: dict[str, Any] = {
        "type": "created",
        "player": player,
        "particle": particle,
        "points": points,
        "decayed": from_decayed,
        "transform": transform,
    }
    extra: list[Event] = []
    if particle in ("baryon", "meson"):
        deck = state.deck(particle)
        if deck.deck == 0:
            event["notice"] = f"The {particle} deck is empty, so the face-up row is not refilled."
        elif deck.deck == 1:
            extra = _deck_trigger(state, player, particle)
    return [event, *extra]


def _end_turn(state: QuarkState, action: Action) -> list[Event]:
    player = _player(state, action)
    seat = state.seats[state.current]
    events: list[Event] = []
    hand = seat.hand
    if "hand" in action:
        hand = _whole(action, "hand", 0, QUARK_CARDS)
        if hand != seat.hand:
            events.append({"type": "hand_counted", "player": player, "was": seat.hand, "cards": hand})
    discarded = max(0, hand - HAND_LIMIT)
    nxt = (state.current + 1) % len(state.seats)
    events.append(
        {"type": "turn_ended", "player": player, "hand": hand, "discarded": discarded, "next": state.names[nxt]}
    )
    return events


def _with_atom_trigger(state: QuarkState, events: list[Event]) -> list[Event]:
    """`events`, plus the end trigger if the current player now holds what the end atom needs.

    Holding the atom's protons, neutrons and energy for its electrons is
    creating it (see RULINGS); it is checked after each of the player's own
    actions and at the end of their turn.
    """
    if state.end is not None or any(e["type"] == "end_triggered" for e in events):
        return events
    after = state
    for event in events:
        after = _evolve(after, event)
    name = end_atom_name(len(state.seats))
    atom = next((a for a in state.atoms if a.name == name), None)
    seat = after.seats[state.current]
    if atom is None or not (
        seat.protons >= atom.protons and seat.neutrons >= atom.neutrons and seat.energy >= atom.electrons
    ):
        return events
    sentence = (
        f"{seat.name} created {atom.name} ({atom.protons} protons, {atom.neutrons} neutrons, "
        f"{atom.electrons} energy as electrons)"
    )
    trigger = {"type": "end_triggered", "by": seat.name, "cause": "atom", "atom": atom.name, "sentence": sentence}
    if events[-1]["type"] == "turn_ended":
        # The end takes effect before the turn passes, so play stops at the start player.
        return [*events[:-1], trigger, events[-1]]
    return [*events, trigger]


# -- evolving -------------------------------------------------------------------------------------


def _with_seat(state: QuarkState, index: int, **changes: Any) -> QuarkState:
    seats = list(state.seats)
    seats[index] = replace(seats[index], **changes)
    return replace(state, seats=tuple(seats))


def _with_deck(state: QuarkState, name: str, **changes: Any) -> QuarkState:
    decks = list(state.decks)
    index = DECKS.index(name)
    decks[index] = replace(decks[index], **changes)
    return replace(state, decks=tuple(decks))


def _take_quark(state: QuarkState, index: int, source: str) -> QuarkState:
    """One quark card into seat `index`'s hand from `source`, if there is one."""
    quark = state.deck("quark")
    if source == "row" and quark.row > 0:
        # The gap in the row is refilled from the deck while it lasts.
        changes = {"deck": quark.deck - 1} if quark.deck else {"row": quark.row - 1}
        state = _with_deck(state, "quark", **changes)
    elif source == "blind" and quark.deck > 0:
        state = _with_deck(state, "quark", deck=quark.deck - 1)
    else:
        return state
    seat = state.seats[index]
    return _with_seat(state, index, hand=seat.hand + 1)


def _pay(state: QuarkState, index: int, amount: int) -> QuarkState:
    """Move up to `amount` energy from the bank to seat `index` (never below an empty bank)."""
    amount = max(0, min(amount, state.bank_energy))
    seat = state.seats[index]
    state = _with_seat(state, index, energy=seat.energy + amount)
    return replace(state, bank_energy=state.bank_energy - amount)


def _use_cards(state: QuarkState, index: int, count: int, from_decayed: int) -> QuarkState:
    seat = state.seats[index]
    from_decayed = max(0, min(from_decayed, seat.decayed))
    from_hand = max(0, min(count - from_decayed, seat.hand))
    state = _with_seat(state, index, hand=seat.hand - from_hand, decayed=seat.decayed - from_decayed)
    return replace(state, discard=state.discard + from_hand + from_decayed)


_ACTIONS = {"drew", "discarded_and_drew", "decayed", "annihilated", "created"}


def _evolve(state: QuarkState, event: Event) -> QuarkState:
    kind = event.get("type")
    names = state.names
    index = state.current
    if kind in _ACTIONS:
        state = replace(state, moved=True, actions_left=max(0, state.actions_left - 1), notice=event.get("notice", ""))
    if kind == "first_player_chosen":
        first = names.index(event["player"])
        return replace(state, start=first, current=first, moved=True)
    if kind == "hand_counted":
        index = names.index(event["player"])
        return replace(_with_seat(state, index, hand=max(0, int(event["cards"]))), moved=True)
    if kind == "drew":
        return _take_quark(state, index, event["from"])
    if kind == "discarded_and_drew":
        state = _use_cards(state, index, 1, 0)
        for source in event["from"]:
            state = _take_quark(state, index, source)
        return state
    if kind == "decayed":
        seat = state.seats[index]
        if seat.hand > 0:
            state = _with_seat(state, index, hand=seat.hand - 1, decayed=seat.decayed + 1)
        return _pay(state, index, int(event["energy"]))
    if kind == "annihilated":
        state = _use_cards(state, index, 2, int(event["decayed"]))
        for name, amount in event["paid"].items():
            state = _pay(state, names.index(name), int(amount))
        return _take_quark(state, index, "blind") if event["drew"] else state
    if kind == "created":
        return _created(state, index, event)
    if kind == "end_triggered":
        return replace(state, end=EndTrigger(event["by"], event["cause"], event["sentence"]))
    if kind == "turn_ended":
        seat = state.seats[index]
        discarded = min(int(event["discarded"]), int(event["hand"]))
        state = _with_seat(state, index, hand=int(event["hand"]) - discarded, turns=seat.turns + 1)
        nxt = (index + 1) % len(names)
        over = state.end is not None and nxt == state.start
        notice = f"{event['player']} discarded {discarded} down to {HAND_LIMIT}." if discarded else ""
        return replace(
            state,
            discard=state.discard + discarded,
            current=nxt,
            actions_left=ACTIONS_PER_TURN,
            moved=True,
            over=over,
            notice=notice,
        )
    return state


def _created(state: QuarkState, index: int, event: Event) -> QuarkState:
    particle = event["particle"]
    state = _use_cards(state, index, PARTICLES.get(particle, 0), int(event["decayed"]))
    transform = event.get("transform")
    if transform:
        seat = state.seats[index]
        cost = max(0, min(int(transform["cost"]), seat.energy))
        state = _with_seat(state, index, energy=seat.energy - cost)
        state = replace(state, bank_energy=state.bank_energy + cost)
    seat = state.seats[index]
    if particle == "proton" and state.bank_protons > 0:
        state = replace(_with_seat(state, index, protons=seat.protons + 1), bank_protons=state.bank_protons - 1)
    elif particle == "neutron" and state.bank_neutrons > 0:
        state = replace(_with_seat(state, index, neutrons=seat.neutrons + 1), bank_neutrons=state.bank_neutrons - 1)
    elif particle in ("baryon", "meson") and state.deck(particle).row > 0:
        deck = state.deck(particle)
        changes = {"deck": deck.deck - 1} if deck.deck else {"row": deck.row - 1}
        state = _with_deck(state, particle, **changes)
        state = _with_seat(
            state, index, particle_points=seat.particle_points + int(event["points"]), particles=seat.particles + 1
        )
    return state


# -- views --------------------------------------------------------------------------------------------


def turns_left(state: QuarkState) -> tuple[str, ...]:
    """After the end is triggered: whose turns remain (the current one first) before play reaches the start player."""
    if state.end is None or state.over:
        return ()
    count = len(state.seats)
    remaining = (state.start - state.current - 1) % count + 1
    return tuple(state.names[(state.current + i) % count] for i in range(remaining))


def _public(state: QuarkState) -> View:
    scores = [score(s, state.atoms) for s in state.seats]
    current = None if state.over else state.names[state.current]
    seat = None if state.over else state.seats[state.current]
    reminder = ""
    if seat is not None and seat.hand > HAND_LIMIT:
        reminder = (
            f"{seat.name} holds {seat.hand} cards: discard {seat.hand - HAND_LIMIT} "
            f"down to {HAND_LIMIT} at the end of the turn."
        )
    end = None
    if state.end is not None:
        left = turns_left(state)
        if state.over:
            then = "Every player has had the same number of turns: the game is over."
        elif len(left) == 1:
            then = f"This is the last turn ({left[0]})."
        else:
            then = f"{len(left)} turns left: {', '.join(left)}."
        end = {
            "by": state.end.by,
            "cause": state.end.cause,
            "sentence": f"{state.end.sentence}: the end is triggered. {then}",
            "turns_left": list(left),
        }
    result = _outcome(state)
    return {
        "game": "quark",
        "players": [
            {
                "name": s.name,
                "energy": s.energy,
                "protons": s.protons,
                "neutrons": s.neutrons,
                "particle_points": s.particle_points,
                "particles": s.particles,
                "hand": s.hand,
                "decayed": s.decayed,
                "turns": s.turns,
                "score_now": sc.total,
                "atom_now": sc.atom.name if sc.atom else None,
                "neighbours": list(neighbours(state.names, i)),
            }
            for i, (s, sc) in enumerate(zip(state.seats, scores, strict=True))
        ],
        "bank": {"energy": state.bank_energy, "protons": state.bank_protons, "neutrons": state.bank_neutrons},
        "bank_empty": state.bank_energy == 0,
        "decks": {d.name: {"deck": d.deck, "row": d.row} for d in state.decks},
        "discard": state.discard,
        "start_player": state.names[state.start],
        "current": current,
        "actions_left": 0 if state.over else state.actions_left,
        "end_atom": end_atom_name(len(state.seats)),
        "end": end,
        "over": state.over,
        "notice": state.notice,
        "reminder": reminder,
        "ranks": list(RANKS),
        "annihilation_energy": dict(ANNIHILATION_ENERGY),
        "atoms": [a.to_json() for a in state.atoms],
        "scores": [s.to_json() for s in scores],
        "outcome": result.to_json() if result else None,
    }


def _outcome(state: QuarkState) -> Outcome | None:
    if not state.over:
        return None
    scores = [score(s, state.atoms) for s in state.seats]
    top = max(s.total for s in scores)
    best = [s for s in scores if s.total == top]
    if len(best) > 1:
        names = " and ".join([", ".join(s.player for s in best[:-1]), best[-1].player])
        return Outcome((), Reason.TIE, f"{names} tie on {top} points.")
    winner = best[0]
    built = f" ({winner.atom.name})" if winner.atom else ""
    return Outcome((winner.player,), Reason.SCORE, f"{winner.player} wins with {top} points{built}.")


# -- the rules object ---------------------------------------------------------------------------------


class QuarkRules:
    """Quark for 2 to 4 players: see the module docstring."""

    name = "quark"
    title = "Quark"
    min_players = 2
    max_players = 4

    def setup(self, options: Options) -> QuarkState:
        return _setup(options)

    def decide(self, state: QuarkState, action: Action, dice: Dice) -> list[Event]:
        return _decide(state, action)

    def evolve(self, state: QuarkState, event: Event) -> QuarkState:
        return _evolve(state, event)

    def public_view(self, state: QuarkState) -> View:
        return _public(state)

    def private_view(self, state: QuarkState, player: str) -> View:
        # Quark keeps no secrets in the companion: hands are physical cards.
        view = _public(state)
        view["you"] = player
        return view

    def outcome(self, state: QuarkState) -> Outcome | None:
        return _outcome(state)

    def current_player(self, state: QuarkState) -> str | None:
        return None if state.over else state.names[state.current]

    def preview(self, state: QuarkState, action: Action) -> str:
        """What `action` would do, in one sentence, without doing it; raises `RuleError` if refused."""
        events = _decide(state, action)
        return describe(events[0]) if events else ""


def describe(event: Event) -> str:
    """One event as a sentence for the table."""
    kind = event.get("type")
    who = event.get("player", "")
    if kind == "drew":
        return f"{who} draws {'a face-up card' if event['from'] == 'row' else 'blind from the quark deck'}."
    if kind == "discarded_and_drew":
        return f"{who} discards one card and draws two ({' and '.join(event['from'])})."
    if kind == "decayed":
        return f"{who} decays a quark for {event['energy']} energy."
    if kind == "annihilated":
        paid = ", ".join(f"{n} +{a}" for n, a in event["paid"].items())
        return f"{who} annihilates a {rank_name(event['rank'])} pair: {paid} energy."
    if kind == "created":
        transform = event.get("transform")
        cost = (
            f", turning {rank_name(transform['from'])} into {rank_name(transform['to'])} for {transform['cost']} energy"
            if transform
            else ""
        )
        points = f" worth {event['points']} points" if event["particle"] in ("baryon", "meson") else ""
        return f"{who} creates a {event['particle']}{points}{cost}."
    if kind == "turn_ended":
        return f"{who} ends the turn with {_plural(int(event['hand']), 'card')}; {event['next']} is next."
    if kind == "end_triggered":
        return f"{event['sentence']}: the end is triggered."
    if kind == "hand_counted":
        return f"{who} holds {_plural(int(event['cards']), 'card')}."
    if kind == "first_player_chosen":
        return f"{who} starts."
    return ""


RULES = QuarkRules()
