"""The display protocol's edges: what a reader hands the splitter, an identity too long, a long pairing key.

protocol.py is the very file that goes onto a Pico: these hold under CPython what the firmware relies on.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from hardware.display import protocol as p


def test_a_reader_may_hand_the_splitter_a_bytearray_or_a_memoryview() -> None:
    """A serial port's read gives bytes, MicroPython's buffers bytearrays: the same frames either way."""
    frame = p.encode_frame(p.KEY, b"ok")
    for data in (frame, bytearray(frame), memoryview(frame)):
        assert p.FrameSplitter().feed(data) == [frame[:-1]]


def test_a_display_identity_longer_than_255_bytes_is_refused_when_packed() -> None:
    with pytest.raises(ValueError, match="is longer than 255 bytes"):
        p.pack_hello("pico-" + "é" * 130, 16, 8, ["ok"])


@pytest.mark.parametrize("size", [0, 32, 64, 65, 200])
def test_the_proof_is_standard_hmac_sha256_for_any_key_length(size: int) -> None:
    """Issue 13: "the display answers with an HMAC-SHA256 of it": the firmware's own HMAC (MicroPython has no
    hmac module) equals the standard one, keys longer than a block (hashed first) included."""
    key, nonce = bytes((7 * i + 1) % 256 for i in range(size)), bytes(range(p.NONCE_SIZE))
    assert p.hmac_sha256(key, nonce) == hmac.new(key, nonce, hashlib.sha256).digest()
