"""What a rule set is to the rest of the program: one object with data and hooks.

Each rule set is a subclass of `RuleSet` in its own module (``shanghai.py``,
``hangzhou.py``), registered in `engine.rules.RULESETS` (`engine.rules.register`). The
deal, the state machine, the match, the views, the service and the Discord words ask
the object (``state.ruleset.kong_burns``, ``ruleset.next_dealer(...)``,
``ruleset.value_unit``) and never compare a rule set's name, so a rule change touches
that rule set's module only. What players read of it is data here too: its names, its
patterns' names, a paragraph about it, its leaderboard's unit and, for each option its
`options_type` adds to the common `TableOptions`, the words of ``/mahjong new`` and
``/mahjong rules`` (`OptionWords`), in English and Chinese. The Discord command, its
choices and labels and the name tables are stored under are derived from the
registered objects. The defaults here are "the rule set has no such rule"; a subclass
overrides what its rule page says.
"""

from __future__ import annotations

import dataclasses
import string
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from engine.analysis import NO_WILDCARDS, ShapeRules, Wildcards
from engine.refusals import Code, Param, Refusal
from engine.rules.common import (
    ClaimCheck,
    Pattern,
    RuleError,
    Settlement,
    TableOptions,
    TurnCheck,
    WinContext,
)
from engine.tiles import Tile, full_set

if TYPE_CHECKING:  # the hand state imports the rules; the rules only read it
    from engine.game.state import HandState


@dataclass(frozen=True)
class Words:
    """One text in the two languages players read: English and 简体中文."""

    en: str
    zh: str


@dataclass(frozen=True)
class RuleCode:
    """A refusal one rule set gives of its own, brought by its module with its sentence:
    raised as ``RuleError(CODE, **params)`` like an engine `Code`, carried by the
    `Refusal`, said by the adapter in the reader's language from ``words`` (a clause,
    its ``{fields}`` plain: the parameters, each said as the adapter says a seat, a tile,
    a count). Declared in its rule set's ``refusals``; its ``value`` is stable and
    differs from every `Code`'s."""

    value: str
    words: Words

    def __post_init__(self) -> None:
        if self.fields(self.words.en) != self.fields(self.words.zh):
            raise ValueError(f"refusal {self.value!r}: its English and Chinese sentences "
                             f"name different fields")

    @property
    def name(self) -> str:
        return self.value.upper()

    @property
    def english(self) -> str:
        """The English sentence's template (as `Code.english`)."""
        return self.words.en

    @staticmethod
    def fields(sentence: str) -> set[str]:
        return {f.split(".")[0] for _, f, _, _ in string.Formatter().parse(sentence) if f}

    def check(self, params: Mapping[str, Param]) -> None:
        """A refusal of this code must give exactly the values its sentence names."""
        if set(params) != self.fields(self.words.en):
            raise TypeError(f"refusal {self.value!r} names {sorted(self.fields(self.words.en))}, "
                            f"not {sorted(params)}")


@dataclass(frozen=True)
class OptionWords:
    """What players read of one table option of a rule set.

    ``name``: its parameter's name in ``/mahjong new`` (the English one is the option's
    own name; Discord's rule: lower case, no spaces, at most 32 characters); ``desc``:
    its description there (at most 100 characters); ``line``: its line in ``/mahjong
    rules``, with a ``{value}`` field; ``choices``: for an option with fixed choices
    (`TableOptions.CHOICES`), each value's name in the command's menu; ``values``: each
    value as ``/mahjong rules`` says it (else the value itself, or on/off)."""

    name: Words
    desc: Words
    line: Words
    choices: Mapping[Any, Words] = field(default_factory=dict)
    values: Mapping[Any, Words] = field(default_factory=dict)


@dataclass(frozen=True)
class StatHand:
    """A settled hand as its statistics see it (`RuleSet.stat_marks`): read from the
    stored hand (settlements, actions) without replaying it, and equally from a state.

    ``values``/``patterns``: each seat's win value and pattern ids (0 and () for a seat
    that did not win); ``from_seat``: the seat dealt in (a discard or a robbed kong;
    None: self-drawn or drawn); ``claims[a][b]``: chi/pong/exposed kongs seat a made on
    seat b's discards (摊); ``huangfan``: the hand's 荒番 counter as it started;
    ``wildcards``: the 财神 each winner's winning hand held (concealed, the winning tile
    and its melds; None: not known — a row settled before it was kept, or no winner;
    empty: none known)."""

    values: tuple[int, ...]
    patterns: tuple[tuple[str, ...], ...]
    from_seat: int | None
    claims: tuple[tuple[int, ...], ...]
    huangfan: int
    options: TableOptions
    wildcards: tuple[int | None, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, value in enumerate(self.values) if value > 0)


class RuleSet(ABC):
    """One rule set. Subclasses set the data below and override the hooks they need."""

    __slots__ = ()  # no instance state: a rule set's data are class attributes, read-only

    name: str
    """The rule set's identifier, as tables store it ("shanghai")."""
    zh: str
    """Its name for players reading Chinese ("上海")."""
    en: str
    """Its name for players reading English ("Shanghai")."""
    about: Words
    """A paragraph about the rule set, for ``/mahjong rules``."""
    unit: Words
    """What its leaderboard's points are ("points: 花 × 底分")."""
    options_type: type[TableOptions]
    option_words: Mapping[str, OptionWords]
    """The words of each option `options_type` adds to `TableOptions` (`own_options`)."""
    patterns: Mapping[str, Pattern]
    refusals: Sequence[RuleCode] = ()
    """The refusals only this rule set gives (`RuleCode`), with their sentences."""
    shapes: ShapeRules
    value_unit: str
    """What a hand's value counts: "花" (added up) or "×" (a multiplier)."""
    has_flowers: bool
    """The set has the eight flowers (144 tiles, 补花), else 136 tiles."""
    has_huangfan: bool = False
    """荒番: a match counter (dice and draws) that doubles settlements while it runs."""
    counts_chain: bool = False
    """A self-draw is judged with the turn's 飘/杠 chain (暴头, 杠开 chains)."""
    needs_qualifying_pattern: bool = False
    """A win needs one of a set of patterns (起和); the computer player aims for one."""
    counts_streak: bool = False
    """老庄: the dealer's streak counts in the settlement (and players are told it)."""
    max_streak: int = 10**6
    """The highest 老庄 streak a hand may start with (no cap by default)."""
    decisions_per_hand: float | None = None
    """The decisions that hold up a hand (each turn, and each claim window once: its
    seats are asked at once), on average, as the computer player plays the rule set:
    what the lobby's expected pace counts a hand as (bot/service/match_pace.py; None:
    not measured, no estimate). tests/service/test_match_pace.py measures it again."""

    # The state machine's questions
    multiple_winners: bool
    """一炮多响: every player who wins on one discard settles, else only the first."""
    rob_added_kong: bool
    """抢杠 on an added kong is allowed."""
    kong_burns: int
    """Tiles that leave the back of the wall unseen after a kong's replacement."""
    last_window_tiles: int | None
    """At this many tiles left or fewer the discard then in play gets a last, win-only
    window and the hand is drawn; None: the wall is played out."""
    passed_claims_bind: bool
    """A passed win/pong binds the player until its next draw (漏胡/漏碰)."""

    stat_keys: tuple[str, ...] = ()
    """The figures of this rule set's own that stats count per seat and hand
    (`stat_marks`'s keys, each a label the stats page translates), in the order shown."""

    def stat_marks(self, hand: StatHand) -> tuple[Mapping[str, int], ...]:
        """Each seat's counts of this rule set's own figures in a settled hand (keys of
        `stat_keys`; a figure at 0 is left out). None by default."""
        return tuple({} for _ in hand.values)

    def own_options(self) -> tuple[str, ...]:
        """The options this rule set adds to those every table has, in their order."""
        common = {f.name for f in dataclasses.fields(TableOptions)}
        return tuple(f.name for f in dataclasses.fields(self.options_type)
                     if f.name not in common)

    def options(self, data: Mapping[str, Any] | None = None) -> TableOptions:
        """Validated options; unknown names and bad values raise OptionError."""
        return self.options_type.from_dict(data)

    def score(self, ctx: WinContext, options: TableOptions | None = None) -> Settlement:
        return self._score(ctx, options or self.options_type())

    @abstractmethod
    def _score(self, ctx: WinContext, options: Any) -> Settlement:
        """Judge and settle one win under the table's options."""

    def win_value(self, ctx: WinContext, options: TableOptions | None = None) -> int | None:
        """The value `score` gives the win (H or F), None when it refuses it: the same
        judgement without the payments (a 听 hint values every tile a hand waits on)."""
        return self._win_value(ctx, options or self.options_type())

    @abstractmethod
    def _win_value(self, ctx: WinContext, options: Any) -> int | None:
        """`_score`'s value, or None when `_score` refuses the win."""

    def wildcards(self, options: TableOptions, flipped: Tile | None = None) -> Wildcards:
        """The hand's wildcards; ``flipped`` is the tile turned at the deal, if any."""
        if flipped is not None:
            raise RuleError(Code.NO_CAISHEN, rules=self.en)
        return NO_WILDCARDS

    def tile_set(self) -> list[Tile]:
        """Every tile of a full set, as the wall is shuffled from."""
        return full_set(self.has_flowers)

    def turns_wildcard(self, options: TableOptions) -> bool:
        """Whether the deal turns a tile from the back to name the wildcards (翻财神)."""
        return False

    def claim_refusal(self, check: ClaimCheck, options: Any) -> Refusal | None:
        """Why a claim the shape allows is refused here, or None."""
        return None

    def discard_win_refusal(self, ctx: WinContext, options: Any) -> Refusal | None:
        """Why `score` refuses a win on a discard between these seats now, whatever the
        hand (so a hint need not score the hand to know), or None. `score` refuses the
        same win for the same reason."""
        return None

    def turn_refusal(self, check: TurnCheck, options: Any) -> Refusal | None:
        """Why a move on one's own turn is refused here, or None."""
        return None

    def restricts_discards(self, situation: TurnCheck, options: Any) -> bool:
        """Whether `turn_refusal` may refuse some discard in this turn's ``situation``
        (its ``kind``, ``tile`` and ``meld_tiles`` are not the decision's); False lets
        the offers skip asking it of every discard. A rule set whose `turn_refusal`
        refuses discards overrides this too (tests/engine/test_ruleset_hooks.py holds
        the two together)."""
        return False

    def huangfan_after_dice(self, counter: int, dice: tuple[int, int]) -> int:
        """The 荒番 counter once the hand's dice are rolled."""
        return counter

    def huangfan_after_hand(self, counter: int, drawn: bool) -> int:
        """The 荒番 counter once a hand ended (drawn or won)."""
        return counter

    @abstractmethod
    def next_dealer(self, dealer: int, streak: int, winners: Sequence[int],
                    discarder: int | None) -> tuple[int, int]:
        """Who deals the next hand and its 老庄 streak, after a hand won by ``winners``
        (none: drawn), on ``discarder``'s discard or (None) by self-draw."""

    def abandon_penalty(self, state: HandState, leaver: int) -> tuple[Fraction, ...] | None:
        """What leaving the running hand ``state`` costs each seat (逃跑), or None when
        leaving costs nothing."""
        return None

    def foreign_fields(self, ctx: WinContext) -> Refusal | None:
        """Why a calculator case sets a field this rule set does not have, or None."""
        return None

    def __repr__(self) -> str:
        return f"<rule set {self.name}>"
