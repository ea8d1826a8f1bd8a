# A stand-in for the SSD1306 OLED driver (micropython-lib's ssd1306) on the
# Unix port: the same 128x64 framebuf.FrameBuffer in MONO_VLSB, drawn with
# the built-in 8x8 font, but show() hands the picture to the harness instead
# of the I2C bus. NOT copied to a Pico: there, `mpremote mip install ssd1306`.
#
# show() writes BOARD_DIR/oled.bin (the 1024-byte buffer, as the panel gets
# it) and BOARD_DIR/oled.txt (the text rows drawn since the last fill, for
# the tests' eyes), adds those rows to BOARD_DIR/oled.log (one JSON list a
# line: every picture ever shown, so a test misses none), then signals
# "drawn N" (see board.py).

import framebuf
import json

import board


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.texts = {}
        self.shown = 0

    def fill(self, colour):
        self.texts = {}
        super().fill(colour)

    def text(self, string, x, y, colour=1):
        if colour:
            self.texts[(y // 8, x // 8)] = string
        super().text(string, x, y, colour)

    def rows(self):
        """The text drawn since the last fill, as rows of 8x8 cells."""
        out = [""] * (self.height // 8)
        for (row, col), string in self.texts.items():
            if 0 <= row < len(out):
                line = out[row] + " " * (col - len(out[row]))
                out[row] = line[:col] + string + line[col + len(string) :]
        return [line[: self.width // 8] for line in out]

    def show(self):
        self.shown += 1
        board.replace("oled.bin", self.buffer)
        rows = self.rows()
        board.replace("oled.txt", "\n".join(rows).encode())
        with open(board.path("oled.log"), "ab") as log:
            log.write((json.dumps(rows) + "\n").encode())
        board.signal("drawn %d" % self.shown)

    def poweroff(self):
        pass

    def poweron(self):
        pass

    def contrast(self, contrast):
        pass

    def invert(self, invert):
        pass
