"""Quintet's rules: its words (actions and events) and what they do to a game.

The engine has already checked what every game shares before `decide` sees
an action: the game is not over, the action is Quintet's, and every name in
it is a player at the table. What is left is Quintet's own: whose roll it is,
the phase, the capturing circle, the tokens that may still land.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final, Literal

from companion.codec import optional
from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, RuleError, Seat, UnknownEvent, require
from companion.game import TurnEnded as EngineTurnEnded
from companion.games.quintet.settings import QuintetSettings

OPENING = "opening"
CIRCLE = "circle"
ROLLING_ON = "rolling_on"
PLAY = "play"
OVER = "over"
PHASES = (OPENING, CIRCLE, ROLLING_ON, PLAY, OVER)

TOKENS_IN_PLAY = 2
"""Each player has three tokens: one marks them in the circle, two move on the board."""

Rule = Literal["order", "rule7", "rule8"]
"""Why a capture was allowed: the capturing order (rule 4), the mover landing on its predator
(rule 7), or an old alliance the closing circle turned into predator and prey (rule 8)."""

ORDER: Final = "order"
RULE7: Final = "rule7"
RULE8: Final = "rule8"

class Ending(StrEnum):
    """Quintet's own word for its end (`Outcome.reason`): there is one way to win."""

    LAST_STANDING = "last player standing"


LAST_STANDING = Ending.LAST_STANDING
"""The `Outcome.reason` of every finished game of Quintet."""


# -- what the table says ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Roll two dice for whoever is due: the one action a GPIO roll button sends.

    In play it ends the current turn first, unless that player has yet to roll
    or rolled double fives. `player`, if given, must be the one due.
    """

    type = "roll"
    player: Seat | None = optional()


@dataclass(frozen=True, slots=True)
class SetCircle(Action):
    """The opening winner sets the capturing order: every player once, each capturing the next."""

    type = "set_circle"
    order: tuple[Seat, ...]
    by: Seat | None = optional()


@dataclass(frozen=True, slots=True)
class Safety(Action):
    """Tokens of the mover went into Safety after a six (both only after double sixes)."""

    type = "safety"
    player: Seat | None = optional()
    tokens: Literal[1, 2] = 1


@dataclass(frozen=True, slots=True)
class Capture(Action):
    """One token taken during a turn: the mover took its prey, or landed on its predator.

    `rule`, if given, must be the one that applies (``"order"`` or ``"rule7"``).
    """

    type = "capture"
    by: Seat
    of: Seat
    rule: Rule | None = optional()


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """The mover is done (a roll says the same; this says it without rolling)."""

    type = "end_turn"
    player: Seat | None = optional()


@dataclass(frozen=True, slots=True)
class AllianceCapture(Action):
    """Rule 8: a space shared by the predator and prey the closing circle has just made neighbours."""

    type = "alliance_capture"
    by: Seat
    of: Seat


@dataclass(frozen=True, slots=True)
class NoAllianceCaptures(Action):
    """The answer to the rule 8 question: no old alliance (or no more) became a capture."""

    type = "no_alliance_captures"


ACTIONS = (Roll, SetCircle, Safety, Capture, EndTurn, AllianceCapture, NoAllianceCaptures)


# -- what happened ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningRolled(Event):
    """One player's opening roll."""

    type = "opening_rolled"
    player: str
    dice: tuple[int, int]
    total: int


@dataclass(frozen=True, slots=True)
class OpeningWon(Event):
    """Everyone has rolled: `player` rolled the highest `total` first; `tied` rolled it later."""

    type = "opening_won"
    player: str
    total: int
    tied: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CircleSet(Event):
    type = "circle_set"
    by: str
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RolledOn(Event):
    """A player's tokens entered on the `spaces` the dice named (one space: a barricade)."""

    type = "rolled_on"
    player: str
    dice: tuple[int, int]
    spaces: tuple[int, ...]
    barricade: bool


@dataclass(frozen=True, slots=True)
class TurnEnded(EngineTurnEnded):
    """`player`'s turn is over; `next_player` has it (the same one when `extra`: double fives)."""

    extra: bool = False


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """A turn's roll; `safety` is how many tokens may enter Safety (a six: 1, double sixes: 2)."""

    type = "rolled"
    player: str
    dice: tuple[int, int]
    total: int
    double_fives: bool
    safety: int


@dataclass(frozen=True, slots=True)
class SafetyTaken(Event):
    type = "safety_taken"
    player: str
    tokens: int


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """A token of `of` taken by `by` under `rule`; `of` has `left` tokens on the board."""

    type = "captured"
    by: str
    of: str
    rule: Rule
    left: int


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """`player` lost their last token to `by`; `circle` is the capturing circle closed over the gap."""

    type = "player_out"
    player: str
    by: str
    circle: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AlliancesSettled(Event):
    type = "alliances_settled"


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    type = "game_won"
    player: str


EVENTS = (
    OpeningRolled,
    OpeningWon,
    CircleSet,
    RolledOn,
    TurnEnded,
    Rolled,
    SafetyTaken,
    Captured,
    PlayerOut,
    AlliancesSettled,
    GameWon,
)


# -- the state ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpeningRoll:
    """One player's opening roll (or roll on)."""

    player: str
    dice: tuple[int, int]

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]


@dataclass(frozen=True)
class AlliancePair:
    """A predator and prey made neighbours by a closing circle: rule 8 may apply to them.

    `left` is how many alliance captures the pair can still make (each
    alliance is one token of each on one space).
    """

    by: str
    of: str
    left: int


@dataclass(frozen=True)
class QuintetState:
    """Everything the companion knows about a game of Quintet. Immutable."""

    seats: tuple[str, ...]
    colours: tuple[str, ...]
    tokens: tuple[int, ...]  # tokens on the board, per seat
    phase: str = OPENING
    opening: tuple[OpeningRoll, ...] = ()
    first: str | None = None
    circle: tuple[str, ...] = ()  # circle[i] captures circle[i + 1] (and the last captures the first)
    rolled_on: tuple[OpeningRoll, ...] = ()
    current: str | None = None
    dice: tuple[int, int] | None = None  # the current turn's roll, None until rolled
    landings: int = 0  # captures the current roll may still cause (one per moving token)
    extra_turn: bool = False
    safety_offer: int = 0
    safety_taken: int = 0
    alliances: tuple[AlliancePair, ...] = ()  # open rule-8 question while non-empty
    out: tuple[str, ...] = ()  # in the order they were knocked out
    gone: tuple[str, ...] = ()  # in the order they left the game
    winner: str | None = None
    turns: int = 0
    rolls: int = 0

    def tokens_of(self, player: str) -> int:
        return self.tokens[self.seats.index(player)]

    @property
    def still_in(self) -> tuple[str, ...]:
        """Players with a token on the board (and not gone), in seat order."""
        return tuple(p for p, n in zip(self.seats, self.tokens, strict=True) if n > 0 and p not in self.gone)

    @property
    def seated(self) -> tuple[str, ...]:
        """The seats of players who have not left, in seat order."""
        return tuple(p for p in self.seats if p not in self.gone)

    def prey_of(self, player: str) -> str:
        i = self.circle.index(player)
        return self.circle[(i + 1) % len(self.circle)]

    def predator_of(self, player: str) -> str:
        i = self.circle.index(player)
        return self.circle[i - 1]

    def next_seat(self, player: str, among: Sequence[str] | None = None) -> str:
        """The next player clockwise after `player` (who may be out) among `among` (default: still in);
        `player` again when nobody in `among` is seated."""
        among = self.still_in if among is None else among
        n = len(self.seats)
        start = self.seats.index(player)
        for step in range(1, n + 1):
            candidate = self.seats[(start + step) % n]
            if candidate in among:
                return candidate
        return player


# -- setup --------------------------------------------------------------------------------


def setup(options: Options, settings: QuintetSettings) -> QuintetState:
    """Everyone with two tokens to enter, the first seat to make the first opening roll."""
    names = options.names
    return QuintetState(
        seats=names,
        colours=tuple(p.colour for p in options.players),
        tokens=(TOKENS_IN_PLAY,) * len(names),
        current=names[0],
    )


# -- decide -------------------------------------------------------------------------------


def decide(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    """The events `action` causes now; `RuleError` with the reason if the rules do not allow it."""
    match action:
        case Roll(player=asked):
            return _roll(state, asked, dice)
        case SetCircle(order=order, by=by):
            return _set_circle(state, order, by)
        case Safety(player=player, tokens=tokens):
            return _safety(state, player, tokens)
        case Capture(by=by, of=of, rule=rule):
            return _capture(state, by, of, rule)
        case EndTurn(player=player):
            return _end_turn(state, player)
        case AllianceCapture(by=by, of=of):
            return _alliance_capture(state, by, of)
        case NoAllianceCaptures():
            require(bool(state.alliances), "There is no open question about alliances (rule 8).")
            return [AlliancesSettled()]
    raise RuleError(f"Quintet has no action {type(action).type!r}.")


def _two_dice(dice: Dice) -> tuple[int, int]:
    return dice.roll(6), dice.roll(6)


def _roll(state: QuintetState, asked: str | None, dice: Dice) -> list[Event]:
    if state.phase == OPENING:
        due = _current(state)
        require(asked in (None, due), f"It is {due}'s opening roll, not {asked}'s.")
        a, b = _two_dice(dice)
        events: list[Event] = [OpeningRolled(due, (a, b), a + b)]
        rolls = (*state.opening, OpeningRoll(due, (a, b)))
        if len(rolls) == len(state.seated):
            winner, best, tied = _opening_winner(rolls)
            events.append(OpeningWon(winner, best, tied))
        return events
    require(state.phase != CIRCLE, f"{state.first} won the opening roll and first sets the capturing circle.")
    if state.phase == ROLLING_ON:
        due = _current(state)
        require(asked in (None, due), f"It is {due}'s turn to roll on, not {asked}'s.")
        a, b = _two_dice(dice)
        return [RolledOn(due, (a, b), tuple(sorted({a, b})), a == b)]
    # Play: a roll also ends the turn before it, unless that turn's roll is still to come.
    _require_no_open_alliances(state)
    current = _current(state)
    events = []
    if state.dice is None:
        roller = current
        require(asked in (None, roller), f"It is {roller}'s turn to roll, not {asked}'s.")
    elif state.extra_turn:
        roller = current
        require(asked in (None, roller), f"{roller} rolled double fives and rolls again, not {asked}.")
        events.append(TurnEnded(current, roller, extra=True))
    else:
        roller = state.next_seat(current)
        require(
            asked in (None, roller),
            f"{current} has rolled this turn; the next roll is {roller}'s, not {asked}'s.",
        )
        events.append(TurnEnded(current, roller, extra=False))
    a, b = _two_dice(dice)
    safety = 2 if (a, b) == (6, 6) and state.tokens_of(roller) >= 2 else 1 if 6 in (a, b) else 0
    events.append(Rolled(roller, (a, b), a + b, (a, b) == (5, 5), safety))
    return events


def _opening_winner(rolls: Sequence[OpeningRoll]) -> tuple[str, int, tuple[str, ...]]:
    """Who won the opening roll (the first to roll the highest total), that total, and who also rolled it."""
    best = max(r.total for r in rolls)
    winner = next(r.player for r in rolls if r.total == best)
    return winner, best, tuple(r.player for r in rolls if r.total == best and r.player != winner)


def _set_circle(state: QuintetState, order: tuple[str, ...], by: str | None) -> list[Event]:
    require(state.phase == CIRCLE, _not_now(state, "The capturing circle is set once, after the opening roll."))
    first = state.first
    assert first is not None
    require(by in (None, first), f"{first} won the opening roll, so {first} sets the circle.")
    require(len(set(order)) == len(order), "Each player appears once in the capturing circle.")
    gone = [p for p in order if p in state.gone]
    require(not gone, f"{', '.join(gone)} left the game and has no place in the capturing circle.")
    missing = [p for p in state.seated if p not in order]
    require(not missing, f"The capturing circle needs every player; {', '.join(missing)} missing.")
    return [CircleSet(first, order)]


def _safety(state: QuintetState, player: str | None, tokens: int) -> list[Event]:
    _require_rolled(state)
    current = _current(state)
    require(player in (None, current), f"Only {current}, whose turn it is, can take Safety now.")
    require(state.safety_offer > 0, f"{current} rolled no six, so no token may enter a Safety space.")
    require(state.safety_taken == 0, f"{current} already took Safety with this roll.")
    require(tokens <= state.tokens_of(current), f"{current} has only one token left.")
    require(
        tokens <= state.safety_offer,
        f"Only double sixes let both tokens enter Safety; {current} rolled a single six.",
    )
    require(tokens <= state.landings, f"{current}'s tokens have already finished moving this roll.")
    return [SafetyTaken(current, tokens)]


def _capture(state: QuintetState, by: str, of: str, rule: Rule | None) -> list[Event]:
    _require_rolled(state)
    current = _current(state)
    require(
        rule != RULE8,
        'A capture from an old alliance (rule 8) is recorded with {"type": "alliance_capture", ...}.',
    )
    require(by != of, "Nobody captures their own token.")
    for name in (by, of):
        require(name in state.circle, f"{name} is out of the game and has no token to capture with or lose.")
    found: Rule
    if by == current:
        prey = state.prey_of(by)
        require(of == prey, f"{by} cannot capture {of}: in the capturing circle {by} captures only {prey} (rule 4).")
        require(
            rule in (None, ORDER),
            f"{by} is moving, so capturing {of} follows the capturing order (rule 4), not rule 7.",
        )
        found = ORDER
    elif of == current:
        predator = state.predator_of(of)
        require(
            by == predator,
            f"{by} cannot capture {of}: only {of}'s predator, {predator}, captures {of} "
            f"when {of} lands on its token (rule 7).",
        )
        require(rule in (None, RULE7), f"{of} is moving and landed on {by}: that is rule 7, not the capturing order.")
        found = RULE7
    else:
        raise RuleError(
            f"Only {current}'s moves capture now: {current} captures {state.prey_of(current)} (rule 4), "
            f"or {current} lands on {state.predator_of(current)} and is captured (rule 7); "
            f"{by} capturing {of} is neither."
        )
    require(
        state.landings > 0,
        f"{current}'s tokens have all finished moving this roll; a capture needs a token that lands.",
    )
    return _capture_events(state, by, of, found)


def _alliance_capture(state: QuintetState, by: str, of: str) -> list[Event]:
    require(
        bool(state.alliances),
        "An alliance turns into a capture (rule 8) only right after a player is out and the circle closes.",
    )
    if not any((pair.by, pair.of) == (by, of) for pair in state.alliances):
        raise RuleError(
            f"{by} and {of} did not just become predator and prey, so their alliance holds; "
            f"the new circle can only turn {_could_capture(state)} into a capture (rule 8)."
        )
    return _capture_events(state, by, of, RULE8)


def _end_turn(state: QuintetState, player: str | None) -> list[Event]:
    _require_rolled(state)
    current = _current(state)
    require(player in (None, current), f"It is {current}'s turn, not {player}'s.")
    nxt = current if state.extra_turn else state.next_seat(current)
    return [TurnEnded(current, nxt, extra=state.extra_turn)]


def _capture_events(state: QuintetState, by: str, of: str, rule: Rule) -> list[Event]:
    left = state.tokens_of(of) - 1
    events: list[Event] = [Captured(by, of, rule, left)]
    if left == 0:
        circle = tuple(p for p in state.circle if p != of)
        events.append(PlayerOut(of, by, circle))
        if len(circle) == 1:
            events.append(GameWon(circle[0]))
    return events


def _current(state: QuintetState) -> str:
    # Somebody is current in every phase but the last, and the engine refuses everything once it is over.
    assert state.current is not None
    return state.current


def _require_rolled(state: QuintetState) -> None:
    require(state.phase == PLAY, _not_now(state, "That happens during play, after everyone has rolled on."))
    _require_no_open_alliances(state)
    require(state.dice is not None, f"{state.current} has not rolled yet this turn.")


def _require_no_open_alliances(state: QuintetState) -> None:
    if state.alliances:
        raise RuleError(
            f"First settle the new circle's alliances (rule 8): record {_could_capture(state)}, or say there are none."
        )


def _could_capture(state: QuintetState) -> str:
    return " or ".join(f"{p.by} capturing {p.of}" for p in state.alliances)


def _not_now(state: QuintetState, sentence: str) -> str:
    where = {
        OPENING: f"we are in the opening roll ({state.current} rolls next)",
        CIRCLE: f"{state.first} is setting the capturing circle",
        ROLLING_ON: f"players are rolling on ({state.current} next)",
        PLAY: "play has started",
        OVER: "the game is over",
    }[state.phase]
    return f"{sentence} Now {where}."


# -- evolve -------------------------------------------------------------------------------


def evolve(state: QuintetState, event: Event) -> QuintetState:
    """The state after `event`; `UnknownEvent` for an event Quintet never makes."""
    match event:
        case OpeningRolled(player=player, dice=dice):
            opening = (*state.opening, OpeningRoll(player, dice))
            waiting = _yet_to_roll(state.seated, opening)
            nxt = waiting[0] if waiting else player
            return replace(state, opening=opening, current=nxt, rolls=state.rolls + 1)
        case OpeningWon(player=winner):
            return replace(state, phase=CIRCLE, first=winner, current=winner)
        case CircleSet(order=circle):
            return replace(state, phase=ROLLING_ON, circle=circle, current=state.first or state.seats[0])
        case RolledOn(player=player, dice=dice):
            return _rolled_on(state, OpeningRoll(player, dice))
        case TurnEnded(next_player=nxt):
            return _new_turn(state, nxt)
        case Rolled(player=player, dice=dice, double_fives=double_fives, safety=safety):
            return replace(
                state,
                current=player,
                dice=dice,
                landings=state.tokens_of(player),
                extra_turn=double_fives,
                safety_offer=safety,
                safety_taken=0,
                rolls=state.rolls + 1,
            )
        case SafetyTaken(tokens=tokens):
            return replace(state, safety_taken=tokens, landings=max(0, state.landings - tokens))
        case Captured(by=by, of=of, rule=rule):
            return _captured(state, by, of, rule)
        case PlayerOut(player=gone):
            return _player_out(state, gone)
        case AlliancesSettled():
            return replace(state, alliances=())
        case GameWon(player=winner):
            return replace(
                state,
                phase=OVER,
                winner=winner,
                current=None,
                dice=None,
                landings=0,
                extra_turn=False,
                safety_offer=0,
                alliances=(),
            )
        case _:
            raise UnknownEvent("Quintet", event)


def _rolled_on(state: QuintetState, roll: OpeningRoll) -> QuintetState:
    rolled_on = (*state.rolled_on, roll)
    waiting = _yet_to_roll(state.still_in, rolled_on)
    if not waiting:  # everyone is on the board: the first player rolls to start play
        return replace(state, rolled_on=rolled_on, phase=PLAY, current=_starter(state), rolls=state.rolls + 1, turns=1)
    nxt = state.next_seat(roll.player, waiting)
    return replace(state, rolled_on=rolled_on, current=nxt, rolls=state.rolls + 1)


def _yet_to_roll(players: Sequence[str], rolls: Sequence[OpeningRoll]) -> list[str]:
    done = {r.player for r in rolls}
    return [p for p in players if p not in done]


def _starter(state: QuintetState) -> str:
    """Who rolls first in play: the opening's winner, or the next seat still in if they left."""
    first = state.first or state.seats[0]
    return first if first in state.still_in else state.next_seat(first)


def _new_turn(state: QuintetState, player: str) -> QuintetState:
    """`player`'s turn begins: nothing rolled yet, nothing to land, no Safety offered."""
    return replace(
        state,
        current=player,
        dice=None,
        landings=0,
        extra_turn=False,
        safety_offer=0,
        safety_taken=0,
        turns=state.turns + 1,
    )


def _captured(state: QuintetState, by: str, of: str, rule: Rule) -> QuintetState:
    i = state.seats.index(of)
    tokens = (*state.tokens[:i], max(0, state.tokens[i] - 1), *state.tokens[i + 1 :])
    # A capture in a turn is one of the mover's tokens landing; an alliance capture (rule 8) is not.
    landings = state.landings - 1 if rule in (ORDER, RULE7) else state.landings
    alliances = state.alliances
    if rule == RULE8:
        used = tuple(replace(p, left=p.left - 1) if (p.by, p.of) == (by, of) else p for p in alliances)
        alliances = tuple(p for p in used if p.left > 0)
    return replace(state, tokens=tokens, landings=max(0, landings), alliances=alliances)


def _player_out(state: QuintetState, gone: str) -> QuintetState:
    old = state.circle
    circle = tuple(p for p in old if p != gone)
    # The pair the gap joins: the old predator of the player now out preys on its old prey (rule 8).
    alliances = tuple(p for p in state.alliances if gone not in (p.by, p.of))
    if len(circle) >= 2 and gone in old:
        i = old.index(gone)
        by, of = old[i - 1], old[(i + 1) % len(old)]
        # Both still hold a token: a player whose last token is taken leaves the circle at once.
        alliances = (*alliances, AlliancePair(by, of, min(state.tokens_of(by), state.tokens_of(of))))
    after = replace(state, circle=circle, out=(*state.out, gone), alliances=alliances)
    if state.current == gone:  # the mover is out: the turn passes on
        return _new_turn(after, state.next_seat(gone, circle))
    return after


# -- a player leaves ---------------------------------------------------------------------


def players_in(state: QuintetState) -> tuple[str, ...]:
    """Who is still playing: not knocked out, not gone."""
    return state.still_in


def left(state: QuintetState, player: str) -> QuintetState:
    """`player` left. Before the circle is set they just drop out of the opening; after it, the
    circle closes over the gap exactly as when a player is out, and play goes on."""
    gone = (*state.gone, player)
    if state.phase in (OPENING, CIRCLE):
        after = replace(state, gone=gone, opening=tuple(r for r in state.opening if r.player != player))
        waiting = _yet_to_roll(after.seated, after.opening)
        if waiting:  # the opening roll goes on without them
            return replace(after, current=waiting[0] if state.current == player else state.current)
        if len(after.seated) < 2:  # one player is left: the engine ends the game
            return after
        first, _best, _tied = _opening_winner(after.opening)  # everyone left has rolled
        return replace(after, phase=CIRCLE, first=first, current=first)
    i = state.seats.index(player)
    tokens = (*state.tokens[:i], 0, *state.tokens[i + 1 :])
    after = _player_out(replace(state, tokens=tokens, gone=gone), player)
    after = replace(after, out=state.out)  # left, not knocked out
    if state.phase == ROLLING_ON and state.current == player:
        waiting = _yet_to_roll(after.still_in, after.rolled_on)
        if not waiting:
            return replace(after, phase=PLAY, current=_starter(after), turns=1)
        return replace(after, current=after.next_seat(player, waiting), turns=state.turns)
    return after


# -- questions --------------------------------------------------------------------------


def outcome(state: QuintetState) -> Outcome | None:
    """The last player standing, once only one is left in the circle."""
    if state.winner is None:
        return None
    knocked = ", ".join(state.out)
    return Outcome(
        (state.winner,),
        LAST_STANDING,
        f"{state.winner} is the last player standing after {_turns(state.turns)} (out in order: {knocked}).",
    )


def current_player(state: QuintetState) -> str | None:
    """Who rolls or moves now: the opening roller, the player rolling on, the mover; None once it is over."""
    return state.current if state.phase != OVER else None


def due_to_roll(state: QuintetState) -> str | None:
    """Whose roll the next `Roll` is (None when nobody may roll)."""
    if state.phase in (OPENING, ROLLING_ON):
        return state.current
    if state.phase != PLAY or state.alliances or state.current is None:
        return None
    if state.dice is None or state.extra_turn:
        return state.current
    return state.next_seat(state.current)


def legal_actions(state: QuintetState, player: str) -> list[Action]:
    """What `player` may do now.

    A roll belongs to whoever it is due to. Everything else recorded during a
    turn (captures, Safety, ending it, the rule 8 question) belongs to the
    turn's mover. The capturing circle is not listed: any order of the
    players may be chosen (ask `RegisteredGame.refusal` about one).
    """
    actions: list[Action] = []
    if due_to_roll(state) == player:
        actions.append(Roll(player))
    if state.phase != PLAY or player != state.current:
        return actions
    if state.alliances:
        return [*(AllianceCapture(p.by, p.of) for p in state.alliances), NoAllianceCaptures()]
    if state.dice is None:
        return actions
    if state.landings > 0:
        actions.append(Capture(player, state.prey_of(player), ORDER))
        actions.append(Capture(state.predator_of(player), player, RULE7))
    if state.safety_offer and not state.safety_taken:
        most = min(state.safety_offer, state.tokens_of(player), state.landings)
        if most >= 1:
            actions.append(Safety(player, 1))
        if most >= 2:
            actions.append(Safety(player, 2))
    actions.append(EndTurn(player))
    return actions


def _turns(count: int) -> str:
    """``1 turn``, ``12 turns``."""
    return f"{count} turn" if count == 1 else f"{count} turns"
