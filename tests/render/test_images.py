"""Hand, table and card pictures: sizes, PNG validity, secrecy and pixels at known places."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest
from PIL import Image

from engine.game.prospect import Wait
from engine.melds import MeldKind
from engine.tiles import Tile
from engine.view import DiscardView, MeldView, PlayerView, TableView
from render import samples
from render.cards import (
    LeaderboardRow,
    leaderboard_card,
    render_leaderboard,
    render_settlement,
    settlement_card,
)
from render.draw import GOLD, HIGHLIGHT, NEGATIVE, POSITIVE, SUGGEST, face_height, meld_size
from render.hand import CHIP_TILE_W, TILE_W, HandLayout, hand_image, render_hand
from render.table import TableLayout, render_table, table_image
from render.tiles import tile_image, tile_size
from tests.render.pixels import pixel

MAX_WIDTH = 1200


def _open(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.verify()  # checks the chunks and CRCs
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img


def _near(p: tuple[int, ...], q: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(p[:3], q[:3], strict=True))


# --- hands ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(samples.HANDS))
def test_every_sample_hand_is_a_valid_png_within_limits(name: str) -> None:
    view = samples.HANDS[name]()
    data = hand_image(view)
    img = _open(data)
    assert img.width <= MAX_WIDTH
    assert len(data) <= 120_000


def test_hand_tiles_are_at_least_40_px_wide() -> None:
    assert TILE_W >= 40 and CHIP_TILE_W >= 40
    layout = HandLayout.of(samples.hand_14(), True)
    steps = [b - a for a, b in zip(layout.tile_x, layout.tile_x[1:], strict=False)]
    assert len(layout.tile_x) == 14
    assert min(steps) >= 41  # never overlapped or squeezed


@pytest.mark.parametrize("n", range(5))
def test_hands_with_zero_to_four_melds(n: int) -> None:
    view = samples.hand_melds(n)
    assert len(view.me.melds) == n
    layout = HandLayout.of(view, True)
    assert len(layout.meld_xy) == n
    assert len(layout.tile_x) == len(view.concealed) + 1
    assert layout.size[0] <= MAX_WIDTH
    _open(hand_image(view))


def test_eighteen_tile_hand_with_four_kongs_fits() -> None:
    view = samples.hand_four_kongs()
    assert sum(len(m.tiles) for m in view.me.melds) + len(view.concealed) + 1 == 18
    layout = HandLayout.of(view, True)
    assert layout.size[0] <= MAX_WIDTH
    right = max(x for x, _ in layout.meld_xy)
    assert right < layout.size[0]


def test_melds_wrap_to_a_second_row_rather_than_widen_the_picture() -> None:
    wide = tuple(MeldView(MeldKind.ADDED_KONG, (t,) * 4, 1, t)
                 for t in (Tile.M1, Tile.P1, Tile.S1, Tile.EAST))
    view = samples.player("123456789m1234p", "5p", melds=wide)  # more than any hand holds
    layout = HandLayout.of(view, True)
    assert layout.size[0] <= MAX_WIDTH
    assert len({base for _, base in layout.meld_xy}) == 2


def test_eight_flowers_are_shown_in_a_chip() -> None:
    layout = HandLayout.of(samples.hand_eight_flowers(), True)
    chips = {chip.label: chip for chip, _, _ in layout.chips}
    assert len(chips["花 Flowers"].tiles) == 8


def test_waits_strip_follows_the_flag() -> None:
    view = samples.hand_ready()
    labels = [c.label for c, _, _ in HandLayout.of(view, True).chips]
    assert "听 Waits" in labels
    labels = [c.label for c, _, _ in HandLayout.of(view, False).chips]
    assert "听 Waits" not in labels


def _concealed_tops(view: PlayerView) -> tuple[HandLayout, int]:
    layout = HandLayout.of(view, True)
    return layout, layout.baseline - tile_size(TILE_W)[1]


@pytest.mark.parametrize("make", [samples.hand_caishen_fixed, samples.hand_caishen_flip])
def test_every_caishen_copy_has_a_gold_border(make: Callable[[], PlayerView]) -> None:
    view = make()
    caishen = view.table.caishen
    assert caishen is not None
    img = render_hand(view)
    png_img = _open(hand_image(view)).convert("RGB")
    layout, top = _concealed_tops(view)
    hand = [*view.concealed, view.drawn]
    mid = top + face_height(TILE_W) // 2
    marked = [i for i, t in enumerate(hand) if t == caishen]
    assert marked
    for i, tile in enumerate(hand):
        x = layout.tile_x[i]
        colour = pixel(img, (x + 1, mid))
        if tile == caishen:
            assert colour == GOLD, (i, colour)
            assert _near(pixel(png_img, (x + 1, mid)), GOLD)
        else:
            assert not _near(colour, GOLD, 40), (i, colour)


def test_flip_mode_shows_the_turned_tile_as_the_caishen() -> None:
    view = samples.hand_caishen_flip()
    chips = {c.label: c.tiles for c, _, _ in HandLayout.of(view, True).chips}
    assert chips["翻财神 Wild (turned)"] == (Tile.P6,)
    fixed = {c.label: c.tiles for c, _, _ in HandLayout.of(samples.hand_caishen_fixed(),
                                                             True).chips}
    assert fixed["财神 Wild"] == (Tile.WHITE,)


def test_waiting_on_every_kind_wraps_inside_the_picture() -> None:
    view = replace(samples.hand_caishen_flip(),
                   waits=tuple(Wait(Tile(i), 2, None) for i in range(34)))
    layout = HandLayout.of(view, True)
    waits = next(c for c, _, _ in layout.chips if c.label == "听 Waits")
    assert len(waits.rows()) >= 2
    assert sum(len(r) for r in waits.rows()) == 34
    for chip, x, _ in layout.chips:
        assert x + chip.size()[0] <= layout.size[0] - 12
    _open(hand_image(view))


def test_suggested_discard_is_outlined_once() -> None:
    view = samples.hand_ready()  # suggests the drawn 1z
    img = render_hand(view)
    layout, top = _concealed_tops(view)
    y = top + tile_size(TILE_W)[1] // 2
    outlined = [i for i, x in enumerate(layout.tile_x) if img.getpixel((x - 1, y)) == SUGGEST]
    assert outlined == [len(layout.tile_x) - 1]
    plain = render_hand(view, highlight_suggested=False)
    assert all(plain.getpixel((x - 1, y)) != SUGGEST for x in layout.tile_x)


def test_hand_rendering_is_deterministic() -> None:
    view = samples.hand_four_kongs()
    assert hand_image(view) == hand_image(view)


# --- tables -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(samples.TABLES))
@pytest.mark.parametrize("bottom", range(4))
def test_every_table_is_a_valid_png_within_limits(name: str, bottom: int) -> None:
    data = table_image(samples.TABLES[name](), samples.NAMES, bottom_seat=bottom)
    img = _open(data)
    assert img.width <= MAX_WIDTH
    assert len(data) <= 300_000


def _back_matches(img: Image.Image, xy: tuple[int, int], width: int) -> bool:
    """Every opaque pixel of the back sprite is exactly where it was pasted."""
    sprite = tile_image(None, width)
    region = img.crop((xy[0], xy[1], xy[0] + sprite.width, xy[1] + sprite.height))
    alpha = sprite.getchannel("A")
    opaque = [(x, y) for y in range(sprite.height) for x in range(sprite.width)
              if alpha.getpixel((x, y)) == 255]
    return all(pixel(region, p) == pixel(sprite, p)[:3] for p in opaque)


def test_concealed_tiles_are_drawn_only_as_backs() -> None:
    view = samples.table_late()
    img, layout = render_table(view, samples.NAMES)
    for seat in view.seats:
        spots = layout.concealed[seat.seat]
        assert len(spots) == (2 if seat.has_drawn else 1)
        for xy in spots:
            assert _back_matches(img, xy, 40)


def test_a_concealed_kong_is_face_down_even_if_the_view_held_its_faces() -> None:
    view = samples.table_late()
    honest = render_table(view, samples.NAMES)[0]
    leaky_meld = MeldView(MeldKind.CONCEALED_KONG, (Tile.S8,) * 4)
    seat0 = replace(view.seats[0], melds=(view.seats[0].melds[0], leaky_meld))
    leaky = replace(view, seats=(seat0, *view.seats[1:]))
    assert render_table(leaky, samples.NAMES)[0].tobytes() == honest.tobytes()


def test_the_table_refuses_anything_but_a_table_view() -> None:
    with pytest.raises(TypeError, match="TableView"):
        table_image(samples.hand_14(), samples.NAMES)  # type: ignore[arg-type]  # on purpose


def _long_table(n: int) -> TableView:
    view = samples.table_late()
    tiles = [Tile(i % 34) for i in range(n)]
    seats = tuple(replace(s, discards=tuple(DiscardView(t) for t in tiles)) for s in view.seats)
    return replace(view, seats=seats, last_discard=(0, n - 1))


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("n", [24, 30])
def test_the_longest_rivers_fit_without_running_into_a_panel(n: int) -> None:
    view = _long_table(n)
    data = table_image(view, samples.NAMES)
    img = _open(data)
    assert img.width <= MAX_WIDTH
    assert len(data) <= 300_000
    _, layout = render_table(view, samples.NAMES)
    rows = -(-n // 6)
    for seat, river in layout.rivers.items():
        assert river[3] - river[1] >= rows * tile_size(40)[1]
        for panel in layout.panels.values():
            assert not _overlap(river, panel), (seat, river, panel)
        assert not _overlap(river, layout.centre)


def test_last_discard_is_highlighted_and_claimed_ones_dimmed() -> None:
    view = samples.table_late()
    img, layout = render_table(view, samples.NAMES)
    seat, index = view.last_discard or (0, 0)
    x0, y0 = _river_origin(view, layout, seat)
    w, h = tile_size(40)
    x = x0 + (index % 6) * (w + 1)
    y = y0 + (index // 6) * (h + 2)
    assert img.getpixel((x - 1, y + h // 2)) == HIGHLIGHT
    # Seat 0's fifth discard went into seat 2's pong: darker than the sprite.
    claimed = view.seats[0].discards[4]
    assert claimed.claimed_by == 2
    cx0, cy0 = _river_origin(view, layout, 0)
    cx = cx0 + 4 * (w + 1)
    sprite = tile_image(claimed.tile, 40)
    drawn = pixel(img, (cx + 3, cy0 + h // 2))
    assert sum(drawn) < sum(pixel(sprite, (3, h // 2))[:3]) - 100


def _river_origin(view: TableView, layout: TableLayout, seat: int) -> tuple[int, int]:
    x0, y0, _, y1 = layout.rivers[seat]
    if layout.positions[seat] == "top":
        rows = -(-len(view.seats[seat].discards) // 6)
        y0 = y1 - rows * (tile_size(40)[1] + 2)
    return x0, y0


def test_the_viewer_sits_at_the_bottom() -> None:
    view = samples.table_late()
    for bottom in range(4):
        _, layout = render_table(view, samples.NAMES, bottom)
        assert layout.positions[bottom] == "bottom"
        assert layout.positions[(bottom + 1) % 4] == "right"
        assert layout.positions[(bottom + 2) % 4] == "top"
        assert layout.positions[(bottom + 3) % 4] == "left"


# --- cards ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(samples.SETTLEMENTS))
def test_every_settlement_card_is_a_valid_png(name: str) -> None:
    make, rules = samples.SETTLEMENTS[name]
    img = _open(settlement_card(make(), samples.NAMES, rules))
    assert img.width <= MAX_WIDTH


def test_settlement_payments_are_coloured_by_sign() -> None:
    result = samples.settlement_shanghai()  # seat 1 pays 200, seat 2 wins 200
    img = render_settlement(result, samples.NAMES, "shanghai")
    colours = {img.getpixel((x, y)) for x in range(img.width) for y in
               range(img.height - 120, img.height) if x % 3 == 0 and y % 3 == 0}
    assert POSITIVE in colours and NEGATIVE in colours


def test_drawn_hand_card_is_shorter_than_a_win() -> None:
    drawn = render_settlement(samples.settlement_drawn(), samples.NAMES, "hangzhou")
    win = render_settlement(samples.settlement_hangzhou(), samples.NAMES, "hangzhou")
    assert drawn.height < win.height


def test_leaderboard_takes_any_number_type_and_grows_with_rows() -> None:
    rows = [LeaderboardRow(1, "A", Fraction(7, 2), 3, 1, "清一色 Full Flush"),
            LeaderboardRow(2, "B", 2.25, 1, 1, None), LeaderboardRow(3, "C", -4, 0, 1, None)]
    short = render_leaderboard(rows, "t")
    long = render_leaderboard(samples.leaderboard_rows(25), "t")
    assert long.height > short.height
    assert long.width <= MAX_WIDTH
    _open(leaderboard_card(samples.leaderboard_rows(20), "Leaderboard"))
    _open(leaderboard_card([], "Empty"))


# --- random views: nothing overflows, nothing raises ---------------------------------


def _random_meld(rng: random.Random, seat: int) -> MeldView:
    kind = rng.choice(list(MeldKind))
    tile = Tile(rng.randrange(27))
    if kind is MeldKind.CHI:
        start = Tile(rng.randrange(3) * 9 + rng.randrange(7))
        tiles = (start, Tile(start + 1), Tile(start + 2))
        return MeldView(kind, tiles, (seat + 3) % 4, rng.choice(tiles))
    if kind is MeldKind.CONCEALED_KONG:
        return MeldView(kind, (tile,) * 4)
    size = 3 if kind is MeldKind.PONG else 4
    return MeldView(kind, (tile,) * size, (seat + rng.randrange(1, 4)) % 4, tile)


@pytest.mark.parametrize("seed", range(20))
def test_random_hands_and_tables_stay_within_bounds(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(5)
    melds = tuple(_random_meld(rng, 0) for _ in range(n))
    concealed = "".join(str(rng.randrange(1, 10)) for _ in range(13 - 3 * n)) + "p"
    flowers = "".join(str(i) for i in range(1, rng.randrange(1, 10))) + "f" \
        if rng.random() < 0.5 else ""
    caishen = rng.choice([None, Tile.WHITE, Tile(rng.randrange(34))])
    view = samples.player(concealed, rng.choice([None, "1z"]), melds=melds,
                          flowers=flowers if flowers != "f" else "", caishen=caishen,
                          turned=rng.choice([None, Tile.P5]), waits="258s")
    layout = HandLayout.of(view, True)
    assert layout.size[0] <= MAX_WIDTH
    for meld, (x, _) in zip(view.me.melds, layout.meld_xy, strict=True):
        assert x + meld_size(meld, 0, TILE_W, public=False)[0] <= layout.size[0]
    for chip, x, _ in layout.chips:
        assert x + chip.size()[0] <= layout.size[0]
    _open(hand_image(view))
    seats = tuple(replace(s, melds=tuple(_random_meld(rng, s.seat) for _ in range(
        rng.randrange(5))), discards=tuple(DiscardView(Tile(rng.randrange(34)))
                                        for _ in range(rng.randrange(31))))
        for s in view.table.seats)
    table = replace(view.table, seats=seats)
    img, table_layout = render_table(table, samples.NAMES, rng.randrange(4))
    assert img.width <= MAX_WIDTH
    for seat, (_, _, x1, y1) in table_layout.extents.items():
        assert x1 <= table_layout.panels[seat][2] and y1 <= table_layout.panels[seat][3]


def test_four_added_kongs_and_eight_flowers_stay_inside_every_panel() -> None:
    kongs = tuple(MeldView(MeldKind.ADDED_KONG, (t,) * 4, 1, t)
                  for t in (Tile.M1, Tile.P9, Tile.S5, Tile.RED))
    view = samples.table_late()
    seats = tuple(replace(s, melds=kongs, flowers=tuple(Tile(34 + i) for i in range(8)),
                          concealed_count=3, has_drawn=True) for s in view.seats)
    view = replace(view, seats=seats, deciding=(0, 1, 2, 3), streak=3)
    for bottom in range(4):
        img, layout = render_table(view, samples.NAMES, bottom)
        for seat, (x0, y0, x1, y1) in layout.extents.items():
            px0, py0, px1, py1 = layout.panels[seat]
            assert px0 <= x0 and x1 <= min(px1, img.width - 12), (bottom, seat)
            assert py0 <= y0 and y1 <= min(py1, img.height - 12), (bottom, seat)
