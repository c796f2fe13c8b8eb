"""A seat's DM in words (also its ``/mahjong hand`` reply's): the table and hand, what
just happened, what is asked of the seat, its hand, the deadline; and the channel's
line when a seat's DMs are closed. For their seat only."""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord.core.i18n import LocaleLike, join, t
from bot.discord.core.words import (
    claimed_tile,
    fit,
    rules_name,
    tile_label,
    tile_name,
    tiles_text,
    timestamp,
    waits_text,
)
from bot.discord.lobby.options import span
from bot.discord.play.moves import move_text
from bot.discord.play.premoves import next_line
from bot.service import WarningNotice
from bot.service.notices import ClaimAnswer, NextDiscard, PlayedAhead
from engine.melds import MeldKind
from engine.rules.common import ActionKind
from engine.tiles import Tile
from engine.view import PlayerView
from render.hand import held_tiles, offers_discard, suggested_number


def prompt_line(view: PlayerView, names: Sequence[str], locale: LocaleLike) -> str:
    """What is asked of this seat now, or who is being waited for."""
    table = view.table
    if table.phase == "ended":
        return t("dm.ended", locale)
    if not view.moves and table.phase in ("claim", "rob_kong"):
        return t("dm.waiting_claim", locale)  # who else may claim is theirs to know
    if not view.moves:
        waiting = [names[s] for s in table.deciding]
        return t("dm.waiting", locale, names=join(waiting, locale) or "—")
    if table.phase == "turn":
        return t("dm.turn", locale)
    tile = claimed_tile(table)
    giver = table.last_discard[0] if table.last_discard is not None else table.turn
    if table.phase == "rob_kong":
        giver = table.turn
    key = "dm.rob_kong" if table.phase == "rob_kong" else "dm.claim"
    return t(key, locale, name=names[giver], tile=tile_name(tile, locale) if tile else "?")


def hand_line(view: PlayerView, locale: LocaleLike) -> str:
    """The concealed tiles in text (the picture shows them too; text is searchable)."""
    wild = view.table.caishen
    tiles = tiles_text(view.concealed, locale, caishen=wild)
    if view.drawn is None:
        return t("dm.hand", locale, tiles=tiles)
    return t("dm.hand_drawn", locale, tiles=tiles,
             drawn=tiles_text((view.drawn,), locale, caishen=wild))


def first_discard(view: PlayerView) -> bool:
    """The seat's first discard of the match is due: the first hand, nothing discarded
    yet (the numbers are drawn only when a discard is due, for the menu)."""
    return offers_discard(view) and view.table.hand_number == 1 \
        and not view.table.seats[view.seat].discards


def legend_line(view: PlayerView, locale: LocaleLike) -> str | None:
    """What the hand picture's numbers and highlights mean, said once a match: with the
    seat's first discard (`/mahjong rules` says it again, `rules_summary`)."""
    if not first_discard(view):
        return None
    parts = [t("dm.legend.numbers", locale)]
    hint = suggested_number(view)
    if hint is not None:
        parts.append(t("dm.legend.suggested", locale, n=hint))
    if view.drawn is not None:
        parts.append(t("dm.legend.drawn", locale, n=len(held_tiles(view))))
    if view.table.caishen is not None:
        parts.append(t("dm.legend.caishen", locale))
    return t("dm.legend", locale, parts=t("dm.legend.sep", locale).join(parts)) \
        + " " + t("dm.legend.again", locale)


def _asked_news(view: PlayerView, names: Sequence[str], locale: LocaleLike) -> str | None:
    """The news line a claim's question tells again ("Bob discarded Seven of Dots: claim
    it or pass.", "Bob adds … to a kong: win on it or pass."), when this seat is asked."""
    table = view.table
    if not view.moves:
        return None
    if table.phase == "claim" and table.last_discard is not None:
        tile = claimed_tile(table)
        return t("ev.discard", locale, name=names[table.last_discard[0]],
                 tile=tile_name(tile, locale) if tile else "?")
    if table.phase == "rob_kong":
        kongs = [m for m in table.seats[table.turn].melds if m.kind is MeldKind.ADDED_KONG]
        if kongs:
            shown = [x for x in kongs[-1].tiles if x is not None]
            return t("ev.added_kong", locale, name=names[table.turn],
                     tiles=tiles_text(shown, locale, caishen=table.caishen))
    return None


def dm_text(view: PlayerView, *, table_id: int, names: Sequence[str], locale: LocaleLike,
            happened: Sequence[str] = (), deadline: float | None = None,
            reminder: bool = False, next_discard: NextDiscard | None = None,
            played: PlayedAhead | None = None, answered: str | None = None,
            bank: float | None = None) -> str:
    """A seat's DM (or ephemeral ``/mahjong hand`` reply) above the picture and buttons:
    the table and hand, the turn just played for the seat as chosen beforehand, what
    just happened, what is asked, the hand, the claims answered in advance
    (``answered``, their words), the deadline, the next discard chosen in advance."""
    table = view.table
    head = [t("dm.header", locale, rules=rules_name(table.rules, locale), table=table_id,
              hand=table.hand_number)]
    if reminder:
        head.append(t("dm.reminder", locale))
    if played is not None:
        head.append(played_line(played, locale, table.caishen))
    prompt = prompt_line(view, names, locale)
    said = _asked_news(view, names, locale)
    if happened and said is not None and happened[-1] == said:
        happened = happened[:-1]  # the question says it again: told once
    tail = [prompt, hand_line(view, locale)]
    if table.caishen is not None:
        tail.append(t("dm.caishen", locale, tile=tile_label(table.caishen, locale)))
    legend = legend_line(view, locale)
    if legend:
        tail.append(legend)
    if view.waits and not any(m.action.kind is ActionKind.DISCARD for m in view.moves):
        tail.append(t("dm.waits", locale, tiles=waits_text(view.waits, view.table.rules, locale,
                                                           caishen=table.caishen)))
    if answered:  # the claims answered in advance, while nothing is asked
        tail.append(t("dm.claims", locale, answers=answered))
    if deadline is not None and view.moves:
        tail.append(t("dm.deadline", locale, when=timestamp(deadline, "R"),
                      at=timestamp(deadline, "f")))
        if bank is not None:
            tail.append(t("dm.bank", locale, left=span(bank, locale)))
    if next_discard is not None and not view.moves and table.phase != "ended":
        tail.append(next_line(next_discard, locale, table.caishen))
    return fit(head, happened, tail)


def played_line(played: PlayedAhead, locale: LocaleLike, caishen: Tile | None) -> str:
    """What was drawn (or claimed) and discarded at once for the seat, as its person
    chose: with "or my draw", the draw in place of the tile chosen when it helped less,
    and why."""
    drawn = tiles_text(() if played.drawn is None else (played.drawn,), locale,
                       caishen=caishen)
    if played.reason == "premove" and played.chosen is not None \
            and played.chosen != played.discarded:
        return t("dm.played.premove_draw", locale, drawn=drawn,
                 chosen=tiles_text((played.chosen,), locale, caishen=caishen))
    claim = answer_label(*played.claim, locale, then=False) if played.claim else ""
    return t(f"dm.played.{played.reason}", locale, drawn=drawn, claim=claim,
             tile=tiles_text((played.discarded,), locale, caishen=caishen))


ANSWER_KEYS = {ActionKind.PONG: "claims.pong", ActionKind.KONG: "claims.kong",
               ActionKind.CHI: "claims.chi"}


def answer_label(tile: Tile, answer: ClaimAnswer, locale: LocaleLike, *,
                 then: bool = True) -> str:
    """"碰 Pong Nine of Characters", "吃 Chi Nine of Characters with Characters 7 8",
    and (``then``) ", then …" the discard it names, in the reader's language."""
    label = t(ANSWER_KEYS[answer.kind], locale, tile=tiles_text((tile,), locale),
              tiles=tiles_text(answer.tiles, locale))
    if then and answer.then is not None:
        label = t("claims.then", locale, claim=label,
                  tile=tiles_text((answer.then,), locale))
    return label


def warning_text(n: WarningNotice, locale: LocaleLike) -> str:
    """The DM when a quarter of a person's time is left: until when their timer runs,
    the time bank after it, and what the timer then plays for them."""
    lines = [t("dm.warning", locale, rules=rules_name(n.rules, locale), table=n.ref.table_id,
               hand=n.hand_number, what=t(f"dm.warning.what.{n.move}", locale),
               when=timestamp(n.timer_at, "R"), at=timestamp(n.timer_at, "f"))]
    if n.bank > 0:
        lines.append(t("dm.warning.bank", locale, left=span(n.bank, locale),
                       deadline=timestamp(n.deadline, "f")))
    lines.append(t("dm.warning.then", locale, move=move_text(n.default, locale)))
    return "\n".join(lines)


def dm_closed_text(mention: str, locale: LocaleLike) -> str:
    """Posted in the channel when a DM is refused (50007): reveals nothing."""
    return t("dm.closed", locale, mention=mention)
