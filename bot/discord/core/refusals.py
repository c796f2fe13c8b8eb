"""Refusals in the reader's language: one sentence per refusal.

The service refuses with a stable code and the values its sentence needs
(`bot.service.errors.Refused`); the engine's refusals (`IllegalAction`, an option or a
calculator case that does not fit) carry an English reason written for the engine's
own users, with seats numbered 0–3. Those reasons are said here again, in English or
简体中文, by matching them against `REASONS` — one pattern per reason the engine can
give (a test walks the engine's source so that a new reason cannot go untranslated).
A reason no pattern knows is shown as the engine wrote it to an English reader (seats
renumbered) and as a sentence for its kind to a Chinese one: never English text in a
Chinese reply.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.discord.core.i18n import LocaleLike, has, join, lang, t
from bot.discord.core.words import MAX_CONTENT, clip, tiles_text
from engine.tiles import NotationError, parse_tiles


@dataclass(frozen=True)
class Reason:
    """An engine reason (``pattern``, matched whole) and the key of its sentence; the
    pattern's named groups are the sentence's fields (``seat…`` groups hold a 0–3 seat,
    ``option`` an option's name)."""

    key: str
    pattern: re.Pattern[str]


MAX_ECHO = 40
"""What a sentence repeats of the input (a hand's text, an option's value), at most."""
MAX_TILES_ECHO = 200
"""Tiles said by name, at most (a meld's four are far fewer)."""


def _r(key: str, pattern: str) -> Reason:
    return Reason(f"why.{key}", re.compile(pattern))


_SEAT = r"seat (?P<seat>[0-3])"
_ENGINE_SEAT = re.compile(r"\bseat ([0-3])\b")
_T = r"(?P<tile>[0-9][mpszf])"
REASONS: tuple[Reason, ...] = (
    # engine/game: whose decision it is, what the seat holds
    _r("hand_over", r"the hand is over"),
    _r("not_your_turn", rf"it is {_SEAT}'s turn, not yours"),
    _r("turn_only", r"no discard to \w+ now: it is your turn to discard, kong or win"),
    _r("not_held", r"you do not hold (?P<tiles>[0-9mpszf]+)"),
    _r("no_pong", rf"you have no pong that {_T} completes"),
    _r("no_draw", r"no tile has been drawn this turn: a self-draw needs one"),
    _r("incomplete", r"the tiles do not form a complete hand"),
    _r("not_valid", r"not a valid win"),
    _r("own_tile", r"the others are answering your tile"),
    _r("nothing_to_claim", rf"you have nothing to claim on {_T}"),
    _r("answered", r"you already answered this discard"),
    _r("not_a_choice", r".+ is not one of your choices now"),
    _r("claim_or_pass", rf"{_SEAT}'s {_T} is waiting for claims: claim it or pass"),
    _r("rob_only", r"an added kong may only be robbed by a win \(抢杠\), or passed"),
    _r("chi_upper", r"chi is only from the upper player \(the seat just before you\)"),
    _r("not_complete", rf"{_T} does not complete your hand"),
    # engine/rules/hangzhou
    _r("bao_tou", r"a 暴头 hand wins by self-draw only"),
    _r("seven_pairs", r"a seven-pairs hand wins by self-draw only"),
    _r("streak", r"a win on a discard needs the dealer's streak at (?P<need>\d+) or more "
                 r"\(now (?P<now>\d+)\); only a self-draw wins"),
    _r("dealer_only", r"a win on a discard is only between the dealer and another player"),
    _r("caishen_discard", r"a discarded 财神 can never be claimed"
                          r"(?: \(not for chi, pong, kong or a win\))?"),
    _r("zhua_da_claim", rf"抓打: {_SEAT} discarded a 财神; until seat [0-3] draws again "
                        r"nobody else may chi, pong, kong or win on a discard"),
    _r("zhua_da_turn", rf"抓打: {_SEAT} discarded a 财神; until seat [0-3] draws again you "
                       r"may only win by self-draw, make a concealed kong or discard the "
                       r"tile just drawn"),
    _r("last_window", r"流局: 20 or fewer tiles are left, so only a win may be claimed on "
                      r"this discard"),
    _r("lou_hu", rf"漏胡: you passed a win on {_T}; no win on another [0-9][mpsz] until "
                 r"your own next draw"),
    _r("lou_peng", rf"漏碰: you passed a pong of {_T}; no pong of it until your own next "
                   r"draw"),
    _r("caishen_melds", r"with caishen_melds off a 财神 may not be used in chi, pong or kong"),
    _r("tan", rf"摊: you already have (?P<n>\d+) claims on {_SEAT}'s discards, the most "
              r"allowed(?: \(a third only between dealer and non-dealer at a streak of 3\))?"),
    _r("chi_limit", r"without liability \(承包\) no player may chi more than (?P<n>\d+) "
                    r"times in a hand"),
    _r("win_after_claim", r"after a chi or pong the claimer must discard: no win in that "
                          r"same step"),
    # engine/rules/shanghai
    _r("plain_hand", r"a plain hand cannot win in Shanghai: .+"),
    _r("eight_flowers", r"八花 Eight Flowers wins as a self-draw only"),
    # engine/rules/common: a calculator case that does not hold together
    _r("hand_size", r"the hand before the winning tile must hold (?P<want>\d+) tiles with "
                    r"(?P<melds>\d+) meld\(s\), not (?P<got>\d+)"),
    _r("copies", rf"(?P<n>\d+) copies of {_T} \(\S+\) in play, but only (?P<limit>\d+) "
                 r"can be"),
    _r("not_a_meld", r"(?P<tiles>[0-9mpszf]+) is not a \w+: it needs .+"),
    _r("meld_size", r"a \w+ has \d+ tiles, not \d+: (?P<tiles>[0-9mpszf]*)"),
    _r("flower_meld", r"flowers never form melds"),
    _r("replacement_kong", r"a kong replacement follows a kong: the winner shows none"),
    _r("replacement_flower", r"a flower replacement follows a flower: the winner shows none"),
    _r("eight_flowers_tile", r"all eight flowers win as 八花 the moment the eighth comes: "
                             r"such a win has no 'win_tile'"),
    # engine/rules/hangzhou: a calculator case's claims and chain
    _r("tan_count", r"claims\[(?P<seat>[0-3])\]\[(?P<seat_b>[0-3])\] is (?P<n>\d+), but "
                    r"seat [0-3] may make at most (?P<limit>\d+) 摊 on seat [0-3] in this hand"),
    _r("chain_kongs", r"the chain holds (?P<n>\d+) kong\(s\) \(K\), but the winner shows "
                      r"(?P<kongs>\d+)"),
    # engine/rules/common: a calculator case's claims against the winner's melds
    _r("claims_row", r"claims\[(?P<seat>[0-3])\] adds up to (?P<n>\d+), but a player makes "
                     r"at most (?P<limit>\d+) claims in a hand \(each one is a meld\)"),
    _r("claims_melds", r"claims\[(?P<seat>[0-3])\]\[(?P<seat_b>[0-3])\] is (?P<n>\d+), but "
                       r"the winner shows (?P<melds>\d+) meld\(s\) claimed from seat [0-3]: "
                       r"each claim is a meld"),
    _r("claims_melds", r"the winner shows (?P<melds>\d+) meld\(s\) claimed from seat "
                       r"(?P<seat_b>[0-3]) but claims\[(?P<seat>[0-3])\]\[[0-3]\] is "
                       r"(?P<n>\d+)"),
    # engine/tiles: a calculator hand in tile notation that does not read
    _r("suit_letter", r"unknown suit letter '(?P<letter>.)' in '(?P<text>[^']*)': use m, p, "
                      r"s, z or f"),
    _r("no_such_tile", r"no tile (?P<tile>\w\w) in '(?P<text>[^']*)': .+"),
    _r("no_suit", r"digits without a suit letter at '(?P<text>[^']*)': .+"),
    _r("stray", r"unexpected '(?P<char>.)' in tile notation '(?P<text>[^']*)'"),
    _r("no_tiles", r"empty tile notation: .+"),
    # engine/score: a calculator case nested too deep
    _r("too_deep", r"the case is nested more than (?P<depth>\d+) deep"),
    _r("copies", rf"(?P<n>\d+) copies of {_T} \(\S+\) but a set holds only (?P<limit>\d+)"),
    # engine/rules/common: table options
    _r("option_choice", r"option '(?P<option>\w+)' must be one of (?P<choices>.+), "
                        r"not (?P<value>.+)"),
    _r("option_range", r"option '(?P<option>\w+)' must be between (?P<low>\d+) and "
                       r"(?P<high>\d+), not (?P<value>.+)"),
    _r("option_value", r"option '(?P<option>\w+)' must be .+"),
    _r("option_unknown", r"unknown option '(?P<option>\w+)'.*"),
)


def explain(detail: str, kind: str, locale: LocaleLike,
            names: Sequence[str] = ()) -> str:
    """An engine reason as a clause in the reader's language (seats by name when
    ``names`` are given, else numbered 1–4); unknown: the sentence for its ``kind``
    (the `IllegalAction` code, or "options")."""
    for reason in REASONS:
        match = reason.pattern.fullmatch(detail)
        if match is not None:
            fields = {k: _field(k, v, locale, names) for k, v in match.groupdict().items()}
            return t(reason.key, locale, **fields)
    if lang(locale) == "en":  # the engine's own English, seats as players number them
        return _ENGINE_SEAT.sub(lambda m: _field("seat", m[1], locale, names), detail)
    key = f"why.kind.{kind}"
    return t(key if has(key) else "why.kind.illegal", locale)


def _field(name: str, value: str | None, locale: LocaleLike, names: Sequence[str]) -> str:
    if value is None:
        return ""
    if name.startswith("seat"):
        seat = int(value)
        return names[seat] if seat < len(names) else t("seat.n", locale, n=seat + 1)
    if name == "option":
        key = f"param.{value}.name"
        return t(key, locale) if has(key) else value
    if name == "choices":
        return clip(value.replace("'", ""), MAX_ECHO)
    if name in ("tile", "tiles"):  # a move's tiles, by name (not a calculator's text)
        try:
            return clip(tiles_text(parse_tiles(value, max_copies=False), locale),
                        MAX_TILES_ECHO)
        except NotationError:
            return clip(value, MAX_ECHO)
    return clip(value, MAX_ECHO)  # what the input said, repeated only in part


def refusal_text(code: str, reason: str, locale: LocaleLike,
                 params: Mapping[str, Any] | None = None) -> str:
    """A refusal from the service as one sentence in the reader's language."""
    params = dict(params or {})
    fields: dict[str, Any] = {}
    if code == "illegal":
        fields["why"] = explain(str(params.get("detail", reason)), str(params.get("why", "")),
                                locale, params.get("names") or ())
    elif code == "bad_options":
        fields["why"] = explain(str(params.get("detail", reason)), "options", locale)
    for name in ("seat", "name"):
        if name in params:
            fields[name] = params[name]
    if "seats" in params:
        fields["seats"] = join([str(s) for s in params["seats"]], locale)
    key = f"refused.{code}"
    if not has(key):
        key = "refused.wrap"
    try:
        text = t(key, locale, **fields)
    except KeyError:  # a refusal without the values its sentence needs
        text = t("refused.wrap", locale)
    return clip(text, MAX_CONTENT)
