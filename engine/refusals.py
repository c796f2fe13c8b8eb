"""Why the engine says no: one catalogue of refusal codes, and the values each needs.

Every refusal the engine gives — a move `engine.game` does not allow, a table option
that does not fit, a win the rules cannot accept, tile notation that does not read, a
calculator case that does not hold together — is a `Refusal`: a stable `Code` and its
parameters (seats as 0–3, tiles as `Tile` values, option and field names, counts, and
what the input said as a short quoted echo). Its ``str`` is an English sentence for the
engine's own users (``python -m engine.score``, tests, logs), made from `ENGLISH`; a
program that speaks to people (the Discord adapter) says the same code in their
language from the parameters, never by reading the English.

The exceptions that carry a refusal (`IllegalAction`, `OptionError`, `RuleError`,
`NotationError`, `CaseError`) are all `RefusalError`: ``exc.code``, ``exc.params`` and
``exc.refusal``. A new refusal is a new `Code` member with its sentence in `ENGLISH`
(tests/engine/test_refusal_codes.py checks that every raise uses a code and that each
code has a sentence here and in the adapter's languages) — or, for a refusal only one
rule set gives, a `RuleCode` in that rule set's module, with its sentence in English
and Chinese, declared in the rule set's ``refusals`` (`engine.rules.ruleset`).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from engine.rules.ruleset import RuleCode
    from engine.tiles import Tile

Param = Union[int, str, "Tile", tuple["Tile", ...], tuple[int | str, ...], None]
"""A refusal's parameter: a seat (0–3) or count, a name or a quoted echo of the input,
a tile, some tiles, or a list of choices."""


class Code(Enum):
    """Every refusal the engine can give. The value is stable: the adapter's texts are
    keyed by it (``why.<value>``)."""

    # engine.game: whose decision it is, what the seat holds, what the move is
    HAND_OVER = "hand_over"
    NOT_YOUR_TURN = "not_your_turn"
    TURN_ONLY = "turn_only"
    NOT_HELD = "not_held"
    NO_PONG = "no_pong"
    NO_DRAW = "no_draw"
    INCOMPLETE = "incomplete"
    NOT_VALID = "not_valid"
    OWN_TILE = "own_tile"
    NOTHING_TO_CLAIM = "nothing_to_claim"
    ANSWERED = "answered"
    NOT_A_CHOICE = "not_a_choice"
    CLAIM_OR_PASS = "claim_or_pass"
    ROB_ONLY = "rob_only"
    CHI_UPPER = "chi_upper"
    NOT_COMPLETE = "not_complete"
    # engine.game.actions: not a move at all
    ACTION_NOT_OBJECT = "action_not_object"
    ACTION_FIELD = "action_field"
    ACTION_KIND = "action_kind"
    NOT_AN_ACTION = "not_an_action"
    NOT_TILE_VALUES = "not_tile_values"
    TILE_NEEDED = "tile_needed"
    TILE_UNWANTED = "tile_unwanted"
    ACTION_SIZE = "action_size"
    ACTION_SEAT = "action_seat"
    # the rule sets: restrictions in play, and wins they refuse
    BAO_TOU = "bao_tou"
    SEVEN_PAIRS = "seven_pairs"
    STREAK = "streak"
    DEALER_ONLY = "dealer_only"
    CAISHEN_DISCARD = "caishen_discard"
    CAISHEN_CLAIM = "caishen_claim"
    ZHUA_DA_CLAIM = "zhua_da_claim"
    ZHUA_DA_TURN = "zhua_da_turn"
    LAST_WINDOW = "last_window"
    LOU_HU = "lou_hu"
    LOU_PENG = "lou_peng"
    CAISHEN_MELDS = "caishen_melds"
    TAN = "tan"
    TAN_THIRD = "tan_third"
    CHI_LIMIT = "chi_limit"
    WIN_AFTER_CLAIM = "win_after_claim"
    PLAIN_HAND = "plain_hand"
    EIGHT_FLOWERS = "eight_flowers"
    NO_WIN_TILE = "no_win_tile"
    # the rule sets: a win described (by the calculator) that cannot exist
    BAD_SEAT = "bad_seat"
    SELF_DRAW_FROM = "self_draw_from"
    NEEDS_FROM = "needs_from"
    FROM_WINNER = "from_winner"
    REPLACEMENT_DISCARD = "replacement_discard"
    NO_FLOWERS = "no_flowers"
    FLOWERS_ONLY = "flowers_only"
    FLOWER_IN_HAND = "flower_in_hand"
    REPLACEMENT_KONG = "replacement_kong"
    REPLACEMENT_FLOWER = "replacement_flower"
    FIRST_GO_ROUND = "first_go_round"
    CONCEALED_KONG_FROM = "concealed_kong_from"
    MELD_FROM = "meld_from"
    OWN_DISCARD = "own_discard"
    CHI_FROM_UPPER = "chi_from_upper"
    CLAIMS_SHAPE = "claims_shape"
    CLAIMS_COUNT = "claims_count"
    CLAIMS_OWN = "claims_own"
    CLAIMS_ROW = "claims_row"
    CLAIMS_FEWER = "claims_fewer"
    CLAIMS_MORE = "claims_more"
    COPIES_IN_PLAY = "copies_in_play"
    HAND_SIZE = "hand_size"
    MELD_SIZE = "meld_size"
    FLOWER_MELD = "flower_meld"
    NOT_A_RUN = "not_a_run"
    NOT_IDENTICAL = "not_identical"
    FLIPPED_FIXED = "flipped_fixed"
    FLIP_NEEDS_FLIPPED = "flip_needs_flipped"
    NO_CAISHEN = "no_caishen"
    NEEDS_WIN_TILE = "needs_win_tile"
    NO_ROB_KONG = "no_rob_kong"
    STREAK_RANGE = "streak_range"
    NO_FLOWER_REPLACEMENT = "no_flower_replacement"
    TAN_COUNT = "tan_count"
    CHAIN_KONGS = "chain_kongs"
    EIGHT_FLOWERS_TILE = "eight_flowers_tile"
    SHANGHAI_FIELD = "shanghai_field"
    HANGZHOU_FIELDS = "hangzhou_fields"
    # table options and rule sets
    OPTION_UNKNOWN = "option_unknown"
    OPTION_CHOICE = "option_choice"
    OPTION_BOOL = "option_bool"
    OPTION_WHOLE = "option_whole"
    OPTION_RANGE = "option_range"
    OPTIONS_TYPE = "options_type"
    UNKNOWN_RULES = "unknown_rules"
    # engine.tiles: tile notation that does not read
    NOTATION_NOT_TEXT = "notation_not_text"
    NO_TILES = "no_tiles"
    ONE_TILE = "one_tile"
    SUIT_LETTER = "suit_letter"
    NO_SUCH_TILE = "no_such_tile"
    NO_SUIT = "no_suit"
    STRAY = "stray"
    COPIES = "copies"
    # engine.score: a calculator case that does not read
    CASE_NOT_OBJECT = "case_not_object"
    TOO_DEEP = "too_deep"
    NUMBER_TOO_LONG = "number_too_long"
    UNKNOWN_FIELD = "unknown_field"
    MISSING_FIELD = "missing_field"
    FIELD_WHOLE = "field_whole"
    FIELD_TYPE = "field_type"
    FIELD_SEAT = "field_seat"
    FIELD_CHOICE = "field_choice"
    CHAIN_STEP = "chain_step"
    MELD_OBJECT = "meld_object"
    UNKNOWN_MELD_FIELD = "unknown_meld_field"
    CLAIMS_LIST = "claims_list"

    @property
    def english(self) -> str:
        """The sentence's template (`str.format` fields are the parameters)."""
        return ENGLISH[self]


_C = Code
ENGLISH: Mapping[Code, str] = MappingProxyType({
    # Fields: a seat is written "seat {seat}" (0–3); a tile or tiles in notation; a
    # tuple of choices as "'a', 'b'" ({x:or}: "'a' or 'b'"); ``{tile.zh}`` its Chinese.
    # ``value`` and other echoes of the input are already quoted and clipped (`echo`);
    # ``text`` is the input's text, clipped (`clipped`), quoted here.
    _C.HAND_OVER: "the hand is over",
    _C.NOT_YOUR_TURN: "it is seat {seat}'s turn, not yours",
    _C.TURN_ONLY: "no discard to {kind} now: it is your turn to discard, kong or win",
    _C.NOT_HELD: "you do not hold {tiles}",
    _C.NO_PONG: "you have no pong that {tile} completes",
    _C.NO_DRAW: "no tile has been drawn this turn: a self-draw needs one",
    _C.INCOMPLETE: "the tiles do not form a complete hand",
    _C.NOT_VALID: "not a valid win",
    _C.OWN_TILE: "the others are answering your tile",
    _C.NOTHING_TO_CLAIM: "you have nothing to claim on {tile}",
    _C.ANSWERED: "you already answered this discard",
    _C.NOT_A_CHOICE: "{action} is not one of your choices now",
    _C.CLAIM_OR_PASS: "seat {seat}'s {tile} is waiting for claims: claim it or pass",
    _C.ROB_ONLY: "an added kong may only be robbed by a win (抢杠), or passed",
    _C.CHI_UPPER: "chi is only from the upper player (the seat just before you)",
    _C.NOT_COMPLETE: "{tile} does not complete your hand",
    _C.ACTION_NOT_OBJECT: "an action is a JSON object, not {type}",
    _C.ACTION_FIELD: "unknown action field {field}",
    _C.ACTION_KIND: "unknown action kind {value}",
    _C.NOT_AN_ACTION: "not an action: {value}",
    _C.NOT_TILE_VALUES: "tiles must be Tile values",
    _C.TILE_NEEDED: "a {kind} needs 'tile'",
    _C.TILE_UNWANTED: "a {kind} takes no 'tile'",
    _C.ACTION_SIZE: "a {kind} takes {size} tile(s) from the hand, not {got}",
    _C.ACTION_SEAT: "seat must be 0–3, not {value}",
    _C.BAO_TOU: "a 暴头 hand wins by self-draw only",
    _C.SEVEN_PAIRS: "a seven-pairs hand wins by self-draw only",
    _C.STREAK: "a win on a discard needs the dealer's streak at {need} or more (now {now}); "
               "only a self-draw wins",
    _C.DEALER_ONLY: "a win on a discard is only between the dealer and another player",
    _C.CAISHEN_DISCARD: "a discarded 财神 can never be claimed",
    _C.CAISHEN_CLAIM: "a discarded 财神 can never be claimed (not for chi, pong, kong or a win)",
    _C.ZHUA_DA_CLAIM: "抓打: seat {seat} discarded a 财神; until seat {seat} draws again "
                      "nobody else may chi, pong, kong or win on a discard",
    _C.ZHUA_DA_TURN: "抓打: seat {seat} discarded a 财神; until seat {seat} draws again you "
                     "may only win by self-draw, make a concealed kong or discard the tile "
                     "just drawn",
    _C.LAST_WINDOW: "流局: 20 or fewer tiles are left, so only a win may be claimed on this "
                    "discard",
    _C.LOU_HU: "漏胡: you passed a win on {tile}; no win on another {tile} until your own "
               "next draw",
    _C.LOU_PENG: "漏碰: you passed a pong of {tile}; no pong of it until your own next draw",
    _C.CAISHEN_MELDS: "with caishen_melds off a 财神 may not be used in chi, pong or kong",
    _C.TAN: "摊: you already have {n} claims on seat {seat}'s discards, the most allowed",
    _C.TAN_THIRD: "摊: you already have {n} claims on seat {seat}'s discards, the most "
                  "allowed (a third only between dealer and non-dealer at a streak of 3)",
    _C.CHI_LIMIT: "without liability (承包) no player may chi more than {n} times in a hand",
    _C.WIN_AFTER_CLAIM: "after a chi or pong the claimer must discard: no win in that same "
                        "step",
    _C.PLAIN_HAND: "a plain hand cannot win in Shanghai: it needs a flush, all pungs, "
                   "honours, a big crane, a replacement win or another special pattern",
    _C.EIGHT_FLOWERS: "八花 Eight Flowers wins as a self-draw only",
    _C.NO_WIN_TILE: "no winning tile: only all eight flowers (八花) win so",
    _C.BAD_SEAT: "{field} must be a seat 0–3, not {value}",
    _C.SELF_DRAW_FROM: "a self-draw has no 'from': nobody discarded the winning tile",
    _C.NEEDS_FROM: "a {win} win needs 'from': the seat that gave the tile",
    _C.FROM_WINNER: "'from' is the winner: a player cannot win on their own tile",
    _C.REPLACEMENT_DISCARD: "a replacement tile is drawn, so its win must be a self-draw",
    _C.NO_FLOWERS: "these rules have no flowers",
    _C.FLOWERS_ONLY: "'flowers' may hold only flower tiles (1f–8f)",
    _C.FLOWER_IN_HAND: "a flower is never part of a hand: list it under 'flowers'",
    _C.REPLACEMENT_KONG: "a kong replacement follows a kong: the winner shows none",
    _C.REPLACEMENT_FLOWER: "a flower replacement follows a flower: the winner shows none",
    _C.FIRST_GO_ROUND: "first_go_round means no chi, pong or kong has been made yet",
    _C.CONCEALED_KONG_FROM: "a concealed kong comes from nobody: drop its 'from'",
    _C.MELD_FROM: "a {meld} meld needs 'from': whose discard it claimed",
    _C.OWN_DISCARD: "{meld}:{tiles}: a player cannot claim their own discard",
    _C.CHI_FROM_UPPER: "{meld}:{tiles}: chi is only from the upper player (seat {seat})",
    _C.CLAIMS_SHAPE: "'claims' must be a 4×4 list",
    _C.CLAIMS_COUNT: "claims[{seat}][{seat_b}] must be a count ≥ 0, not {value}",
    _C.CLAIMS_OWN: "claims[{seat}][{seat}]: nobody claims their own discards",
    _C.CLAIMS_ROW: "claims[{seat}] adds up to {n}, but a player makes at most {limit} claims "
                   "in a hand (each one is a meld)",
    _C.CLAIMS_FEWER: "the winner shows {melds} meld(s) claimed from seat {seat_b} but "
                     "claims[{seat}][{seat_b}] is {n}",
    _C.CLAIMS_MORE: "claims[{seat}][{seat_b}] is {n}, but the winner shows {melds} meld(s) "
                    "claimed from seat {seat_b}: each claim is a meld",
    _C.COPIES_IN_PLAY: "{n} copies of {tile} ({tile.zh}) in play, but only {limit} can be",
    _C.HAND_SIZE: "the hand before the winning tile must hold {want} tiles with {melds} "
                  "meld(s), not {got}",
    _C.MELD_SIZE: "a {meld} has {size} tiles, not {got}: {tiles}",
    _C.FLOWER_MELD: "flowers never form melds",
    _C.NOT_A_RUN: "{tiles} is not a {meld}: it needs three tiles in a row of one suit",
    _C.NOT_IDENTICAL: "{tiles} is not a {meld}: it needs identical tiles",
    _C.FLIPPED_FIXED: "'flipped' is only for caishen = flip",
    _C.FLIP_NEEDS_FLIPPED: "caishen = flip needs 'flipped': the tile turned after the deal",
    _C.NO_CAISHEN: "{rules} has no 财神: 'flipped' is a flip-mode setting",
    _C.NEEDS_WIN_TILE: "a win needs 'win_tile': the tile that completed the hand",
    _C.NO_ROB_KONG: "{rules} rules have no 抢杠 (robbing a kong)",
    _C.STREAK_RANGE: "streak must be 1–{top}, not {value}",
    _C.NO_FLOWER_REPLACEMENT: "Hangzhou has no flowers, so no flower replacement",
    _C.TAN_COUNT: "claims[{seat}][{seat_b}] is {n}, but seat {seat} may make at most "
                  "{limit} 摊 on seat {seat_b} in this hand",
    _C.CHAIN_KONGS: "the chain holds {n} kong(s) (K), but the winner shows {kongs}",
    _C.EIGHT_FLOWERS_TILE: "all eight flowers win as 八花 the moment the eighth comes: such a "
                           "win has no 'win_tile'",
    _C.SHANGHAI_FIELD: "'huangfan' is a Shanghai field",
    _C.HANGZHOU_FIELDS: "'streak' and 'chain' are Hangzhou fields",
    _C.OPTION_UNKNOWN: "unknown option {option!r} for these rules; known options: {known}",
    _C.OPTION_CHOICE: "option {option!r} must be one of {choices}, not {value}",
    _C.OPTION_BOOL: "option {option!r} must be true or false, not {value}",
    _C.OPTION_WHOLE: "option {option!r} must be a whole number, not {value}",
    _C.OPTION_RANGE: "option {option!r} must be between {low} and {high}, not {value}",
    _C.OPTIONS_TYPE: "{rules} scoring needs {rules} options",
    _C.UNKNOWN_RULES: "unknown rules {name}: choose {choices:or}",
    _C.NOTATION_NOT_TEXT: "tile notation must be text, not {type}",
    _C.NO_TILES: "empty tile notation: expected tiles such as '123m'",
    _C.ONE_TILE: "expected exactly one tile, got {n} in {text!r}",
    _C.SUIT_LETTER: "unknown suit letter {letter!r} in {text!r}: use m, p, s, z or f",
    _C.NO_SUCH_TILE: "no tile {face} in {text!r}: {letter} runs from 1 to {top}",
    _C.NO_SUIT: "digits without a suit letter at {text!r}: end each run with m, p, s, z or f",
    _C.STRAY: "unexpected {char!r} in tile notation {text!r}",
    _C.COPIES: "{n} copies of {tile} ({tile.zh}) but a set holds only {limit}",
    _C.CASE_NOT_OBJECT: "a case must be a JSON object, not {type}",
    _C.TOO_DEEP: "the case is nested more than {depth} deep",
    _C.NUMBER_TOO_LONG: "a number of {digits} digits is too long (at most {limit})",
    _C.UNKNOWN_FIELD: "unknown field {field}",
    _C.MISSING_FIELD: "missing field {field!r}",
    _C.FIELD_WHOLE: "{field!r} must be a whole number, not {value}",
    _C.FIELD_TYPE: "{field!r} must be a {type}, not {value}",
    _C.FIELD_SEAT: "{field!r} must be a seat 0–3, not {value}",
    _C.FIELD_CHOICE: "{field!r} must be one of {choices}, not {value}",
    _C.CHAIN_STEP: "'chain' holds only P (a 财神 discard) and K (a kong), not {char!r}",
    _C.MELD_OBJECT: "each meld must be an object with 'type' and 'tiles'",
    _C.UNKNOWN_MELD_FIELD: "unknown meld field {field}",
    _C.CLAIMS_LIST: "'claims' must be a 4×4 list of counts",
})


MAX_ECHO = 40
"""What a refusal repeats of one input value (`echo`), at most."""


def echo(value: object) -> str:
    """A value of the input as a refusal repeats it: its ``repr``, clipped to
    `MAX_ECHO` (a refusal never repeats a long input whole)."""
    return clipped(repr(value))


def clipped(text: str) -> str:
    """Text of the input as a refusal repeats it, clipped to `MAX_ECHO`."""
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO - 1] + "…"


class _English(string.Formatter):
    """`str.format` with tiles in notation and choices listed."""

    def format_field(self, value: Any, format_spec: str) -> str:
        from engine.tiles import Tile, format_tiles  # engine.tiles imports this module

        if isinstance(value, Tile):
            return value.notation
        if isinstance(value, tuple):
            if value and all(isinstance(x, Tile) for x in value):
                return format_tiles(value, sort=False)
            return (" or " if format_spec == "or" else ", ").join(map(repr, value))
        return format(value, format_spec)


_FORMAT = _English()


@dataclass(frozen=True)
class Refusal:
    """One refusal: its code and the values its sentence names (read-only)."""

    code: Code | RuleCode
    """One of the engine's `Code`s, or a refusal a rule set brings of its own
    (`engine.rules.ruleset.RuleCode`, its sentence in English and Chinese with it)."""
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.code, Code):  # a rule set's own: its params checked here
            self.code.check(self.params)

    @classmethod
    def of(cls, code: Code | RuleCode, /, **params: Param) -> Refusal:
        return cls(code, MappingProxyType(params))

    def __str__(self) -> str:
        return _FORMAT.format(self.code.english, **self.params)

    def __reduce__(self) -> tuple[Any, tuple[Code | RuleCode, dict[str, Param]]]:
        return _refusal, (self.code, dict(self.params))


def _refusal(code: Code | RuleCode, params: dict[str, Param]) -> Refusal:
    """A `Refusal` copied (pickle cannot copy its read-only mapping as it is)."""
    return Refusal(code, MappingProxyType(params))


class RefusalError(ValueError):
    """An engine refusal as an exception: `code` and `params` (from `refusal`); its
    ``str`` is the English sentence."""

    def __init__(self, code: Code | RuleCode | Refusal, /, **params: Param) -> None:
        refusal = code if isinstance(code, Refusal) else Refusal(code, MappingProxyType(params))
        super().__init__(refusal)
        self.refusal = refusal

    @property
    def code(self) -> Code | RuleCode:
        return self.refusal.code

    @property
    def params(self) -> Mapping[str, Param]:
        return self.refusal.params

    @property
    def reason(self) -> str:
        """The English sentence (as ``str(exc)``)."""
        return str(self.refusal)

    def __str__(self) -> str:
        return str(self.refusal)


__all__ = ["ENGLISH", "MAX_ECHO", "Code", "Param", "Refusal", "RefusalError", "clipped",
           "echo"]
