"""A seat's page when the phone floods, or the table's side fails: the player is told in a sentence, once.

A real server on loopback and a real WebSocket client, as in test_phone_server.py (its helpers).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from hardware.phones.server import TOO_FAST, PhoneServer, TapLimit
from tests.hardware.test_phone_server import Table, answering, live, make_server, page_of, receive, url
from tests.support.ui_thread import UiThread


@pytest.fixture
def table() -> Iterator[Table]:
    ui = UiThread()
    made = Table(ui)
    made.pages = {"Ann": page_of("Ann"), "Bo": page_of("Bo")}
    yield made
    ui.stop()


def test_a_page_tapping_too_fast_is_told_once_and_its_extra_taps_are_not_played(table: Table) -> None:
    """docs/phones.md: a seat's page is held to a rate of taps; the player reads "Too many taps at once" once,
    not once a tap, and only the taps within the limit reach the game."""
    asked = [0]

    def clock() -> float:
        """The limit's clock stands still for the five taps and the first unreadable message, then 10 s pass:
        counted by the server's own questions, not by when the test sends (the server may still be reading)."""
        asked[0] += 1
        return 0.0 if asked[0] <= 6 else 10.0

    with make_server(table, taps=TapLimit(rate=1.0, burst=2, clock=clock)) as server:

        async def scenario() -> list[dict[str, Any]]:
            refused = []
            async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"))) as ws:
                answering(ws)
                await receive(ws)
                for _ in range(5):
                    await ws.send_str(json.dumps({"type": "act", "action": {"type": "give"}}))
                refused.append(await receive(ws, "refused"))
                await ws.send_str("not json")  # still over the limit: dropped without a word
                await ws.send_str("not json")  # within the limit again later: unreadable, said as such
                refused.append(await receive(ws, "refused"))
            return refused

        refused = asyncio.run(scenario())
    assert [r["sentence"] for r in refused] == [TOO_FAST, "That message could not be read."]
    assert table.acted == [("Ann", {"type": "give", "player": "Ann"})] * 2


def test_a_choice_the_table_fails_to_play_is_a_sentence_on_the_phone(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug on the table's side while playing a phone's choice: logged there, and the phone says it could not
    be played (never a page that waits for ever)."""

    def broken(player: str, action: dict[str, Any]) -> str | None:
        raise RuntimeError("a bug in the game's act")

    table.act = broken  # type: ignore[method-assign]
    with make_server(table) as server, caplog.at_level(logging.ERROR, logger="hardware.phones.server"):

        async def scenario() -> dict[str, Any]:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Bo"))) as ws:
                answering(ws)
                await receive(ws)
                await ws.send_str(json.dumps({"type": "act", "action": {"type": "give"}}))
                return await receive(ws, "refused")

        assert asyncio.run(scenario())["sentence"] == "That choice could not be played."
    assert "Bo's choice from their phone failed" in caplog.text


def test_a_page_the_table_fails_to_draw_is_logged_and_the_next_one_arrives(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """One page that cannot be drawn (a bug in a game's page) is logged; the phone keeps its last page and gets
    the next one once the game changes."""
    fail = [False]
    render = table.render

    def sometimes(player: str) -> dict[str, Any] | None:
        if fail[0]:
            raise RuntimeError("a bug in the game's page")
        return render(player)

    table.render = sometimes  # type: ignore[method-assign]
    with make_server(table) as server, caplog.at_level(logging.ERROR, logger="hardware.phones.server"):

        async def scenario() -> dict[str, Any]:
            async with aiohttp.ClientSession() as client, client.ws_connect(live(url(server, "Ann"))) as ws:
                answering(ws)
                await receive(ws)
                fail[0] = True
                server.changed()
                while "could not be drawn" not in caplog.text:
                    await asyncio.sleep(0.02)
                fail[0] = False
                table.pages["Ann"] = page_of("Ann", "Dark")
                server.changed()
                return await receive(ws)

        page = asyncio.run(scenario())
    assert page["page"]["sections"][0]["rows"][0]["text"] == "1  Dark"
    assert "Ann's page could not be drawn" in caplog.text


def test_a_server_started_twice_serves_on_one_address(table: Table) -> None:
    server: PhoneServer = make_server(table)
    try:
        assert server.start() is server.start()
    finally:
        server.close()
