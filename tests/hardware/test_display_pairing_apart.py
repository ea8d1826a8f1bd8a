"""Pairing and the handshake on their own, with no hub, no thread and no drawing.

Issue 25: "`DisplayHub` (pairing and handshake apart from drawing)". What a
display may show is decided by `hardware.display.handshake` against the
pairings file; these tests drive it with a link that only records frames.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

from hardware.display import protocol
from hardware.display.handshake import Connection, Handshake
from hardware.display.link import DisplayLink, Hello
from hardware.display.pairings import Pairings


class RecordingLink:
    """A link that keeps what was sent on it, decoded."""

    port = "/dev/fake"

    def __init__(self) -> None:
        self.sent: list[tuple[int, bytes]] = []

    def send(self, frame: bytes) -> None:
        self.sent.append(protocol.decode_frame(frame[:-1]))


def connection(identity: str = "pico-1") -> tuple[Connection, RecordingLink]:
    link = RecordingLink()
    hello = Hello(identity=identity, cols=16, rows=8, keys=("up", "down", "ok", "back"))
    return Connection(cast(DisplayLink, link), hello), link


def handshake(tmp_path: Path) -> Handshake:
    return Handshake(Pairings(tmp_path / "pairings.json"), random.Random(4))


def test_pairing_binds_a_new_key_and_challenges_at_once(tmp_path: Path) -> None:
    """Issue 13's handshake: BIND a random key, then CHALLENGE; the right PROOF makes the display its player's."""
    shake = handshake(tmp_path)
    display, link = connection()
    display.code = "471"
    assert shake.pair(display, "Ann") == []
    assert [kind for kind, _ in link.sent] == [protocol.BIND, protocol.CHALLENGE]
    key, nonce = link.sent[0][1], link.sent[1][1]
    assert display.code is None and shake.player_of(display) is None, "nobody's until it has proved it"
    pairing = shake.answer(display, protocol.prove(key, nonce))
    assert pairing is not None and pairing.player == "Ann" and display.claims is None
    assert shake.proven(display) and shake.player_of(display) == "Ann"
    assert Pairings(tmp_path / "pairings.json").get("pico-1") == pairing, "kept in the file"


def test_a_wrong_proof_claims_the_player_and_shows_nothing_of_theirs(tmp_path: Path) -> None:
    shake = handshake(tmp_path)
    display, _ = connection()
    shake.pair(display, "Ann")
    assert shake.answer(display, b"\x00" * 32) is not None
    assert display.claims == "Ann" and shake.player_of(display) is None
    assert shake.answer(display, b"\x00" * 32) is None, "only the answer to the latest challenge counts"


def test_a_display_nobody_paired_is_not_challenged(tmp_path: Path) -> None:
    shake = handshake(tmp_path)
    display, link = connection("pico-stranger")
    shake.challenge(display)
    assert link.sent == [] and display.nonce is None and shake.player_of(display) is None


def test_a_player_has_one_display_and_codes_are_never_shown_twice(tmp_path: Path) -> None:
    shake = handshake(tmp_path)
    first, _ = connection("pico-1")
    second, _ = connection("pico-2")
    shake.pair(first, "Ann")
    assert shake.pair(second, "Ann") == ["pico-1"]
    taken: set[Any] = {"111"}
    codes = {shake.new_code(taken | {str(n)}) for n in range(50)}
    assert all(len(c) == 3 and "0" not in c and c != "111" for c in codes)
