"""INTERACTION_CREATE payloads as Discord would send them.

Application commands are looked up in what the bot synced; the options given by the
test are typed from the registered definitions (subcommand groups included) and any
user/channel/role values are added to ``resolved``.
"""

from __future__ import annotations

from typing import Any

from .models import FakeChannel, FakeGuild, FakeRole, FakeUser, JsonDict
from .state import FakeState

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024


class CommandLookupError(LookupError):
    """The test asked for a command or option the bot did not register."""


def _matches(definition: JsonDict, name: str) -> bool:
    localized = (definition.get("name_localizations") or {}).values()
    return definition["name"] == name or name in localized


def find_command(state: FakeState, guild_id: int | None, name: str) -> JsonDict:
    """The synced chat-input command called ``name`` (guild commands first)."""
    for command in state.commands_for(guild_id):
        if command.get("type", 1) == 1 and _matches(command, name):
            return command
    known = sorted(c["name"] for c in state.commands_for(guild_id))
    raise CommandLookupError(f"no synced command /{name}; synced: {known}")


def _sub(definition: JsonDict, name: str) -> JsonDict:
    options: list[JsonDict] = definition.get("options") or []
    for option in options:
        if option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and _matches(option, name):
            return option
    known = [o["name"] for o in definition.get("options") or []]
    raise CommandLookupError(f"/{definition['name']} has no subcommand {name!r}; has {known}")


def command_data(
    state: FakeState,
    guild_id: int | None,
    path: tuple[str, ...],
    options: dict[str, Any],
    focused: str | None = None,
) -> JsonDict:
    """The ``data`` of an application-command (or, with ``focused``, autocomplete)
    interaction for ``/path...``."""
    command = find_command(state, guild_id, path[0])
    data: JsonDict = {"id": command["id"], "name": command["name"], "type": 1}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    resolved: JsonDict = {}
    holder, definition = data, command
    for name in path[1:]:
        definition = _sub(definition, name)
        node: JsonDict = {"name": definition["name"], "type": definition["type"], "options": []}
        holder["options"] = [node]
        holder = node
    leaves = _leaf_options(state, guild_id, definition, options, resolved, focused)
    holder["options"] = leaves
    if resolved:
        data["resolved"] = resolved
    return data


def _leaf_options(
    state: FakeState,
    guild_id: int | None,
    definition: JsonDict,
    given: dict[str, Any],
    resolved: JsonDict,
    focused: str | None = None,
) -> list[JsonDict]:
    defs = {o["name"]: o for o in definition.get("options") or []}
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs.values()):
        raise CommandLookupError(f"/{definition['name']} needs a subcommand: {sorted(defs)}")
    unknown = set(given) - set(defs)
    if unknown:
        raise CommandLookupError(f"unknown options {sorted(unknown)}; known {sorted(defs)}")
    missing = [n for n, o in defs.items() if o.get("required") and n not in given]
    if missing and focused is None:
        raise CommandLookupError(f"missing required options {missing}")
    result = []
    for name, value in given.items():
        kind = defs[name]["type"]
        if name == focused:  # what the user has typed so far, always a string
            result.append({"name": name, "type": kind, "value": str(value), "focused": True})
            continue
        typed = _typed(state, guild_id, kind, value, resolved)
        _check_choice(defs[name], typed)
        result.append({"name": name, "type": kind, "value": typed})
    return result


def _check_choice(definition: JsonDict, value: Any) -> None:
    choices = [c["value"] for c in definition.get("choices") or []]
    if choices and value not in choices:
        raise CommandLookupError(f"{value!r} is not a choice of {definition['name']}: {choices}")


def _typed(
    state: FakeState, guild_id: int | None, kind: int, value: Any, resolved: JsonDict
) -> Any:
    if kind == STRING:
        return str(value)
    if kind == INTEGER:
        return int(value)
    if kind == NUMBER:
        return float(value)
    if kind == BOOLEAN:
        return bool(value)
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        return _resolve(state, guild_id, value, resolved)
    raise CommandLookupError(f"option type {kind} is not supported by the fake")


def _resolve(state: FakeState, guild_id: int | None, value: Any, resolved: JsonDict) -> str:
    guild = state.guilds.get(guild_id or 0)
    if isinstance(value, FakeRole) and guild is not None:
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if isinstance(value, FakeChannel):
        data = {**value.payload(state.users), "permissions": str((1 << 41) - 1)}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    user = value if isinstance(value, FakeUser) else state.users[int(value)]
    resolved.setdefault("users", {})[str(user.id)] = user.payload()
    if guild is not None and user.id in guild.members:
        member = guild.member_payload(user, permissions=True)
        member.pop("user")
        resolved.setdefault("members", {})[str(user.id)] = member
    return str(user.id)


def interaction_payload(
    state: FakeState,
    *,
    interaction_id: int,
    token: str,
    kind: int,
    user: FakeUser,
    channel: FakeChannel,
    data: JsonDict,
    locale: str,
) -> JsonDict:
    """The common envelope of an INTERACTION_CREATE, in a guild or a DM."""
    payload: JsonDict = {
        "id": str(interaction_id),
        "application_id": str(state.application_id),
        "type": kind,
        "token": token,
        "version": 1,
        "data": data,
        "channel_id": str(channel.id),
        "locale": locale,
        "app_permissions": str((1 << 41) - 1),
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    guild = state.guilds.get(channel.guild_id or 0)
    if guild is None:
        payload["channel"] = channel.payload(state.users)
        payload["user"] = user.payload()
        payload["context"] = 1
        payload["authorizing_integration_owners"] = {"0": "0"}  # bot DM
        return payload
    payload.update(_guild_part(guild, user, channel))
    return payload


def _guild_part(guild: FakeGuild, user: FakeUser, channel: FakeChannel) -> JsonDict:
    permissions = str(guild.permissions_of(user.id))
    return {
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "guild_locale": guild.locale,
        "channel": {**channel.payload(), "permissions": permissions},
        "member": guild.member_payload(user, permissions=True),
        "context": 0,
        "authorizing_integration_owners": {"0": str(guild.id)},
    }
