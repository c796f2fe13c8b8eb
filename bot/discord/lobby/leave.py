"""Leaving a table: at once from the lobby; from a running match only once the person
has confirmed, privately, what leaving costs under the table's rules.

``mj:quit:{table}:{user}:{cost}:{yes|no}``
    The private confirmation of leaving a running match: ``yes`` leaves (the cost
    shown, ``cost``, is the one agreed to: a fraction's text), ``no`` keeps the seat.
    Honoured only for ``user``, the person it was shown to, at that table.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import discord

from bot.discord.core.answering import Answer, answering
from bot.discord.core.i18n import LocaleLike, t
from bot.discord.core.items import NUM, own_id, persistent
from bot.service import Refused
from bot.service import errors as E
from engine.rules.common import number


async def leave(answer: Answer, table_id: int, agreed: Fraction | None = None, *,
                confirming: bool = False, lobby_reply: str | None = None) -> None:
    """Leave the table for ``answer``'s person. In the lobby it is done at once (the
    lobby message shows it); during a match the person is first asked, privately, with
    what leaving costs under the table's rules (`confirm_leave`), and only their
    press of "Leave the match" (``agreed``: the cost it showed) leaves. ``confirming``:
    the answer edits the confirmation pressed; ``lobby_reply``: what a lobby's leave
    is answered (None: a click, acknowledged: the lobby message shows it)."""
    try:
        await answer.run(answer.service.leave(answer.cause, table_id, agreed=agreed))
    except Refused as exc:
        if exc.code != E.CONFIRM_LEAVE:
            raise
        text, view = leave_question(exc.params, answer.cause.user_id, answer.locale)
        if confirming:  # the cost changed since it was shown: shown again
            await answer.update(content=t("leave.changed", answer.locale) + "\n" + text,
                                view=view)
        else:
            await answer.say(text, view=view)
        return
    if confirming:
        await answer.update(content=t("leave.done", answer.locale, table=table_id),
                            view=None)
    elif lobby_reply is not None:
        await answer.say(lobby_reply)
    else:
        await answer.acknowledge()  # left the lobby: its message shows it


def leave_question(params: Any, user_id: int, locale: LocaleLike
                   ) -> tuple[str, discord.ui.View]:
    """The confirmation of leaving a running match: what it costs under the table's
    rules, and its two buttons, for ``user_id`` alone."""
    table, penalty = int(params["table"]), Fraction(params["penalty"])
    rules = t(f"rules.{params['rules']}", locale)
    if not penalty:
        cost = t("leave.confirm.free", locale, rules=rules)
    elif params.get("receiver"):
        cost = t("leave.confirm.penalty_to", locale, rules=rules, points=number(penalty),
                 receiver=params["receiver"])
    else:
        cost = t("leave.confirm.penalty", locale, rules=rules, points=number(penalty))
    view = discord.ui.View(timeout=None)
    view.add_item(LeaveButton(table, user_id, penalty, True,
                              label=t("btn.leave.confirm", locale)))
    view.add_item(LeaveButton(table, user_id, penalty, False,
                              label=t("btn.leave.keep", locale)))
    return t("leave.confirm.title", locale, table=table) + "\n" + cost, view


@persistent
class LeaveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"mj:quit:(?P<table>{NUM}):(?P<user>{NUM})"
                           rf":(?P<cost>{NUM}(?:/[1-9][0-9]{{0,18}})?):(?P<yes>yes|no)"):
    """Confirm leaving a running match (or keep the seat): shown privately to the
    person asking, and honoured only for them."""

    def __init__(self, table: int, user: int, cost: Fraction, yes: bool, *,
                 label: str = "", row: int | None = None) -> None:
        custom_id = f"mj:quit:{table}:{user}:{cost}:{'yes' if yes else 'no'}"
        super().__init__(discord.ui.Button(
            label=label or None, row=row, custom_id=own_id(LeaveButton, custom_id),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary))
        self.table, self.user, self.cost, self.yes = table, user, cost, yes

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> LeaveButton:
        return cls(int(match["table"]), int(match["user"]), Fraction(match["cost"]),
                   match["yes"] == "yes")

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering(interaction) as answer:
            table = await answer.table_id(self.table)  # asked in its channel only
            if answer.cause.user_id != self.user:
                await answer.say(t("leave.not_yours", answer.locale))
            elif self.yes:
                await leave(answer, table, self.cost, confirming=True)
            else:
                await answer.update(content=t("leave.kept", answer.locale, table=table),
                                    view=None)
