"""What the table sees of Quark, and the sentences it reads.

Nothing in Quark is secret in the companion (the hands are physical cards):
a player's private view is the public one, and every event is shown as it is.
The events carry facts only; the sentences (the notice after an action, the
end of the game, one event told as a sentence) are made here from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from companion.engine import everything_public, told_first
from companion.game import Event, FirstPlayerChosen, GameView, PlayerLeft, addressed
from companion.games.quark import FACTS
from companion.games.quark.rules import (
    Annihilated,
    Corrected,
    Created,
    Decayed,
    DiscardedAndDrew,
    Drew,
    EndTriggered,
    HandCounted,
    TurnEnded,
    outcome,
    plural,
)
from companion.games.quark.scoring import DEFAULT_ATOMS, Atom, Score, end_atom_name, score
from companion.games.quark.state import (
    ANNIHILATION_ENERGY,
    COUNTER_WORDS,
    HAND_LIMIT,
    NEIGHBOUR_SHARE,
    RANKS,
    EndTrigger,
    QuarkState,
    Rank,
    neighbours,
    rank_name,
    turns_left,
)

public_event = everything_public


@dataclass(frozen=True)
class PlayerSeen:
    """One player's counts, their score if the game ended now, and their neighbours (who share an annihilation)."""

    name: str
    energy: int
    protons: int
    neutrons: int
    particle_points: int
    particles: int
    baryons: int
    mesons: int
    hand: int
    decayed: int
    turns: int
    score_now: int | None  # None for a player who left
    atom_now: str | None
    neighbours: tuple[str, ...]
    gone: bool


@dataclass(frozen=True)
class BankSeen:
    """The tokens in the bank."""

    energy: int
    protons: int
    neutrons: int


@dataclass(frozen=True)
class DeckSeen:
    """One deck's cards that are no player's: face down, face up in its row, discarded, out with a player who left."""

    deck: int
    row: int
    discard: int
    out: int


@dataclass(frozen=True)
class ScoreSeen:
    """One player's score as it stands; a player who left is listed as left, with no numbers (RULINGS)."""

    player: str
    left: bool
    particle_points: int | None
    atom: Atom | None
    atom_points: int | None
    leftover_energy: int | None
    total: int | None


@dataclass(frozen=True)
class EndSeen:
    """The end triggered: by whom, how, the sentence for it and the turns still to play."""

    by: str
    cause: str
    sentence: str
    turns_left: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class QuarkView(GameView):
    """Everyone's counts, the bank, the decks, whose turn, the end and the scores. Quark keeps no secrets here."""

    game: str
    players: tuple[PlayerSeen, ...]
    bank: BankSeen
    bank_empty: bool
    decks: Mapping[str, DeckSeen]  # by deck name (read-only)
    discard: int
    start_player: str
    current: str | None
    actions_left: int
    end_atom: str
    end: EndSeen | None
    notice: str
    reminder: str
    ranks: tuple[Rank, ...]
    annihilation_energy: Mapping[Rank, int]  # by rank (read-only)
    atoms: tuple[Atom, ...]
    scores: tuple[ScoreSeen, ...]


@dataclass(frozen=True, kw_only=True)
class QuarkOwnView(QuarkView):
    """The public view, addressed to a player."""

    you: str


def public_view(state: QuarkState) -> QuarkView:
    """Everyone's counts and score-if-it-ended-now, the bank, the decks, whose turn, the end and the scores."""
    scores = [None if s.gone else score(s, state.atoms) for s in state.seats]  # a player who left has none
    return QuarkView(
        game=FACTS.name,
        players=tuple(
            PlayerSeen(
                name=s.name,
                energy=s.energy,
                protons=s.protons,
                neutrons=s.neutrons,
                particle_points=s.particle_points,
                particles=s.particles,
                baryons=s.baryons,
                mesons=s.mesons,
                hand=s.hand,
                decayed=s.decayed,
                turns=s.turns,
                score_now=sc.total if sc else None,
                atom_now=sc.atom.name if sc and sc.atom else None,
                neighbours=() if s.gone else tuple(neighbours(state.names_in, state.names_in.index(s.name))),
                gone=s.gone,
            )
            for s, sc in zip(state.seats, scores, strict=True)
        ),
        bank=BankSeen(state.bank_energy, state.bank_protons, state.bank_neutrons),
        bank_empty=state.bank_energy == 0,
        decks=MappingProxyType({d.name: DeckSeen(d.deck, d.row, d.discard, d.out) for d in state.decks}),
        discard=state.discard,
        start_player=state.names[state.start],
        current=None if state.over else state.names[state.current],
        actions_left=0 if state.over else state.actions_left,
        end_atom=end_atom_name(len(state.seats)),
        end=_end(state),
        over=state.over,  # the engine's end overrides it, and the outcome (a player leaving ends the game too)
        outcome=outcome(state),
        notice=notice(state),
        reminder=reminder(state),
        ranks=tuple(RANKS),
        annihilation_energy=MappingProxyType(dict(ANNIHILATION_ENERGY)),
        atoms=tuple(state.atoms),
        scores=tuple(_score(sc) if sc else _left(s.name) for s, sc in zip(state.seats, scores, strict=True)),
    )


def private_view(state: QuarkState, player: str) -> QuarkOwnView:
    """The public view, addressed to `player`: Quark keeps no secrets in the companion."""
    return addressed(public_view(state), QuarkOwnView, you=player)


def _left(player: str) -> ScoreSeen:
    """A player who left, in the scores: listed as left, never with a total (RULINGS)."""
    return ScoreSeen(player, True, None, None, None, None, None)


def _score(entry: Score) -> ScoreSeen:
    return ScoreSeen(
        entry.player, False, entry.particle_points, entry.atom, entry.atom_points, entry.leftover_energy, entry.total
    )


def _end(state: QuarkState) -> EndSeen | None:
    if state.end is None:
        return None
    left = turns_left(state)
    if state.over:
        then = "Every player has had the same number of turns: the game is over."
    elif len(left) == 1:
        then = f"This is the last turn ({left[0]})."
    else:
        then = f"{len(left)} turns left: {', '.join(left)}."
    return EndSeen(
        state.end.by, state.end.cause, f"{end_sentence(state.end, state.atoms)}: the end is triggered. {then}", left
    )


def end_sentence(end: EndTrigger | EndTriggered, atoms: Sequence[Atom] = DEFAULT_ATOMS) -> str:
    """What triggered the end, e.g. ``The last card of the meson deck was drawn``."""
    atom = next((a for a in atoms if a.name == end.atom), None)
    if end.cause == "atom" and atom is not None:
        return (
            f"{end.by} created {atom.name} ({atom.protons} protons, {atom.neutrons} neutrons, "
            f"{atom.electrons} energy as electrons)"
        )
    if end.cause == "atom":
        return f"{end.by} created {end.atom}"
    return f"The last card of the {end.deck} deck was drawn"


def reminder(state: QuarkState) -> str:
    """The hand limit, while the current player holds more than it."""
    if state.over:
        return ""
    seat = state.seats[state.current]
    if seat.hand <= HAND_LIMIT:
        return ""
    return (
        f"{seat.name} holds {seat.hand} cards: discard {seat.hand - HAND_LIMIT} "
        f"down to {HAND_LIMIT} at the end of the turn."
    )


def notice(state: QuarkState) -> str:
    """One sentence about what the last action could not do in full (the bank ran dry, a deck is empty)."""
    said: list[str] = []
    match state.last:
        case Decayed(player=player, energy=0):
            said.append(f"The energy bank is empty: {player}'s decay releases no energy token.")
        case Annihilated(player=player, rank=rank, paid=paid, short=short, drew=drew):
            if short:
                got = ", ".join(
                    f"{name} {amount} of {ANNIHILATION_ENERGY[rank] if name == player else NEIGHBOUR_SHARE}"
                    for name, amount in paid.items()
                )
                said.append(f"The energy bank ran dry: payments stopped at what was left ({got}).")
            if not drew:
                said.append(f"The quark deck is empty, so {player} draws no card.")
        case TurnEnded(player=player, hand=hand, discarded=discarded) if discarded:
            said.append(f"{player} discarded {min(discarded, hand)} down to {HAND_LIMIT}.")
    if state.unrefilled is not None:
        said.append(f"The {state.unrefilled} deck is empty, so the face-up row is not refilled.")
    return " ".join(said)


revealed_view = public_view  # nothing to reveal at the end


def tell(event: Event, state: QuarkState) -> str:
    """The sentence the table reads for `event` in the `state` it led to (with the table's own atoms)."""
    said = describe(event, state.atoms)
    if isinstance(event, PlayerLeft) and len(state.names_in) == 1:
        said += f" {state.names_in[0]} is the only player left and wins!"
    return said


def correction(event: Corrected) -> str:
    """``Correction: Ann's energy 7 → 5.``: a correction, plainly marked as one in the log."""
    whose = f"{event.player}'s" if event.player else "the"
    return f"Correction: {whose} {COUNTER_WORDS[event.counter]} {event.was} → {event.value}."


def describe(event: Event, atoms: Sequence[Atom] = DEFAULT_ATOMS) -> str:
    """One event as a sentence for the table (`atoms`: the table's atom table, for the end atom)."""
    match event:
        case Drew(player=who, source=source):
            return f"{who} draws {'a face-up card' if source == 'row' else 'blind from the quark deck'}."
        case DiscardedAndDrew(player=who, sources=sources):
            return f"{who} discards one card and draws two ({' and '.join(sources)})."
        case Decayed(player=who, energy=energy):
            return f"{who} decays a quark for {energy} energy."
        case Annihilated(player=who, rank=rank, paid=paid):
            gains = ", ".join(f"{name} +{amount}" for name, amount in paid.items())
            return f"{who} annihilates a {rank_name(rank)} pair: {gains} energy."
        case Created(player=who, particle=particle, points=points, transform=transform):
            worth = f" worth {points} points" if particle in ("baryon", "meson") else ""
            turning = (
                f", turning {rank_name(transform.source)} into {rank_name(transform.target)} "
                f"for {transform.cost} energy"
                if transform
                else ""
            )
            return f"{who} creates a {particle}{worth}{turning}."
        case TurnEnded(player=who, hand=hand, next_player=following):
            return f"{who} ends the turn with {plural(hand, 'card')}; {following} is next."
        case EndTriggered():
            return f"{end_sentence(event, atoms)}: the end is triggered."
        case HandCounted(player=who, cards=cards):
            return f"{who} holds {plural(cards, 'card')}."
        case Corrected():
            return correction(event)
        case FirstPlayerChosen():
            return told_first(event)  # how they were chosen, in the words every game uses
        case PlayerLeft(player=who):
            return (
                f"{who} leaves the game: their energy, protons and neutrons go back to the bank, "
                "and their particles leave with them."
            )
    return ""
