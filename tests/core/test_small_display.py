"""The game-neutral text layout of the player displays: nothing is ever cut in a way that changes meaning.

Issue 13: "Check that no line is cut in a way that changes meaning." Here for
any text, any name and any list, whatever the game: a word that fits a line is
never broken, a name is never shortened, lines laid out together stay together,
and whatever is too long for a screen goes on over pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import codec
from companion.codec import key, optional
from companion.game import LEFT, Event, GameView, Outcome
from companion.small_display import (
    Block,
    Menu,
    OwnView,
    Page,
    abbreviate,
    fit,
    header,
    menu_page,
    name_value,
    neutral,
    pages,
    pages_for,
    paginate,
    plain_lines,
    text_pages,
    too_small,
    wrap,
)

word = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz'()-.,"), min_size=1, max_size=12)
text = st.lists(word, min_size=1, max_size=30).map(" ".join)
name = st.lists(st.text(st.sampled_from("ABCabc'-"), min_size=1, max_size=14), min_size=1, max_size=3).map(" ".join)


def check_shape(page: Page, cols: int, rows: int) -> None:
    assert len(page) == rows and all(len(line) <= cols for line in page), page


# -- wrapping ----------------------------------------------------------------------------------------------------


@given(text, st.integers(1, 40), st.sampled_from(["", "  "]))
@settings(max_examples=200, deadline=None)
def test_wrap_never_breaks_a_word_that_fits_a_line_and_loses_nothing(words: str, cols: int, indent: str) -> None:
    """A word that fits a line stays whole; only a word longer than a line goes on over the next."""
    lines = wrap(words, cols, indent)
    assert all(len(line) <= cols for line in lines)
    assert "".join("".join(lines).split()) == "".join(words.split())
    tokens = " ".join(lines).split()
    assert all(w in tokens for w in words.split() if len(w) <= cols)


def test_a_word_longer_than_a_line_starts_its_own_line() -> None:
    """Issue 13: nothing lost; the line before keeps only whole words."""
    assert wrap("Bo's turn", 16) == ["Bo's turn"]
    assert wrap("takes Bartholomew-Alexander's 1", 16) == ["takes", "Bartholomew-Alex", "ander's 1"]
    assert wrap("back to zero-G", 8) == ["back to", "zero-G"]  # never at the hyphen


def test_fit_wraps_a_long_line_instead_of_cutting_it() -> None:
    assert fit(["Pair this display:"], 16, 3) == ["Pair this", "display:", ""]


# -- the header: the name whole --------------------------------------------------------------------------------------


def test_the_mark_goes_beside_the_name_else_under_it_and_the_name_is_never_shortened() -> None:
    """Issue 13: a long name is never cut to a prefix ("Bartholo"): the mark takes a line of its own instead."""
    assert header("Ann", "Refused 1/3", 16) == ["Ann  Refused 1/3"]
    assert header("Bartholomew", "Refused 1/3", 16) == ["Bartholomew", "     Refused 1/3"]
    assert header("Maximiliana Rosenthal", "2/5", 16) == ["Maximiliana", "Rosenthal    2/5"]
    assert header("Bartholomew", ("1 Artificial Light", "1 Art.Light"), 21) == ["Bartholomew", "   1 Artificial Light"]
    assert header("Ann", ("1 Artificial Light", "1 Art.Light"), 20) == ["Ann      1 Art.Light"]


@given(name, st.text(st.sampled_from("Refused 0123456789/"), max_size=14), st.integers(16, 40))
@settings(max_examples=200, deadline=None)
def test_a_header_holds_the_whole_name_and_the_whole_mark(player: str, mark: str, cols: int) -> None:
    lines = header(player, mark.strip(), cols)
    assert all(len(line) <= cols for line in lines)
    assert " ".join(" ".join(lines).split()) == " ".join(f"{player} {mark}".split())


# -- pages ---------------------------------------------------------------------------------------------------------

laid_out = st.lists(st.text(st.sampled_from("abc *0123"), min_size=1, max_size=10), min_size=1, max_size=2)
blocks = st.lists(st.one_of(text, laid_out), max_size=25)


def header_height(page: Page, player: str, cols: int, mark: str) -> int:
    """How many lines the header of `page` takes: the name's, and one more if `mark` is not beside it."""
    names = len(wrap(player, cols))
    return names if not mark or page[names - 1].endswith(mark) else names + 1


@given(name, blocks, st.integers(16, 40), st.integers(4, 12))
@settings(max_examples=200, deadline=None)
def test_pages_hold_every_block_in_order_and_keep_laid_out_lines_together(
    player: str, drawn: list[Block], cols: int, rows: int
) -> None:
    """Every page: the whole name, ``n/m`` agreeing with the count; laid-out lines on one page; nothing lost."""
    body = [b if isinstance(b, str) else [f"#{i} {line}".rstrip() for line in b] for i, b in enumerate(drawn)]
    pages = paginate(player, body, cols, rows)
    if pages == [too_small(cols, rows)]:
        assert len(wrap(player, cols)) + 1 >= rows - 1  # only a name that leaves no room for two lines
        return
    under: list[str] = []
    for number, page in enumerate(pages, 1):
        check_shape(page, cols, rows)
        head = header_height(page, player, cols, f"{number}/{len(pages)}" if len(pages) > 1 else "")
        assert " ".join(" ".join(page[:head]).split()).startswith(" ".join(player.split()))
        under.extend(line for line in page[head:])
        for block in body:
            if not isinstance(block, str) and block[0] in page[head:]:
                at = page.index(block[0], head)
                assert page[at : at + len(block)] == list(block)  # together, on this page
    expected = [w for block in body for w in (block.split() if isinstance(block, str) else " ".join(block).split())]
    assert " ".join(under).split() == expected


@given(name, text, st.integers(16, 40), st.integers(4, 12))
@settings(max_examples=100, deadline=None)
def test_a_long_text_is_paged_and_reads_whole(player: str, sentence: str, cols: int, rows: int) -> None:
    """Issue 13: refusal sentences are wrapped, paged if needed, never cut."""
    pages = text_pages(player, "Refused", sentence, cols, rows)
    if pages == [too_small(cols, rows)]:
        assert len(header(player, "Refused 99/99", cols)) >= rows  # only a name that fills the screen
        return
    read = []
    for number, page in enumerate(pages, 1):
        check_shape(page, cols, rows)
        mark = f"Refused {number}/{len(pages)}" if len(pages) > 1 else "Refused"
        head = header_height(page, player, cols, mark)
        assert " ".join(" ".join(page[:head]).split()) == " ".join(f"{player} {mark}".split())
        read.extend(page[head:])
    assert "".join("".join(read).split()) == "".join(sentence.split())


# -- menus ---------------------------------------------------------------------------------------------------------


def test_a_menu_shows_only_whole_items_and_the_cursor_on_a_whole_one() -> None:
    items: Sequence[Block] = ["one", ["two", "  2nd line"], "three", ["four", "  4th line"], "five"]
    assert menu_page("Ann", "List", items, 1, 20, 4) == ["Ann             List", " one", ">two", "   2nd line"]
    assert menu_page("Ann", "List", items, 3, 20, 4) == ["Ann             List", " three", ">four", "   4th line"]
    assert menu_page("Ann", "List", items, 4, 20, 4) == ["Ann             List", " four", "   4th line", ">five"]
    # A long item is wrapped, not cut.
    assert menu_page("Ann", "List", ["Finish the whole setup now"], 0, 16, 4) == [
        "Ann         List",
        ">Finish the",
        "   whole setup",
        "   now",
    ]


def test_name_value_puts_the_value_under_a_name_it_does_not_fit_beside() -> None:
    assert name_value(("Artificial Light moves", "Art.Light moves"), "5", 21) == ["Art.Light moves     5"]
    assert name_value(("Artificial Light moves", "Art.Light moves"), "5", 16) == ["Art.Light moves", "               5"]


def test_abbreviate_never_cuts() -> None:
    forms = {"Peripheral": ("Periph.",)}
    assert abbreviate("Peripheral", forms, 10) == "Peripheral"
    assert abbreviate("Peripheral", forms, 7) == "Periph."
    assert abbreviate("Peripheral", forms, 3) == "Periph."  # too long, never "Per"
    assert abbreviate("Shadow", forms, 3) == "Shadow"  # no declared form: whole


# -- pages_for: the safety net -----------------------------------------------------------------------------------------


class TooWide:
    """A game layout that made a line too long: the screen must not cut it."""

    def pages(self, view: OwnView, cols: int, rows: int) -> list[Page]:
        return [["Ann", "x" * (cols + 3)]]

    def menu_for(self, view: OwnView, menu: Menu | None) -> Menu | None:
        return None


def test_a_page_a_game_made_too_wide_is_shown_plainly_rather_than_cut() -> None:
    view = {"game": "quark", "player": "Ann", "energy": 7}
    assert pages_for(view, 20, 4, TooWide()) == [["Ann", "energy: 7", "", ""]]


@pytest.mark.parametrize(("cols", "rows"), [(15, 8), (20, 3), (8, 2), (1, 1)])
def test_below_16x4_no_private_view_is_drawn(cols: int, rows: int) -> None:
    view = {"game": "quark", "player": "Ann", "energy": 7}
    assert pages_for(view, cols, rows) == [too_small(cols, rows)]
    assert "Ann" not in " ".join(too_small(cols, rows))


def test_a_neutral_screen_wraps_its_title() -> None:
    assert neutral(16, 4, "Bartholomew's display", "Waiting for a game.") == [
        "Bartholomew's",
        "display",
        "Waiting for a",
        "game.",
    ]


def test_no_view_is_no_game_in_progress() -> None:
    """A display bound to a player while no game is on shows that, and nothing private."""
    assert pages_for(None, 20, 4) == [["No game", "in progress", "", ""]]


class NoPages:
    """A game layout that laid out nothing (a bug): the view must still be shown."""

    def pages(self, view: OwnView, cols: int, rows: int) -> list[Page]:
        return []

    def menu_for(self, view: OwnView, menu: Menu | None) -> Menu | None:
        return None


def test_a_layout_that_made_no_page_leaves_the_view_shown_plainly() -> None:
    assert pages_for({"player": "Ann", "energy": 7}, 20, 4, NoPages()) == [["Ann", "energy: 7", "", ""]]


# -- the plain layout of a typed view ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    suit: str
    rank: int


@dataclass(frozen=True)
class Drawn(Event):
    type = "drawn"
    player: str
    start: str = key("from")


@dataclass(frozen=True, kw_only=True)
class CardsView(GameView):
    game: str
    player: str
    hand: tuple[Card, ...]
    trump: Card
    last: Drawn | None
    counts: Mapping[str, int]
    note: str = optional("")
    passed: bool = False


def test_the_plain_layout_reads_a_typed_views_fields_under_their_json_names_in_order() -> None:
    """Issue 25: "the display renderer ... read[s] fields; JSON appears only at the edges". A game without a
    layout of its own is shown from its typed view: every field in the order and under the name its JSON has
    (a renamed key, ``from``; an optional key left out while it holds its default; a message's ``type``)."""
    view = CardsView(
        game="cards",
        player="Ann",
        hand=(Card("hearts", 7), Card("spades", 12)),
        trump=Card("clubs", 1),
        last=Drawn("Bo", "deck"),
        counts={"Ann": 2, "Bo": 3},
        over=True,
        outcome=Outcome(("Ann",), LEFT, "Bo left."),
    )
    lines = plain_lines(view, 40)
    assert lines == [
        "over: yes",
        "outcome:",
        "winners: Ann",
        "reason: left",
        "detail: Bo left.",
        "hand:",
        "hearts 7",
        "spades 12",
        "trump:",
        "suit: clubs",
        "rank: 1",
        "last:",
        "type: drawn",
        "player: Bo",
        "from: deck",
        "counts:",
        "Ann: 2",
        "Bo: 3",
        "passed: no",
    ]
    assert lines == plain_lines(codec.view_json(view), 40)  # what the same view's JSON read as keys gave
    assert pages(view, 40, 4)[0][0].startswith("Ann")  # the header names whose view it is


# -- lists and pages at the edges of the screen ---------------------------------------------------------------


def test_a_menu_whose_header_fills_the_screen_or_whose_item_is_taller_than_the_room_is_too_small() -> None:
    """Never a cut: a list that cannot show its chosen item whole says the screen is too small."""
    assert menu_page("Maximiliana Rosenthal", "List", ["one"], 0, 16, 2) == too_small(16, 2)
    tall = ["one", ["two", "  2nd", "  3rd", "  4th"]]
    assert menu_page("Ann", "List", tall, 1, 20, 4) == too_small(20, 4)
    assert menu_page("Ann", "List", tall, 0, 20, 4) == ["Ann             List", ">one", "", ""]


def test_an_empty_list_shows_its_header_alone() -> None:
    assert menu_page("Ann", "List", [], 0, 20, 4) == ["Ann             List", "", "", ""]


def test_on_a_one_line_screen_pages_hold_the_body_alone_and_lines_laid_out_together_do_not_fit() -> None:
    assert paginate("Ann", ["one", "two"], 20, 1) == [["one"], ["two"]]
    assert paginate("Ann", [["piece 7", "  on the board"]], 20, 1) == [too_small(20, 1)]


def test_lines_laid_out_together_taller_than_a_page_make_the_screen_too_small() -> None:
    """A piece and its place stay together: when no page can hold them, the screen is too small, not cut."""
    assert paginate("Ann", [["a", "b", "c", "d"]], 20, 4) == [too_small(20, 4)]
    assert paginate("Maximiliana Rosenthal", ["x"], 16, 2) == [too_small(16, 2)]
