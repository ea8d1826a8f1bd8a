"""Issue 24, 2: "Anyone on the Wi-Fi can exhaust the app's open files, with no code."

"500 of 500 idle and 642 of 642 slowloris connections were still open after 80 s. At the default limit of
1,024 files and 1,100 connections against the real `companion run`: new phone pages fail ... asyncio logs
about 1,300 accept errors a second". Now: "1,200 connections (idle and slowloris) against the server at a
1,024-file limit while a player's page still opens within 1 s and the UI thread keeps its frame time".

The server runs in a process of its own (`tests.support.phone_siege`) with its open files limited to 1,024;
the attack comes from 20 other loopback addresses (127.0.0.10 to .29), the player from 127.0.0.1. Times are
measured and printed; the bounds asserted are generous ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from hardware.phones.server import PER_ADDRESS, TOTAL

# Its module fixture is made once: its tests stay on one worker (`make test` runs --dist loadgroup).
pytestmark = pytest.mark.xdist_group("test_phone_siege")

ROOT = Path(__file__).resolve().parents[2]
HEADER_TIMEOUT = 1.5  # seconds, shorter than the app's 5 so the test stays quick
ATTACKERS = [f"127.0.0.{n}" for n in range(10, 30)]
WAIT = 20.0


class Siege:
    """The server's process: its commands and answers (see `tests.support.phone_siege`)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.phone_siege", str(HEADER_TIMEOUT)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.url = str(self._answer()["url"])

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the server's process ended"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self._answer()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.ask("quit")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


@pytest.fixture(scope="module")
def siege() -> Iterator[Siege]:
    """One server process for both tests (a process starts in seconds on the Pi)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))  # this side holds 1,200
    started = Siege()
    yield started
    started.stop()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def attacker(host: str, port: int, source: str, slow: bool, stop: asyncio.Event, closed: list[int]) -> None:
    """One connection that never sends a whole request: idle, or a header line every half second."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, local_addr=(source, 0)), timeout=WAIT
        )
    except (OSError, TimeoutError):
        closed.append(1)
        return
    try:
        if slow:
            writer.write(b"GET /seat/guess HTTP/1.1\r\nHost: table\r\n")
        while not stop.is_set():
            if slow:
                writer.write(b"X-Slow: a\r\n")
                await writer.drain()
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1024), 0.5) == b"":
                    break  # the server closed it
        else:
            return
        closed.append(1)
    except OSError:
        closed.append(1)
    finally:
        writer.transport.abort()


async def open_page(url: str) -> float:
    """Seconds for a player's page to open: the page, then its live connection's first page."""
    started = time.perf_counter()
    async with aiohttp.ClientSession() as client:
        async with client.get(url) as response:
            assert response.status == 200
            await response.read()
        async with client.ws_connect(url.replace("http", "ws", 1) + "/live?browser=player") as ws:
            while True:
                message = json.loads((await ws.receive(timeout=WAIT)).data)
                if message["type"] == "page":
                    assert message["page"]["title"] == "Ann · Game"
                    return time.perf_counter() - started


def test_twelve_hundred_idle_and_slow_connections_leave_a_players_page_and_the_ui_alone(siege: Siege) -> None:
    """Issue 24: connections capped per address and in total, request headers in time, refusals counted."""
    host, port = siege.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    time.sleep(0.3)
    quiet = siege.ask("report")

    async def attack() -> dict[str, Any]:
        stop = asyncio.Event()
        closed: list[int] = []
        tasks = []
        for n in range(1200):
            source = ATTACKERS[n % len(ATTACKERS)]
            tasks.append(asyncio.ensure_future(attacker(host, int(port), source, n % 2 == 1, stop, closed)))
            if n % 100 == 99:
                await asyncio.sleep(0.05)  # in waves, as fast as a phone on the Wi-Fi would open them
        await asyncio.sleep(0.5)
        during = await asyncio.get_running_loop().run_in_executor(None, siege.ask, "report")
        opened = await open_page(siege.url)
        busy = await asyncio.get_running_loop().run_in_executor(None, siege.ask, "report")
        await asyncio.sleep(HEADER_TIMEOUT + 1.5)  # the slow ones keep sending: their headers are late all the same
        after = await asyncio.get_running_loop().run_in_executor(None, siege.ask, "report")
        stop.set()
        await asyncio.gather(*tasks)
        return {"during": during, "busy": busy, "after": after, "opened": opened, "closed": len(closed)}

    seen = asyncio.run(attack())
    during, busy, after = seen["during"], seen["busy"], seen["after"]
    print(
        f"\n1,200 connections: the player's page opened in {seen['opened'] * 1000:.0f} ms; "
        f"{during['open']} connections and {during['files']} files open in the server; "
        f"worst UI frame {max(during['frame'], busy['frame']) * 1000:.0f} ms (quiet: {quiet['frame'] * 1000:.0f} ms); "
        f"{after['lines']} log lines; counted {after['counted']}"
    )
    assert seen["opened"] < 1.0, "a player's page still opens within 1 s"
    assert during["open"] <= TOTAL and busy["open"] <= TOTAL, "never more connections than the cap"
    assert during["files"] < TOTAL + 100, "the server's open files stay far from its 1,024"
    assert max(during["frame"], busy["frame"]) < 0.5, "the UI thread keeps its frame time (a generous bound)"
    assert after["open"] <= 2, "every idle and slow connection closed; the player's page (and its socket) kept"
    assert seen["closed"] == 1200, "each attacking connection was closed by the server"
    assert after["lines"] < 30, "refusals logged as counts, not one line each"
    assert sum(after["counted"].values()) >= 1200 - PER_ADDRESS * len(ATTACKERS)


def test_accept_errors_with_no_file_left_are_counted_and_the_server_recovers(siege: Siege) -> None:
    """Issue 24: "asyncio logs about 1,300 accept errors a second (1.45 MB/s), and the five rotated log files
    (5 MB) are overwritten in about 8 s". Now: "Accept errors and refusals are counted and logged once per
    interval with a count, never once per event"; and when files are free again, pages open again."""
    host, port = siege.url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    before = siege.ask("report")
    assert siege.ask("fill")["held"] > 900

    async def knock() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(attacker(host, int(port), "127.0.0.9", False, stop, [])) for _ in range(20)]
        await asyncio.sleep(1.5)  # the server has no file for them: every accept fails meanwhile
        stop.set()
        await asyncio.gather(*tasks)

    asyncio.run(knock())
    siege.ask("free")
    after = siege.ask("report")
    errors = after["counted"].get("errors accepting a connection", 0)
    print(f"\nno file left for 1.5 s: {errors} accept errors counted, {after['lines'] - before['lines']} log lines")
    assert errors >= 3, "the accept errors were met and counted"
    assert after["lines"] - before["lines"] <= 3, "one line, then a count an interval"
    assert asyncio.run(open_page(siege.url)) < 1.0
