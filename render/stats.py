"""The ``/mahjong stats`` card: one person's figures in one rule set, as boxes of big
numbers under their labels, grouped in sections (matches, per hand, the biggest hand,
the rule set's own figures, time, head-to-head), with the rating as a badge in the
header.

Pure: the caller gives every word already in the reader's language (`StatsCard`), this
lays them out. Drawn on the same felt greens and golds as the settlement and the
leaderboard cards (render/cards.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from render.cards import CARD_BG, HEADER_BG, SECTION_BG, STRIPE, wrap_words
from render.draw import (
    GOLD,
    HIGHLIGHT,
    MUTED,
    NEGATIVE,
    PANEL_LINE,
    POSITIVE,
    WHITE,
    draw_text,
    fit,
    png,
    text_width,
)

Tone = Literal["plain", "good", "bad", "gold", "muted"]
TONES = {"plain": WHITE, "good": POSITIVE, "bad": NEGATIVE, "gold": HIGHLIGHT,
         "muted": MUTED}

WIDTH = 960
PAD = 24
GAP = 12
COLUMNS = 4
BOX_H = 84
HEADER_H = 64
HEADING_H = 40
NOTE_SIZE = 20
NOTE_LINE = 28
LABEL_SIZE = 15
VALUE_SIZE = 30
BOX_PAD = 12


@dataclass(frozen=True)
class Figure:
    """One box: a label, a value (already written out), and how to colour the value."""

    label: str
    value: str
    tone: Tone = "plain"
    detail: str = ""
    """A small word after the value ("of 120", "3 of 12")."""


@dataclass(frozen=True)
class Section:
    """A heading and its boxes; ``note``: a line of text instead of or after them
    (the biggest hand, named), wrapped to the card."""

    heading: str
    figures: tuple[Figure, ...] = ()
    note: str | None = None
    note_tone: Tone = "gold"


@dataclass(frozen=True)
class StatsCard:
    """Everything the card says, in the reader's language."""

    title: str
    """The person's name (cut to fit)."""
    subtitle: str
    """The rule set and the scope ("Shanghai · this channel")."""
    sections: tuple[Section, ...] = ()
    badge_label: str | None = None
    """The rating's label; None: no badge."""
    badge: str | None = None
    """The rating ("1,083?")."""
    empty: str | None = None
    """Said instead of the sections when nothing was played."""


def stats_card(card: StatsCard) -> bytes:
    """The PNG of the card."""
    return png(render_stats(card))


def render_stats(card: StatsCard) -> Image.Image:
    height = _layout(None, card)
    canvas = Image.new("RGB", (WIDTH, height), CARD_BG)
    _layout(ImageDraw.Draw(canvas), card)
    return canvas


def _note_lines(section: Section) -> list[str]:
    return wrap_words(section.note, NOTE_SIZE, WIDTH - 2 * PAD - 32) if section.note else []


def _layout(draw: ImageDraw.ImageDraw | None, card: StatsCard) -> int:
    """Lay the card out, drawing when ``draw`` is given; returns the height used."""
    y = _header(draw, card)
    if card.empty is not None:
        if draw is not None:
            draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + 120), radius=12, fill=SECTION_BG)
            for i, line in enumerate(wrap_words(card.empty, 22, WIDTH - 2 * PAD - 48)[:3]):
                draw_text(draw, (WIDTH // 2, y + 34 + i * 30), line, 22, MUTED, anchor="mm")
        return y + 120 + PAD
    for section in card.sections:
        y = _section(draw, section, y)
    return y + PAD - GAP


def _header(draw: ImageDraw.ImageDraw | None, card: StatsCard) -> int:
    badge_w = 0
    if card.badge is not None:
        badge_w = max(text_width(card.badge, 30), text_width(card.badge_label or "", 14)) + 32
    if draw is not None:
        draw.rectangle((0, 0, WIDTH, HEADER_H - 2), fill=HEADER_BG)
        draw.rectangle((0, HEADER_H - 2, WIDTH, HEADER_H + 1), fill=GOLD)
        room = WIDTH - 2 * PAD - (badge_w + GAP if badge_w else 0)
        draw_text(draw, (PAD, HEADER_H // 2), fit(card.title, 30, room), 30, WHITE,
                  anchor="lm")
        draw_text(draw, (PAD, HEADER_H + 26), fit(card.subtitle, 20, room), 20, MUTED,
                  anchor="lm")
        if card.badge is not None:
            right = WIDTH - PAD
            box = (right - badge_w, 10, right, HEADER_H + 46)
            draw.rounded_rectangle(box, radius=12, fill=SECTION_BG, outline=GOLD, width=2)
            draw_text(draw, (right - badge_w // 2, 28), card.badge_label or "", 14, MUTED,
                      anchor="mm")
            draw_text(draw, (right - badge_w // 2, 66), card.badge, 30, HIGHLIGHT,
                      anchor="mm")
    return HEADER_H + 64


def _section(draw: ImageDraw.ImageDraw | None, section: Section, y: int) -> int:
    if draw is not None:
        draw_text(draw, (PAD, y + 14), section.heading, 20, GOLD, anchor="lm")
        end = PAD + text_width(section.heading, 20) + GAP
        draw.line((end, y + 15, WIDTH - PAD, y + 15), fill=PANEL_LINE, width=1)
    y += HEADING_H
    columns = columns_for(len(section.figures))
    box_w = (WIDTH - 2 * PAD - GAP * (columns - 1)) // columns
    for i, figure in enumerate(section.figures):
        row, col = divmod(i, columns)
        x = PAD + col * (box_w + GAP)
        top = y + row * (BOX_H + GAP)
        if draw is not None:
            _box(draw, figure, (x, top, x + box_w, top + BOX_H))
    if section.figures:
        rows = (len(section.figures) + columns - 1) // columns
        y += rows * (BOX_H + GAP)
    lines = _note_lines(section)
    if lines:
        height = len(lines) * NOTE_LINE + 20
        if draw is not None:
            draw.rounded_rectangle((PAD, y, WIDTH - PAD, y + height), radius=10, fill=STRIPE)
            for i, line in enumerate(lines):
                draw_text(draw, (PAD + 16, y + 10 + NOTE_LINE // 2 + i * NOTE_LINE), line,
                          NOTE_SIZE, TONES[section.note_tone], anchor="lm")
        y += height + GAP
    return y + 6


def columns_for(count: int) -> int:
    """Boxes a row: five or three when that fills the rows evenly, else four."""
    return 5 if count == 5 else 3 if count in (3, 6, 9) else COLUMNS


def _box(draw: ImageDraw.ImageDraw, figure: Figure, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=SECTION_BG)
    room = x1 - x0 - 2 * BOX_PAD
    draw_text(draw, (x0 + BOX_PAD, y0 + 20), fit(figure.label, LABEL_SIZE, room), LABEL_SIZE,
              MUTED, anchor="lm")
    value = fit(figure.value, VALUE_SIZE, room)
    end = draw_text(draw, (x0 + BOX_PAD, y1 - 26), value, VALUE_SIZE, TONES[figure.tone],
                    anchor="lm")
    right = x1 - BOX_PAD
    if figure.detail and end + 8 < right:
        draw_text(draw, (end + 8, y1 - 22), fit(figure.detail, LABEL_SIZE, right - end - 8),
                  LABEL_SIZE, MUTED, anchor="lm")


def glyphs(card: StatsCard) -> set[str]:
    """Every character the card draws (tests check the bundled fonts have them)."""
    texts: list[str] = [card.title, card.subtitle, card.badge or "", card.badge_label or "",
                        card.empty or ""]
    for section in card.sections:
        texts += [section.heading, section.note or ""]
        texts += [w for f in section.figures for w in (f.label, f.value, f.detail)]
    return set("".join(texts))


__all__: Sequence[str] = ("Figure", "Section", "StatsCard", "glyphs", "render_stats",
                          "stats_card")
