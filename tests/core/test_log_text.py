"""`companion.log_text`: a string from outside made safe for one log line, and a flood of events counted.

Issue 13: "a newline in them would forge a whole log line ... a flood of different words would fill the rotated
logs until the start-up lines are gone." A real logger, its records caught by pytest's `caplog`; time is a clock
the test turns.
"""

from __future__ import annotations

import logging

import pytest

from companion.log_text import LIMIT, MAX_SOURCES, Tally, shown


def test_a_forged_log_line_stays_on_its_own_line():
    """A device's name with a newline, a terminal escape, a bidi override, a private character and a backslash:
    each is written out as an escape, so nothing starts a line, colours the terminal or turns text around, and
    an escape cannot be faked with a backslash of its own."""
    forged = "pad\n2026 ERROR games file damaged\x1b[31m\u202eevil\U000f0000 C:\\n"
    safe = shown(forged, limit=200)
    assert safe == "pad\\n2026 ERROR games file damaged\\x1b[31m\\u202eevil\\U000f0000 C:\\\\n"
    assert safe.isprintable()
    assert shown("Ann's phone ☎") == "Ann's phone ☎"  # the players' own words stay as they are


def test_a_long_string_is_cut_and_says_how_much_more_there_was():
    assert shown("x" * (LIMIT + 40)) == "x" * LIMIT + "… (40 more)"
    assert shown("ab\ncd", limit=3) == "ab… (3 more)"  # an escape is never cut in half
    assert shown(12345) == "12345"  # anything, as its text


@pytest.fixture
def tally(caplog):
    caplog.set_level(logging.INFO, logger="test.log_text")
    now = [100.0]
    counted = Tally(logging.getLogger("test.log_text"), every=60.0, clock=lambda: now[0])
    return counted, now, caplog


def test_the_first_of_a_kind_is_logged_at_once_and_the_rest_as_one_count(tally):
    counted, now, caplog = tally
    counted.note("wrong seat codes", "wrong code from phone A", source="A")
    for phone in "BCB":
        now[0] += 1
        counted.note("wrong seat codes", f"wrong code from phone {phone}", source=phone)
    assert [r.getMessage() for r in caplog.records] == ["wrong code from phone A"]
    now[0] = 161.0  # the interval is over: the next note logs its count first
    counted.note("wrong seat codes", "wrong code from phone D", source="D")
    assert [r.getMessage() for r in caplog.records] == [
        "wrong code from phone A",
        "3 more wrong seat codes in 61 s, from 2 source(s); the last: wrong code from phone B",
        "wrong code from phone D",
    ]
    assert caplog.records[1].levelno == logging.WARNING and counted.totals == {"wrong seat codes": 5}


def test_an_interval_with_one_event_logs_no_count(tally):
    counted, now, caplog = tally
    counted.note("unplugged", "display 1 unplugged")
    counted.flush(everything=True)
    counted.flush(now[0] + 600)
    assert [r.getMessage() for r in caplog.records] == ["display 1 unplugged"]


def test_a_flood_from_ever_new_sources_is_remembered_only_so_far(tally):
    """Memory stays bounded: past `MAX_SOURCES` sources the count says "at least" ("1024+")."""
    counted, _now, caplog = tally
    for n in range(MAX_SOURCES + 10):
        counted.note("bad pages", f"bad page {n}", source=f"guest {n}")
    counted.flush(everything=True)  # a closing server logs what it counted so far
    assert caplog.records[-1].getMessage() == (
        f"{MAX_SOURCES + 9} more bad pages in 0 s, from {MAX_SOURCES}+ source(s); the last: bad page {MAX_SOURCES + 9}"
    )
