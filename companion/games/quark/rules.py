"""Quark's vocabulary (actions and events) and its rules.

The engine checks the seats and names, refuses everything once the game is
over, refuses an action out of turn and handles who starts
(`FirstPlayerChosen`); what is left here is Quark's own: the two actions of a
turn, what the bank, the decks and a player's cards allow, and the end.

Every action but `Correct` (and `CountHand`, its older name for a hand) is
the current player's. A correction is free and anyone's, at any moment: the
companion counts, but the table's count is the truth. Tokens it moves come
from the bank and go back to it, a hand draws from the quark deck and
discards to the discard pile, so the totals stay what the game has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final, Literal

from companion.codec import key, optional
from companion.dice import Dice
from companion.game import (
    TIE,
    Action,
    Event,
    FirstPlayerChosen,
    Options,
    Outcome,
    PlayerLeft,
    RuleError,
    Seat,
    UnknownEvent,
    require,
)
from companion.game import TurnEnded as EngineTurnEnded
from companion.games.quark.scoring import can_build, end_atom_name, score
from companion.games.quark.settings import QuarkSettings
from companion.games.quark.state import (
    ACTIONS_PER_TURN,
    ANNIHILATION_ENERGY,
    BANKED,
    BARYON_CARDS,
    COUNTER_WORDS,
    DECKS,
    ENERGY_TOKENS,
    HAND_LIMIT,
    MAX_POINTS,
    MESON_CARDS,
    NEIGHBOUR_SHARE,
    NEUTRON_TOKENS,
    PAIR,
    PARTICLE_CARDS,
    PARTICLE_QUARKS,
    PARTICLES,
    PLAYER_COUNTERS,
    PROTON_TOKENS,
    QUARK_CARDS,
    RANKS,
    ROW,
    SOURCES,
    START_ENERGY,
    START_HAND,
    Counter,
    Counts,
    Deck,
    DeckName,
    EndTrigger,
    Particle,
    QuarkState,
    Rank,
    Source,
    neighbours,
    rank_name,
)

# -- how a game ends ---------------------------------------------------------------------

class Ending(StrEnum):
    """The game's own word for a win (`Outcome.reason`; a tie is `companion.game.TIE`)."""

    HIGHEST_SCORE = "highest score"


HIGHEST_SCORE: Final = Ending.HIGHEST_SCORE
"""The `Outcome.reason` of a game won on points (a tie is `companion.game.TIE`)."""


# -- the vocabulary: actions -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """`player` draws a quark card: blind from the deck, or a face-up one from the row."""

    type = "draw"
    whose_turn = True
    player: Seat
    source: Source = key("from", "blind")


@dataclass(frozen=True, slots=True)
class DiscardDraw(Action):
    """`player` discards one card from the hand, then draws two, each blind or face-up, in this order."""

    type = "discard_draw"
    whose_turn = True
    player: Seat
    sources: tuple[Source, Source] = key("from", ("blind", "blind"))


@dataclass(frozen=True, slots=True)
class Decay(Action):
    """`player` lays a quark card in front of them for one energy from the bank."""

    type = "decay"
    whose_turn = True
    player: Seat


@dataclass(frozen=True, slots=True)
class Annihilate(Action):
    """`player` discards a quark and anti-quark pair of `rank`; `decayed` of the two come from the decayed cards.

    The rank is read as the player says it: any case, and ``"charm"`` for CHARMED.
    """

    type = "annihilate"
    whose_turn = True
    player: Seat
    rank: str
    decayed: int = optional(0)


@dataclass(frozen=True)
class Transform:
    """Turning one card of a creation into a higher rank (ranks read as the player says them)."""

    source: str = key("from")
    target: str = key("to")


@dataclass(frozen=True, slots=True)
class Create(Action):
    """`player` creates `particle` from their quark cards.

    A baryon or meson is a face-up card with `points` printed on it; a proton
    or neutron is a token from the supply. At most one card may be turned up
    the ladder first (`transform`), for energy; `decayed` of the cards come
    from the decayed ones.
    """

    type = "create"
    whose_turn = True
    player: Seat
    particle: Particle
    points: int | None = optional()
    transform: Transform | None = optional()
    decayed: int = optional(0)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """`player` ends the turn, saying how many cards are in the hand if our count is wrong."""

    type = "end_turn"
    whose_turn = True
    player: Seat
    hand: int | None = optional()


@dataclass(frozen=True, slots=True)
class Correct(Action):
    """Anyone, at any time: `counter` is really `value` (the table's count is the truth).

    A player's counter (energy, protons, neutrons, particle points, hand)
    names the `player`; a deck's or a row's names none: it is the table's.
    """

    type = "correct"
    counter: Counter
    value: int
    player: Seat | None = optional()


@dataclass(frozen=True, slots=True)
class CountHand(Action):
    """`player` holds `cards` cards: the older words for correcting a hand, kept so saved games and scripts read."""

    type = "count_hand"
    player: Seat
    cards: int


ACTIONS = (Draw, DiscardDraw, Decay, Annihilate, Create, EndTurn, Correct, CountHand)


# -- the vocabulary: events --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Corrected(Event):
    """`counter` (of `player`, or the table's if None) was `was` and is now `value`.

    What moved with it follows from the two: a token counter took the
    difference from the bank or gave it back; a hand drew it blind from the
    quark deck or discarded it.
    """

    type = "corrected"
    begins_play = False  # a correction before the first action is still setting the table
    counter: Counter
    was: int
    value: int
    player: str | None = optional()


@dataclass(frozen=True, slots=True)
class HandCounted(Event):
    """`player` holds `cards` cards; we had counted `was` (the end of a turn's count, and older games' hand counts)."""

    type = "hand_counted"
    player: str
    was: int
    cards: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """`player` drew a quark card from `source`."""

    type = "drew"
    player: str
    source: Source = key("from")


@dataclass(frozen=True, slots=True)
class DiscardedAndDrew(Event):
    """`player` discarded a card from the hand and drew two, from `sources` in order."""

    type = "discarded_and_drew"
    player: str
    sources: tuple[Source, Source] = key("from")


@dataclass(frozen=True, slots=True)
class Decayed(Event):
    """`player` decayed a card and took `energy` (0 once the bank is empty)."""

    type = "decayed"
    player: str
    energy: int


@dataclass(frozen=True, slots=True)
class Annihilated(Event):
    """`player` annihilated a `rank` pair (`decayed` of it from the decayed cards).

    `paid` is what the bank paid each (the player first, then the neighbours);
    `short` what it could not pay; `drew` whether the player drew a card blind.
    """

    type = "annihilated"
    player: str
    rank: Rank
    decayed: int
    paid: Mapping[str, int]
    short: int
    drew: bool


@dataclass(frozen=True)
class Transformation:
    """A card turned from `source` up to `target` for `cost` energy, paid to the bank."""

    source: Rank = key("from")
    target: Rank = key("to")
    cost: int = 0


@dataclass(frozen=True, slots=True)
class Created(Event):
    """`player` created `particle` (worth `points`, for a baryon or meson card) using `decayed` decayed cards."""

    type = "created"
    player: str
    particle: Particle
    points: int
    decayed: int
    transform: Transformation | None


@dataclass(frozen=True, slots=True)
class EndTriggered(Event):
    """`by` triggered the end: the last card of `deck` was drawn, or they created `atom`, the end atom."""

    type = "end_triggered"
    by: str
    cause: Literal["deck", "atom"]
    deck: DeckName | None = optional()
    atom: str | None = optional()


@dataclass(frozen=True, slots=True)
class TurnEnded(EngineTurnEnded):
    """`player` ended the turn holding `hand` cards, `discarded` of them down to the limit; `next_player` plays."""

    json_order = ("player", "hand", "discarded", "next_player")  # as Quark's turn_ended always read
    hand: int
    discarded: int


EVENTS = (Corrected, HandCounted, Drew, DiscardedAndDrew, Decayed, Annihilated, Created, EndTriggered, TurnEnded)


# -- setup ---------------------------------------------------------------------------------


def setup(options: Options, settings: QuarkSettings) -> QuarkState:
    """Every player with five cards and two energy; the three decks with their rows of three face up."""
    names = options.names
    decks = (
        Deck("quark", QUARK_CARDS - START_HAND * len(names) - ROW),
        Deck("baryon", BARYON_CARDS - ROW),
        Deck("meson", MESON_CARDS - ROW),
    )
    return QuarkState(
        seats=tuple(Counts(n) for n in names),
        atoms=settings.atoms,
        decks=decks,
        bank_energy=ENERGY_TOKENS - START_ENERGY * len(names),
    )


# -- reading an action's words ---------------------------------------------------------------


def _rank(value: str, key: str = "rank") -> Rank:
    word = value.strip().lower()
    word = "charmed" if word == "charm" else word
    for rank in RANKS:
        if rank == word:
            return rank
    raise RuleError(f'"{key}" must be one of {", ".join(RANKS)}; it is {value!r}.')


def _whole(value: int | None, key: str, low: int, high: int) -> int:
    if value is None:
        raise RuleError(f'This action needs "{key}": a whole number from {low} to {high}.')
    require(low <= value <= high, f'"{key}" must be a whole number from {low} to {high}; it is {value!r}.')
    return value


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


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


# -- deciding ------------------------------------------------------------------------------------


def decide(state: QuarkState, action: Action, dice: Dice | None = None) -> list[Event]:
    """The events `action` causes, or `RuleError` with the reason. Quark rolls no dice."""
    if not isinstance(action, Correct | CountHand | EndTurn):
        # A correction is free, and ending the turn is what is left once both actions are taken.
        require(state.actions_left > 0, f"{_seat(state).name} has taken both actions of this turn; end the turn.")
    match action:
        case Correct():
            # Checked for the end like any action: a deck corrected to empty had its last card drawn.
            events = _correct(state, action)
        case CountHand(player=player, cards=cards):
            require(player in state.names_in, f"{player} left the game; their hand is no longer counted.")
            events = _correct(state, Correct("hand", _whole(cards, "cards", 0, QUARK_CARDS), player))
        case EndTurn():
            events = _end_turn(state, action)
        case Draw():
            events = _draw(state, action)
        case DiscardDraw():
            events = _discard_draw(state, action)
        case Decay():
            events = _decay(state, action)
        case Annihilate():
            events = _annihilate(state, action)
        case Create():
            events = _create(state, action)
        case _:
            raise RuleError(f"Quark has no action {action.type!r}.")
    return _with_end(state, events)


def preview(state: QuarkState, action: Action) -> list[Event]:
    """The events `action` would cause now, without taking it: what a screen shows before a player confirms.

    Raises `RuleError` if the rules refuse it; the engine's own checks (whose
    turn it is, the end of the game) are asked first with `RegisteredGame.refusal`.
    """
    return decide(state, action)


def _correct(state: QuarkState, action: Correct) -> list[Event]:
    """A counter set to what the table says, as far as the bank and the cards allow."""
    counter, value, player = action.counter, action.value, action.player
    words = COUNTER_WORDS[counter]
    if counter not in PLAYER_COUNTERS:
        require(player is None, f"A correction of the {words} names no player (decks and rows are the table's).")
        return [_correct_table(state, counter, value)]
    require(player is not None, f"A correction of {words} names the player it is for.")
    assert player is not None  # for the type checker: `require` said it
    require(player in state.names_in, f"{player} left the game; their counts can no longer be corrected.")
    seat = state.seats[state.seat_of(player)]
    was = getattr(seat, counter)
    require(value >= 0, f"A count cannot be below 0: {player}'s {words} can be 0 or more.")
    if counter in BANKED:
        bank = getattr(state, BANKED[counter])
        have = (
            f"no {words}" if bank == 0 else f"only {bank} {words[:-1] if bank == 1 and counter != 'energy' else words}"
        )
        require(value <= was + bank, f"The bank has {have}: {player}'s {words} can be at most {was + bank}.")
    elif counter == "hand":
        # The cards a hand gains come blind from the quark deck; those it loses go to the discard pile.
        left = state.deck("quark").deck
        have = "no cards" if left == 0 else f"only {plural(left, 'card')}"
        require(
            value <= was + left,
            f"The quark deck has {have}: {player}'s hand can be at most {was + left}.",
        )
    else:
        most = (BARYON_CARDS + MESON_CARDS) * MAX_POINTS
        require(value <= most, f"{player}'s particle points can be at most {most}, every particle card's worth.")
    return [Corrected(counter, was, value, player)]


def _deck_named(counter: str) -> DeckName:
    """``"baryon_row"`` -> ``"baryon"``."""
    return next(name for name in DECKS if counter.startswith(f"{name}_"))


def _correct_table(state: QuarkState, counter: Counter, value: int) -> Corrected:
    """A deck or a row set to the table's count (see RULINGS, Corrections).

    The cards were somewhere on the table: lowering puts the difference on
    the deck's discard pile, raising takes it from there, and a row holds at
    most `ROW`.
    """
    words = COUNTER_WORDS[counter]
    deck = state.deck(_deck_named(counter))
    is_row = counter.endswith("_row")
    was = deck.row if is_row else deck.deck
    require(value >= 0, f"A count cannot be below 0: the {words} can be 0 or more.")
    if is_row:
        require(value <= ROW, f"A face-up row holds {ROW} cards: there can be at most {ROW} {words}.")
    pile = "quark discard pile" if deck.name == "quark" else f"pile of {deck.name} cards set aside"
    require(
        value <= was + deck.discard,
        f"The {words} can be at most {was + deck.discard}: more cards come from the {pile}, "
        f"which holds {plural(deck.discard, 'card')}.",
    )
    return Corrected(counter, was, value)


def _seat(state: QuarkState) -> Counts:
    """The current player's counts."""
    return state.seats[state.current]


def _cards(seat: Counts, needed: int, from_decayed: int, what: str) -> None:
    """Refuse unless `seat` has the cards: `from_decayed` decayed ones, the rest from the hand."""
    from_hand = needed - from_decayed
    require(
        seat.decayed >= from_decayed,
        f"{seat.name} has {plural(seat.decayed, 'decayed card')} in front of them; "
        f"{what} names {from_decayed} from there.",
    )
    require(
        seat.hand >= from_hand,
        f"{seat.name} holds {plural(seat.hand, 'card')} by our count; {what} needs {from_hand} from the hand. "
        f"If the count is wrong, correct it with the hand count.",
    )


def _check_draws(quark: Deck, sources: Sequence[Source]) -> None:
    """Refuse draws the quark deck and its row cannot give, one after the other."""
    for source in sources:
        if not quark.has(source):
            if not quark.deck and not quark.row:
                raise RuleError("The quark deck and its face-up row are both empty: there is nothing to draw.")
            if source == "blind":
                raise RuleError("The quark deck is empty; draw a face-up card instead.")
            raise RuleError("There is no face-up quark card left; draw blind instead.")
        quark = quark.after_taking(source)


def _draw(state: QuarkState, action: Draw) -> list[Event]:
    _check_draws(state.deck("quark"), [action.source])
    return [Drew(action.player, action.source)]


def _discard_draw(state: QuarkState, action: DiscardDraw) -> list[Event]:
    require(_seat(state).hand >= 1, f"{action.player} holds no card by our count, so there is nothing to discard.")
    _check_draws(state.deck("quark"), action.sources)
    return [DiscardedAndDrew(action.player, action.sources)]


def _decay(state: QuarkState, action: Decay) -> list[Event]:
    require(_seat(state).hand >= 1, f"{action.player} holds no card by our count, so there is nothing to decay.")
    return [Decayed(action.player, energy=1 if state.bank_energy > 0 else 0)]


def _annihilate(state: QuarkState, action: Annihilate) -> list[Event]:
    player, rank = action.player, _rank(action.rank)
    from_decayed = _whole(action.decayed, "decayed", 0, PAIR)
    _cards(_seat(state), PAIR, from_decayed, "annihilating a pair")
    # The bank pays the player, then the neighbours, and stops at what it has left.
    wanted = [(player, ANNIHILATION_ENERGY[rank])] + [
        (n, NEIGHBOUR_SHARE) for n in neighbours(state.names_in, state.names_in.index(player))
    ]
    bank = state.bank_energy
    paid: dict[str, int] = {}
    for name, amount in wanted:
        paid[name] = min(amount, bank)
        bank -= paid[name]
    short = sum(amount for _, amount in wanted) - sum(paid.values())
    return [Annihilated(player, rank, from_decayed, paid, short, drew=state.deck("quark").has("blind"))]


def _create(state: QuarkState, action: Create) -> list[Event]:
    player, particle = action.player, action.particle
    seat = _seat(state)
    needed = PARTICLES[particle]
    from_decayed = _whole(action.decayed, "decayed", 0, needed)
    if particle in PARTICLE_CARDS:
        require(state.deck(_deck_of(particle)).row > 0, f"There is no face-up {particle} left to create.")
        points = _whole(action.points, "points", 0, MAX_POINTS)
    else:
        require(action.points is None, f"A {particle} has no points of its own; it counts toward an atom.")
        supply = state.bank_protons if particle == "proton" else state.bank_neutrons
        total = PROTON_TOKENS if particle == "proton" else NEUTRON_TOKENS
        require(supply > 0, f"The {particle} supply is empty: all {total} {particle}s have been created.")
        points = 0
    transformation = None
    if action.transform is not None:
        source = _rank(action.transform.source, "transform.from")
        target = _rank(action.transform.target, "transform.to")
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
            f"costs {cost} ({plural(cost, 'step')} up): {cost - seat.energy} more energy needed.",
        )
        transformation = Transformation(source, target, cost)
    _cards(seat, needed, from_decayed, f"a {particle}")
    return [Created(player, particle, points, from_decayed, transformation)]


def _deck_of(particle: Particle) -> DeckName:
    return "baryon" if particle == "baryon" else "meson"


def _end_turn(state: QuarkState, action: EndTurn) -> list[Event]:
    """The turn ends; a hand count given with it is a hand correction (RULINGS): it draws or discards."""
    player, seat = action.player, _seat(state)
    events: list[Event] = []
    hand = seat.hand
    if action.hand is not None:
        hand = _whole(action.hand, "hand", 0, QUARK_CARDS)
        _correct(state, Correct("hand", hand, player))  # refused as the correction would be
        if hand != seat.hand:
            events.append(HandCounted(player, seat.hand, hand))
    following = state.names[_next_in(state, state.current)]
    events.append(TurnEnded(player, hand=hand, discarded=max(0, hand - HAND_LIMIT), next_player=following))
    return events


def _with_end(state: QuarkState, events: list[Event]) -> list[Event]:
    """`events`, and the end trigger if they trigger the end of the game.

    The end is triggered by the last card of any deck, or by the current
    player holding what the end atom needs: its protons, its neutrons and
    energy for its electrons is creating it (see RULINGS). The atom is checked
    after each of the player's own actions and at the end of their turn.
    """
    if state.end is not None:
        return events  # a second trigger changes nothing
    after = state
    for event in events:
        after = evolve(after, event)
    player = _seat(state).name
    trigger: EndTriggered | None = None
    emptied = [d.name for d, now in zip(state.decks, after.decks, strict=True) if d.deck > 0 and now.deck == 0]
    if emptied:
        trigger = EndTriggered(player, "deck", deck=emptied[0])
    else:
        name = end_atom_name(len(state.seats))
        atom = next((a for a in state.atoms if a.name == name), None)
        seat = after.seats[state.current]
        if atom is not None and can_build(atom, seat.protons, seat.neutrons, seat.energy):
            trigger = EndTriggered(player, "atom", atom=atom.name)
    if trigger is None:
        return events
    if isinstance(events[-1], TurnEnded):
        # The end takes effect before the turn passes, so play stops at the start player.
        return [*events[:-1], trigger, events[-1]]
    return [*events, trigger]


# -- what can be done now -------------------------------------------------------------------------


def legal_actions(state: QuarkState, player: str) -> list[Action]:
    """What `player` may do now, each choice spelt out.

    Not listed, because the table types a number in: creating a baryon or a
    meson (the points printed on the card), ending the turn with another hand count,
    and correcting a count. Ask the engine's `refusal` about those.
    """
    if state.over or player != state.names[state.current]:
        return []
    pairs: list[tuple[Source, Source]] = [(a, b) for a in SOURCES for b in SOURCES]
    candidates: list[Action] = [
        *(Draw(player, source) for source in SOURCES),
        *(DiscardDraw(player, pair) for pair in pairs),
        Decay(player),
        *(Annihilate(player, rank, decayed) for rank in RANKS for decayed in range(PAIR + 1)),
        *(
            Create(player, particle, transform=transform, decayed=decayed)
            for particle in PARTICLES
            if particle not in PARTICLE_CARDS
            for transform in (None, *_transforms(particle))
            for decayed in range(PARTICLES[particle] + 1)
        ),
        EndTurn(player),
    ]
    return [action for action in candidates if _allowed(state, action)]


def _transforms(particle: Particle) -> list[Transform]:
    """Every upward turn of one card into a quark that `particle` is made of."""
    targets = dict.fromkeys(PARTICLE_QUARKS[particle])
    return [Transform(source, target) for target in targets for source in RANKS[: RANKS.index(target)]]


def _allowed(state: QuarkState, action: Action) -> bool:
    try:
        decide(state, action)
    except RuleError:
        return False
    return True


# -- evolving -------------------------------------------------------------------------------------


def evolve(state: QuarkState, event: Event) -> QuarkState:
    """The state after `event`. Never fails on an event `decide` made; amounts never go below zero."""
    match event:
        case FirstPlayerChosen(player=player):
            first = state.seat_of(player)
            return replace(state, start=first, current=first)
        case Corrected():
            return _corrected(state, event)
        case HandCounted(player=player, was=was, cards=cards):
            # The same as a hand correction, in older saved games too: the cards come from and go somewhere.
            return _corrected(state, Corrected("hand", was, cards, player))
        case Drew(source=source):
            return _take_quark(_acted(state, event), source)
        case DiscardedAndDrew(sources=sources):
            state = _use_cards(_acted(state, event), 1, 0)
            for source in sources:
                state = _take_quark(state, source)
            return state
        case Decayed(energy=energy):
            state = _acted(state, event)
            seat = _seat(state)
            if seat.hand > 0:
                state = _with_seat(state, state.current, hand=seat.hand - 1, decayed=seat.decayed + 1)
            return _pay(state, state.current, energy)
        case Annihilated(decayed=decayed, paid=paid, drew=drew):
            state = _use_cards(_acted(state, event), PAIR, decayed)
            for name, amount in paid.items():
                state = _pay(state, state.seat_of(name), amount)
            return _take_quark(state, "blind") if drew else state
        case Created():
            return _created(_acted(state, event), event)
        case EndTriggered(by=by, cause=cause, deck=deck, atom=atom):
            # A trigger before any action of the start player's turn ends the game at once (RULINGS).
            state = replace(state, end=EndTrigger(by, cause, deck, atom))
            return replace(state, over=_play_is_round(state))
        case TurnEnded(discarded=discarded):
            seat = _seat(state)
            discarded = min(discarded, seat.hand)
            state = _with_seat(state, state.current, hand=seat.hand - discarded, turns=seat.turns + 1)
            state = _with_deck(state, "quark", discard=state.discard + discarded)
            state = replace(
                state,
                current=state.seat_of(event.next_player),
                actions_left=ACTIONS_PER_TURN,
                last=event,
                unrefilled=None,
            )
            return replace(state, over=_play_is_round(state))
        case _:
            raise UnknownEvent("Quark", event)


def _next_in(state: QuarkState, seat: int) -> int:
    """The seat after `seat` whose player has not left."""
    count = len(state.seats)
    return next(i % count for i in range(seat + 1, seat + count + 1) if not state.seats[i % count].gone)


def _play_is_round(state: QuarkState) -> bool:
    """Whether the end is triggered and play has come round to the start player: the game is over.

    That is every player still in having had the same number of turns, and no
    action of the new turn taken yet. With nobody gone it is play reaching the
    start player again; one player left alone is the engine's end, not a scored one.
    """
    playing = [s.turns for s in state.seats if not s.gone]
    return (
        state.end is not None and len(playing) > 1 and len(set(playing)) == 1 and state.actions_left == ACTIONS_PER_TURN
    )


def _acted(state: QuarkState, event: Event) -> QuarkState:
    """One of the turn's two actions is used; `event` is now the news."""
    return replace(state, actions_left=max(0, state.actions_left - 1), last=event, unrefilled=None)


def _with_seat(state: QuarkState, index: int, **changes: Any) -> QuarkState:
    seats = list(state.seats)
    seats[index] = replace(seats[index], **changes)
    return replace(state, seats=tuple(seats))


def _with_deck(state: QuarkState, name: DeckName, **changes: Any) -> QuarkState:
    decks = tuple(replace(d, **changes) if d.name == name else d for d in state.decks)
    return replace(state, decks=decks)


def _take(state: QuarkState, name: DeckName, source: Source) -> QuarkState | None:
    """The state once a card is taken from deck `name`'s `source`; None if there is none there."""
    deck = state.deck(name)
    if not deck.has(source):
        return None
    taken = deck.after_taking(source)
    decks = tuple(taken if d.name == name else d for d in state.decks)
    return replace(state, decks=decks, unrefilled=name if taken.row < deck.row else state.unrefilled)


def _take_quark(state: QuarkState, source: Source) -> QuarkState:
    """One quark card into the current player's hand from `source`, if there is one."""
    taken = _take(state, "quark", source)
    if taken is None:
        return state
    return _with_seat(taken, taken.current, hand=_seat(taken).hand + 1)


def _pay(state: QuarkState, index: int, amount: int) -> QuarkState:
    """Move up to `amount` energy from the bank to seat `index` (never below an empty bank)."""
    amount = max(0, min(amount, state.bank_energy))
    state = _with_seat(state, index, energy=state.seats[index].energy + amount)
    return replace(state, bank_energy=state.bank_energy - amount)


def _use_cards(state: QuarkState, count: int, from_decayed: int) -> QuarkState:
    """The current player discards `count` cards, `from_decayed` of them decayed ones (as far as they have them)."""
    seat = _seat(state)
    from_decayed = max(0, min(from_decayed, seat.decayed))
    from_hand = max(0, min(count - from_decayed, seat.hand))
    state = _with_seat(state, state.current, hand=seat.hand - from_hand, decayed=seat.decayed - from_decayed)
    return _with_deck(state, "quark", discard=state.discard + from_hand + from_decayed)


def _corrected(state: QuarkState, event: Corrected) -> QuarkState:
    """The counter at its corrected value; the bank, the quark deck or a discard pile gives or takes the difference."""
    counter, value = event.counter, max(0, event.value)
    if event.player is None:
        name = _deck_named(counter)
        deck = state.deck(name)
        part = "row" if counter.endswith("_row") else "deck"
        was = getattr(deck, part)
        value = min(value, was + deck.discard)  # raising takes from the discard pile, as far as it goes
        return _with_deck(state, name, **{part: value, "discard": deck.discard - (value - was)})
    index = state.seat_of(event.player)
    was = getattr(state.seats[index], counter)
    if counter in BANKED:
        bank = getattr(state, BANKED[counter])
        value = min(value, was + bank)
        return replace(_with_seat(state, index, **{counter: value}), **{BANKED[counter]: bank - (value - was)})
    if counter == "hand":
        quark = state.deck("quark")
        value = min(value, was + quark.deck)
        drawn, discarded = max(0, value - was), max(0, was - value)
        state = _with_seat(state, index, hand=value)
        return _with_deck(state, "quark", deck=quark.deck - drawn, discard=quark.discard + discarded)
    return _with_seat(state, index, **{counter: value})


def _created(state: QuarkState, event: Created) -> QuarkState:
    particle, index = event.particle, state.current
    state = _use_cards(state, PARTICLES[particle], event.decayed)
    if event.transform is not None:
        cost = max(0, min(event.transform.cost, _seat(state).energy))
        state = _with_seat(state, index, energy=_seat(state).energy - cost)
        state = replace(state, bank_energy=state.bank_energy + cost)
    seat = _seat(state)
    if particle == "proton" and state.bank_protons > 0:
        return replace(_with_seat(state, index, protons=seat.protons + 1), bank_protons=state.bank_protons - 1)
    if particle == "neutron" and state.bank_neutrons > 0:
        return replace(_with_seat(state, index, neutrons=seat.neutrons + 1), bank_neutrons=state.bank_neutrons - 1)
    if particle in PARTICLE_CARDS:
        name = _deck_of(particle)
        taken = _take(state, name, "row")
        if taken is not None:
            created = {"baryons": seat.baryons + 1} if name == "baryon" else {"mesons": seat.mesons + 1}
            return _with_seat(taken, index, particle_points=seat.particle_points + event.points, **created)
    return state


# -- the end --------------------------------------------------------------------------------------


def outcome(state: QuarkState) -> Outcome | None:
    """Once every player has had the same number of turns after the trigger: the highest score wins."""
    if not state.over:
        return None
    scores = [score(s, state.atoms) for s in state.seats if not s.gone]
    top = max(s.total for s in scores)
    best = [s for s in scores if s.total == top]
    if len(best) > 1:
        names = " and ".join([", ".join(s.player for s in best[:-1]), best[-1].player])
        return Outcome((), TIE, f"{names} tie on {top} points.")
    winner = best[0]
    built = f" ({winner.atom.name})" if winner.atom else ""
    return Outcome((winner.player,), HIGHEST_SCORE, f"{winner.player} wins with {top} points{built}.")


def players_in(state: QuarkState) -> tuple[str, ...]:
    """Who is still playing: everyone who has not left."""
    return state.names_in


def left(state: QuarkState, player: str) -> QuarkState:
    """`player` left (RULINGS): their energy, protons and neutrons go back to the bank, their particle
    cards leave the game, their turns are skipped, they are not scored, and the equal-turns rule
    counts only the players still in. Their hand and decayed cards leave with them too."""
    i = state.seat_of(player)
    seat = state.seats[i]
    state = replace(
        _with_seat(
            state,
            i,
            energy=0,
            protons=0,
            neutrons=0,
            particle_points=0,
            baryons=0,
            mesons=0,
            hand=0,
            decayed=0,
            gone=True,
        ),
        bank_energy=state.bank_energy + seat.energy,
        bank_protons=state.bank_protons + seat.protons,
        bank_neutrons=state.bank_neutrons + seat.neutrons,
        last=PlayerLeft(player),
        unrefilled=None,
    )
    for name in DECKS:
        state = _with_deck(state, name, out=state.deck(name).out + seat.cards_of(name))
    if len(state.names_in) < 2:
        return state  # one player is left: the engine ends the game
    if state.current == i:
        # Their turn ends where it is, uncounted: the next player's turn begins.
        state = replace(state, current=_next_in(state, i), actions_left=ACTIONS_PER_TURN)
    return replace(state, over=_play_is_round(state))


def current_player(state: QuarkState) -> str | None:
    """Whose turn it is; None once the game is over."""
    return None if state.over else state.names[state.current]
