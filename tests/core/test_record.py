"""`companion.record`: a game's story, step by step, as the Log screen, the replay and `companion export` read it.

Issue 14, "The game's story": "Every game has a Log screen: the public events in the table's words, each with
its time. A finished game can be replayed step by step, with a slider and the board as it was at each step.
Finished Quin games are revealed in full." and, among the tests asked for: "Replay of the Log equals the live
game at every step."

The games are the golden scripts played into a real games file by a real `Session`, the way
tests/core/data/make_saved_before_the_engine.py plays them (undo and redo lines included), once to the end and
once stopped short with the last move undone.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import record
from companion.dice import RandomDice
from companion.engine import RegisteredGame
from companion.game import Event, Options, Player, Refusal, RuleError, View
from companion.games import game, names
from companion.games.quin.examples import example_setup
from companion.games.quin.pieces import KINDS, LABELS
from companion.games.quin.rules import CloneChosen, Flashed, GravityCast, MemorySwapped, PieceAssigned, Reflected
from companion.session import Session
from companion.store import Store
from tests.games.test_quin_secrets import TOLD, hidden_kinds, random_action, random_setup, table_settings, twins
from tests.support.golden import read, scripts
from tests.support.quin import ANN, BO, identity_words, new_game

CLOCK = 1_700_000_000.0


@dataclass
class Played:
    """A golden game played into a games file, with what the live session showed after each live move."""

    session: Session
    public: list[View] = field(default_factory=list)  # index k: the public view after k live moves
    revealed: list[View] = field(default_factory=list)  # the same, through the game's `revealed_view`
    states: list[Any] = field(default_factory=list)

    def seen(self) -> None:
        self.public.append(self.session.public_view())
        self.revealed.append(self.session.game.revealed_view(self.session.state))
        self.states.append(self.session.state)

    def forget(self) -> None:
        for kept in (self.public, self.revealed, self.states):
            kept.pop()


def play(store: Store, script: Path, *, stop_short: int = 0) -> Played:
    """`script` played as a table would (refused lines skipped); `stop_short`: that many lines left out, and
    the last move then undone, so the file also holds an undone move."""
    golden = read(script)
    ticks = iter(range(1_000_000))
    session = Session.start(
        store, golden.game, Options.for_names(*golden.players, **golden.settings),
        dice=RandomDice.seeded(golden.seed or 0), clock=lambda: CLOCK + next(ticks),
    )  # fmt: skip
    played = Played(session)
    played.seen()
    for action in golden.lines[: len(golden.lines) - stop_short]:
        if action["type"] == "undo":
            if session.undo():
                played.forget()
        elif action["type"] == "redo":
            if session.redo():
                played.seen()
        else:
            with contextlib.suppress(Refusal):  # the scripts' deliberate refusals
                session.act(action)
                played.seen()
    if stop_short and session.undo():
        played.forget()
    return played


def json_of(view: Any) -> Any:
    """A view as the export writes it (tuples become lists)."""
    return json.loads(json.dumps(view))


# -- the story equals the live game, step by step ------------------------------------------------------------


@pytest.mark.parametrize("stop_short", [0, 3], ids=["to the end", "stopped short, last move undone"])
@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_every_step_of_the_story_is_the_live_game_after_that_many_live_moves(tmp_path, script, stop_short):
    """Asked: "Replay of the Log equals the live game at every step": the story's view after step k is the
    live session's public view after k live moves (undone moves left out), whole views compared; a finished
    game's steps show its revealed view ("Finished Quin games are revealed in full")."""
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=stop_short)
        session = played.session
        told = record.story(store, session.game_id)
        stored = store.moves(session.game_id)
    assert told.finished == (session.outcome is not None)
    expected = played.revealed if told.finished else played.public
    assert len(told.steps) == len(session.moves) == len(expected) - 1
    assert told.start_view == expected[0]
    for k, (step, move) in enumerate(zip(told.steps, session.moves, strict=True), start=1):
        assert step.number == k
        assert step.view == expected[k], f"step {k} of {script.name}"
        assert step.events == tuple(session.public_event(e) for e in move.events)
        assert step.player == getattr(move.action, "player", None)
        assert all(sentence for sentence in step.sentences)
    assert [s.at for s in told.steps] == [m.at for m in stored if not m.undone]
    if stop_short:
        assert any(m.undone for m in stored), "the script should leave an undone move in the file"
    assert told.final_view == json_of(session.public_view()) == json_of(played.public[-1])
    assert (told.id, told.game, told.title) == (session.game_id, session.game.name, session.game.title)
    assert told.players == session.options.names and told.settings == dict(session.options.settings)
    assert told.outcome == (session.outcome.to_stored() if session.outcome else None)
    if told.finished:
        assert told.revealed == {p: session.private_view(p) for p in session.options.names}
    else:
        assert told.revealed is None


@pytest.mark.parametrize("script", scripts(), ids=lambda p: p.stem)
def test_every_event_of_every_golden_game_is_told_in_the_tables_words(tmp_path, script):
    """Each game tells its own events (`tell` in its views.py), not a sentence pieced together from an event's
    JSON ("Ann: player left (…)"): every move the table makes has at least one sentence, ending as one does.
    The one exception is a Quin player's private setup, told once it is finished (issue 21: "Quin's setup steps
    are one log line per player")."""
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script)
        told = record.story(store, played.session.game_id)
    private_setup = {"clone_chosen", "piece_assigned", "piece_unassigned"}
    for step in told.steps:
        if all(event["type"] in private_setup for event in step.events):
            assert not any(step.sentences), f"step {step.number} of {script.name} tells a private setup step"
            continue
        assert any(step.sentences), f"step {step.number} of {script.name} tells nothing: {step.events}"
        for sentence in filter(None, step.sentences):
            assert sentence.rstrip(")")[-1] in ".!?" and "{" not in sentence and "_" not in sentence, sentence


def test_leaving_and_choosing_who_starts_are_told_as_sentences(tmp_path):
    """The engine's own events (`told_first`, `told_left`) read as sentences in every game."""
    for name in names():
        entry = game(name)
        players = ("Ann", "Bo", "Cy") if entry.max_players >= 3 else ("Ann", "Bo")
        with Store.open(tmp_path / f"{name}.db") as store:
            session = Session.start(store, name, Options.for_names(*players), clock=lambda: CLOCK)
            if entry.chooses_first:
                session.act({"type": "choose_first", "player": "Bo", "chosen_by": "Ann", "how": "race"})
            session.act({"type": "leave", "player": "Ann"})
            told = record.story(store, session.game_id)
        said = " ".join(s for step in told.steps for s in step.sentences)
        assert "Ann left the game" in said or "Ann leaves the game" in said, (name, said)
        if entry.chooses_first:
            assert "Bo was first to press and starts." in said, (name, said)
        if len(players) == 2:
            assert "Bo is the only player left and wins!" in said, (name, said)


def test_a_game_without_secrets_reveals_nothing_more_at_the_end():
    """`revealed_view` of a game with nothing hidden is its public view."""
    for name in ("quintet", "quark", "quantum-link", "quinque"):
        entry = game(name)
        state = entry.setup(Options.for_names("Ann", "Bo"))
        assert entry.revealed_view(state) == entry.public_view(state)


@pytest.mark.parametrize("name", names())
def test_every_game_has_the_story_hooks(name):
    """Every game's views.py has `tell` and `revealed_view`, next to `public_event` (DESIGN.md: "views.py:
    ... the sentences a table reads")."""
    views = game(name).views
    assert callable(views.tell) and callable(views.revealed_view)


# -- secrets ---------------------------------------------------------------------------------------------------


def test_a_finished_quin_game_is_revealed_in_full_at_every_step(tmp_path):
    """Asked: "Finished Quin games are revealed in full": once both sides are set up, every step of a finished
    game's story shows every piece's identity, all 17 of each side; the revealed views name them all too."""
    finished = [s for s in scripts("quin") if read(s).expect.get("winners")]
    assert finished
    for script in finished:
        with Store.open(tmp_path / f"{script.stem}.db") as store:
            played = play(store, script)
            told = record.story(store, played.session.game_id)
        assert told.finished and told.revealed is not None
        state = played.session.state
        for step in told.steps:
            if step.view["phase"] == "setup":
                continue
            entries = [p for side in step.view["players"] for p in side["pieces"]]
            assert len(entries) == 2 * len(LABELS)
            assert all(p["revealed"] and p["identity"] in KINDS for p in entries), step.number
        for player in played.session.options.names:
            own = {p["label"]: p["identity"] for p in told.revealed[player]["pieces"]}
            assert own == {p.label: p.identity for p in state.pieces_of(player)}
            assert len(own) == len(LABELS)


def test_an_unfinished_quin_game_shows_only_what_the_table_has_seen(tmp_path):
    """An unfinished game's steps are its public views: no piece shows an identity the table was not shown."""
    script = next(s for s in scripts("quin") if read(s).expect.get("winners"))
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=3)
        told = record.story(store, played.session.game_id)
    assert not told.finished and told.revealed is None
    for step, state in zip(told.steps, played.states[1:], strict=True):
        for side, view in zip(state.sides, step.view["players"], strict=True):
            for piece, entry in zip(state.pieces_of(side.name), view["pieces"], strict=True):
                assert ("identity" in entry) == piece.revealed


def event_twins(event: Event) -> list[Event]:
    """Events that differ from `event` only in what its public form hides (which piece was the Memory, the
    casting Void, the Reflector; an assigned identity; the Clone's faces)."""
    other = "17" if getattr(event, "player", None) else "16"
    match event:
        case MemorySwapped():
            return [replace(event, memory=event.other, other=event.memory)]
        case GravityCast():
            return [replace(event, void=next(x for x in ("16", "17") if x != event.void))]
        case Reflected():
            return [replace(event, reflector=next(x for x in ("16", "17") if x != event.reflector))]
        case Flashed(reflector=str()):
            return [replace(event, reflector=next(x for x in ("16", "17") if x != event.reflector))]
        case PieceAssigned():
            return [replace(event, identity=kind) for kind in KINDS if kind != event.identity]
        case CloneChosen():
            return [replace(event, taken=other, made=other)]
    return []


def check_sentences(entry: RegisteredGame, state: Any, events: list[Event], sentences: tuple[str, ...]) -> None:
    """The sentences of one step name no kind still hidden in `state`, tell no hidden piece as "7 (Shadow)",
    and do not change when two hidden pieces of one player swap identities, nor with an event that differs
    only in what its public form hides (so they cannot depend on a secret)."""
    for event in events:
        for twin in event_twins(event):
            assert entry.public_event(twin) == entry.public_event(event)
            assert entry.tell(twin, state) == entry.tell(event, state), f"{event} is told by its secret"
    text = " ".join(sentences)
    for owner in (ANN, BO):
        secret = hidden_kinds(state, owner)
        assert not identity_words(text, secret), f"{text!r} names a hidden kind of {owner}'s: {secret}"
    for label, kind in TOLD.findall(text):
        assert any(p.label == label and p.identity == kind and p.revealed for p in state.pieces), (label, kind, text)
    for owner in (ANN, BO):
        for twin in twins(state, owner):
            assert tuple(s for s in (entry.tell(e, twin) for e in events) if s) == sentences


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(table=table_settings(), data=st.data())
def test_random_quin_stories_never_tell_a_hidden_identity(table, data):
    """DESIGN.md, Secrets: "Headless output, logs and files follow the same rule: nothing unrevealed leaves
    except to its owner." Random games (the random setups and actions of test_quin_secrets, undos among them):
    every step's sentences are checked against the game as it stood after that step."""
    store = Store.in_memory()
    options = Options((Player(ANN, "#e53935"), Player(BO, "#1e88e5")), table)
    session = Session.start(store, "quin", options, clock=lambda: CLOCK)
    states = [session.state]
    for player in data.draw(st.permutations((ANN, BO))):
        session.act(random_setup(data, session.state, player))
        states.append(session.state)
    for _ in range(data.draw(st.integers(5, 60))):
        if session.outcome is not None:
            break
        action = random_action(data, session.state)
        if action.get("type") == "undo":
            if session.undo():
                states.pop()
            continue
        with contextlib.suppress(RuleError):
            session.act(action)
            states.append(session.state)
    told = record.story(store, session.game_id)
    assert len(told.steps) == len(states) - 1
    for step, state, move in zip(told.steps, states[1:], session.moves, strict=True):
        if state.result is None:
            check_sentences(session.game, state, list(move.events), step.sentences)
    if session.outcome is None:
        assert not told.finished and told.revealed is None
        assert [s.view for s in told.steps] == [session.game.public_view(s) for s in states[1:]]


def test_a_private_setup_is_told_without_its_secrets():
    """What the table reads of a private setup: a Clone was chosen, a label got an identity, a side is ready;
    never which Clone, which identity, or where a label goes."""
    entry = game("quin")
    state = new_game()
    for event in entry.decide(state, entry.parse_action(example_setup(ANN), (ANN, BO)), RandomDice.seeded(0)):
        state = entry.evolve(state, event)
        said = entry.tell(event, state)
        assert not identity_words(said), said
        assert "board" not in said and "Zero-G" not in said, said


# -- the story's edges -----------------------------------------------------------------------------------------


def test_no_such_game_is_one_sentence():
    with Store.in_memory() as store, pytest.raises(LookupError, match=r"^There is no game number 3 in this games"):
        record.story(store, 3)


def test_an_abandoned_game_keeps_its_secrets(tmp_path):
    """An abandoned game is not finished: nothing is revealed, its steps are public views."""
    script = next(s for s in scripts("quin") if read(s).expect.get("winners"))
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=3)
        played.session.abandon()
        told = record.story(store, played.session.game_id)
    assert told.outcome is not None and told.outcome["reason"] == "abandoned"
    assert not told.finished and told.revealed is None
    assert [s.view for s in told.steps] == played.public[1:]


def test_the_json_and_the_text_are_what_export_writes(tmp_path):
    """`to_json` keeps the export format (version 2); `text_lines` has a heading, the start, a line a move, the
    end and each player's thinking time (issue 27), each move's line its time, number and sentences."""
    script = scripts("quinque")[0]
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script)
        told = record.story(store, played.session.game_id)
    data = record.to_json(told)
    assert (data["format"], data["version"]) == ("tabletop-companion game", 2)  # 2: issue 27's thinking times
    assert [m["sentences"] for m in data["moves"]] == [list(s.sentences) for s in told.steps]
    assert data["moves"][0]["at"] == record.when(told.steps[0].at) == record.when(CLOCK + 2)  # a tick to start
    lines = record.text_lines(told)
    assert len(lines) == 4 + len(told.steps) and lines[-1] == record.thinking_words(told)
    assert lines[2].endswith(f"  1. {' '.join(told.steps[0].sentences)}")
    assert json.loads(json.dumps(data)) == data


def test_the_export_of_a_game_in_play_reads_only_what_the_table_read(tmp_path):
    """An unfinished game's export has no revealed views, its text ends "Not finished.", and a step the table reads
    nothing of (a Quin player's private setup: issue 21, "Quin's setup steps are one log line per player") has no
    line, while its number is kept for the replay."""
    script = next(s for s in scripts("quin") if "light-captured" in s.name)
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=len(read(script).lines) - 22)
        told = record.story(store, played.session.game_id)
    silent = [step.number for step in told.steps if not step.sentences]
    assert silent and not told.finished
    assert "revealed" not in record.to_json(told)
    lines = record.text_lines(told)
    assert lines[-1] == "Not finished." and len(lines) == 3 + len(told.steps) - len(silent)
    assert not any(line.split("  ", 1)[-1].startswith(f"{n}. ") for line in lines for n in silent)


def test_a_step_draws_its_view_only_when_it_is_read(tmp_path, monkeypatch):
    """Issue 26: "The story of a 1,000-move game within 2× folding the same events bare". Drawing every step's
    view was most of the story's cost, and the Log reads none of them (the replay one at a time, an export the
    last): the story draws the start's view alone, a step's view when it is first read, and keeps it."""
    script = scripts("quinque")[0]
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=3)
        drawn: list[Any] = []
        drawing = RegisteredGame.public_view
        monkeypatch.setattr(
            RegisteredGame, "public_view", lambda entry, state: drawn.append(state) or drawing(entry, state)
        )
        told = record.story(store, played.session.game_id)
        assert len(drawn) == 1 and len(told.steps) > 3  # the start's
        assert told.steps[2].view == told.steps[2].view == played.public[3]
        assert len(drawn) == 2
    assert told.steps[2] == replace(told.steps[2]) and told.steps[2] != told.steps[3]  # steps compare as seen
    assert told.steps[2] != "step 3"


def test_a_story_is_immutable():
    step = record.Step(1, 0.0, None, (), (), dict)
    with pytest.raises(AttributeError):
        step.number = 2  # type: ignore[misc]
    assert replace(step, number=2).number == 2


def test_the_story_benchmark_runs(tmp_path):
    """`make bench` still measures the story (bench/bench_record.py), here on a tiny game."""
    from bench import bench_record

    assert "story of a 20-move game" in bench_record.story_of_a_long_game(tmp_path, moves=20, rounds=1)[0]


def test_a_sixth_game_has_its_story_with_no_line_elsewhere(tmp_path):
    """DESIGN.md: "Adding a game is its package, one screen (.py + .kv), one presenter, and nothing else":
    Pig (tests/sixth_game) tells its own story; a secret bet is told as placed, never on whom, until the end."""
    from companion.games import register, unregister

    register("tests.sixth_game")
    try:
        with Store.open(tmp_path / "games.db") as store:
            session = Session.start(
                store, "pig", Options.for_names("Ann", "Bo", target=3), dice=RandomDice.seeded(2), clock=lambda: CLOCK
            )
            session.act({"type": "bet", "player": "Ann", "on": "Bo"})
            session.act({"type": "bet", "player": "Bo", "on": "Bo"})
            unfinished = record.story(store, session.game_id)
            while session.outcome is None:
                player = session.current_player
                session.act({"type": "hold" if session.state.running >= 3 else "roll", "player": player})
            finished = record.story(store, session.game_id)
    finally:
        unregister("pig")
    assert [s.sentences for s in unfinished.steps] == [("Ann placed a bet.",), ("Bo placed a bet.",)]
    assert all(s.view["bets"] is None for s in unfinished.steps)
    assert finished.finished and finished.steps[0].view["bets"] == {"Ann": "Bo", "Bo": None}
    assert all(s.view["bets"] == {"Ann": "Bo", "Bo": "Bo"} for s in finished.steps[1:])
    assert all(s.sentences for s in finished.steps)
