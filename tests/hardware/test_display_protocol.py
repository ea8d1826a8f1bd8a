"""The display protocol: CRC, COBS, frames, payloads, and that it stays MicroPython-friendly."""

from __future__ import annotations

import ast
import binascii
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.display import protocol as p

PROTOCOL_SOURCE = Path(p.__file__)


# -- CRC-16 ---------------------------------------------------------------------


def test_crc_check_value() -> None:
    # The catalogue's check value for CRC-16/CCITT-FALSE.
    assert p.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
@settings(max_examples=300, deadline=None)
def test_crc_matches_binascii(data: bytes) -> None:
    assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


# -- COBS -----------------------------------------------------------------------

# Known encodings (the usual published examples).
COBS_VECTORS = [
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    (bytes(range(2, 256)) + b"\x00", b"\xff" + bytes(range(2, 256)) + b"\x01\x01"),
    (bytes(range(3, 256)) + b"\x00\x01", b"\xfe" + bytes(range(3, 256)) + b"\x02\x01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert p.cobs_encode(raw) == encoded
    assert p.cobs_decode(encoded) == raw


@given(st.binary(max_size=2000))
@settings(max_examples=300, deadline=None)
def test_cobs_round_trip_and_no_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert p.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x00", b"\x05\x11", b"\x02\x11\x00"])
def test_cobs_refuses_garbage(bad: bytes) -> None:
    with pytest.raises(p.FrameError) as error:
        p.cobs_decode(bad)
    assert error.value.kind == p.GARBAGE


# -- frames ---------------------------------------------------------------------


@given(st.sampled_from(sorted(p.NAMES)), st.binary(max_size=p.MAX_PAYLOAD))
@settings(max_examples=200, deadline=None)
def test_frame_round_trip(kind: int, payload: bytes) -> None:
    frame = p.encode_frame(kind, payload)
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    assert len(frame) <= p.MAX_ENCODED + 1
    assert p.decode_frame(frame[:-1]) == (kind, payload)


def test_frame_layout() -> None:
    frame = p.encode_frame(p.KEY, b"ok")
    body = p.cobs_decode(frame[:-1])
    assert body[:2] == bytes((p.VERSION, p.KEY))
    assert body[2:-2] == b"ok"
    assert int.from_bytes(body[-2:], "big") == binascii.crc_hqx(body[:-2], 0xFFFF)


def test_bad_crc_is_refused() -> None:
    body = bytearray(p.cobs_decode(p.encode_frame(p.SCREEN, b"hello")[:-1]))
    body[3] ^= 0x01
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(p.cobs_encode(bytes(body)))
    assert error.value.kind == p.BAD_CRC


def test_other_version_is_refused() -> None:
    frame = p.encode_frame(p.HELLO, p.pack_hello("x", 20, 4, ["ok"]), version=p.VERSION + 1)
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(frame[:-1])
    assert error.value.kind == p.WRONG_VERSION


def test_unknown_type_and_types_not_accepted_here() -> None:
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(p.encode_frame(0x7E, b"")[:-1])
    assert error.value.kind == p.UNKNOWN
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(p.encode_frame(p.SCREEN, b"x")[:-1], known={p.HELLO, p.KEY})
    assert error.value.kind == p.UNKNOWN


def test_short_and_oversize_frames() -> None:
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(p.cobs_encode(b"\x01\x02"))
    assert error.value.kind == p.GARBAGE
    with pytest.raises(p.FrameError) as error:
        p.decode_frame(b"\x01" * (p.MAX_ENCODED + 1))
    assert error.value.kind == p.OVERSIZE
    with pytest.raises(ValueError):
        p.encode_frame(p.SCREEN, b"x" * (p.MAX_PAYLOAD + 1))


@given(st.binary(max_size=3000))
@settings(max_examples=300, deadline=None)
def test_decoding_anything_raises_only_frame_errors(data: bytes) -> None:
    try:
        p.decode_frame(data.replace(b"\x00", b""))
    except p.FrameError as error:
        assert error.kind in {p.GARBAGE, p.OVERSIZE, p.BAD_CRC, p.WRONG_VERSION, p.UNKNOWN}


# -- splitting a stream ------------------------------------------------------------


@given(st.lists(st.binary(max_size=300), max_size=8), st.lists(st.integers(1, 50), min_size=1, max_size=20))
@settings(max_examples=200, deadline=None)
def test_splitter_finds_frames_whatever_the_chunks(payloads: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(p.encode_frame(p.SCREEN, payload) for payload in payloads)
    splitter = p.FrameSplitter()
    frames: list[bytes] = []
    at = 0
    i = 0
    while at < len(stream):
        size = cuts[i % len(cuts)]
        frames += splitter.feed(stream[at : at + size])
        at += size
        i += 1
    assert [p.decode_frame(f)[1] for f in frames] == payloads


def test_splitter_drops_oversize_runs_and_recovers() -> None:
    splitter = p.FrameSplitter()
    good = p.encode_frame(p.KEY, b"ok")
    frames = splitter.feed(b"\x01" * (p.MAX_ENCODED * 3))
    assert frames == [] and splitter.oversize == 1
    assert len(splitter.buffer) == 0  # nothing kept while skipping
    frames = splitter.feed(b"\x01\x01\x00" + good)
    assert [p.decode_frame(f) for f in frames] == [(p.KEY, b"ok")]


def test_splitter_skips_empty_frames() -> None:
    assert p.FrameSplitter().feed(b"\x00\x00\x00") == []


# -- payloads -----------------------------------------------------------------------


def test_hello_round_trip() -> None:
    payload = p.pack_hello("pico-e6614c31", 21, 8, ["up", "down", "ok", "back"])
    assert payload[:2] == bytes((21, 8))
    assert p.unpack_hello(payload) == ("pico-e6614c31", 21, 8, ["up", "down", "ok", "back"])


@pytest.mark.parametrize(
    "payload",
    [b"", b"\x14\x04", b"\x14\x04\x05ab", b"\x14\x04\x01a", b"\x14\x04\x01a\x02\x02up", b"\x00\x04\x01a\x00"],
)
def test_malformed_hello(payload: bytes) -> None:
    with pytest.raises(p.FrameError) as error:
        p.unpack_hello(payload)
    assert error.value.kind == p.MALFORMED


def test_screen_region_and_text_round_trip() -> None:
    assert p.unpack_screen(p.pack_screen(["Ann", "Your turn", "", "7 Shadow"])) == ["Ann", "Your turn", "", "7 Shadow"]
    assert p.unpack_region(p.pack_region("turn", 1, 0, 20, "Bo's turn")) == ("turn", 1, 0, 20, "Bo's turn")
    assert p.unpack_text(p.pack_text("471")) == "471"
    with pytest.raises(p.FrameError):
        p.unpack_screen(b"\xff\xfe")
    with pytest.raises(p.FrameError):
        p.unpack_region(b"\x04turn\x01")


@given(st.text(max_size=40), st.integers(1, 255), st.integers(1, 255), st.lists(st.text(max_size=10), max_size=6))
@settings(max_examples=100, deadline=None)
def test_hello_round_trips_any_text(identity: str, cols: int, rows: int, keys: list[str]) -> None:
    identity = identity or "x"
    if len(identity.encode()) > 255:
        return
    assert p.unpack_hello(p.pack_hello(identity, cols, rows, keys)) == (identity, cols, rows, keys)


# -- MicroPython friendliness -----------------------------------------------------------


def test_protocol_module_needs_nothing_micropython_lacks() -> None:
    tree = ast.parse(PROTOCOL_SOURCE.read_text())
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    names = sorted(alias.name for node in imports for alias in node.names)
    assert names == ["hashlib"], "protocol.py imports only what MicroPython has too (it runs on the device as it is)"
    for node in ast.walk(tree):
        assert not isinstance(node, ast.AnnAssign), f"variable annotation at line {node.lineno}"
        if isinstance(node, ast.FunctionDef):
            assert not node.decorator_list, f"decorator on {node.name}"
        if isinstance(node, ast.ClassDef):
            assert not node.decorator_list, f"decorator on {node.name}"
        if isinstance(node, ast.Name):
            assert node.id not in {"memoryview", "dataclass", "binascii", "struct"}, node.id


def test_firmware_device_logic_under_cpython() -> None:
    import importlib.util

    path = PROTOCOL_SOURCE.parent / "firmware" / "main.py"
    spec = importlib.util.spec_from_file_location("display_firmware", path)
    assert spec and spec.loader
    firmware = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(firmware)

    class Screen:
        def __init__(self) -> None:
            self.shown: list[list[str]] = []

        def show(self, lines: list[str]) -> None:
            self.shown.append(lines)

    sent: list[bytes] = []
    screen = Screen()
    device = firmware.Device("pico-1", screen, sent.append)
    device.feed(p.encode_frame(p.ASK) + b"junk\x00" + p.encode_frame(p.SCREEN, p.pack_screen(["Ann", "Your turn"])))
    assert [p.decode_frame(f[:-1])[0] for f in sent] == [p.HELLO]
    assert p.unpack_hello(p.decode_frame(sent[0][:-1])[1])[0] == "pico-1"
    assert screen.shown[-1][:2] == ["Ann", "Your turn"] and device.rejected == 1
    device.feed(p.encode_frame(p.REGION, p.pack_region("t", 1, 5, 4, "Bo")))
    assert screen.shown[-1][1] == "Your Bo  "
    device.feed(p.encode_frame(p.PAIR_CODE, b"471"))
    assert "Code: 4 7 1" in screen.shown[-1]
    device.feed(p.encode_frame(p.PING, b"abc"))
    assert p.decode_frame(sent[-1][:-1]) == (p.PONG, b"abc")
    device.key("ok")
    assert p.decode_frame(sent[-1][:-1]) == (p.KEY, b"ok")


def test_the_readme_example_frame() -> None:
    """docs/displays.md: 'the KEY frame for `ok` is the body `02 02 6f 6b c1 11` ...
    sent as `07 02 02 6f 6b c1 11 00`'."""
    assert p.encode_frame(p.KEY, b"ok") == bytes.fromhex("07 02 02 6f 6b c1 11 00")
