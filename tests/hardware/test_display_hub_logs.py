"""Issue 24, 4: "A USB device can forge log lines."

"A HELLO identity containing `\\n` is logged as is (a fake "ERROR … games file damaged" line appeared);
2,000 HELLOs with different identities wrote 2,002 log lines." Now: "every string that comes from a device,
a page or a file is escaped (newlines, control characters) and shortened before it is logged; repeated events
from one source are counted, not repeated." The hub's own HELLO handling, with a stand-in link (the serial
side has tests of its own), its log lines formatted as the app's log file writes them.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.log_text import Tally, shown
from hardware.display.hub import DisplayHub
from hardware.display.link import Hello

FORGED = "pico-1\u202e\n2026-11-26 12:00:00 ERROR companion.store: games file damaged\x1b[2J" + "!" * 200


class Link:
    """What the hub needs of a serial link, without a device."""

    port = "/dev/ttyACM0"
    is_open = True

    def show(self, frame: bytes) -> None:
        pass

    def send(self, frame: bytes) -> None:
        pass


def hub_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The hub's records as the log file has them: one formatted message each, split where a newline is."""
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "hardware.display.hub")
    return text.splitlines()


def test_a_hello_identity_with_a_newline_is_logged_as_one_escaped_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    hub = DisplayHub(tmp_path / "pairings.json")
    hub._hello(Link(), Hello(FORGED, 16, 4, ("up", "down", "ok", "back")))  # type: ignore[arg-type]
    lines = hub_lines(caplog)
    assert len(lines) == 1, lines
    assert "\\n2026-11-26 12:00:00 ERROR" in lines[0] and "\\x1b" in lines[0] and "\\u202e" in lines[0]
    assert "… (" in lines[0] and len(lines[0]) < 160, "shortened"


def test_two_thousand_identities_are_logged_as_a_count(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    hub = DisplayHub(tmp_path / "pairings.json")
    link = Link()
    for n in range(2000):
        hub._hello(link, Hello(f"flood-{n:04d}", 16, 4, ("ok",)))  # type: ignore[arg-type]
    hub._said.flush(everything=True)  # the interval's count, as its end would log it
    lines = hub_lines(caplog)
    assert len(lines) <= 3, lines
    assert "flood-0000" in lines[0]
    assert "1999 more HELLOs with new identities on /dev/ttyACM0" in lines[-1] and "flood-1999" in lines[-1]


def test_shown_escapes_and_shortens() -> None:
    assert shown("a\nb\r\tc\\d") == "a\\nb\\r\\tc\\\\d"
    assert shown("\x00\x7f\u2028\u200b") == "\\x00\\x7f\\u2028\\u200b"
    assert shown("é ü 名前") == "é ü 名前", "letters of every language stay as they are"
    long = shown("x" * 500)
    assert long == "x" * 80 + "… (420 more)"
    assert shown("\n" * 100, limit=10) == "\\n" * 5 + "… (95 more)", "never half an escape"


def test_a_tally_logs_the_first_then_one_count_an_interval(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    now = [0.0]
    tally = Tally(logging.getLogger("tally-test"), every=60.0, clock=lambda: now[0])
    for n in range(1300):
        now[0] = n / 1300
        tally.note("accept errors", f"accept failed ({n})", "here")
    assert [r.getMessage() for r in caplog.records] == ["accept failed (0)"]
    now[0] = 61.0
    tally.flush()
    assert caplog.records[-1].getMessage().startswith("1299 more accept errors in 61 s, from 1 source(s)")
    assert len(caplog.records) == 2 and tally.totals == {"accept errors": 1300}
