"""The end-of-hand settlement card and the channel's leaderboard card.

`settlement_card` shows, for each win, the winning hand (concealed tiles, the winning
tile set apart and outlined, melds, flowers), every pattern with its Chinese name,
English gloss and value, the total, and each seat's signed payment with the liability
rule that applied; a drawn hand says so, with zero payments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw

from engine.rules import label as rules_label
from engine.tiles import Tile
from engine.view import ResultView, SettlementView
from render.draw import (
    GOLD,
    HIGHLIGHT,
    MELD_GAP,
    MUTED,
    NEGATIVE,
    PANEL_LINE,
    POSITIVE,
    WHITE,
    draw_meld,
    draw_text,
    fit,
    meld_size,
    number,
    outline_tile,
    paste_tile,
    png,
    text_width,
)
from render.tiles import tile_size

RGB = tuple[int, int, int]

CARD_BG = (22, 58, 42)
SECTION_BG = (30, 76, 54)
HEADER_BG = (14, 40, 28)
STRIPE = (27, 68, 48)
ORANGE = (255, 170, 80)
CARD_W = 1000
PAD = 24
TILE_W = 44
FLOWER_W = 32
BASE_WORDS = {"stake": "stake", "flowers": "flowers", "pungs": "honour pungs",
              "kongs": "kongs"}
WIN_KINDS = {"self_draw": "自摸 Self-drawn", "discard": "点炮 On a discard",
             "rob_kong": "抢杠 Robbing a kong"}


@dataclass(frozen=True)
class LeaderboardRow:
    """One line of a channel's leaderboard."""

    rank: int
    name: str
    points: Fraction | float | int
    hands_won: int
    matches: int
    best_hand: str | None = None
    """The best hand in the reader's words, e.g. "清一色 · 20 花"; None when no win yet."""
    rating: str | None = None
    """The person's skill rating as the caller words it ("1083", "1083?" provisional);
    None: no rating (drawn "—")."""


# --- settlement -------------------------------------------------------------------


def settlement_card(view: ResultView, names: Sequence[str], rules: str, *,
                    caishen: Tile | None = None,
                    how_paid: Sequence[Sequence[str]] = ()) -> bytes:
    """The PNG of a hand's settlement; `caishen` marks the wild kind in the hands;
    `how_paid` gives, per win, the caller's lines (in the reader's language) saying how
    each payment comes from the hand's value: a heading, then one line per formula."""
    return png(render_settlement(view, names, rules, caishen=caishen, how_paid=how_paid))


def render_settlement(view: ResultView, names: Sequence[str], rules: str, *,
                      caishen: Tile | None = None,
                      how_paid: Sequence[Sequence[str]] = ()) -> Image.Image:
    """`settlement_card` as a Pillow image. Drawn in two passes: measure, then draw."""
    height = _settlement(None, view, names, rules, caishen, how_paid)
    canvas = Image.new("RGB", (CARD_W, height), CARD_BG)
    _settlement(canvas, view, names, rules, caishen, how_paid)
    return canvas


def _settlement(canvas: Image.Image | None, view: ResultView, names: Sequence[str],
                rules: str, caishen: Tile | None, how_paid: Sequence[Sequence[str]]) -> int:
    """Lay the card out, drawing when `canvas` is given; returns the height used."""
    pen = _Pen(canvas)
    title = "流局 Drawn hand" if view.drawn else "结算 Settlement"
    y = pen.header(f"{title} · {rules_label(rules)}")
    if view.drawn:
        pen.text((CARD_W // 2, y + 18), "流局", 54, MUTED, anchor="ma")
        pen.text((CARD_W // 2, y + 100), "Drawn hand: the wall ran out and nobody won.", 20,
                 WHITE, anchor="ma")
        pen.text((CARD_W // 2, y + 130), "No payments this hand.", 18, MUTED, anchor="ma")
        y += 176
    for i, win in enumerate(view.settlements):
        if i:  # several winners on one discard: a rule between their sections
            pen.line((PAD, y - 4, CARD_W - PAD, y - 4), GOLD)
            y += 12
        lines = how_paid[i] if i < len(how_paid) else ()
        y = _win_section(pen, win, names, caishen, y, lines)
    label = "Net payments" if len(view.settlements) > 1 else "Payments"
    if len(view.settlements) != 1:
        y = _payments(pen, view.payments, names, y, label)
    return y + PAD


def _win_section(pen: _Pen, win: SettlementView, names: Sequence[str],
                 caishen: Tile | None, y: int, how_paid: Sequence[str]) -> int:
    who = _name(names, win.winner)
    how = WIN_KINDS.get(win.win, win.win)
    if win.from_seat is not None:
        how += f" from {_name(names, win.from_seat)}"
    end = pen.text((PAD, y), f"胡 {who}", 28, HIGHLIGHT)
    pen.text((end + 14, y + 8), fit(how, 19, CARD_W - end - 14 - PAD), 19, MUTED)
    y = _winning_hand(pen, win, caishen, y + 46)
    y = _patterns(pen, win, y + 14)
    if how_paid:
        y = _how_paid(pen, how_paid, y)
    elif win.liability:
        for line in _wrap(win.liability, 17, CARD_W - 2 * PAD - 24):
            pen.text((PAD + 12, y), line, 17, ORANGE)
            y += 24
        y += 4
    return _payments(pen, win.payments, names, y + 6, "Payments")


def _how_paid(pen: _Pen, lines: Sequence[str], y: int) -> int:
    """Every multiplier between the hand's value and each payment (荒番, 庄闲分, 承包,
    吃三口包 …): the heading muted, then one formula a line, wrapped."""
    for i, line in enumerate(lines):
        for part in _wrap(line, 18, CARD_W - 2 * PAD - 24, sep=None):
            pen.text((PAD + 12, y), part, 18, MUTED if i == 0 else ORANGE)
            y += 26
    return y + 4


def _winning_hand(pen: _Pen, win: SettlementView, caishen: Tile | None, y: int) -> int:
    """Concealed tiles, the winning tile apart and outlined, melds, flowers; wraps."""
    tw, th = tile_size(TILE_W)
    groups: list[tuple[int, int, object]] = [
        (len(win.concealed) * (tw + 1) - 1 if win.concealed else 0, th, "concealed")]
    if win.win_tile is not None:
        groups.append((tw, th, "win"))
    for meld in win.melds:
        groups.append((*meld_size(meld, win.winner, TILE_W, public=False), meld))
    if win.flowers:
        fw, fh = tile_size(FLOWER_W)
        groups.append((len(win.flowers) * (fw + 1) - 1, fh, "flowers"))
    x, row_h, base = PAD, 0, y + max(h for _, h, _ in groups) + 6
    for w, h, what in groups:
        if x + w > CARD_W - PAD and x > PAD:
            x, base = PAD, base + row_h + 16
            row_h = 0
        row_h = max(row_h, h)
        _draw_group(pen, win, what, (x, base), caishen)
        x += w + (24 if what in ("concealed", "win") else MELD_GAP)
    return base + 4


def _draw_group(pen: _Pen, win: SettlementView, what: object, xy: tuple[int, int],
                caishen: Tile | None) -> None:
    canvas = pen.canvas
    if canvas is None:
        return
    x, base = xy
    tw, th = tile_size(TILE_W)
    if what == "concealed":
        for i, tile in enumerate(win.concealed):
            paste_tile(canvas, tile, (x + i * (tw + 1), base - th), TILE_W, caishen=caishen)
    elif what == "win" and win.win_tile is not None:
        paste_tile(canvas, win.win_tile, (x, base - th), TILE_W, caishen=caishen)
        outline_tile(canvas, (x, base - th), (tw, th), HIGHLIGHT, line=3, pad=3)
    elif what == "flowers":
        fw, fh = tile_size(FLOWER_W)
        for i, tile in enumerate(win.flowers):
            paste_tile(canvas, tile, (x + i * (fw + 1), base - fh), FLOWER_W)
    else:
        draw_meld(canvas, what,  # type: ignore[arg-type]  # the groups not named above are melds
                  win.winner, (x, base), TILE_W, public=False, caishen=caishen)


def _patterns(pen: _Pen, win: SettlementView, y: int) -> int:
    """A table: 中文名, English gloss, value; then the total."""
    rows = [(p.zh, p.en, p.value) for p in win.patterns]
    if win.base:  # the 底花 a value in 花 starts from, each of its parts shown
        parts = " + ".join(f"{BASE_WORDS.get(kind, kind)} {hua}" for kind, hua in win.base)
        rows.insert(0, ("底花", f"Base: {parts}", f"{sum(h for _, h in win.base)} 花"))
    if not rows:
        rows = [("平胡", "Plain win", "×1" if win.value_unit == "×" else "")]
    for i, (zh, en, value) in enumerate(rows):
        if i % 2 == 0:
            pen.rect((PAD, y - 2, CARD_W - PAD, y + 32), STRIPE, radius=6)
        pen.text((PAD + 12, y + 15), zh, 22, WHITE, anchor="lm")
        pen.text((PAD + 150, y + 15), fit(en, 19, 560), 19, MUTED, anchor="lm")
        pen.text((CARD_W - PAD - 12, y + 15), value, 20, GOLD, anchor="rm")
        y += 34
    total = f"{win.value} 花" if win.value_unit == "花" else f"×{win.value}"
    label = "牌值 Value"  # as the settlement text says it (not the rules' H and F)
    pen.line((PAD, y + 4, CARD_W - PAD, y + 4), PANEL_LINE)
    pen.text((PAD + 12, y + 12), label, 22, WHITE)
    pen.text((CARD_W - PAD - 12, y + 10), total, 26, HIGHLIGHT, anchor="ra")
    return y + 50


def _payments(pen: _Pen, payments: Sequence[Fraction], names: Sequence[str], y: int,
              label: str) -> int:
    """Each seat's signed payment in a box: green gains, red losses, grey nothing."""
    pen.text((PAD, y), label, 17, MUTED)
    y += 26
    n = max(1, len(payments))
    gap = 12
    w = (CARD_W - 2 * PAD - gap * (n - 1)) // n
    for seat, amount in enumerate(payments):
        x = PAD + seat * (w + gap)
        colour = POSITIVE if amount > 0 else NEGATIVE if amount < 0 else MUTED
        pen.rect((x, y, x + w, y + 70), SECTION_BG, radius=10, outline=colour)
        pen.text((x + 12, y + 10), fit(_name(names, seat), 18, w - 24), 18, WHITE)
        pen.text((x + w - 12, y + 60), number(amount, signed=True), 28, colour, anchor="rs")
    return y + 70 + 18


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"Seat {seat + 1}"


def _wrap(text: str, size: int, width: int, sep: str | None = "; ") -> list[str]:
    """Greedy word wrap (liability notes can run long); a new line at each ``sep``."""
    lines: list[str] = []
    for part in text.split(sep) if sep else [text]:
        line = ""
        for word in part.split(" "):
            trial = f"{line} {word}".strip()
            if line and text_width(trial, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


class _Pen:
    """Drawing calls that only measure when there is no canvas (the sizing pass)."""

    def __init__(self, canvas: Image.Image | None) -> None:
        self.canvas = canvas
        self.draw = ImageDraw.Draw(canvas) if canvas is not None else None

    def header(self, title: str) -> int:
        self.rect((0, 0, CARD_W, 64), HEADER_BG)
        self.rect((0, 62, CARD_W, 65), GOLD)
        self.text((PAD, 32), title, 28, WHITE, anchor="lm")
        return 88

    def text(self, xy: tuple[int, int], text: str, size: int, fill: RGB,
             anchor: str = "la") -> int:
        if self.draw is None:
            return xy[0] + text_width(text, size)
        return draw_text(self.draw, xy, text, size, fill, anchor)

    def rect(self, box: tuple[int, int, int, int], fill: RGB, radius: int = 0,
             outline: RGB | None = None) -> None:
        if self.draw is not None:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline,
                                        width=2 if outline else 0)

    def line(self, xy: tuple[int, int, int, int], fill: RGB) -> None:
        if self.draw is not None:
            self.draw.line(xy, fill=fill, width=1)


# --- leaderboard ------------------------------------------------------------------

BOARD_W = 1080
ROW_H = 40
MEDALS = {1: (240, 190, 40), 2: (196, 204, 214), 3: (205, 127, 50)}
# (x, anchor) per column: rank, name, points, rating, won, matches, best hand; names are
# cut to fit between, best hands wrapped (a row grows to hold them).
COLUMNS = ((PAD + 22, "mm"), (PAD + 56, "lm"), (470, "rm"), (590, "rm"), (670, "rm"),
           (770, "rm"), (800, "lm"))


@dataclass(frozen=True)
class BoardWords:
    """The leaderboard card's words, from the caller in the reader's language."""

    name: str = "Name"
    points: str = "Points"
    won: str = "Won"
    matches: str = "Matches"
    best: str = "Best hand"
    empty: str = "No hands played yet."
    rating: str = "Rating"

    def columns(self) -> tuple[str, ...]:
        return ("#", self.name, self.points, self.rating, self.won, self.matches, self.best)


def leaderboard_card(rows: Sequence[LeaderboardRow], title: str,
                     words: BoardWords | None = None) -> bytes:
    """The PNG of a leaderboard: rank, name, points, hands won, matches, best hand;
    ``title`` is drawn as given (once)."""
    return png(render_leaderboard(rows, title, words))


def render_leaderboard(rows: Sequence[LeaderboardRow], title: str,
                       words: BoardWords | None = None) -> Image.Image:
    words = words or BoardWords()
    heights = [_row_height(row) for row in rows]
    height = 64 + 24 + 34 + (sum(heights) if rows else ROW_H) + PAD
    canvas = Image.new("RGB", (BOARD_W, height), CARD_BG)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, BOARD_W, 62), fill=HEADER_BG)
    draw.rectangle((0, 62, BOARD_W, 65), fill=GOLD)
    draw_text(draw, (PAD, 32), fit(title, 28, BOARD_W - 2 * PAD), 28, WHITE, anchor="lm")
    y = 64 + 24
    for text, (x, anchor) in zip(words.columns(), COLUMNS, strict=True):
        draw_text(draw, (x, y + 14), text, 16, MUTED, anchor=anchor)
    y += 34
    if not rows:
        draw_text(draw, (BOARD_W // 2, y + ROW_H // 2), words.empty, 18, MUTED,
                  anchor="mm")
    for i, row in enumerate(rows):
        _board_row(draw, row, y, stripe=i % 2 == 0)
        y += heights[i]
    return canvas


BEST_SIZE = 17
BEST_LINE = 21
BEST_W = BOARD_W - PAD - COLUMNS[6][0]


def _best_lines(row: LeaderboardRow) -> list[str]:
    """The best hand, wrapped to its column: its names are never cut ("混一…")."""
    return wrap_words(row.best_hand or "—", BEST_SIZE, BEST_W)


def _row_height(row: LeaderboardRow) -> int:
    return max(ROW_H, BEST_LINE * len(_best_lines(row)) + 14)


def wrap_words(text: str, size: int, width: int) -> list[str]:
    """Greedy wrap that breaks after a space or a "、" when it can, else between two
    characters (Chinese has no spaces), so that no word is cut off."""
    lines: list[str] = []
    line = ""
    for ch in text:
        trial = line + ch
        if line and text_width(trial, size) > width:
            cut = max(line.rfind(" "), line.rfind("、"))
            if cut > 0:
                lines.append(line[:cut + 1].rstrip())
                line = line[cut + 1:].lstrip() + ch
            else:
                lines.append(line)
                line = ch.lstrip()
        else:
            line = trial
    lines.append(line)
    return lines


def _board_row(draw: ImageDraw.ImageDraw, row: LeaderboardRow, y: int, stripe: bool) -> None:
    height = _row_height(row)
    if stripe:
        draw.rounded_rectangle((PAD - 8, y, BOARD_W - PAD + 8, y + height - 2), radius=6,
                               fill=STRIPE)
    mid = y + height // 2 - 1
    (rank_x, _), (name_x, _), (pts_x, _), (rating_x, _), (won_x, _), (m_x, _), \
        (best_x, _) = COLUMNS
    medal = MEDALS.get(row.rank)
    if medal:
        draw.ellipse((rank_x - 14, mid - 14, rank_x + 14, mid + 14), fill=medal)
    draw_text(draw, (rank_x, mid), str(row.rank), 18, (30, 30, 30) if medal else MUTED,
              anchor="mm")
    draw_text(draw, (name_x, mid), fit(row.name, 20, pts_x - 110 - name_x), 20, WHITE,
              anchor="lm")
    points = row.points
    colour = POSITIVE if points > 0 else NEGATIVE if points < 0 else MUTED
    draw_text(draw, (pts_x, mid), number(points, signed=True), 20, colour, anchor="rm")
    draw_text(draw, (rating_x, mid), fit(row.rating or "—", 18, rating_x - pts_x - 12), 18,
              WHITE if row.rating else MUTED, anchor="rm")
    draw_text(draw, (won_x, mid), str(row.hands_won), 18, WHITE, anchor="rm")
    draw_text(draw, (m_x, mid), str(row.matches), 18, WHITE, anchor="rm")
    lines = _best_lines(row)
    top = mid - BEST_LINE * (len(lines) - 1) // 2
    for i, line in enumerate(lines):
        draw_text(draw, (best_x, top + i * BEST_LINE), line, BEST_SIZE, MUTED, anchor="lm")
