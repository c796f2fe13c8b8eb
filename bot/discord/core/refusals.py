"""Refusals in the reader's language: one sentence per refusal.

The service refuses with a stable code and the values its sentence needs
(`bot.service.errors.Refused`); a refusal of the engine's inside it (a move the rules
do not allow, an option that does not fit: the ``refusal`` param) is an
`engine.refusals.Refusal`, a code and its values too, as are the calculator's. Each is
said by its code — ``refused.<code>`` for the service's, ``why.<code>`` (a clause) for
the engine's, in English or 简体中文 (bot/discord/core/i18n.py); a rule set's own
(`engine.rules.RuleCode`) by the sentences it brings — with the seats the engine
numbers 0–3 said by name (or numbered 1–4 as players number them), tiles by name and
options by their label. Nothing is read back from the engine's English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.discord.core.i18n import LocaleLike, has, join, lang, t
from bot.discord.core.words import MAX_CONTENT, clip, rules_name, tiles_text
from engine.refusals import Code, Param, Refusal
from engine.rules import RULESETS
from engine.tiles import Tile

MAX_ECHO = 40
"""What a sentence repeats of the input (a hand's text, an option's value), at most."""
MAX_TILES_ECHO = 200
"""Tiles said by name, at most (a meld's four are far fewer)."""


def explain(refusal: Refusal, locale: LocaleLike, names: Sequence[str] = ()) -> str:
    """An engine refusal as a clause in the reader's language (seats by name when
    ``names`` are given, else numbered 1–4)."""
    fields = {k: _field(k, v, locale, names) for k, v in refusal.params.items()}
    code = refusal.code
    if isinstance(code, Code):
        return t(f"why.{code.value}", locale, **fields)
    said = code.words  # a rule set's own refusal brings its sentence
    return (said.zh if lang(locale) == "zh" else said.en).format(**fields)


def _field(name: str, value: Param, locale: LocaleLike, names: Sequence[str]) -> str:
    if isinstance(value, Tile):
        return tiles_text((value,), locale)
    if isinstance(value, tuple):
        tiles = [x for x in value if isinstance(x, Tile)]
        if tiles and len(tiles) == len(value):
            return clip(tiles_text(tiles, locale), MAX_TILES_ECHO)
        return clip(", ".join(str(x) for x in value), MAX_ECHO)  # choices, as typed
    if name.startswith("seat") and isinstance(value, int):
        return names[value] if 0 <= value < len(names) else t("seat.n", locale, n=value + 1)
    if name == "option":
        key = f"param.{value}.name"
        return t(key, locale) if has(key) else clip(str(value), MAX_ECHO)
    if name == "rules":
        known = [r.name for r in RULESETS.values() if value in (r.name, r.en)]
        return rules_name(known[0], locale) if known else clip(str(value), MAX_ECHO)
    return clip(str(value), MAX_ECHO)  # what the input said, repeated only in part


def refusal_text(code: str, reason: str, locale: LocaleLike,
                 params: Mapping[str, Any] | None = None) -> str:
    """A refusal from the service as one sentence in the reader's language."""
    params = dict(params or {})
    fields: dict[str, Any] = {}
    refusal = params.get("refusal")
    if code in ("illegal", "bad_options"):
        if isinstance(refusal, Refusal):
            fields["why"] = explain(refusal, locale, params.get("names") or ())
        else:  # without the engine's refusal: the sentence for its kind
            kind = f"why.kind.{params.get('why') if code == 'illegal' else 'options'}"
            fields["why"] = t(kind if has(kind) else "why.kind.illegal", locale)
    for name in ("seat", "name", "most", "table", "hand", "last", "season", "current"):
        if name in params:
            fields[name] = params[name]
    for name in ("zone", "value"):  # what the input said (quiet hours), repeated in part
        if name in params:
            fields[name] = clip(str(params[name]), MAX_ECHO)
    if isinstance(params.get("tile"), Tile):
        fields["tile"] = tiles_text((params["tile"],), locale)
    if "seats" in params:
        fields["seats"] = join([str(s) for s in params["seats"]], locale)
    if isinstance(params.get("claimed"), Tile):  # a claim answered in advance
        fields["claimed"] = tiles_text((params["claimed"],), locale)
    tiles = params.get("tiles")
    if isinstance(tiles, tuple) and all(isinstance(x, Tile) for x in tiles):
        fields["tiles"] = clip(tiles_text(tiles, locale), MAX_ECHO)
    key = f"refused.{code}"
    if not has(key):
        key = "refused.wrap"
    try:
        text = t(key, locale, **fields)
    except KeyError:  # a refusal without the values its sentence needs
        text = t("refused.wrap", locale)
    return clip(text, MAX_CONTENT)
