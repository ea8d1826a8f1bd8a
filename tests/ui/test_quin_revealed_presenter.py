"""The Quin shared screen's presenter shows a finished game revealed in full, live and in its story.

Issue 14: "Finished Quin games are revealed in full." The presenter writes an identity under every piece
entry that carries one, so the live screen of a finished game (its public view: every piece revealed) and
each step of its story (`revealed_view`) show all 17 identities of each side with no change of their own.
"""

from __future__ import annotations

import re

from companion import record
from companion.codec import from_json
from companion.game import View
from companion.games.quin.pieces import LABELS
from companion.games.quin.views import QuinView
from companion.store import Store
from tests.core.test_record import play
from tests.support.golden import read, scripts
from ui.presenters.quin import TINY, Selection, present


def identities_shown(view: QuinView | View) -> list[str]:
    """The identity words under the pieces on the shared screen (a story's JSON view read back typed at the edge)."""
    shown = present(view if isinstance(view, QuinView) else from_json(QuinView, view), Selection())
    return [found.group(1) for side in shown.sides for piece in side.pieces
            if (found := re.search(r"\[size=\d+sp\]\n?(.*)\[/size\]", piece.text, re.S))]  # fmt: skip


def test_a_finished_quin_game_shows_every_identity_live_and_at_every_step_of_its_story(tmp_path):
    script = next(s for s in scripts("quin") if read(s).expect.get("winners"))
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script)
        session = played.session
        assert session.outcome is not None
        told = record.story(store, session.game_id)
    assert sorted(identities_shown(session.view())) == sorted(TINY[p.identity] for p in session.state.pieces)
    in_play = [step for step in told.steps if step.view["phase"] != "setup"]
    assert in_play
    for step in in_play:
        assert len(identities_shown(step.view)) == 2 * len(LABELS), step.number


def test_an_unfinished_game_shows_only_revealed_pieces(tmp_path):
    script = next(s for s in scripts("quin") if read(s).expect.get("winners"))
    with Store.open(tmp_path / "games.db") as store:
        played = play(store, script, stop_short=3)
        told = record.story(store, played.session.game_id)
    for step, state in zip(told.steps, played.states[1:], strict=True):
        assert len(identities_shown(step.view)) == sum(p.revealed for p in state.pieces)
