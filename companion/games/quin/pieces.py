"""Quin's pieces: the nine kinds' numbers, the Clone, and what happens in a flash.

Everything here is a plain function of identities: no state, no players. The
numbers follow RULINGS.md (the Key's Moves # and capture columns); the four
adjustable counts come from the game's settings.
"""

from __future__ import annotations

from collections.abc import Mapping

LIGHT = "Light"
ARTIFICIAL_LIGHT = "Artificial Light"
SHADOW = "Shadow"
TIME = "Time"
REFLECTOR = "Reflector"
MEMORY = "Memory"
PERIPHERAL = "Peripheral"
VOID = "Void"

KINDS: tuple[str, ...] = (LIGHT, ARTIFICIAL_LIGHT, SHADOW, TIME, REFLECTOR, MEMORY, PERIPHERAL, VOID)
"""Every identity a piece can have, in the order the Key lists them."""

PLURALS: Mapping[str, str] = {kind: f"{kind}s" for kind in KINDS} | {ARTIFICIAL_LIGHT: "Artificial Lights"}

FIXED_COUNTS: Mapping[str, int] = {LIGHT: 1, ARTIFICIAL_LIGHT: 4, SHADOW: 2, TIME: 1}
"""Counts the rules text itself gives (RULINGS.md)."""

ADJUSTABLE: tuple[str, ...] = (REFLECTOR, MEMORY, PERIPHERAL, VOID)
DEFAULT_ADJUSTABLE: Mapping[str, int] = {REFLECTOR: 2, MEMORY: 2, PERIPHERAL: 3, VOID: 2}
ADJUSTABLE_SUM = 9
"""The four adjustable counts always add up to this, so every side has 17 pieces."""

LABELS: tuple[str, ...] = tuple(str(n) for n in range(1, 18))
"""The visible labels on each side's pieces (the same on both sides, in each player's colour)."""

STARTING_POINTS = 10
ZERO_G_AT_START = 7

MOVES: Mapping[str, int] = {
    LIGHT: 2,
    ARTIFICIAL_LIGHT: 2,
    SHADOW: 7,
    TIME: 1,
    REFLECTOR: 2,
    MEMORY: 2,
    PERIPHERAL: 3,
    VOID: 1,
}
"""Each kind's Moves # from the Key."""

ACCELERATED_MOVES = 5
"""Artificial Lights' Moves # whenever both their Shadows are off the board (a resurrected one ends it)."""

CLONE_FROM: tuple[str, ...] = tuple(k for k in KINDS if k not in (LIGHT, SHADOW))
CLONE_TO: tuple[str, ...] = (TIME, MEMORY, VOID, ARTIFICIAL_LIGHT)

MEMORY_SWAPS = 2
"""Swaps each Memory has per game (a resurrected Memory starts afresh)."""

CAPTURE_RULES: tuple[str, ...] = ("key", "arcade")

_EVERYTHING = frozenset(KINDS)
KEY_CAPTURES: Mapping[str, frozenset[str]] = {
    LIGHT: _EVERYTHING,
    ARTIFICIAL_LIGHT: _EVERYTHING - {TIME, REFLECTOR},
    SHADOW: _EVERYTHING - {TIME, VOID},
    TIME: _EVERYTHING - {VOID},
    PERIPHERAL: frozenset({SHADOW}),
    VOID: _EVERYTHING,
    MEMORY: frozenset(),
    REFLECTOR: frozenset(),
}
"""What each attacker captures under the Key (RULINGS.md's table)."""

# What a flash comes to (RULINGS.md rules 1 to 6).
LIGHT_TAKES_LIGHT = "light takes light"
SHADOWS_SWAP = "shadows swap"
MUTUAL_DESTRUCTION = "mutual destruction"
ANNIHILATION = "annihilation"
CAPTURE = "capture"
SWAP = "swap"
RESULTS: tuple[str, ...] = (LIGHT_TAKES_LIGHT, SHADOWS_SWAP, MUTUAL_DESTRUCTION, ANNIHILATION, CAPTURE, SWAP)

_ALIASES: Mapping[str, str] = {
    **{kind.lower(): kind for kind in KINDS},
    **{plural.lower(): kind for kind, plural in PLURALS.items()},
    "al": ARTIFICIAL_LIGHT,
    "artificial_light": ARTIFICIAL_LIGHT,
    "artificial-light": ARTIFICIAL_LIGHT,
}


def parse_kind(text: object) -> str | None:
    """The identity `text` names ("shadow", "AL", "Artificial Light"), or None."""
    if not isinstance(text, str):
        return None
    return _ALIASES.get(" ".join(text.strip().lower().split()))


def counts(adjustable: Mapping[str, int], clone: tuple[str, str] | None) -> dict[str, int]:
    """How many of each kind a side has, after its Clone (``(from, to)``) if chosen."""
    result = {kind: FIXED_COUNTS.get(kind, adjustable.get(kind, 0)) for kind in KINDS}
    if clone is not None:
        taken, made = clone
        result[taken] -= 1
        result[made] += 1
    return result


def captures(attacker: str, defender: str, capture_rule: str) -> bool:
    """Whether `attacker` captures `defender` by the capture table (rule 5 alone)."""
    if capture_rule == "arcade":
        return attacker not in (MEMORY, REFLECTOR)
    return defender in KEY_CAPTURES[attacker]


def flash_result(attacker: str, defender: str, capture_rule: str = "key") -> str:
    """What a flash between these identities comes to: one of `RESULTS`, rules 1 to 6 in order."""
    if attacker == LIGHT and defender == LIGHT:
        return LIGHT_TAKES_LIGHT
    if attacker == SHADOW and defender == SHADOW:
        return SHADOWS_SWAP
    if attacker == defender:
        return MUTUAL_DESTRUCTION
    if defender == VOID and attacker not in (LIGHT, ARTIFICIAL_LIGHT):
        return ANNIHILATION
    if captures(attacker, defender, capture_rule):
        return CAPTURE
    return SWAP


def flash_sentence(attacker: str, defender: str, result: str, *, winner: str | None = None) -> str:
    """The one sentence the table reads after a flash.

    `attacker` and `defender` are already written out with owner, label and
    identity, e.g. "Ann's 7 (Shadow)"; `winner` adds who won when a Light fell.
    """
    if result == LIGHT_TAKES_LIGHT:
        text = f"{attacker} takes {defender}"
    elif result == SHADOWS_SWAP:
        text = f"{attacker} and {defender} are both Shadows, so they swap places"
    elif result == MUTUAL_DESTRUCTION:
        text = f"{attacker} and {defender} are the same kind, so both are destroyed"
    elif result == ANNIHILATION:
        text = f"{defender} annihilates {attacker}, and both are removed"
    elif result == CAPTURE:
        text = f"{attacker} captures {defender}"
    else:
        text = f"{attacker} cannot capture {defender}, so they swap places"
    return text + (f"; {winner} wins." if winner else ".")
