"""The player display protocol: COBS frames with a version byte and a CRC-16.

This one module is shared by the host (CPython, `hardware.display.link`) and
the device firmware (MicroPython, `firmware/main.py`), so it imports nothing,
uses no dataclasses and computes its own CRC and COBS. Its type hints name only
built-in types: MicroPython parses a function's annotations and ignores them;
variables are typed by ``# type:`` comments (no variable annotations on the device).

On the wire every frame is ``COBS(body) + b"\\x00"``; the zero byte only ever
appears as the delimiter. The body is::

    version (1 byte) | type (1 byte) | payload (0..MAX_PAYLOAD bytes) | CRC-16 (2 bytes, big-endian)

The CRC is CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF; the same as
CPython's ``binascii.crc_hqx(data, 0xFFFF)``) over version, type and payload.
Every drawing message is idempotent: sending it twice shows the same thing.

Version 2 added the handshake: a display keeps a random key it was given at
pairing (BIND), and proves it holds it by answering each CHALLENGE with
PROOF = HMAC-SHA256(key, nonce). Version 1 displays are told to update.
"""

VERSION = 2
OLDEST_TOLD_TO_UPDATE = 1  # a HELLO of this version or newer (and older than ours) gets an "update" screen
KEY_SIZE = 32
NONCE_SIZE = 16
MAX_PAYLOAD = 1024
# A COBS body grows by one byte per 254 and the delimiter adds one: this is the
# longest run of non-zero bytes a reader ever has to keep.
MAX_ENCODED = MAX_PAYLOAD + 4 + (MAX_PAYLOAD + 4) // 254 + 2

# device -> host
HELLO = 0x01  # cols u8, rows u8, identity (u8 length + UTF-8), key count u8, keys (u8 length + UTF-8 each)
KEY = 0x02  # the key's name, UTF-8
PONG = 0x03  # the PING's token, echoed
PROOF = 0x04  # HMAC-SHA256(key, nonce) of the last CHALLENGE (32 bytes), or empty: "I hold no key"
# host -> device
ASK = 0x10  # empty: "say HELLO again"
SCREEN = 0x11  # the whole screen: UTF-8 rows joined by "\n"; clears every region
REGION = 0x12  # key (u8 length + UTF-8), row u8, col u8, width u8, UTF-8 text
PAIR_CODE = 0x13  # ASCII digits to show for pairing, e.g. "471"
PING = 0x14  # a token of up to 8 bytes, answered by PONG
CHALLENGE = 0x15  # a fresh nonce (NONCE_SIZE bytes), answered by PROOF
BIND = 0x16  # a new key (KEY_SIZE bytes) to keep in flash, replacing any other; a CHALLENGE follows

NAMES = {
    HELLO: "HELLO",
    KEY: "KEY",
    PONG: "PONG",
    PROOF: "PROOF",
    ASK: "ASK",
    SCREEN: "SCREEN",
    REGION: "REGION",
    PAIR_CODE: "PAIR_CODE",
    PING: "PING",
    CHALLENGE: "CHALLENGE",
    BIND: "BIND",
}

# What a rejected frame was, for the counters.
GARBAGE = "garbage"  # not valid COBS, or too short to hold a header and a CRC
OVERSIZE = "oversize"  # longer than MAX_ENCODED before its delimiter
BAD_CRC = "bad_crc"
WRONG_VERSION = "wrong_version"
UNKNOWN = "unknown"  # a valid frame of a type this side does not know
MALFORMED = "malformed"  # a known type whose payload does not parse


class FrameError(Exception):
    """A frame that was refused; `kind` says why (one of the constants above).

    For WRONG_VERSION, `version`, `type` and `payload` say what the frame was,
    so that a side can answer an older peer in its own version.
    """

    def __init__(
        self, kind: str, detail: str = "", version: int | None = None, type: int | None = None, payload: bytes = b""
    ) -> None:
        super().__init__(kind + (": " + detail if detail else ""))
        self.kind = kind
        self.version = version
        self.type = type
        self.payload = payload


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()  # 256 entries: a few times faster than bit by bit, small enough for a Pico


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of `data`, continuing from `crc`."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: `data` without any zero byte (delimiter not added)."""
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and i != last:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """The bytes `cobs_encode` made `data` from; FrameError(GARBAGE) if it is not COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError(GARBAGE, "zero byte inside a frame")
        end = i + code
        if end > n:
            raise FrameError(GARBAGE, "block runs past the end")
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(kind: int, payload: bytes = b"", version: int = VERSION) -> bytes:
    """One frame ready for the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    body = bytes((version, kind)) + bytes(payload)
    crc = crc16(body)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(frame: bytes, known: tuple[int, ...] | frozenset[int] | None = None) -> tuple[int, bytes]:
    """``(type, payload)`` from one frame without its delimiter; FrameError otherwise.

    `known` is the collection of types this side accepts (all types when None).
    """
    if len(frame) > MAX_ENCODED:
        raise FrameError(OVERSIZE, f"{len(frame)} bytes")
    body = cobs_decode(frame)
    if len(body) < 4:
        raise FrameError(GARBAGE, f"{len(body)} bytes is too short")
    crc = (body[-2] << 8) | body[-1]
    if crc16(body[:-2]) != crc:
        raise FrameError(BAD_CRC)
    if body[0] != VERSION:
        detail = f"version {body[0]}, this side speaks {VERSION}"
        raise FrameError(WRONG_VERSION, detail, body[0], body[1], bytes(body[2:-2]))
    kind = body[1]
    if (known is None and kind not in NAMES) or (known is not None and kind not in known):
        raise FrameError(UNKNOWN, f"type 0x{kind:02x}")
    return kind, body[2:-2]


class FrameSplitter:
    """Cuts a byte stream into frames at each zero byte, like pyserial's Packetizer.

    A run longer than MAX_ENCODED without a delimiter is dropped (counted in
    `oversize`) and everything up to the next zero byte is skipped, so a
    stream of garbage never makes the buffer grow.
    """

    def __init__(self, limit: int = MAX_ENCODED) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.skipping = False
        self.oversize = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The complete frames (without delimiters) that `data` finishes; empty frames are left out."""
        if not isinstance(data, bytes):
            data = bytes(data)
        frames = []  # type: list[bytes]
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            chunk_end = n if end < 0 else end
            if not self.skipping:
                self.buffer.extend(data[start:chunk_end])
                if len(self.buffer) > self.limit:
                    self.oversize += 1
                    self.buffer = bytearray()
                    self.skipping = True
            if end < 0:
                break
            if not self.skipping and self.buffer:
                frames.append(bytes(self.buffer))
            self.buffer = bytearray()
            self.skipping = False
            start = end + 1
        return frames


# -- payloads -----------------------------------------------------------------


def _text(data: bytes) -> str:
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise FrameError(MALFORMED, "text is not UTF-8") from None


def _short(text: str) -> bytes:
    raw = text.encode("utf-8")
    if len(raw) > 255:
        raise ValueError(f"'{text}' is longer than 255 bytes")
    return bytes((len(raw),)) + raw


def _take_short(payload: bytes, at: int) -> tuple[str, int]:
    if at >= len(payload):
        raise FrameError(MALFORMED, "payload ends early")
    size = payload[at]
    end = at + 1 + size
    if end > len(payload):
        raise FrameError(MALFORMED, "payload ends early")
    return _text(payload[at + 1 : end]), end


def pack_hello(identity: str, cols: int, rows: int, keys: list[str] | tuple[str, ...]) -> bytes:
    """HELLO payload: who the device is, its screen size and its keys' names."""
    out = bytearray((cols & 0xFF, rows & 0xFF))
    out.extend(_short(identity))
    out.append(len(keys))
    for key in keys:
        out.extend(_short(key))
    return bytes(out)


def unpack_hello(payload: bytes) -> tuple[str, int, int, list[str]]:
    """``(identity, cols, rows, keys)`` from a HELLO payload."""
    if len(payload) < 4:
        raise FrameError(MALFORMED, "HELLO too short")
    cols = payload[0]
    rows = payload[1]
    identity, at = _take_short(payload, 2)
    if at >= len(payload):
        raise FrameError(MALFORMED, "HELLO has no key count")
    count = payload[at]
    at += 1
    keys = []  # type: list[str]
    for _ in range(count):
        key, at = _take_short(payload, at)
        keys.append(key)
    if not identity or cols == 0 or rows == 0:
        raise FrameError(MALFORMED, "HELLO needs an identity and a screen size")
    return identity, cols, rows, keys


def pack_screen(lines: list[str]) -> bytes:
    """SCREEN payload: the rows of the whole screen."""
    return "\n".join(lines).encode("utf-8")


def unpack_screen(payload: bytes) -> list[str]:
    return _text(payload).split("\n")


def pack_region(key: str, row: int, col: int, width: int, text: str) -> bytes:
    """REGION payload: `text` drawn at (row, col) in `width` cells, kept under `key`."""
    return _short(key) + bytes((row & 0xFF, col & 0xFF, width & 0xFF)) + text.encode("utf-8")


def unpack_region(payload: bytes) -> tuple[str, int, int, int, str]:
    """``(key, row, col, width, text)`` from a REGION payload."""
    key, at = _take_short(payload, 0)
    if at + 3 > len(payload):
        raise FrameError(MALFORMED, "REGION ends early")
    return key, payload[at], payload[at + 1], payload[at + 2], _text(payload[at + 3 :])


def pack_text(text: str) -> bytes:
    """KEY and PAIR_CODE payloads: a short text."""
    return text.encode("utf-8")


def unpack_text(payload: bytes) -> str:
    return _text(payload)


def pack_update(lines: list[str]) -> bytes:
    """The SCREEN payload telling a display of an older version to update (same format in every version)."""
    return pack_screen(lines)


# -- the handshake --------------------------------------------------------------

_BLOCK = 64  # SHA-256's block size


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 from its definition (RFC 2104): MicroPython has hashlib.sha256 but no hmac module."""
    import hashlib

    key = bytes(key)
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key + bytes(_BLOCK - len(key))
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
    inner.update(bytes(message))
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))
    outer.update(inner.digest())
    return outer.digest()


def prove(key: bytes, nonce: bytes) -> bytes:
    """The PROOF payload for a CHALLENGE's `nonce`: HMAC-SHA256 under the pairing key."""
    return hmac_sha256(key, b"companion display proof" + bytes(nonce))
