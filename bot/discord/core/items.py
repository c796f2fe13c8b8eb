"""The custom_id scheme's shared mechanism: what every persistent component of the bot
has in common, whichever feature it belongs to.

Buttons must keep working after a restart and for messages sent long ago, so nothing
is remembered per message: each ``custom_id`` carries all it needs, and one
`discord.ui.DynamicItem` class per kind parses it. Each kind lives in the feature that
places it, with its template, its flow and its words (`tests/discord/test_feature_layout.py`
keeps it so): ``mj:mv`` and ``mj:dc`` (a decision's buttons and discard menu) in
`bot.discord.play.moves`, ``mj:pref`` and ``mj:back`` (standing choices, "I'm back"),
``mj:ca`` and ``mj:cat`` (claims answered in advance, the discard after one) in
`bot.discord.play.choices`, ``mj:nx``, ``mj:nxc`` and ``mj:nxd`` (the next discard
chosen in advance, its cancel and its "or my draw") in `bot.discord.play.premoves`,
``mj:lobby`` in
`bot.discord.lobby.message`, ``mj:quit``
(leaving a running match) in `bot.discord.lobby.leave`. ``@persistent`` registers a
class for the client (`DYNAMIC_ITEMS`, ``client.add_dynamic_items(*DYNAMIC_ITEMS)``).

Every number an id carries is a non-negative decimal without leading zeros (`NUM`), at
most `MAX_NUMBER`; an id is at most 100 characters (`own_id` checks both when an id is
made, so a value out of the scheme fails at once, not on a click).

Each kind's class, as in discord.py's own examples: its template (the pattern of its
ids, in the class statement), its ``__init__`` (the id made from the values, with
`own_id`: a value outside the template raises `BadCustomId` at once), its
``from_custom_id`` (the values read back from a click's id; it never raises, or
discord.py would leave the click unanswered) and its ``callback``, which calls the table
service inside
`bot.discord.core.answering.answering`, for the table its id names only where that
table's buttons belong (`Answer.table_id`: a table's public buttons in its channel, a
decision's there or in the seated person's private messages; anywhere else the id is
answered as one no table has). The service checks everything a click claims (the seat,
the step, that the move is legal); an id that fits a template but means nothing
(``p555m``) never reaches it: the presser is told privately that the button is out of
date. A press on a component its message no longer shows (a client not yet shown the
edit that took it off; Discord sends the message as it is now) is one discord.py drops
unanswered: `answer_unshown` answers it from its id alone, as if shown. An id with a
number past `MAX_NUMBER` (forged: no database column holds it) is read as `OutOfRange`
whatever its kind: out of date, before any table is looked up.

To add a button: a class in its feature's module (template, ``__init__``,
``from_custom_id``, ``callback``, ``@persistent``) beside the view builder that places
it, and its label (and reply) in `bot.discord.core.i18n`, in English and 简体中文.
"""

from __future__ import annotations

import functools
import re
from typing import Any, TypeVar

import discord

from bot.discord.core.answering import answering
from bot.discord.core.i18n import t

MAX_CUSTOM_ID = 100
"""Discord's limit on a component's custom_id."""
# and on a message's components: options in a menu, buttons in a row, rows, a label
MAX_OPTIONS = 25
MAX_ROW_BUTTONS = 5
MAX_ROWS = 5
MAX_BUTTON_LABEL = 80

NUM = r"(?:0|[1-9][0-9]*)"
MAX_NUMBER = 2**63 - 1
"""The largest number an id carries: the store's integer columns (SQLite's INTEGER,
PostgreSQL's BIGINT) hold no more. `NUM` reads any number, so that a forged id with a
larger one is still answered: it is refused as the id is parsed (`numbers_fit`), never
sent to the database."""
MAX_DIGITS = len(str(MAX_NUMBER))


class ComposedView(discord.ui.View):
    """Components composed as Discord receives them (plain dicts), sent as they are: a
    `/mahjong hand` reply's, made in a picture process (a view does not pickle; a DM's
    travel as their JSON text, `Poster.dm_id`), and a click's answer's menus
    (`select_row`: made through discord.ui, a click's two menus were about a twentieth
    of the bot's CPU a click). Nothing is dispatched to it: every component is a
    persistent item that discord.py finds by its id."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components


def select_row(custom_id: str, entries: list[tuple[str, str, bool]], *, placeholder: str,
               min_values: int, max_values: int, description: str | None = None
               ) -> dict[str, Any]:
    """A row holding one menu, as discord.py sends a `discord.ui.Select` of these
    ``entries`` ((label, value, default), each with ``description``) on a row of its own
    (tests/discord/test_discord_answer_menus.py holds the two equal)."""
    options = []
    for label, value, default in entries:
        option: dict[str, Any] = {"label": label, "value": value, "default": default}
        if description:
            option["description"] = description
        options.append(option)
    menu: dict[str, Any] = {"type": discord.ComponentType.select.value,
                            "custom_id": custom_id, "min_values": min_values,
                            "max_values": max_values, "disabled": False, "required": True}
    if placeholder:
        menu["placeholder"] = placeholder
    if options:
        menu["options"] = options
    return {"type": discord.ComponentType.action_row.value, "components": [menu]}


class BadCustomId(ValueError):
    """A custom_id that does not follow the scheme (forged, truncated, or too old)."""


Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])
DYNAMIC_ITEMS: list[type[discord.ui.DynamicItem[Any]]] = []
"""Every kind of component, registered once: ``client.add_dynamic_items(*DYNAMIC_ITEMS)``."""


def numbers_fit(match: re.Match[str]) -> bool:
    """Whether every number an id carries (its all-digit fields) is at most `MAX_NUMBER`.
    A field shorter than `MAX_DIGITS` fits whatever it holds: only a long one is read
    (each click's id and each id made are checked, ~3.5 a click)."""
    for value in match.groupdict().values():
        if value is not None and len(value) >= MAX_DIGITS and value.isdigit() and (
                len(value) > MAX_DIGITS or int(value) > MAX_NUMBER):
            return False
    return True


def persistent(cls: Item) -> Item:
    """Register a dynamic item: its buttons keep working after a restart. An id whose
    numbers do not fit (`numbers_fit`) is parsed as `OutOfRange`, never as ``cls``. Its
    callback lets go of the view discord.py rebuilt from the clicked message once it is
    done (`let_go_of_view`)."""
    DYNAMIC_ITEMS.append(cls)
    parse, answer = cls.from_custom_id, cls.callback

    async def from_custom_id(_cls: Any, interaction: discord.Interaction,
                             item: discord.ui.Item[Any], match: re.Match[str], /
                             ) -> discord.ui.DynamicItem[Any]:
        if not numbers_fit(match):
            return OutOfRange(item)
        return await parse(interaction, item, match)

    cls.from_custom_id = classmethod(from_custom_id)  # type: ignore[assignment]  # the same parse, guarded

    @functools.wraps(answer)
    async def callback(self: discord.ui.DynamicItem[Any],
                       interaction: discord.Interaction) -> None:
        try:
            await answer(self, interaction)
        finally:
            let_go_of_view(self)

    cls.callback = callback  # type: ignore[method-assign]  # the same callback, wrapped
    return cls


def unshown(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` is a press on a component the pressed message no longer
    shows (`answer_unshown` answers it). Read at once as it arrives (only the message's
    parsed rows), so that the shown ones, every click but a rare few, cost no task."""
    data: Any = interaction.data or {}
    custom_id, message = data.get("custom_id"), interaction.message
    return interaction.type is discord.InteractionType.component and \
        isinstance(custom_id, str) and message is not None and \
        not _shows(message.components, custom_id)


async def answer_unshown(interaction: discord.Interaction) -> None:
    """A press on one of the bot's components that the pressed message no longer shows
    (its buttons were taken off after the client drew them): discord.py finds no item
    to rebuild and drops it, and the player would see "This interaction failed". Its
    id says all the answer needs, so it is answered as a shown one would be: a passed
    move refused as passed, a standing choice saved. Shown components are left to
    discord.py (`unshown`: the client asks it first, for every interaction)."""
    if not unshown(interaction):
        return
    data: Any = interaction.data or {}
    custom_id: str = data["custom_id"]
    for cls in DYNAMIC_ITEMS:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            base: discord.ui.Item[Any] = discord.ui.Select(custom_id=custom_id) \
                if data.get("component_type") == discord.ComponentType.string_select.value \
                else discord.ui.Button(custom_id=custom_id)
            item = await cls.from_custom_id(interaction, base, match)
            await item.callback(interaction)
            return


class OutOfRange(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r".*"):
    """Any of the bot's ids with a number past `MAX_NUMBER`: forged, as no id the bot
    made carries one. Answered as out of date. Never registered: `persistent` parses
    such an id as this, around the item discord.py built from the click."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await out_of_date(interaction)
        finally:
            let_go_of_view(self)


def _shows(components: Any, custom_id: str) -> bool:
    """Whether a message's components (rows of them, or ones at the top) hold one with
    ``custom_id``."""
    for component in components:
        if getattr(component, "custom_id", None) == custom_id or \
                _shows(getattr(component, "children", ()), custom_id):
            return True
    return False


def let_go_of_view(item: discord.ui.Item[Any]) -> None:
    """For each click discord.py rebuilds the clicked message's view, every component an
    item pointing back at it: a cycle only the garbage collector frees (with the
    message's components, ~40 objects a click). Once the click is answered the view is
    emptied, which cuts it (`tests/e2e/test_bot_garbage.py`)."""
    view = item.view
    if view is not None:
        view.clear_items()


def own_id(cls: type[discord.ui.DynamicItem[Any]], custom_id: str) -> str:
    """``custom_id`` if it fits ``cls``'s template (and Discord's length): every id made
    here parses back, so a value out of the scheme fails at once, not on a click."""
    if len(custom_id) > MAX_CUSTOM_ID:
        raise BadCustomId(f"custom_id longer than {MAX_CUSTOM_ID}: {custom_id[:40]!r}…")
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    if match is None or not numbers_fit(match):
        raise BadCustomId(f"cannot encode {custom_id!r} as a {cls.__name__}")
    return custom_id


def chosen_value(interaction: discord.Interaction) -> str:
    """The one value a single-choice menu's click carries, read from the click itself (a
    menu the message no longer shows has no state); `BadCustomId` when the click does not
    carry exactly one text value (forged or garbled)."""
    data: Any = interaction.data or {}
    values = data.get("values")
    if not isinstance(values, list) or len(values) != 1 or not isinstance(values[0], str):
        raise BadCustomId(f"one value is chosen, not {values!r}")
    return values[0]


async def out_of_date(interaction: discord.Interaction) -> None:
    """The private answer to a component whose id reads but means nothing."""
    async with answering(interaction) as answer:
        await answer.say(t("error.bad_component", answer.locale))
