"""Strings from outside (a device, a phone's page, a file) made safe for one log line, and repeats counted.

A USB device or a guest's page chooses its own words: a newline in them
would forge a whole log line ("ERROR ... games file damaged"), and a flood of
different words would fill the rotated logs until the start-up lines are gone.
So `shown` escapes every control and format character (and the backslash
itself, so an escape cannot be faked) and shortens the string; `Tally` logs
the first of a kind of event at once and the rest as one count an interval.
Used by ``hardware/`` and ``ui/`` alike; nothing here knows a game.
"""

from __future__ import annotations

import logging
import threading
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

LIMIT = 80
"""Characters of an outside string a log line keeps; the rest is counted ("… (120 more)")."""

_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # controls, format (bidi, zero-width), line breaks, unknowns


def _escaped(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    if unicodedata.category(char) not in _HIDDEN:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: object, limit: int = LIMIT) -> str:
    """`text` as one safe log line's part: escaped (``\\n``, ``\\x1b``, ``\\u202e``), at most `limit` characters
    of it kept, and how many more there were."""
    whole = text if isinstance(text, str) else str(text)
    out: list[str] = []
    length = 0
    for index, char in enumerate(whole):
        piece = _escaped(char)
        if length + len(piece) > limit:
            return "".join(out) + f"… ({len(whole) - index} more)"
        out.append(piece)
        length += len(piece)
    return "".join(out)


@dataclass
class _Kind:
    started: float  # when this interval began (its first event, logged at once)
    count: int = 0  # events after the first, not logged yet
    sources: set[str] = field(default_factory=set)
    last: str = ""


MAX_SOURCES = 1024
"""Distinct sources remembered per kind and interval (a count beyond is still right, the number of sources "at
least")."""


class Tally:
    """Events counted per kind: the first of an interval logged at once, the rest as one line with their count.

    `note(kind, line, source)` is called per event: `kind` names them in a
    count's line ("wrong seat codes"), `line` says this one and is already safe
    (built with `shown`). `flush()` logs the counts of the intervals that are
    over (call it now and then: every note calls it too). Thread-safe: a
    device's reader threads may note at once.
    """

    def __init__(
        self,
        logger: logging.Logger,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger, self.every, self.clock = logger, every, clock
        self._kinds: dict[str, _Kind] = {}
        self._lock = threading.RLock()
        self.totals: dict[str, int] = {}  # every event ever noted, per kind (for tests and the bench)

    def note(self, kind: str, line: str, source: str = "", level: int = logging.INFO) -> None:
        """One event of `kind` from `source`; `line` says it (logged if it opens an interval)."""
        with self._lock:
            self.totals[kind] = self.totals.get(kind, 0) + 1
            now = self.clock()
            self.flush(now)
            open_ = self._kinds.get(kind)
            if open_ is None:
                self._kinds[kind] = _Kind(started=now, last=line)
                self.logger.log(level, "%s", line)
                return
            open_.count += 1
            open_.last = line
            if len(open_.sources) < MAX_SOURCES:
                open_.sources.add(source)

    def flush(self, now: float | None = None, *, everything: bool = False) -> None:
        """Log the count of each kind whose interval is over (`everything`: of every kind, now)."""
        with self._lock:
            self._flush(self.clock() if now is None else now, everything)

    def _flush(self, now: float, everything: bool) -> None:
        for kind, open_ in list(self._kinds.items()):
            if not everything and now - open_.started < self.every:
                continue
            del self._kinds[kind]
            if open_.count:
                sources = len(open_.sources)
                many = f"{sources}+" if sources >= MAX_SOURCES else str(sources)
                self.logger.warning(
                    "%d more %s in %.0f s, from %s source(s); the last: %s",
                    open_.count,
                    kind,
                    now - open_.started,
                    many,
                    open_.last,
                )
