"""Player displays: a small screen and a few keys on USB serial, one per player.

`protocol` is the wire format (shared with the MicroPython firmware),
`link` is the host side of one port, `pairings` keeps which display is
whose (a JSON file), `handshake` pairs a display and checks that it proves
its key, `hub` binds displays to players and shows each one what its player
may see (the text layout is the core's,
`companion.small_display`, and the game's own display module), and
`emulator` is a desktop stand-in that speaks the same protocol over a
pseudo-terminal. Nothing here knows a game.
"""
