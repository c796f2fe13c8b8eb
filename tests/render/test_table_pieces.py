"""`render.pieces` and `table_image`: a table picture put together from kept pieces has
exactly the palette indices of the whole drawing (`render_table` mapped to the shared
palette), move after move, so a kept piece is never shown for a state it does not show."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine import rules
from engine.ai import choose_action
from engine.game import apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.tiles import full_set
from engine.view import TableView, spectator_view
from render import samples
from render.draw import draw_text
from render.pieces import MARGIN, Part, Pieces, in_palette, paper
from render.table import PIECES, render_table, table_image

NAMES = (("East", "South", "West", "North"),
         ("Ａ very long name that does not fit on any plate at all", "李小龙", "🀄 emoji",
          "x"),
         ("Only", "three"))


def _indices(data: bytes) -> tuple[str, tuple[int, int], bytes, list[int] | None]:
    with Image.open(io.BytesIO(data)) as img:
        return img.mode, img.size, img.tobytes(), img.getpalette()


def _whole(view: TableView, names: tuple[str, ...], bottom: int
           ) -> tuple[str, tuple[int, int], bytes, list[int] | None]:
    drawn = in_palette(render_table(view, names, bottom)[0])
    return drawn.mode, drawn.size, drawn.tobytes(), drawn.getpalette()


def _hand_views(ruleset: str, seed: int) -> list[TableView]:
    rng = random.Random(seed)
    wall = full_set(rules.get(ruleset).has_flowers)
    rng.shuffle(wall)
    state, _ = new_hand(ruleset, None, tuple(wall), seed % 4, (1 + seed % 6, 1 + seed // 6 % 6))
    out = []
    while state.phase is not Phase.ENDED:
        out.append(spectator_view(state))
        seat = deciding_seats(state)[0]
        state, _ = apply(state, choose_action(state, seat, rng))
    out.append(spectator_view(state))
    return out


@pytest.mark.parametrize("ruleset", ["shanghai", "hangzhou"])
def test_every_table_picture_of_seeded_hands_equals_the_whole_drawing(ruleset: str) -> None:
    """Whole hands, each from a different seat and with different names, every state
    drawn (as a busy table is), then every third state only (as the bot's coalesced
    edits are): the pieces kept from one picture serve the next only where it is the
    same."""
    compared = 0
    for seed in range(6):
        views = _hand_views(ruleset, seed)
        names, bottom = NAMES[seed % len(NAMES)], seed % 4
        step = 1 if seed % 2 == 0 else 3
        for view in views[::step]:
            assert _indices(table_image(view, names, bottom)) == _whole(view, names, bottom)
            compared += 1
    assert compared > 200


def test_the_sample_tables_equal_their_whole_drawings() -> None:
    for make in (samples.table_late, samples.table_claim, samples.table_start,
                 samples.table_ended):
        for bottom in range(4):
            view = make()
            assert _indices(table_image(view, samples.NAMES, bottom)) == _whole(
                view, samples.NAMES, bottom)


def test_kept_pieces_serve_the_next_picture() -> None:
    view = samples.table_late()
    table_image(view, samples.NAMES, 1)
    hits = PIECES.hits
    table_image(view, samples.NAMES, 1)
    assert PIECES.hits == hits + 9  # the centre, four rivers and four panels


SIZE = (200, 120)


def _square(box: tuple[int, int, int, int]) -> Part:
    return Part(("square", box), box,
                lambda canvas, draw: draw.rectangle(box, fill=(250, 250, 250)))


def test_overlapping_pieces_are_not_put_together() -> None:
    pieces = Pieces()
    assert pieces.assemble(SIZE, [_square((20, 20, 60, 60)), _square((40, 40, 90, 90))]) is None
    apart = pieces.assemble(SIZE, [_square((20, 20, 40, 40)), _square((60, 60, 90, 90))])
    assert apart is not None


def test_a_piece_that_draws_past_its_room_is_not_put_together() -> None:
    def stray(canvas: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((30, 30, 40 + MARGIN + 5, 40), fill=(250, 250, 250))

    pieces = Pieces()
    assert pieces.assemble(SIZE, [Part("stray", (30, 30, 40, 40), stray)]) is None
    # the canvas it drew on is not used again: the next picture is clean
    clean = pieces.assemble(SIZE, [Part("nothing", (30, 30, 40, 40), lambda c, d: None)])
    assert clean is not None and clean.tobytes() == paper(SIZE).tobytes()


def test_a_piece_that_fails_half_drawn_leaves_no_trace() -> None:
    def failing(canvas: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        draw.rectangle((30, 30, 40, 40), fill=(250, 250, 250))
        raise RuntimeError("a drawing bug")

    pieces = Pieces()
    with pytest.raises(RuntimeError, match="a drawing bug"):
        pieces.assemble(SIZE, [Part("failing", (30, 30, 40, 40), failing)])
    clean = pieces.assemble(SIZE, [Part("nothing", (30, 30, 40, 40), lambda c, d: None)])
    assert clean is not None and clean.tobytes() == paper(SIZE).tobytes()


def test_kept_pieces_stay_within_their_budget() -> None:
    pieces = Pieces(budget=3 * (41 * 41 + 256))
    for x in range(0, 160, 50):
        assert pieces.assemble(SIZE, [_square((x, 10, x + 40, 50))]) is not None
    assert pieces.kept_bytes <= pieces.budget
    assert pieces.misses == 4
    pieces.assemble(SIZE, [_square((0, 10, 40, 50))])  # the oldest was dropped
    assert pieces.misses == 5


def test_the_table_names_the_streak_as_the_texts_do(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """老庄 N, as every text says it: not "连庄 ×N", which reads like a multiplier; and a
    荒番 hand is not said to be ×2 (its multiplier is the table's option)."""
    import render.table
    drawn: list[str] = []
    real = draw_text  # what render.table imported

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.table, "draw_text", record)
    view = samples.table_late()
    render_table(replace(view, streak=2, huangfan=True), samples.NAMES, 0)
    assert "老庄 2" in drawn, drawn
    assert "荒番 Dead-hand round" in drawn, drawn
    assert not [x for x in drawn if "连庄" in x or ("荒番" in x and "×" in x)], drawn


def test_cleared_pieces_are_drawn_again() -> None:
    pieces = Pieces()
    assert pieces.assemble(SIZE, [_square((0, 10, 40, 50))]) is not None
    assert pieces.kept_bytes > 0
    pieces.clear()
    assert pieces.kept_bytes == 0
    assert pieces.assemble(SIZE, [_square((0, 10, 40, 50))]) is not None
    assert pieces.misses == 2
