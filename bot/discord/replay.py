"""``/mahjong replay``: a finished hand stepped through, privately, in the reader's
language: the table picture with every hand open (or one seat's point of view: its
hand and what it knew then), what happened at the step in the channel's own words
(`table.words.describe_events`; the settlement's at the last step), and buttons.

Every button carries all it needs (the service replays the hand to the step at each
press; nothing is kept per message) and is judged where it is pressed, like every
button: the table it names must be of the channel it is pressed in
(`Answer.table_id`), else it is answered as a table that does not exist.

``mj:rp:{table}:{hand}:{step}:{view}:{go}``
    Back (``b``), forward (``f``) or jump to the next claim or win (``j``), to
    ``step``; ``view`` is ``a`` (every hand open) or a seat 0–3.
``mj:rpv:{table}:{hand}:{step}``
    The point-of-view menu at ``step``; the value chosen is ``a`` or a seat 0–3.
``mj:rpf:{table}:{hand}``
    The hand's record as a JSON file (`bot.service.replays.record_of`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import NUM, BadCustomId, chosen_value, out_of_date, own_id, persistent
from bot.discord.core.words import MAX_CONTENT, clip, tile_name
from bot.discord.delivery.posting import memory_file
from bot.discord.table.words import describe_events, settlement_text
from bot.service.replays import ReplayFrame
from engine.game.events import ClaimWindowOpened, TileDrawn
from render.table import open_table_image

Go = Literal["b", "f", "j"]
VIEW = r"(?P<view>a|[0-3])"
NO_MENTIONS = discord.AllowedMentions.none()


def view_value(viewer: int | None) -> str:
    """A point of view as ids and the menu carry it: ``a`` (all open) or the seat."""
    return "a" if viewer is None else str(viewer)


def viewer_of(value: str) -> int | None:
    """`view_value` read back; `BadCustomId` for anything else (a forged menu value)."""
    if value == "a":
        return None
    if value in ("0", "1", "2", "3"):
        return int(value)
    raise BadCustomId(f"no point of view {value!r}")


@persistent
class ReplayStep(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"mj:rp:(?P<table>{NUM}):(?P<hand>{NUM}):(?P<step>{NUM}):{VIEW}"
                          r":(?P<go>[bfj])"):
    """Back, forward, or the next claim or win: the frame at ``step``."""

    def __init__(self, table: int, hand: int, step: int, viewer: int | None, go: Go, *,
                 label: str = "", disabled: bool = False, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or None, style=discord.ButtonStyle.secondary, disabled=disabled,
            row=row, custom_id=own_id(
                ReplayStep, f"mj:rp:{table}:{hand}:{step}:{view_value(viewer)}:{go}")))
        self.table, self.hand, self.step, self.viewer = table, hand, step, viewer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ReplayStep:
        go: Any = match["go"]
        return cls(int(match["table"]), int(match["hand"]), int(match["step"]),
                   viewer_of(match["view"]), go)

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_step(interaction, self.table, self.hand, self.step, self.viewer)


@persistent
class ReplayViewMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
                     template=rf"mj:rpv:(?P<table>{NUM}):(?P<hand>{NUM}):(?P<step>{NUM})"):
    """Whose point of view: everything open, or one seat's."""

    def __init__(self, table: int, hand: int, step: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=own_id(ReplayViewMenu, f"mj:rpv:{table}:{hand}:{step}"),
            placeholder=placeholder or None, min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="a")], row=row)
        super().__init__(select)
        self.table, self.hand, self.step = table, hand, step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ReplayViewMenu:
        options = list(getattr(item, "options", ()) or ()) or None
        return cls(int(match["table"]), int(match["hand"]), int(match["step"]),
                   options=options)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:  # read from the click itself (`answer_unshown`)
            viewer = viewer_of(chosen_value(interaction))
        except BadCustomId:
            await out_of_date(interaction)
            return
        await show_step(interaction, self.table, self.hand, self.step, viewer)


@persistent
class ReplayRecord(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"mj:rpf:(?P<table>{NUM}):(?P<hand>{NUM})"):
    """The hand's record, a JSON file, sent privately."""

    def __init__(self, table: int, hand: int, *, label: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Button(
            label=label or None, style=discord.ButtonStyle.primary, row=row,
            custom_id=own_id(ReplayRecord, f"mj:rpf:{table}:{hand}")))
        self.table, self.hand = table, hand

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> ReplayRecord:
        return cls(int(match["table"]), int(match["hand"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table)  # in its own channel only
            record = await answer.run(answer.service.hand_record(answer.cause, table,
                                                                 self.hand))
            data = json.dumps(record.data, ensure_ascii=False, indent=1).encode("utf-8")
            await answer.say(t("replay.record.text", answer.locale, table=record.table_id,
                               hand=record.hand_number),
                             file=memory_file(data, record.filename))


async def replay_command(answer: Answer, table: int | None, hand: int | None) -> None:
    """``/mahjong replay [table] [hand]``: the deal of the hand, every hand open."""
    await answer.defer(ephemeral=True)
    table_id = await answer.run(answer.service.replay_table(answer.cause, table))
    frame = await answer.run(answer.service.replay(answer.cause, table_id, hand))
    content, file, view = await _frame_message(answer, frame)
    await answer.say(content, file=file, view=view, allowed_mentions=NO_MENTIONS)


async def show_step(interaction: discord.Interaction, table: int, hand: int, step: int,
                    viewer: int | None) -> None:
    """A replay button's or menu's press: the message pressed shows that frame."""
    async with answering(interaction) as answer:
        table_id = await answer.table_id(table)  # in its own channel only
        await answer.acknowledge()  # a picture follows
        frame = await answer.run(answer.service.replay(answer.cause, table_id, hand, step,
                                                       viewer))
        content, file, view = await _frame_message(answer, frame)
        await answer.update(content=content, attachments=[file], view=view,
                            allowed_mentions=NO_MENTIONS)


async def _frame_message(answer: Answer, frame: ReplayFrame
                         ) -> tuple[str, discord.File, discord.ui.View]:
    locale = answer.locale
    bottom = frame.viewer if frame.viewer is not None else 0
    png = await answer.pictures.draw(open_table_image, frame.view, frame.names, bottom)
    name = f"replay-{frame.table_id}-{frame.hand_number}-{frame.step}.png"
    return frame_text(frame, locale), memory_file(png, name), replay_view(frame, locale)


def frame_text(frame: ReplayFrame, locale: LocaleLike) -> str:
    """The frame's caption: where it is, whose view, what happened at this step (as the
    viewer was told it) and, at the end, the settlement."""
    names = frame.names
    title = t("replay.title", locale, table=frame.table_id, hand=frame.hand_number,
              step=frame.step, last=frame.last)
    lines = [f"**{title}**",
             t("replay.open", locale) if frame.viewer is None
             else t("replay.as_seat", locale, name=names[frame.viewer])]
    if frame.step == 0:
        lines.append(t("replay.deal", locale))
    told = _told(frame, locale)
    lines += told or ([] if frame.step == 0 else [t("replay.nothing", locale)])
    result = frame.view.table.result
    if frame.step == frame.last and result is not None:
        lines += [t("replay.end", locale),
                  settlement_text(result, names, frame.hand_number, locale,
                                  caishen=frame.view.table.caishen)]
    return clip("\n".join(lines), MAX_CONTENT)


def _told(frame: ReplayFrame, locale: LocaleLike) -> list[str]:
    """What happened at the step in the channel's words, told of each seat by name (the
    reader is not necessarily the seat whose view it is): a draw the frame may show
    (every hand open, or the viewer's own) is told as "Ann drew …"."""
    lines: list[str] = []
    caishen = frame.view.table.caishen
    for event in frame.events:
        if isinstance(event, TileDrawn):
            lines.append(t("replay.drew", locale, name=frame.names[event.seat],
                           tile=tile_name(event.tile, locale)))
        elif not isinstance(event, ClaimWindowOpened):
            lines += describe_events([event], frame.names, None, locale,
                                     hand=frame.hand_number, caishen=caishen)
    return lines


def replay_view(frame: ReplayFrame, locale: LocaleLike) -> discord.ui.View:
    """Back, forward, the next claim or win, the record; the point-of-view menu."""
    table, hand, step, viewer = frame.table_id, frame.hand_number, frame.step, frame.viewer
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayStep(table, hand, max(step - 1, 0), viewer, "b",
                             label=t("replay.back", locale), disabled=step == 0, row=0))
    view.add_item(ReplayStep(table, hand, min(step + 1, frame.last), viewer, "f",
                             label=t("replay.forward", locale), disabled=step == frame.last,
                             row=0))
    # the next claim or win; with none ahead (a drawn hand's end), the settlement
    view.add_item(ReplayStep(table, hand, frame.jump if frame.jump is not None else frame.last,
                             viewer, "j", label=t("replay.jump", locale),
                             disabled=step == frame.last, row=0))
    view.add_item(ReplayRecord(table, hand, label=t("replay.record", locale), row=0))
    options = [discord.SelectOption(label=t("replay.view.all", locale), value="a",
                                    default=viewer is None)]
    options += [discord.SelectOption(label=clip(t("replay.view.seat", locale, name=name), 100),
                                     value=str(seat), default=viewer == seat)
                for seat, name in enumerate(frame.names)]
    view.add_item(ReplayViewMenu(table, hand, step, options=options,
                                 placeholder=t("replay.view.placeholder", locale), row=1))
    return view
