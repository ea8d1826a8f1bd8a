"""`companion play` without ``--private`` prints nothing that names an unrevealed identity (issue 13).

The promise (docs/command-line.md, `companion play`): "Nothing printed names a hidden identity ... a private action
that was refused shows as "refused (private)"; `--private` adds its reason, for that player". The
examples check the cases a user found (a setup refusal naming the Shadows' labels, a flash sent by a
Reflector); the random test checks the whole printed output of random Quin scripts.

How the random test proves it: indistinguishability. A script is drawn against a hidden setup A:
each side's private setup (single steps or one ``setup`` action, among stray setup actions that the
rules refuse), then play: legal actions, actions often refused, stray private actions, undo and redo.
A cut line k is drawn (the end, just after a secret power was used, or anywhere), and the script up
to k is played through `companion play` (so its final view is the table at line k). Then again on a
twin setup that differs from A only in what is still secret at line k; if the output showed anything
of which secret piece is which, the two outputs would differ. They must be identical, byte for byte
(the final view too, unless the game is over at k: then every piece is shown, as at the table).

- Twin B1: the identities of the pieces still untouched at k are shuffled among the pieces that
  started in the same place, and where possible the Clone makes another kind. Untouched: revealed by
  no line up to k (a flash, First Sight, a used Time, even if undone later) and named in no action
  whose acceptance depends on its identity (a claim, a Memory swap, Time, Void Gravity, a Reflector,
  Artificial Lights brought in together, a stray assignment). The rules take the very same lines
  (asserted on two live sessions): the public moves are the same.
- Twin B2: the pieces those actions touched. A swap's two pieces exchange identities (the line then
  names the other one as the Memory: the table sees the same pair swap); the casting Void or the
  Reflector of an accepted power exchanges with another piece (the line names that one); a piece of
  a refused power or claim exchanges with another. Compared when the rules still take the same lines.

Whether the rules accept an action is what the table sees at a real table too (a claim refused, a
swap made), so only that much of a secret may be told; B2 shows that the output tells no more, not
the Memory of a swap, nor the Void or Reflector, nor, in a refusal, what the piece is. And directly:
no output names the label of a Reflector that sent a flash, every refused private action reads just
"refused (private)", and ``--private`` gives the same lines with each such reason, saying whose it is.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from companion.game import Options, Player, RuleError
from companion.games.quin.examples import example_setup
from companion.games.quin.pieces import (
    ARTIFICIAL_LIGHT,
    CLONE_FROM,
    CLONE_TO,
    KINDS,
    LABELS,
    MEMORY,
    TIME,
    VOID,
    ZERO_G_AT_START,
    counts,
)
from companion.games.quin.rules import FirstSightReached, Flashed, TimeUsed
from companion.session import Session
from companion.store import Store
from tests.support.depth import examples
from tests.support.quin import ANN, BO
from ui import cli

NAMES = (ANN, BO)
PRIVATE_TYPES = ("clone", "assign", "unassign", "setup_done", "setup")
RANDOM_PLAY = ("move", "first_sight", "flash", "swap", "time", "resurrect", "bring_in", "gravity", "reflect",
               "choose_first", "pass")
REFLECTOR_LABEL = re.compile(r'"reflector":\s*"')
PieceKey = tuple[str, str]


def companion_play(lines: list[str], *, private: bool = False, setting: tuple[str, ...] = ()) -> str:
    """What ``companion play quin --actions -`` prints for `lines` on standard input, run in-process."""
    argv = ["play", "quin", "--players", ",".join(NAMES), "--actions", "-", *(f"--setting={s}" for s in setting)]
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO("".join(line + "\n" for line in lines))
    try:
        with contextlib.redirect_stdout(out):
            assert cli.main([*argv, *(["--private"] if private else [])]) == 0
    finally:
        sys.stdin = stdin
    return out.getvalue()


def answers(printed: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The per-line answers and the final block of `companion play`'s output."""
    lines = printed.splitlines()
    end = lines.index("{")
    return [json.loads(line) for line in lines[:end]], json.loads("\n".join(lines[end:]))


# -- what a user found ------------------------------------------------------------------------------------


def test_a_refused_setup_step_says_only_refused_private_and_its_reason_only_with_private():
    """Without --private a refused setup step names no kind ("You have 2 Shadows, already labelled 2 and 3."
    was printed); with --private the sentence is printed, saying whose it is."""
    lines = [
        json.dumps({**example_setup(ANN), "done": False}),
        json.dumps({"type": "assign", "player": ANN, "label": "8", "identity": "Shadow", "where": "board"}),
        json.dumps({"type": "clone", "player": ANN, "from": "Void", "to": "Memory"}),
        json.dumps({"type": "assign", "player": ANN, "label": "8", "identity": "Shadow", "where": 5}),
        json.dumps({"type": "assign", "player": "Zed", "label": "8", "identity": "Shadow", "where": "board"}),
        json.dumps({"type": "flash", "player": BO, "attacker": "1", "defender": "2"}),
    ]
    steps, _ = answers(companion_play(lines))
    assert steps[1] == {"line": 2, "refused": "refused (private)", "for": ANN}
    assert steps[2] == {"line": 3, "refused": "refused (private)", "for": ANN}
    assert steps[3] == {"line": 4, "refused": "refused (private)", "for": ANN}, "even a malformed one"
    assert steps[4] == {"line": 5, "refused": "refused (private)"}, "no seated player to say it is for"
    assert steps[5]["refused"] == "Play starts once both players have finished their private setup."
    shown, _ = answers(companion_play(lines, private=True))
    assert shown[1] == {"line": 2, "refused": "You have 2 Shadows, already labelled 2 and 3.", "for": ANN}
    assert shown[2]["for"] == ANN and "Shadow" not in shown[2]["refused"] and "Take one back" in shown[2]["refused"]
    assert shown[5] == steps[5], "a public action's refusal is the same either way"


def test_a_flash_sent_by_a_reflector_never_prints_the_reflectors_label():
    """docs/command-line.md: the Reflector that sent a flash stays secret. `"reflector": "5"` was reported printed:
    not in the event, not after undo and redo, not in the views or the outcome."""
    lines = [
        json.dumps(example_setup(ANN)),
        json.dumps(example_setup(BO)),
        json.dumps({"type": "flash", "player": ANN, "attacker": "1", "defender": "8", "reflector": "5"}),
        '{"type": "undo"}',
        '{"type": "redo"}',
        json.dumps({"type": "reflect", "player": BO, "reflector": "5", "piece": "1", "to": "Ring 2"}),
        '{"type": "undo"}',
        '{"type": "redo"}',
        json.dumps({"type": "flash", "player": ANN, "attacker": "6", "defender": "1", "reflector": "16"}),
    ]
    printed = companion_play(lines)
    assert not REFLECTOR_LABEL.search(printed)
    steps, final = answers(printed)
    assert steps[2]["events"][0]["reflector"] is True
    assert steps[3:5] == [{"line": 4, "undone": True}, {"line": 5, "redone": True}]
    assert steps[5]["events"][0] == {"type": "reflected", "player": BO, "piece": "1", "to": "Ring 2"}
    assert steps[8]["refused"] == "Your 16 is not on the board (it is on your Zero-G card), so it cannot reflect."
    assert "used a Reflector" in json.dumps(final["public_view"]) and final["outcome"] is None


@pytest.fixture
def pig() -> Iterator[str]:
    from companion.games import register, unregister

    register("tests.sixth_game")
    try:
        yield "pig"
    finally:
        unregister("pig")


def test_the_sixth_games_secret_bet_is_private_too(pig, tmp_path, capsys):
    """A game marks its private actions (`Action.private`) and `companion play` knows no game: Pig's bet."""
    script = tmp_path / "pig.jsonl"
    script.write_text('{"type": "bet", "player": "Ann", "on": "Bo"}\n{"type": "bet", "player": "Ann", "on": "Ann"}\n')
    argv = ["play", pig, "--players", "Ann,Bo", "--actions", str(script)]
    assert cli.main(argv) == 0
    steps, _ = answers(capsys.readouterr().out)
    assert steps == [
        {"line": 1, "events": [{"type": "bet_placed", "player": "Ann"}]},
        {"line": 2, "refused": "refused (private)", "for": "Ann"},
    ]
    assert cli.main([*argv, "--private"]) == 0
    steps, final = answers(capsys.readouterr().out)
    assert steps[1] == {"line": 2, "refused": "Ann has already bet.", "for": "Ann"}
    assert final["private_views"]["Ann"]["my_bet"] == "Bo"


# -- random scripts ------------------------------------------------------------------------------------


@dataclass
class Layout:
    """One side's hidden setup: the Clone, and each label's identity and starting place."""

    clone: tuple[str, str]
    identity: dict[str, str]
    where: dict[str, str]


@dataclass(frozen=True)
class Real:
    """A script line that carries the hidden setup: written out for layout A or layout B."""

    player: str
    what: str  # "clone", "assign" (of `label`), or "setup" (the whole layout in one action)
    label: str = ""
    done: bool = True

    def line(self, layouts: dict[str, Layout]) -> str:
        layout = layouts[self.player]
        clone = {"from": layout.clone[0], "to": layout.clone[1]}
        if self.what == "clone":
            return json.dumps({"type": "clone", "player": self.player, **clone})
        if self.what == "assign":
            label = self.label
            action = {"identity": layout.identity[label], "where": layout.where[label]}
            return json.dumps({"type": "assign", "player": self.player, "label": label, **action})
        board = {label: kind for label, kind in layout.identity.items() if layout.where[label] == "board"}
        zero_g = {label: kind for label, kind in layout.identity.items() if layout.where[label] == "zero-g"}
        whole = {"clone": clone, "board": board, "zero_g": zero_g, "done": self.done}
        return json.dumps({"type": "setup", "player": self.player, **whole})


HIDDEN = {"swap": "memory", "gravity": "void", "reflect": "reflector", "flash": "reflector"}
"""The field of an action in play that names a piece the table is not told of (which one is the Memory, the
casting Void, the Reflector)."""


def relabelled(action: dict[str, Any], twin: dict[PieceKey, PieceKey]) -> dict[str, Any]:
    """`action` as it is written when the pieces in `twin` have swapped identities: its hidden piece follows its
    identity (a swap's pair stays the pair; which one is the Memory may change)."""
    name, player = HIDDEN.get(str(action.get("type"))), action.get("player")
    if name is None or action.get(name) is None or player not in NAMES:
        return action
    hidden = str(action[name])
    moved = twin.get((player, hidden), (player, hidden))[1]
    written = {**action, name: moved}
    if action["type"] == "swap" and moved == str(action["with"]):
        written["with"] = hidden
    return written


def hidden_piece(item: Real | dict[str, Any]) -> bool:
    """Whether a script line names a piece the table is not told of."""
    name = HIDDEN.get(str(item.get("type"))) if isinstance(item, dict) else None
    return name is not None and item.get(name) is not None


@dataclass
class Script:
    items: list[Real | dict[str, Any]] = field(default_factory=list)
    tested: list[set[PieceKey]] = field(default_factory=list)  # per line: pieces whose identity its acceptance tests

    def add(self, item: Real | dict[str, Any], tested: set[PieceKey] | None = None) -> None:
        self.items.append(item)
        self.tested.append(tested or set())

    def lines(
        self, layouts: dict[str, Layout], twin: dict[PieceKey, PieceKey] | None = None, taken: list[bool] | None = None
    ) -> list[str]:
        """The script written for `layouts`; with `twin`, the lines `taken` (accepted) name hidden pieces by it."""
        written = []
        for index, item in enumerate(self.items):
            if isinstance(item, Real):
                written.append(item.line(layouts))
            elif twin and taken and index < len(taken) and taken[index]:
                written.append(json.dumps(relabelled(item, twin)))
            else:
                written.append(json.dumps(item))
        return written


@dataclass
class Tracked:
    """A live session fed the script line by line, as `companion play` is: what happened on each line."""

    session: Session
    pattern: list[str] = field(default_factory=list)  # "events", "refused", "undone: True", ...
    revealed: list[set[PieceKey]] = field(default_factory=list)  # per line: pieces its events revealed
    refusals: dict[int, str] = field(default_factory=dict)  # line index -> the rules' sentence
    over: list[bool] = field(default_factory=list)  # per line: the game is over after it

    @classmethod
    def start(cls, table: dict[str, Any]) -> Tracked:
        options = Options(tuple(Player(name) for name in NAMES), table)
        return cls(Session.start(Store.in_memory(), "quin", options, clock=lambda: 0.0))

    def feed(self, line: str) -> None:
        action = json.loads(line)
        shown: set[PieceKey] = set()
        if action.get("type") in ("undo", "redo"):
            done = self.session.undo() if action["type"] == "undo" else self.session.redo()
            self.pattern.append(f"{action['type']}: {done}")
        else:
            try:
                events = self.session.act(action)
            except RuleError as refusal:
                self.refusals[len(self.pattern)] = str(refusal)
                self.pattern.append("refused")
            else:
                self.pattern.append("events")
                shown = set(revealed_by(self.session, events))
        self.revealed.append(shown)
        self.over.append(self.session.outcome is not None)


def revealed_by(session: Session, events: Any) -> Iterator[PieceKey]:
    """The pieces these events turn face up (the game's end turns every piece up: that is not counted)."""
    state = session.state
    for event in events:
        match event:
            case Flashed():
                yield (event.player, event.attacker)
                yield (state.rival(event.player), event.defender)
            case FirstSightReached():
                yield (event.player, event.label)
            case TimeUsed():
                yield (event.player, event.time)


@st.composite
def table_settings(draw: st.DrawFn) -> dict[str, Any]:
    reflector = draw(st.integers(0, 4))
    memory = draw(st.integers(0, 9 - reflector))
    void = draw(st.integers(0, 9 - reflector - memory))
    return {
        "capture_rule": draw(st.sampled_from(["key", "arcade"])),
        "pieces": {"Reflector": reflector, "Memory": memory, "Void": void, "Peripheral": 9 - reflector - memory - void},
    }


def draw_layout(data: st.DataObject, adjustable: dict[str, int]) -> Layout:
    base = counts(adjustable, None)
    clone = (data.draw(st.sampled_from([k for k in CLONE_FROM if base[k] > 0])), data.draw(st.sampled_from(CLONE_TO)))
    have = counts(adjustable, clone)
    lights = [ARTIFICIAL_LIGHT] * have[ARTIFICIAL_LIGHT]
    others = data.draw(st.permutations([k for k in KINDS if k != ARTIFICIAL_LIGHT for _ in range(have[k])]))
    room = ZERO_G_AT_START - len(lights)
    kinds = [*lights, *others[:room], *others[room:]]
    labels = data.draw(st.permutations(LABELS))
    places = ["zero-g"] * ZERO_G_AT_START + ["board"] * (len(LABELS) - ZERO_G_AT_START)
    return Layout(clone, dict(zip(labels, kinds, strict=True)), dict(zip(labels, places, strict=True)))


def twin_layout(data: st.DataObject, a: Layout, secret: list[str], made: str | None) -> Layout:
    """Layout A with the identities of the `secret` labels shuffled within each starting place, and,
    if `made` is given and a secret piece allows it, a Clone that makes `made` instead."""
    identity = dict(a.identity)
    for place in ("board", "zero-g"):
        labels = [label for label in secret if a.where[label] == place]
        shuffled = data.draw(st.permutations([a.identity[label] for label in labels]))
        identity.update(zip(labels, shuffled, strict=True))
    taken, was = a.clone
    clone = a.clone
    candidates = [label for label in secret if identity[label] == was]
    if made is not None and made != was and taken != was and candidates:
        identity[data.draw(st.sampled_from(candidates))] = made
        clone = (taken, made)
    return Layout(clone, identity, dict(a.where))


def other_clones(layouts: list[Layout]) -> list[tuple[str, str]]:
    """Clones that neither layout can take once all its labels are given (so both refuse them)."""
    real = {layout.clone for layout in layouts}
    return [(f, t) for f in CLONE_FROM for t in CLONE_TO if f != t and (f, t) not in real]


def draw_setup(data: st.DataObject, script: Script, player: str, a: Layout, b_made: str | None) -> None:
    """`player`'s private setup, with stray private actions that both layouts refuse or both accept."""
    whole = data.draw(st.booleans())
    if data.draw(st.booleans()):  # too early: no Clone yet
        script.add(data.draw(st.sampled_from([
            {"type": "setup_done", "player": player},
            {"type": "unassign", "player": player, "label": data.draw(st.sampled_from(LABELS))},
            {"type": "assign", "player": player, "label": "3", "identity": "Light", "where": "board"},
        ])))
    if whole:
        script.add(Real(player, "setup", done=False))
    else:
        script.add(Real(player, "clone"))
        for label in data.draw(st.permutations(LABELS)):
            script.add(Real(player, "assign", label))
            if data.draw(st.integers(0, 9)) == 0:  # refused in both: the same labels are still missing
                script.add({"type": "setup_done", "player": player})
    b_clone = (a.clone[0], b_made) if b_made and a.clone[0] != a.clone[1] else a.clone
    wrong_clones = other_clones([a, Layout(b_clone, {}, {})])
    for _ in range(data.draw(st.integers(0, 4))):
        label = data.draw(st.sampled_from(LABELS))
        kind = data.draw(st.sampled_from([*PRIVATE_TYPES[:3], "rethink"]))
        if kind == "clone" and wrong_clones:
            taken, made = data.draw(st.sampled_from(wrong_clones))
            script.add({"type": "clone", "player": player, "from": taken, "to": made})
        elif kind == "assign":
            identity = data.draw(st.sampled_from([*KINDS, "Lght"]))
            where = data.draw(st.sampled_from(["board", "zero-g"]))
            action = {"type": "assign", "player": player, "label": label, "identity": identity, "where": where}
            script.add(action, {(player, label)})  # accepted only if it is what the label already is
        elif kind in ("unassign", "rethink"):  # a change of mind: taken back, then given again
            script.add({"type": "unassign", "player": player, "label": label})
            script.add(Real(player, "assign", label))
    script.add({"type": "setup_done", "player": player})
    for _ in range(data.draw(st.integers(0, 2))):  # after it is finished, refused in both
        script.add(data.draw(private_action(player)))


@st.composite
def private_action(draw: st.DrawFn, player: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(PRIVATE_TYPES))
    label = draw(st.sampled_from(LABELS))
    kinds = st.sampled_from(KINDS)
    return {
        "clone": {"type": "clone", "player": player, "from": draw(kinds), "to": draw(kinds)},
        "assign": {"type": "assign", "player": player, "label": label, "identity": draw(kinds), "where": "board"},
        "unassign": {"type": "unassign", "player": player, "label": label},
        "setup_done": {"type": "setup_done", "player": player},
        "setup": {**example_setup(player), "done": draw(st.booleans())},
    }[kind]


def identity_checked(action: dict[str, Any]) -> set[PieceKey]:
    """The player's own pieces whose identity decides whether the rules accept `action` in play."""
    player, kind = action.get("player"), action.get("type")
    if player not in NAMES:
        return set()

    def own(*names: str) -> set[PieceKey]:
        return {(player, str(action[name])) for name in names if action.get(name) is not None}

    if kind == "flash" and action.get("reflector") is not None:
        return own("attacker", "reflector")
    if kind == "first_sight" or (kind == "move" and str(action.get("to")).lower() == "first sight"):
        return own("label")
    if kind in ("swap", "time", "gravity", "reflect"):
        lists = {(player, str(label)) for label in action.get("voids") or []}
        return own("memory", "time", "void", "reflector", "piece") | lists
    if kind == "bring_in" and len(action.get("labels") or []) > 1:
        return {(player, str(label)) for label in action["labels"]}
    return set()


def draw_play(data: st.DataObject, session: Session) -> dict[str, Any]:
    """A step of play: a legal action, one often refused, a stray private one, undo or redo."""
    state = session.state
    choice = data.draw(st.sampled_from(["legal", "legal", "legal", "random", "random", "undo", "redo", "private"]))
    turn = state.turn or ANN
    if state.phase == "setup":  # undone back into the setup: only redo and undo, which give both setups alike
        return {"type": "redo" if session.can_redo and choice != "undo" else "undo"}
    if choice == "undo" or (session.outcome is not None and data.draw(st.booleans())):
        return {"type": "undo"}
    if choice == "redo":
        return {"type": "redo"}
    if choice == "private":
        return data.draw(private_action(data.draw(st.sampled_from(NAMES))))
    legal = session.legal_actions(turn) if choice == "legal" else []
    if legal:  # a kind first, so that the many flashes leave room for the powers
        kind = data.draw(st.sampled_from(sorted({type(action).type for action in legal})))
        return session.game.to_json(data.draw(st.sampled_from([a for a in legal if type(a).type == kind])))
    player = turn if data.draw(st.integers(0, 5)) else data.draw(st.sampled_from(NAMES))
    rival = BO if player == ANN else ANN
    board = [p.label for p in state.pieces_of(player) if p.where == "board"] or list(LABELS)
    card = [p.label for p in state.pieces_of(player) if p.where == "zero-g"] or list(LABELS)
    theirs = [p.label for p in state.pieces_of(rival) if p.where == "board"] or list(LABELS)
    mine, other, waiting = st.sampled_from(board), st.sampled_from(theirs), st.sampled_from(card)
    kind = data.draw(st.sampled_from(RANDOM_PLAY))
    action: dict[str, Any] = {"type": kind, "player": player}
    if kind == "move":
        action |= {"label": data.draw(mine), "to": data.draw(st.sampled_from(["Iris", "First Sight"]))}
    elif kind in ("first_sight", "resurrect"):
        action["label"] = data.draw(mine if kind == "first_sight" else st.sampled_from(LABELS))
    elif kind == "flash":
        action |= {"attacker": data.draw(mine), "defender": data.draw(other)}
        if data.draw(st.booleans()):
            action["reflector"] = data.draw(mine)
    elif kind == "swap":
        action |= {"memory": data.draw(mine), "with": data.draw(mine)}
    elif kind == "time":
        action |= {"time": data.draw(mine), "target": data.draw(other)}
    elif kind == "bring_in":
        action["labels"] = data.draw(st.lists(waiting, min_size=1, max_size=3, unique=True))
    elif kind == "gravity":
        action |= {"void": data.draw(mine), "voids": [data.draw(mine)]}
    elif kind == "reflect":
        action |= {"reflector": data.draw(mine), "piece": data.draw(mine)}
    elif kind == "choose_first":
        action = {"type": kind, "player": rival, "chosen_by": player, "how": "table"}
    return action


def power_twin(
    data: st.DataObject, script: Script, live: Tracked, a: dict[str, Layout], cut: int
) -> dict[PieceKey, PieceKey]:
    """Pairs of pieces, unrevealed up to line `cut`, whose identities B2 exchanges (an involution).

    Drawn among the pieces an action up to the cut put to the test: a swap's pair (which one is the Memory),
    the casting Void or the Reflector of an accepted power (with any other piece), the pieces of a refused
    power, claim or bring-in. Each pair keeps its starting place, so the setup stays legal.
    """
    revealed = set().union(*live.revealed[:cut])
    candidates: list[tuple[PieceKey, PieceKey | None]] = []
    hidden: set[PieceKey] = set()  # the Reflectors and casting Voids of accepted powers
    for index, item in enumerate(script.items[:cut]):
        if isinstance(item, Real):
            continue
        player, name = item.get("player"), HIDDEN.get(str(item.get("type")))
        if live.pattern[index] != "events":
            candidates.extend((piece, None) for piece in script.tested[index])
        elif item["type"] == "swap" and player in NAMES:
            candidates.append(((player, str(item["memory"])), (player, str(item["with"]))))
        elif name and item.get(name) is not None and player in NAMES:
            candidates.append(((player, str(item[name])), None))
            hidden.add((player, str(item[name])))
    # A swap's line keeps its pair (whichever of the two is the Memory in B), so a piece of an accepted swap
    # may be exchanged only with its partner there.
    partners: dict[PieceKey, set[PieceKey]] = {}
    for index, item in enumerate(script.items[:cut]):
        if not isinstance(item, Real) and item["type"] == "swap" and live.pattern[index] == "events":
            m, o = (item["player"], str(item["memory"])), (item["player"], str(item["with"]))
            partners.setdefault(m, set()).add(o)
            partners.setdefault(o, set()).add(m)
    if not candidates:
        return {}
    powers = [pair for pair in candidates if pair[1] is not None or pair[0] in hidden]
    chosen = [powers[-1]] if powers else []  # the latest power first: a cut is often drawn just after it
    chosen += [candidates[data.draw(st.integers(0, len(candidates) - 1))] for _ in range(data.draw(st.integers(0, 4)))]
    twin: dict[PieceKey, PieceKey] = {}
    for first, second in chosen:
        owner, label = first
        if second is None:
            place = a[owner].where[label]
            others = [(owner, other) for other in LABELS if other != label and a[owner].where[other] == place]
            second = data.draw(st.sampled_from(others))
        if a[owner].where[label] != a[owner].where[second[1]] or {first, second} & (revealed | set(twin)):
            continue
        if all(partners.get(piece, {other}) == {other} for piece, other in ((first, second), (second, first))):
            twin |= {first: second, second: first}
    return twin


def exchanged(a: Layout, owner: str, twin: dict[PieceKey, PieceKey]) -> Layout:
    identity = {label: a.identity[twin.get((owner, label), (owner, label))[1]] for label in a.identity}
    return Layout(a.clone, identity, dict(a.where))


def same_output(lines_a: list[str], lines_b: list[str], setting: tuple[str, ...], *, ended: bool) -> None:
    """What `companion play` prints for the two scripts is the same: every line's answer, and the final view
    unless the game has `ended` (then every piece is shown, as it is at the table)."""
    steps_a, final_a = answers(companion_play(lines_a, setting=setting))
    steps_b, final_b = answers(companion_play(lines_b, setting=setting))
    assert steps_a == steps_b
    if not ended:
        assert final_a == final_b


@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
@given(table=table_settings(), data=st.data())
def test_random_quin_scripts_print_the_same_whatever_the_hidden_setup(table, data):
    """Two hidden setups that differ only in pieces still secret at line k print the very same output up to
    line k without --private (see the module's docstring for why that proves the promise)."""
    adjustable = table["pieces"]
    setting = (f"pieces={json.dumps(adjustable)}", f"capture_rule={json.dumps(table['capture_rule'])}")
    a = {player: draw_layout(data, adjustable) for player in NAMES}
    b_made = {player: data.draw(st.sampled_from([None, TIME, MEMORY, VOID])) for player in NAMES}
    script = Script()
    for player in data.draw(st.permutations(NAMES)):
        if data.draw(st.integers(0, 3)) == 0:
            script.add({"type": "choose_first", "player": player, "chosen_by": ANN, "how": "race"})
        draw_setup(data, script, player, a[player], b_made[player])
    # Play, drawn against A as it goes (a legal action is one legal for A).
    live = Tracked.start(table)
    for line in script.lines(a):
        live.feed(line)
    assert live.session.state.phase == "play", "both setups are finished"
    for _ in range(data.draw(st.integers(0, 50))):
        action = draw_play(data, live.session)
        script.add(action, identity_checked(action))
        live.feed(json.dumps(action))
    lines_a = script.lines(a)
    powers = [i + 1 for i, item in enumerate(script.items) if live.pattern[i] == "events" and hidden_piece(item)]
    where = data.draw(st.sampled_from(["end", "after a power", "anywhere"]))
    if where == "after a power" and powers:
        cut = data.draw(st.sampled_from(powers))
    else:
        cut = len(lines_a) if where == "end" else data.draw(st.integers(0, len(lines_a)))
    ended = bool(cut) and live.over[cut - 1]
    # B1: every untouched secret piece shuffled (and perhaps another Clone): the rules take the same lines.
    known = set().union(*live.revealed[:cut], *script.tested[:cut])
    secret = {player: [label for label in LABELS if (player, label) not in known] for player in NAMES}
    b = {player: twin_layout(data, a[player], secret[player], b_made[player]) for player in NAMES}
    lines_b = script.lines(b)
    twin = Tracked.start(table)
    for line in lines_b[:cut]:
        twin.feed(line)
    assert twin.pattern == live.pattern[:cut], "the rules took other lines: the twin setup tests something"
    same_output(lines_a[:cut], lines_b[:cut], setting, ended=ended)
    # B2: the pieces powers and refusals touched exchanged, where the rules still take the same lines.
    pairs = power_twin(data, script, live, a, cut)
    lines_b2 = script.lines({p: exchanged(a[p], p, pairs) for p in NAMES}, pairs, [p == "events" for p in live.pattern])
    twin2 = Tracked.start(table)
    for line in lines_b2[:cut] if pairs else []:
        twin2.feed(line)
    if pairs and twin2.pattern == live.pattern[:cut]:
        same_output(lines_a[:cut], lines_b2[:cut], setting, ended=ended)
    differs = sum(a[p].identity != b[p].identity or a[p].clone != b[p].clone for p in NAMES)
    note(f"B1: {differs} side(s) differ; {'lines' if ended else 'lines and views'} compared")
    note(f"B2: {'none' if not pairs else 'compared' if twin2.pattern == live.pattern[:cut] else 'the rules differ'}")
    # Directly: no Reflector's label, and each refused private action is only "refused (private)".
    printed = companion_play(lines_a, setting=setting)
    assert not REFLECTOR_LABEL.search(printed)
    steps, _ = answers(printed)
    shown, _ = answers(companion_play(lines_a, private=True, setting=setting))
    for index, (line, step) in enumerate(zip(lines_a, steps, strict=True)):
        action = json.loads(line)
        if live.pattern[index] == "refused" and action["type"] in PRIVATE_TYPES:
            whose = {"for": action["player"]} if action["player"] in NAMES else {}
            assert step == {"line": index + 1, "refused": "refused (private)", **whose}
            assert shown[index] == {"line": index + 1, "refused": live.refusals[index], **whose}
        else:
            assert shown[index] == step, "--private changes nothing else"
