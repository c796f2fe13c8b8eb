"""A `/mahjong replay` frame: `engine.view.open_view` (every hand open, or one seat's
knowledge) and `render.table.render_open_table`. An open hand is drawn face up in its
seat's panel (its concealed kongs as their owner sees them); a seat whose hand is not
shown is drawn exactly as the public table picture draws it, pixel for pixel."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from engine import rules
from engine.ai import choose_action
from engine.game import HandState, apply, deciding_seats, new_hand
from engine.game.state import Phase
from engine.melds import MeldKind
from engine.tiles import Tile, tile_from_notation
from engine.view import OpenView, open_view, spectator_view, view
from render import samples
from render.table import open_table_image, render_open_table, render_table


def _played(rules_name: str, moves: int, seed: int = 3) -> HandState:
    rng = random.Random(seed)
    wall = rules.get(rules_name).tile_set()
    rng.shuffle(wall)
    state, _ = new_hand(rules_name, {}, tuple(wall), 1, (2, 4))
    for _ in range(moves):
        if state.phase is Phase.ENDED:
            break
        state, _ = apply(state, choose_action(state, deciding_seats(state)[0], rng))
    return state


@pytest.mark.parametrize("rules_name", ["shanghai", "hangzhou"])
@pytest.mark.parametrize("moves", [0, 1, 2, 40, 400])
def test_open_views_show_each_hand_as_its_seat_sees_it(rules_name: str, moves: int) -> None:
    state = _played(rules_name, moves)
    opened = open_view(state, 3)
    assert opened.viewer is None and opened.table.hand_number == 3
    public = spectator_view(state, 3)
    for seat in range(4):
        own = view(state, seat, 3)
        assert (opened.hands[seat], opened.drawn[seat]) == (own.concealed, own.drawn)
        assert opened.table.seats[seat] == own.table.seats[seat]  # its kongs face up
        mine = open_view(state, 3, seat)
        assert mine.viewer == seat and mine.table == own.table
        assert mine.hands == tuple(own.concealed if s == seat else None for s in range(4))
        assert mine.drawn == tuple(own.drawn if s == seat else None for s in range(4))
        for other in range(4):
            if other != seat:
                assert mine.table.seats[other] == public.seats[other]


def test_an_open_table_draws_hands_face_up_and_hidden_seats_as_the_public_picture() -> None:
    state = _played("shanghai", 40)
    names = ("Ann", "Bob", "陈伟", "Dee")
    image, layout = render_open_table(open_view(state), names, 0)
    for seat in range(4):
        hand = open_view(state).hands[seat]
        assert hand is not None
        shown = len(hand) + (state.seats[seat].drawn is not None
                             and open_view(state).drawn[seat] is not None)
        assert len(layout.open[seat]) == shown
    assert layout.concealed == {}
    for viewer in range(4):
        mine = open_view(state, viewer=viewer)
        image, layout = render_open_table(mine, names, viewer)
        public, public_layout = render_table(mine.table, names, viewer)
        assert set(layout.open) == {viewer} and set(layout.concealed) == set(range(4)) - {viewer}
        for other in set(range(4)) - {viewer}:
            box = layout.panels[other]
            assert box == public_layout.panels[other]
            assert _same(image.crop(box), public.crop(box)), other


def test_an_open_seat_shows_its_concealed_kong_and_a_hidden_one_never_does() -> None:
    late = samples.table_late()  # seat 0 holds a concealed kong of 8s (its meld's tiles)
    assert any(m.kind is MeldKind.CONCEALED_KONG for m in late.seats[0].melds)
    hand = tuple(tile_from_notation(t) for t in ("1m", "2m", "3m", "9p", "9p", "5z", "5z"))
    hidden = OpenView(late, (None, None, None, None), (None,) * 4)
    opened = OpenView(late, (hand, None, None, None), (None,) * 4)
    shut_image, _ = render_open_table(hidden, samples.NAMES, 0)
    public_image, _ = render_table(late, samples.NAMES, 0)
    assert _same(shut_image, public_image)  # nothing open: the public picture exactly
    open_image, layout = render_open_table(opened, samples.NAMES, 0)
    box = layout.panels[0]
    assert not _same(open_image.crop(box), public_image.crop(box))
    assert len(layout.open[0]) == len(hand)
    assert open_table_image(opened, samples.NAMES).startswith(b"\x89PNG")


def test_the_open_table_takes_an_open_view_only() -> None:
    with pytest.raises(TypeError):
        render_open_table(samples.table_late(), samples.NAMES)  # type: ignore[arg-type]  # the wrong view on purpose


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("moves", [0, 10, 60, 200])
def test_an_all_open_frame_shows_every_tile_out_of_the_wall(moves: int) -> None:
    """Every hand open, the frame accounts for the whole set: each seat's concealed
    tiles, melds, unclaimed discards and flowers, with the tiles left in the wall."""
    state = _played("shanghai", moves)
    opened = open_view(state)
    counted: list[Tile] = []
    for seat in range(4):
        counted += [*(opened.hands[seat] or ()),
                    *([d] if (d := opened.drawn[seat]) is not None else [])]
        sv = opened.table.seats[seat]
        counted += [d.tile for d in sv.discards if d.claimed_by is None]
        counted += [t for m in sv.melds for t in m.tiles if t is not None]
        counted += list(sv.flowers)
    assert len(counted) + opened.table.wall_left == len(state.wall) == 144
