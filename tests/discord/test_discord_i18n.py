"""Strings: both languages hold every key with the same fields; command names and
descriptions obey Discord's rules; the translator answers zh-CN (and zh-TW) only."""

from __future__ import annotations

import re
import string
import unicodedata
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.commands import MahjongCommands
from bot.discord.core.i18n import (
    COMMANDS,
    PARAMS,
    STRINGS,
    SUBCOMMANDS,
    MahjongTranslator,
    lang,
    ls,
    t,
    translate,
)
from bot.discord.lobby.options import choices_kwargs, new_options, table_options
from tests.narrowing import known

_ZH_LOCALES = (discord.Locale.chinese, discord.Locale.taiwan_chinese)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _valid_name(name: str) -> bool:
    """Discord: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lower case where it applies."""
    ok = all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    return ok and 1 <= len(name) <= 32 and name == name.lower()


def test_both_languages_hold_the_same_keys_and_fields() -> None:
    import importlib

    from bot.discord.core.i18n import FEATURES

    for name in FEATURES:  # each feature's strings module, and so the whole lookup
        module = importlib.import_module(name)
        assert module.EN and list(module.EN) == list(module.ZH), name
    en, zh = STRINGS["en"], STRINGS["zh"]
    assert set(en) == set(zh), set(en) ^ set(zh)
    for key in en:
        assert _fields(en[key]) == _fields(zh[key]), key
        assert en[key].strip() and zh[key].strip(), key


@pytest.mark.parametrize("language", ["en", "zh"])
def test_command_and_parameter_names_and_descriptions_fit_discord(language: str) -> None:
    for cmd in ("group", *COMMANDS):
        assert _valid_name(t(f"cmd.{cmd}.name", language)), cmd
        assert 1 <= len(t(f"cmd.{cmd}.desc", language)) <= 100, cmd
    for sub in SUBCOMMANDS:
        assert _valid_name(t(f"cmd.{sub}.name", language)), sub
        assert 1 <= len(t(f"cmd.{sub}.desc", language)) <= 100, sub
    for param in PARAMS:
        assert _valid_name(t(f"param.{param}.name", language)), param
        assert 1 <= len(t(f"param.{param}.desc", language)) <= 100, param


def test_english_names_are_the_code_names() -> None:
    """Discord dispatches on the default (English) names: they must not drift."""
    assert t("cmd.group.name") == "mahjong"
    assert [t(f"cmd.{c}.name") for c in COMMANDS] == [
        "new", "join", "leave", "addbot", "start", "hand", "turns", "quiet", "vacation", "table",
        "leaderboard", "rules", "score", "cancel", "history", "stats", "replay",
        "ratings", "season", "recap"]
    for spec in new_options():
        assert t(f"param.{spec.name}.name") == spec.name


def test_names_are_unique_within_their_scope() -> None:
    for language in ("en", "zh"):
        names = [t(f"cmd.{c}.name", language) for c in COMMANDS]
        assert len(set(names)) == len(names)
        params = [t(f"param.{s.name}.name", language) for s in new_options()]
        assert len(set(params)) == len(params)


def test_locale_picks_the_language() -> None:
    assert lang(discord.Locale.chinese) == "zh"
    assert lang(discord.Locale.taiwan_chinese) == "zh"
    assert lang(discord.Locale.american_english) == "en"
    assert lang(discord.Locale.french) == "en"
    assert lang(None) == "en" and lang("zh-CN") == "zh"
    assert t("btn.pass", discord.Locale.chinese) == "过"
    assert t("btn.pass", discord.Locale.german) == "过 Pass"
    assert t("reply.joined", "zh-CN", name="A", seat=2) == "A 坐到了 2 号座位。"
    with pytest.raises(KeyError):
        t("no.such.key", "en")


async def test_translator_returns_chinese_for_zh_locales_only() -> None:
    translator = MahjongTranslator()
    ctx: Any = app_commands.TranslationContext(  # what the strings are for: not read
        app_commands.TranslationContextLocation.other, None)
    for locale in _ZH_LOCALES:
        assert await translator.translate(ls("cmd.group.name"), locale, ctx) == "麻将"
        assert await translator.translate(ls("cmd.new.desc"), locale, ctx) \
            == "在本频道开一张新牌桌"
    for locale in (discord.Locale.american_english, discord.Locale.japanese):
        assert await translator.translate(ls("cmd.group.name"), locale, ctx) is None
    # A string that is not ours is left alone.
    assert translate(app_commands.locale_str("plain"), discord.Locale.chinese) is None


def test_choice_names_translate_with_their_fields_and_fit() -> None:
    for name, choices in choices_kwargs().items():
        assert len(choices) <= 25, name
        for choice in choices:
            zh = translate(known(choice._locale_name), discord.Locale.chinese)
            assert zh and 1 <= len(zh) <= 100 and 1 <= len(choice.name) <= 100
    timers = {c.value: c for c in choices_kwargs()["turn_timer"]}
    assert timers[43200].name == "12 h (default)"
    assert translate(known(timers[43200]._locale_name), "zh-CN") == "12 小时（默认）"
    assert translate(known(timers[30]._locale_name), "zh-CN") == "30 秒"


def test_options_of_the_other_rule_set_are_refused_in_both_languages() -> None:
    from bot.discord.lobby.options import OptionNotForRules

    assert table_options("hangzhou", {"rules": "hangzhou", "caishen": "flip", "la_cap": None}) \
        == {"caishen": "flip"}
    with pytest.raises(OptionNotForRules) as info:
        table_options("hangzhou", {"la_cap": 3})
    assert "la_cap" in info.value.text("en") and "杭州" in info.value.text("zh-CN")


async def test_the_translated_command_payload_fits_discord() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = MahjongTranslator()
    await tree.set_translator(translator)
    payload = await MahjongCommands().get_translated_payload(tree, translator)
    assert payload["name"] == "mahjong"
    assert payload["name_localizations"] == {"zh-CN": "麻将", "zh-TW": "麻将"}
    subs = {o["name"]: o for o in payload["options"]}
    assert set(subs) == {t(f"cmd.{c}.name") for c in COMMANDS}
    new = subs["new"]
    assert new["name_localizations"]["zh-CN"] == "开桌"
    assert len(new["options"]) == len(new_options()) <= 25
    assert new["options"][0]["name"] == "rules" and new["options"][0]["required"]
    # servers and private messages with the bot (`IN_DMS` there), no group DMs
    assert payload["dm_permission"] is True and payload["contexts"] == [0, 1]
    assert subs["rules"]["options"][0]["choices"][0]["name_localizations"]["zh-CN"] == "上海"
    assert subs["join"]["options"][0]["name_localizations"]["zh-CN"] == "桌号"
    # optional: the channel's last by default; this season by default (issue 31)
    board_rules, board_season = subs["leaderboard"]["options"]
    assert board_rules["name"] == "rules" and not board_rules["required"]
    assert [c["value"] for c in board_rules["choices"]] == ["shanghai", "hangzhou"]
    assert board_season["name"] == "season" and not board_season["required"]
    assert board_season["autocomplete"]
    (close,) = subs["season"]["options"]  # /mahjong season close
    assert close["type"] == 1 and close["name_localizations"]["zh-CN"] == "结束"
    for option in new["options"]:
        zh_name = option["name_localizations"]["zh-CN"]
        assert _valid_name(zh_name) and _valid_name(option["name"])
        assert len(option["description_localizations"]["zh-CN"]) <= 100
        for choice in option.get("choices", []):
            assert len(choice["name_localizations"]["zh-CN"]) <= 100
    await client.close()


def test_every_literal_key_used_by_the_adapter_exists() -> None:
    from pathlib import Path

    import bot.discord

    root = Path(bot.discord.__file__).parent
    used: set[str] = set()
    for path in root.rglob("*.py"):
        used |= set(re.findall(r"""\b(?:t|ls)\(["']([a-z_]+(?:\.[a-z_]+)+)["']""",
                               path.read_text(encoding="utf-8")))
    assert len(used) > 50
    assert used <= set(STRINGS["en"]), used - set(STRINGS["en"])


def test_every_key_built_from_engine_and_service_values_exists() -> None:
    import bot.service.errors as codes
    from engine.melds import MeldKind
    from engine.rules import RULESETS
    from engine.rules.common import WinKind

    keys = set(STRINGS["en"])
    refusal_codes = [v for k, v in vars(codes).items() if k.isupper() and isinstance(v, str)]
    assert len(refusal_codes) >= 17
    wanted = [f"refused.{c}" for c in refusal_codes]
    wanted += [f"ev.{k.value}" for k in MeldKind] + [f"meld.{k.value}" for k in MeldKind]
    wanted += [f"settle.{w.value}" for w in WinKind]
    wanted += [f"lobby.status.{s}" for s in ("lobby", "playing", "finished", "cancelled")]
    for rules in RULESETS:
        wanted += [f"rules.{rules}", f"rules.about.{rules}", f"choice.rules.{rules}"]
    wanted += [f"opt.{s.name}" for s in new_options() if s.name != "rules"]
    assert set(wanted) <= keys, set(wanted) - keys


def test_every_key_is_said_somewhere() -> None:
    """No dead words: each key is named in the bot's code (a dict entry defining it does
    not count), or belongs to a family the code builds (``t(f"refused.{code}")``)."""
    from pathlib import Path

    import bot

    code = "\n".join(p.read_text(encoding="utf-8")
                     for p in Path(bot.__file__).parent.rglob("*.py"))
    families = set(re.findall(r"""\bf["']([a-z_]+(?:\.[a-z_]+)*\.)\{""", code))
    assert {"refused.", "why.", "cmd.", "param."} <= families
    unused = [key for key in STRINGS["en"]
              if not re.search(rf"""["']{re.escape(key)}["'](?!\s*:)""", code)
              and not key.startswith(tuple(families))]
    assert unused == []
