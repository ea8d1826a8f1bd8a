"""Player displays: a small screen and a few keys on USB serial, one per player.

`protocol` is the wire format (shared with the MicroPython firmware),
`link` is the host side of one port, `hub` binds displays to players and
shows each one its player's private view, `render` turns a view into lines
of text, and `emulator` is a desktop stand-in that speaks the same protocol
over a pseudo-terminal.
"""
