"""Quintet: the opening roll, the capturing circle, fair dice and who is still alive.

The tokens move on the physical board; the companion rolls the dice and keeps
what the table would otherwise argue about: who plays first, the capturing
order (the "killing circle"), whose turn it is, which captures the order
allows, and who is out.

The flow of a game, as phases:

``opening``
    Every player rolls two dice, in seat order. The highest total plays
    first; on a tie the one who rolled that total first wins (no re-roll).
``circle``
    The opening winner sets the capturing circle: a cycle of all players,
    each capturing the next one (its prey) and captured by the previous one
    (its predator). Not necessarily the seating order.
``rolling_on``
    Starting with the opening winner and going round the seats, each player
    rolls once to enter their two tokens on the spaces the dice name.
``play``
    Turns go round the seats from the opening winner, skipping players who
    are out. A turn is one roll (double fives: another roll after moving).
    A roll ends the previous turn, so a single roll button (or a GPIO
    button) is all a table needs; ``end_turn`` says it explicitly.
``over``
    One player is left in the circle: they win.

Captures are recorded, never seen: the table says "X captured Y" and the
companion checks it against the circle. During a turn only the mover's
landings capture: the mover captures its prey (rule 4), or the mover lands on
its own predator and is captured by it (rule 7, also rules 10 and 12). Each
token that moved lands once, so a roll allows as many such captures as the
mover had tokens (fewer for tokens sent into Safety). When a player loses
both tokens they are out and the circle closes over the gap; the player
before the gap now preys on the player after it, and the table is asked
whether one of their shared spaces (an old alliance) is now a capture
(rule 8) before play goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.dice import Dice
from companion.game import Action, Event, Options, Outcome, Reason, RuleError, SetupError, View, action_type, require

OPENING = "opening"
CIRCLE = "circle"
ROLLING_ON = "rolling_on"
PLAY = "play"
OVER = "over"
PHASES = (OPENING, CIRCLE, ROLLING_ON, PLAY, OVER)

TOKENS_IN_PLAY = 2
"""Each player has three tokens: one marks them in the circle, two move on the board."""

ORDER = "order"
RULE7 = "rule7"
RULE8 = "rule8"

ACTIONS = ("roll", "set_circle", "safety", "capture", "end_turn", "alliance_capture", "no_alliance_captures")


@dataclass(frozen=True)
class OpeningRoll:
    """One player's opening roll."""

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
    winner: str | None = None
    turns: int = 0
    rolls: int = 0
    news: str = ""

    def tokens_of(self, player: str) -> int:
        return self.tokens[self.seats.index(player)]

    @property
    def still_in(self) -> tuple[str, ...]:
        """Players with a token on the board, in seat order."""
        return tuple(p for p, n in zip(self.seats, self.tokens, strict=True) if n > 0)

    def prey_of(self, player: str) -> str:
        i = self.circle.index(player)
        return self.circle[(i + 1) % len(self.circle)]

    def predator_of(self, player: str) -> str:
        i = self.circle.index(player)
        return self.circle[i - 1]

    def next_seat(self, player: str, among: Sequence[str] | None = None) -> str:
        """The next player clockwise after `player` (who may be out) among `among` (default: still in)."""
        among = self.still_in if among is None else among
        n = len(self.seats)
        start = self.seats.index(player)
        for step in range(1, n + 1):
            candidate = self.seats[(start + step) % n]
            if candidate in among:
                return candidate
        return player


# -- setup ------------------------------------------------------------------


def setup(options: Options) -> QuintetState:
    unknown = sorted(set(options.settings))
    if unknown:
        raise SetupError(f"Quintet has no setting called {unknown[0]!r}; it needs none.")
    names = options.names
    if not 2 <= len(names) <= 5:
        raise SetupError(f"Quintet is for 2 to 5 players; {len(names)} are seated.")
    if len(set(names)) != len(names):
        raise SetupError("Two players have the same name; give each a different one.")
    return QuintetState(
        seats=names,
        colours=tuple(p.colour for p in options.players),
        tokens=(TOKENS_IN_PLAY,) * len(names),
        current=names[0],
        news=f"Opening roll: {names[0]} rolls first; the highest total plays first.",
    )


# -- decide -----------------------------------------------------------------


def decide(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    kind = action_type(action)
    handler = _HANDLERS.get(kind)
    require(handler is not None, f"Quintet has no action called {kind!r}; the actions are: {', '.join(ACTIONS)}.")
    assert handler is not None
    require(state.phase != OVER, f"The game is over: {state.winner} won.")
    return handler(state, action, dice)


def _player_field(state: QuintetState, action: Action, key: str, *, required: bool = True) -> str | None:
    """A player name from the action, checked: None only if optional and absent."""
    if key not in action or action[key] is None:
        require(not required, f'This action needs "{key}": the name of a player.')
        return None
    name = action[key]
    require(isinstance(name, str), f'"{key}" must be a player\'s name, in quotes.')
    require(name in state.seats, f"There is no player called {name!r} at this table.")
    return str(name)


def _two_dice(dice: Dice) -> tuple[int, int]:
    return dice.roll(6), dice.roll(6)


def _roll(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    asked = _player_field(state, action, "player", required=False)
    if state.phase == OPENING:
        due = state.current
        assert due is not None
        require(asked in (None, due), f"It is {due}'s opening roll, not {asked}'s.")
        a, b = _two_dice(dice)
        events: list[Event] = [{"type": "opening_rolled", "player": due, "dice": [a, b], "total": a + b}]
        rolls = (*state.opening, OpeningRoll(due, (a, b)))
        if len(rolls) == len(state.seats):
            best = max(r.total for r in rolls)
            winner = next(r.player for r in rolls if r.total == best)  # first to roll it
            tied = [r.player for r in rolls if r.total == best and r.player != winner]
            events.append({"type": "opening_won", "player": winner, "total": best, "tied": tied})
        return events
    require(state.phase != CIRCLE, f"{state.first} won the opening roll and first sets the capturing circle.")
    if state.phase == ROLLING_ON:
        due = state.current
        assert due is not None
        require(asked in (None, due), f"It is {due}'s turn to roll on, not {asked}'s.")
        a, b = _two_dice(dice)
        return [{"type": "rolled_on", "player": due, "dice": [a, b], "spaces": sorted({a, b}), "barricade": a == b}]
    # play
    _require_no_open_alliances(state)
    current = state.current
    assert current is not None
    events = []
    if state.dice is None:
        roller = current
        require(asked in (None, roller), f"It is {roller}'s turn to roll, not {asked}'s.")
    elif state.extra_turn:
        roller = current
        require(asked in (None, roller), f"{roller} rolled double fives and rolls again, not {asked}.")
        events.append({"type": "turn_ended", "player": current, "next": roller, "extra": True})
    else:
        roller = state.next_seat(current)
        require(
            asked in (None, roller),
            f"{current} has rolled this turn; the next roll is {roller}'s, not {asked}'s.",
        )
        events.append({"type": "turn_ended", "player": current, "next": roller, "extra": False})
    a, b = _two_dice(dice)
    tokens = state.tokens_of(roller)
    safety = 2 if (a, b) == (6, 6) and tokens >= 2 else 1 if 6 in (a, b) else 0
    events.append(
        {
            "type": "rolled",
            "player": roller,
            "dice": [a, b],
            "total": a + b,
            "double_fives": (a, b) == (5, 5),
            "safety": safety,
        }
    )
    return events


def _set_circle(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    require(state.phase == CIRCLE, _not_now(state, "The capturing circle is set once, after the opening roll."))
    by = _player_field(state, action, "by", required=False)
    require(by in (None, state.first), f"{state.first} won the opening roll, so {state.first} sets the circle.")
    order = action.get("order")
    require(
        isinstance(order, (list, tuple)) and all(isinstance(p, str) for p in order),
        '"order" must list the players\' names in capturing order, e.g. ["Ann", "Bo", "Cy"].',
    )
    assert isinstance(order, (list, tuple))
    for name in order:
        require(name in state.seats, f"There is no player called {name!r} at this table.")
    require(len(set(order)) == len(order), "Each player appears once in the capturing circle.")
    missing = [p for p in state.seats if p not in order]
    require(not missing, f"The capturing circle needs every player; {', '.join(missing)} missing.")
    return [{"type": "circle_set", "by": state.first, "order": list(order)}]


def _safety(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    _require_rolled(state)
    current = state.current
    assert current is not None
    player = _player_field(state, action, "player", required=False)
    require(player in (None, current), f"Only {current}, whose turn it is, can take Safety now.")
    tokens = action.get("tokens", 1)
    require(
        isinstance(tokens, int) and not isinstance(tokens, bool) and tokens in (1, 2),
        '"tokens" is how many tokens go into Safety: 1 or 2.',
    )
    require(state.safety_offer > 0, f"{current} rolled no six, so no token may enter a Safety space.")
    require(state.safety_taken == 0, f"{current} already took Safety with this roll.")
    require(tokens <= state.tokens_of(current), f"{current} has only one token left.")
    require(
        tokens <= state.safety_offer,
        f"Only double sixes let both tokens enter Safety; {current} rolled a single six.",
    )
    require(tokens <= state.landings, f"{current}'s tokens have already finished moving this roll.")
    return [{"type": "safety_taken", "player": current, "tokens": tokens}]


def _capture(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    _require_rolled(state)
    current = state.current
    assert current is not None
    by = _player_field(state, action, "by")
    of = _player_field(state, action, "of")
    assert by is not None and of is not None
    rule = action.get("rule")
    require(
        rule in (None, ORDER, RULE7, RULE8),
        '"rule" is "order" (the mover captures its prey) or "rule7" (the mover lands on its predator).',
    )
    require(
        rule != RULE8,
        'A capture from an old alliance (rule 8) is recorded with {"type": "alliance_capture", ...}.',
    )
    require(by != of, "Nobody captures their own token.")
    for name in (by, of):
        require(name in state.circle, f"{name} is out of the game and has no token to capture with or lose.")
    if by == current:
        prey = state.prey_of(by)
        require(
            of == prey,
            f"{by} cannot capture {of}: in the capturing circle {by} captures only {prey} (rule 4).",
        )
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
        require(
            rule in (None, RULE7),
            f"{of} is moving and landed on {by}: that is rule 7, not the capturing order.",
        )
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


def _alliance_capture(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    require(
        bool(state.alliances),
        "An alliance turns into a capture (rule 8) only right after a player is out and the circle closes.",
    )
    by = _player_field(state, action, "by")
    of = _player_field(state, action, "of")
    assert by is not None and of is not None
    pairs = [pair for pair in state.alliances if (pair.by, pair.of) == (by, of)]
    if not pairs:
        could = " or ".join(f"{p.by} capturing {p.of}" for p in state.alliances)
        raise RuleError(
            f"{by} and {of} did not just become predator and prey, so their alliance holds; "
            f"the new circle can only turn {could} into a capture (rule 8)."
        )
    return _capture_events(state, by, of, RULE8)


def _no_alliance_captures(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    require(bool(state.alliances), "There is no open question about alliances (rule 8).")
    return [{"type": "alliances_settled"}]


def _end_turn(state: QuintetState, action: Action, dice: Dice) -> list[Event]:
    _require_rolled(state)
    current = state.current
    assert current is not None
    player = _player_field(state, action, "player", required=False)
    require(player in (None, current), f"It is {current}'s turn, not {player}'s.")
    nxt = current if state.extra_turn else state.next_seat(current)
    return [{"type": "turn_ended", "player": current, "next": nxt, "extra": state.extra_turn}]


def _capture_events(state: QuintetState, by: str, of: str, rule: str) -> list[Event]:
    left = state.tokens_of(of) - 1
    events: list[Event] = [{"type": "captured", "by": by, "of": of, "rule": rule, "left": left}]
    if left == 0:
        circle = [p for p in state.circle if p != of]
        events.append({"type": "player_out", "player": of, "by": by, "circle": circle})
        if len(circle) == 1:
            events.append({"type": "game_won", "player": circle[0]})
    return events


def _require_rolled(state: QuintetState) -> None:
    require(state.phase == PLAY, _not_now(state, "That happens during play, after everyone has rolled on."))
    _require_no_open_alliances(state)
    require(state.dice is not None, f"{state.current} has not rolled yet this turn.")


def _require_no_open_alliances(state: QuintetState) -> None:
    if state.alliances:
        could = " or ".join(f"{p.by} capturing {p.of}" for p in state.alliances)
        raise RuleError(f"First settle the new circle's alliances (rule 8): record {could}, or say there are none.")


def _not_now(state: QuintetState, sentence: str) -> str:
    where = {
        OPENING: f"we are in the opening roll ({state.current} rolls next)",
        CIRCLE: f"{state.first} is setting the capturing circle",
        ROLLING_ON: f"players are rolling on ({state.current} next)",
        PLAY: "play has started",
        OVER: "the game is over",
    }[state.phase]
    return f"{sentence} Now {where}."


_HANDLERS = {
    "roll": _roll,
    "set_circle": _set_circle,
    "safety": _safety,
    "capture": _capture,
    "end_turn": _end_turn,
    "alliance_capture": _alliance_capture,
    "no_alliance_captures": _no_alliance_captures,
}


# -- evolve -----------------------------------------------------------------


def evolve(state: QuintetState, event: Event) -> QuintetState:
    apply = _APPLY.get(str(event.get("type")))
    return apply(state, event) if apply else state


def _dice_of(event: Event) -> tuple[int, int]:
    a, b = event["dice"]
    return int(a), int(b)


def _on_opening_rolled(state: QuintetState, event: Event) -> QuintetState:
    player = event["player"]
    a, b = _dice_of(event)
    opening = (*state.opening, OpeningRoll(player, (a, b)))
    nxt = state.seats[len(opening)] if len(opening) < len(state.seats) else player
    return replace(
        state,
        opening=opening,
        current=nxt,
        rolls=state.rolls + 1,
        news=f"{player} rolled {a} and {b}: {a + b}." + (f" {nxt} rolls next." if nxt != player else ""),
    )


def _on_opening_won(state: QuintetState, event: Event) -> QuintetState:
    winner = event["player"]
    tied = list(event.get("tied", ()))
    tie = f" ({', '.join(tied)} also rolled {event['total']}, but later.)" if tied else ""
    return replace(
        state,
        phase=CIRCLE,
        first=winner,
        current=winner,
        news=f"{winner} rolled the highest, {event['total']}, plays first and sets the capturing circle.{tie}",
    )


def _on_circle_set(state: QuintetState, event: Event) -> QuintetState:
    circle = tuple(event["order"])
    first = state.first or state.seats[0]
    return replace(
        state,
        phase=ROLLING_ON,
        circle=circle,
        current=first,
        news=f"Capturing circle: {circle_text(circle)}. {first} rolls on first.",
    )


def _on_rolled_on(state: QuintetState, event: Event) -> QuintetState:
    player = event["player"]
    a, b = _dice_of(event)
    rolled_on = (*state.rolled_on, OpeningRoll(player, (a, b)))
    where = f"both tokens on space {a}: a barricade" if a == b else f"tokens on spaces {min(a, b)} and {max(a, b)}"
    news = f"{player} rolled {a} and {b} and enters {where}."
    done = {r.player for r in rolled_on}
    first = state.first or state.seats[0]
    if len(done) >= len(state.seats):
        return replace(
            state,
            rolled_on=rolled_on,
            phase=PLAY,
            current=first,
            rolls=state.rolls + 1,
            turns=1,
            news=f"{news} Everyone is on the board: {first} rolls.",
        )
    nxt = state.next_seat(player, [p for p in state.seats if p not in done])
    return replace(state, rolled_on=rolled_on, current=nxt, rolls=state.rolls + 1, news=f"{news} {nxt} rolls on next.")


def _on_turn_ended(state: QuintetState, event: Event) -> QuintetState:
    nxt = event["next"]
    extra = bool(event.get("extra"))
    news = f"{nxt} takes the extra turn from double fives." if extra else f"{nxt}'s turn."
    return replace(
        state,
        current=nxt,
        dice=None,
        landings=0,
        extra_turn=False,
        safety_offer=0,
        safety_taken=0,
        turns=state.turns + 1,
        news=news,
    )


def _on_rolled(state: QuintetState, event: Event) -> QuintetState:
    player = event["player"]
    a, b = _dice_of(event)
    safety = int(event.get("safety", 0))
    news = f"{player} rolled {a} and {b}."
    if event.get("double_fives"):
        news += " Double fives: move, then roll again."
    if safety == 2:
        news += " Double sixes: both tokens may enter Safety."
    elif safety == 1:
        news += " A six: a token may enter the nearest Safety space."
    return replace(
        state,
        current=player,
        dice=(a, b),
        landings=state.tokens_of(player),
        extra_turn=bool(event.get("double_fives")),
        safety_offer=safety,
        safety_taken=0,
        rolls=state.rolls + 1,
        news=news,
    )


def _on_safety_taken(state: QuintetState, event: Event) -> QuintetState:
    tokens = int(event["tokens"])
    what = "both tokens enter" if tokens == 2 else "a token enters"
    return replace(
        state,
        safety_taken=tokens,
        landings=max(0, state.landings - tokens),
        news=f"{event['player']}: {what} Safety.",
    )


def _on_captured(state: QuintetState, event: Event) -> QuintetState:
    by, of, rule = event["by"], event["of"], event["rule"]
    i = state.seats.index(of)
    tokens = (*state.tokens[:i], max(0, state.tokens[i] - 1), *state.tokens[i + 1 :])
    landings = state.landings - 1 if rule in (ORDER, RULE7) else state.landings
    alliances = state.alliances
    if rule == RULE8:
        used = tuple(replace(p, left=p.left - 1) if (p.by, p.of) == (by, of) else p for p in alliances)
        alliances = tuple(p for p in used if p.left > 0)
    left = tokens[i]
    how = {ORDER: "", RULE7: f" ({of} landed on its predator, rule 7)", RULE8: " (an alliance broken, rule 8)"}
    news = f"{by} captured a token of {of}{how.get(rule, '')}; {of} has {left} left."
    return replace(state, tokens=tokens, landings=max(0, landings), alliances=alliances, news=news)


def _on_player_out(state: QuintetState, event: Event) -> QuintetState:
    gone = event["player"]
    old = state.circle
    circle = tuple(p for p in old if p != gone)
    out = (*state.out, gone)
    news = f"{gone} is out. New capturing circle: {circle_text(circle)}."
    # The pair the gap joins: the old predator of the player now out preys on its old prey.
    alliances = tuple(p for p in state.alliances if gone not in (p.by, p.of))
    if len(circle) >= 2 and gone in old:
        i = old.index(gone)
        by, of = old[i - 1], old[(i + 1) % len(old)]
        tokens = dict(zip(state.seats, state.tokens, strict=True))
        pair = AlliancePair(by, of, min(tokens[by], tokens[of]))
        if pair.left > 0:
            alliances = (*alliances, pair)
    if alliances:
        news += " Does any space hold an old alliance that is now predator and prey? " + " or ".join(
            f"{p.by} would capture {p.of}" for p in alliances
        )
    changes: dict[str, Any] = {"circle": circle, "out": out, "alliances": alliances, "news": news}
    if state.current == gone:
        nxt = state.next_seat(gone, circle)
        changes.update(
            current=nxt,
            dice=None,
            landings=0,
            extra_turn=False,
            safety_offer=0,
            safety_taken=0,
            turns=state.turns + 1,
        )
        changes["news"] = news + f" {nxt}'s turn."
    return replace(state, **changes)


def _on_alliances_settled(state: QuintetState, event: Event) -> QuintetState:
    turn = f" {state.current} goes on." if state.dice is not None else f" {state.current} rolls."
    return replace(state, alliances=(), news="No alliance became a capture." + turn)


def _on_game_won(state: QuintetState, event: Event) -> QuintetState:
    winner = event["player"]
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
        news=f"{winner} is the last player standing and wins!",
    )


_APPLY = {
    "opening_rolled": _on_opening_rolled,
    "opening_won": _on_opening_won,
    "circle_set": _on_circle_set,
    "rolled_on": _on_rolled_on,
    "turn_ended": _on_turn_ended,
    "rolled": _on_rolled,
    "safety_taken": _on_safety_taken,
    "captured": _on_captured,
    "player_out": _on_player_out,
    "alliances_settled": _on_alliances_settled,
    "game_won": _on_game_won,
}


# -- views ------------------------------------------------------------------


def circle_text(circle: Sequence[str]) -> str:
    """``Ann → Bo → Cy → Ann``: the capturing circle as a sentence."""
    return " → ".join([*circle, circle[0]]) if circle else ""


def legal_captures(state: QuintetState) -> list[dict[str, str]]:
    """The captures the table may record right now, as capture actions."""
    if state.phase != PLAY or state.current is None:
        return []
    if state.alliances:
        return [{"type": "alliance_capture", "by": p.by, "of": p.of} for p in state.alliances]
    if state.dice is None or state.landings <= 0:
        return []
    mover = state.current
    options = [{"type": "capture", "by": mover, "of": state.prey_of(mover), "rule": ORDER}]
    predator = state.predator_of(mover)
    options.append({"type": "capture", "by": predator, "of": mover, "rule": RULE7})
    return options


def due_to_roll(state: QuintetState) -> str | None:
    """Whose roll the next `roll` action is (None when nobody may roll)."""
    if state.phase in (OPENING, ROLLING_ON):
        return state.current
    if state.phase != PLAY or state.alliances or state.current is None:
        return None
    if state.dice is None or state.extra_turn:
        return state.current
    return state.next_seat(state.current)


def public_view(state: QuintetState) -> View:
    colours = dict(zip(state.seats, state.colours, strict=True))
    circle = list(state.circle)
    return {
        "phase": state.phase,
        "players": [
            {
                "name": p,
                "colour": colours[p],
                "tokens": n,
                "out": p in state.out,
                "prey": state.prey_of(p) if p in state.circle and len(circle) > 1 else None,
                "predator": state.predator_of(p) if p in state.circle and len(circle) > 1 else None,
            }
            for p, n in zip(state.seats, state.tokens, strict=True)
        ],
        "circle": circle,
        "arrows": [[p, state.prey_of(p)] for p in circle] if len(circle) > 1 else [],
        "circle_text": circle_text(circle),
        "current": state.current,
        "first": state.first,
        "opening": [{"player": r.player, "dice": list(r.dice), "total": r.total} for r in state.opening],
        "rolled_on": [{"player": r.player, "dice": list(r.dice)} for r in state.rolled_on],
        "dice": list(state.dice) if state.dice else None,
        "extra_turn": state.extra_turn,
        "safety_offer": state.safety_offer,
        "safety_taken": state.safety_taken,
        "landings": state.landings,
        "alliances": [{"by": p.by, "of": p.of, "left": p.left} for p in state.alliances],
        "captures": legal_captures(state),
        "due_to_roll": due_to_roll(state),
        "out": list(state.out),
        "winner": state.winner,
        "turns": state.turns,
        "rolls": state.rolls,
        "news": state.news,
    }


def private_view(state: QuintetState, player: str) -> View:
    # Quintet has no secrets: a player's own view is the table's, with their own line picked out.
    view = public_view(state)
    view["you"] = player
    return view


def outcome(state: QuintetState) -> Outcome | None:
    if state.winner is None:
        return None
    knocked = ", ".join(state.out)
    return Outcome(
        (state.winner,),
        Reason.LAST_STANDING,
        f"{state.winner} is the last player standing after {state.turns} turns (out in order: {knocked}).",
    )


def current_player(state: QuintetState) -> str | None:
    return state.current if state.phase != OVER else None


@dataclass(frozen=True)
class _QuintetRules:
    name: str = "quintet"
    title: str = "Quintet"
    min_players: int = 2
    max_players: int = 5

    def setup(self, options: Options) -> QuintetState:
        return setup(options)

    def decide(self, state: QuintetState, action: Action, dice: Dice) -> list[Event]:
        if not isinstance(action, Mapping):
            raise RuleError('An action is a JSON object such as {"type": "roll"}.')
        return decide(state, action, dice)

    def evolve(self, state: QuintetState, event: Event) -> QuintetState:
        return evolve(state, event)

    def public_view(self, state: QuintetState) -> View:
        return public_view(state)

    def private_view(self, state: QuintetState, player: str) -> View:
        return private_view(state, player)

    def outcome(self, state: QuintetState) -> Outcome | None:
        return outcome(state)

    def current_player(self, state: QuintetState) -> str | None:
        return current_player(state)


RULES = _QuintetRules()
