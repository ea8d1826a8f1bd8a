"""Pairing and the handshake: which player a connected display may show, and nothing about drawing.

A display that says HELLO with an identity paired to a player is challenged
with a fresh nonce and must answer PROOF = HMAC-SHA256(key, nonce) under the
key it was given at pairing (BIND). Until it has, it is nobody's. A display
nobody has paired shows a pairing code; pairing it gives it a new random key
and challenges it at once. The keys are kept by `Pairings` (the file).

`Handshake` holds no lock and starts no thread: the hub calls it with its
own lock held, and logs what it returns.
"""

from __future__ import annotations

import hmac
import random
import secrets
import time
from collections.abc import Collection
from dataclasses import dataclass

from hardware.display import protocol
from hardware.display.link import DisplayLink, Hello
from hardware.display.pairings import Pairing, Pairings


@dataclass(eq=False)
class Connection:
    """One display on one link, as it said HELLO: who it says it is, and what it has proved so far."""

    link: DisplayLink
    hello: Hello
    code: str | None = None  # the pairing code it shows while it is nobody's
    proven_key: bytes | None = None  # the pairing key it proved it holds on this connection
    nonce: bytes | None = None  # the challenge it has not answered yet
    challenged_at: float = 0.0
    claims: str | None = None  # the player whose display it said it was, without proving it


class Handshake:
    """Pairs displays with players and checks their proofs against `pairings`."""

    def __init__(self, pairings: Pairings, rng: random.Random) -> None:
        self.pairings = pairings
        self._rng = rng

    def challenge(self, display: Connection) -> None:
        """Ask a display that says it is a paired one to prove it holds the pairing's key."""
        display.proven_key = None
        pairing = self.pairings.get(display.hello.identity)
        if pairing is None:
            return  # nobody's: it gets a pairing code
        if pairing.key is None:
            display.claims = pairing.player  # paired before keys existed: it cannot prove anything
            return
        display.nonce = secrets.token_bytes(protocol.NONCE_SIZE)
        display.challenged_at = time.monotonic()
        display.link.send(protocol.encode_frame(protocol.CHALLENGE, display.nonce))

    def answer(self, display: Connection, proof: bytes) -> Pairing | None:
        """Check `display`'s PROOF; the pairing it was checked against, or None if it was not asked.

        Only the answer to the latest challenge counts. Afterwards `display.proven_key` is set (it proved it)
        or `display.claims` names the player it could not prove it belongs to.
        """
        if display.nonce is None:
            return None  # not asked, or asked again since
        nonce, display.nonce = display.nonce, None
        pairing = self.pairings.get(display.hello.identity)
        if pairing is None:
            return None  # unpaired while the answer was on its way
        if pairing.key is not None and hmac.compare_digest(proof, protocol.prove(pairing.key, nonce)):
            display.proven_key = pairing.key
            display.claims = None
        else:
            display.claims = pairing.player
        return pairing

    def proven(self, display: Connection) -> bool:
        """True if `display` proved it holds the key of its identity's pairing as it is now."""
        pairing = self.pairings.get(display.hello.identity)
        key = display.proven_key
        return (
            key is not None
            and pairing is not None
            and pairing.key is not None
            and hmac.compare_digest(key, pairing.key)
        )

    def player_of(self, display: Connection) -> str | None:
        """The player `display` may show the view of: its pairing's, once proved; else nobody."""
        return self.pairings.player_of(display.hello.identity) if self.proven(display) else None

    def pair(self, display: Connection, player: str) -> list[str]:
        """Give `display` to `player` under a new random key (BIND), and challenge it to prove it at once.

        Returns the identities of `player`'s earlier displays, unpaired by this (a player has one display).
        """
        key = secrets.token_bytes(protocol.KEY_SIZE)
        dropped = self.pairings.bind(display.hello.identity, player, key)
        display.code = None
        display.claims = None
        display.link.send(protocol.encode_frame(protocol.BIND, key))
        self.challenge(display)
        return dropped

    def new_code(self, taken: Collection[str | None]) -> str:
        """A three-digit pairing code (digits 1 to 9) that no display in `taken` shows."""
        while True:
            code = "".join(str(self._rng.randint(1, 9)) for _ in range(3))
            if code not in taken:
                return code
