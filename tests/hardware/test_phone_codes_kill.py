"""Seat codes under a pulled plug, again and again (issue 15 and our promise: "nothing lost when someone kicks
the power cable").

The app's phone side runs in a process of its own (``tests.support.phone_app``); a phone taps its private
setup over a real WebSocket, and the process is killed (SIGKILL) a random few milliseconds after a tap, in
the middle of whatever it was doing: saving the move, writing the seat codes, sending the page. After every
kill the codes file reads as the app's own with the very same codes, and the next start resumes the game
where the games file says it was: the same URL opens Ann's page again, showing that state.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion import app_files
from companion.session import Session
from companion.store import Store
from hardware.phones.codes import KIND, VERSION
from tests.support.phone_app import pull_the_plug, start_elsewhere

KILLS = int(os.environ.get("PHONE_KILLS", "12"))  # more for a longer look by hand
WAIT = 10.0  # seconds: generous bounds on loopback, never a speed assertion


async def page_then_tap(url: str, rng: random.Random, child: subprocess.Popen[str]) -> dict[str, Any]:
    """Ann's page as the phone gets it on arrival; then one of its choices tapped, and the plug pulled."""
    async with aiohttp.ClientSession() as client, client.ws_connect(url + "/live?browser=ann") as ws:
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads((await ws.receive(timeout=max(0.01, deadline - time.monotonic()))).data)
            if message["type"] == "page" and message["page"] is not None:
                page: dict[str, Any] = message["page"]
                break
        choices = [c for c in page.get("choices", []) if "Take back" not in c["label"]]
        if choices:
            await ws.send_json({"type": "act", "action": rng.choice(choices)["action"]})
        await asyncio.sleep(rng.uniform(0, 0.05))
        child.kill()
        return page


def saved_page(db: Path, game: int) -> dict[str, Any] | None:
    """Ann's phone page of the game as the games file holds it (None: no game yet)."""
    from companion.games.quin.display import phone_page

    if not db.exists():
        return None
    with Store.read(db) as store:
        return phone_page(Session.load(store, game).own_view("Ann"))


@pytest.mark.slow
def test_seat_codes_and_the_game_survive_a_dozen_pulled_plugs_mid_setup(tmp_path: Path) -> None:
    db, codes = tmp_path / "phones.db", tmp_path / "phone-codes.json"
    rng = random.Random(15)
    first: dict[str, str] | None = None
    game = 0
    for kill in range(KILLS):
        expected = saved_page(db, game) if kill else None
        child, port, game = start_elsewhere(db, codes)
        try:
            kept = app_files.read(codes, KIND, VERSION)
            assert kept is not None, "the codes file is there, and the app's own"
            tokens = kept["games"][str(game)]
            first = first or tokens
            assert tokens == first, "the very same codes after every restart"
            url = f"http://127.0.0.1:{port}/seat/{tokens['Ann']}"
            arrived = asyncio.run(page_then_tap(url, rng, child))
        finally:
            pull_the_plug(child)
        if expected is not None:
            assert arrived == expected, "the same URL shows Ann's page as the games file has the game"
        kept = app_files.read(codes, KIND, VERSION)
        assert kept is not None and kept["games"] == {str(game): first}, "killed mid-write, still whole"
    with Store.read(db) as store:
        record = store.game(game)
        assert record is not None and record.outcome is None, "the game waits, unfinished"
        print(f"{KILLS} pulled plugs, {len(store.moves(game))} taps saved of {KILLS}")
