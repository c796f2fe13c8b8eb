"""`/mahjong stats`: a person's figures for one rule set, in a channel, a server or every
server, and against another person (`Stats.player`).

Every figure is read from the projections the settlements write (``hand_facts``,
``match_facts``: `bot.store.stats`), never recounted from the logs, so an answer costs
the same with a hundred hands or a hundred thousand. Judged in place: a channel's or a
server's figures only of the server asked in; every server's (``all``) only of the
person asking, and that is all private messages allow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.service import errors as E
from bot.service.cause import Cause
from bot.service.errors import Refused
from bot.service.facts import median
from bot.service.languages import Languages
from bot.store import Store
from bot.store.ratings import Rating
from bot.store.stats import BiggestWin, HandTotals, MatchTotals, Scope, ScopeKind, Together
from engine.refusals import Code, Refusal, echo
from engine.rules import RULESETS

SCOPES: tuple[ScopeKind, ...] = ("channel", "server", "all")


@dataclass(frozen=True)
class HeadToHead:
    """The person asked about and another, at the same tables (scope and rule set of
    the stats they come with)."""

    other_id: int
    matches: int
    ahead: int
    """Matches the person finished above the other."""
    behind: int
    hands: int
    won_off: int
    """Hands the person won on the other's discard."""
    lost_to: int
    """Hands the other won on the person's discard."""
    points: Fraction
    """The person's net over the hands played together."""
    their_points: Fraction


@dataclass(frozen=True)
class PlayerStats:
    """One person's figures in one rule set and scope; rates are None where nothing
    counts yet (no hand, no win, no match)."""

    user_id: int
    rules: str
    scope: ScopeKind
    guild_id: int | None
    channel_id: int | None
    other_rules: tuple[str, ...]
    """The other rule sets the person played in this scope, the most played first."""
    matches: int
    hands: int
    average_placement: float | None
    first_rate: float | None
    last_rate: float | None
    wins: int
    win_rate: float | None
    """胡牌率: hands won of hands played."""
    self_draw_share: float | None
    """Self-drawn wins of wins."""
    deal_ins: int
    deal_in_rate: float | None
    """放铳率: hands whose winning tile came from the person, of hands played."""
    average_deal_in_cost: Fraction | None
    average_win_value: Fraction | None
    """In the rule set's unit (Shanghai 花, Hangzhou multiples)."""
    claim_rate: float | None
    """Hands with a chi, pong or exposed kong claimed, of hands played."""
    claims: int
    drawn_rate: float | None
    """Hands that ended drawn (荒庄), of hands played."""
    biggest: BiggestWin | None
    marks: tuple[tuple[str, Fraction], ...]
    """The rule set's own figures (in `RuleSet.stat_keys` order), each added up."""
    moves: int
    median_move_s: float | None
    """The middle of the person's own moves' times (None: no move of theirs yet)."""
    timeouts: int
    taken_over: int
    """Hands in which the computer moved for the person while they were away."""
    rating: Rating | None
    """Their rating in the server asked in and this rule set (None: not rated)."""
    versus: HeadToHead | None = None

    @property
    def empty(self) -> bool:
        """Nothing played in this scope: a friendly word instead of zeros."""
        return self.hands == 0 and self.matches == 0


def _rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def mark_names(rules: str) -> tuple[str, ...]:
    """The rule set's own figures, in the order it names them (none if it names none)."""
    return tuple(RULESETS[rules].stat_keys)


def player_stats(user_id: int, rules: str, scope: Scope, hands: HandTotals,
                 matches: MatchTotals, biggest: BiggestWin | None, *,
                 other_rules: Sequence[str] = (), rating: Rating | None = None,
                 together: Together | None = None, other_id: int | None = None
                 ) -> PlayerStats:
    """The figures, from the store's totals."""
    known = mark_names(rules)
    marks = tuple((name, hands.marks.get(name, Fraction(0))) for name in known) + tuple(
        sorted((k, v) for k, v in hands.marks.items() if k not in known))
    versus = None
    if together is not None and other_id is not None:
        versus = HeadToHead(other_id, together.matches, together.ahead, together.behind,
                            together.hands, together.won_off, together.lost_to,
                            together.my_points, together.their_points)
    return PlayerStats(
        user_id=user_id, rules=rules, scope=scope.kind, guild_id=scope.guild_id,
        channel_id=scope.channel_id, other_rules=tuple(other_rules),
        matches=matches.matches, hands=hands.hands,
        average_placement=matches.placements / matches.matches if matches.matches else None,
        first_rate=_rate(matches.firsts, matches.matches),
        last_rate=_rate(matches.lasts, matches.matches),
        wins=hands.wins, win_rate=_rate(hands.wins, hands.hands),
        self_draw_share=_rate(hands.self_draws, hands.wins),
        deal_ins=hands.deal_ins, deal_in_rate=_rate(hands.deal_ins, hands.hands),
        average_deal_in_cost=hands.deal_in_cost / hands.deal_ins if hands.deal_ins else None,
        average_win_value=Fraction(hands.win_value, hands.wins) if hands.wins else None,
        claim_rate=_rate(hands.claimed_hands, hands.hands), claims=hands.claims,
        drawn_rate=_rate(hands.drawn, hands.hands), biggest=biggest, marks=marks,
        moves=hands.moves, median_move_s=median(hands.move_hist),
        timeouts=hands.timeouts, taken_over=hands.taken_over, rating=rating, versus=versus)


class Stats:
    """``/mahjong stats``: judged in place, read from the facts."""

    def __init__(self, store: Store, languages: Languages) -> None:
        self._store = store
        self._languages = languages

    async def player(self, cause: Cause, user_id: int | None = None, rules: str | None = None,
                     scope: str | None = None, versus: int | None = None) -> PlayerStats:
        """The figures of ``user_id`` (default: the person asking) in ``rules`` (default:
        the rule set they played most in the scope) and ``scope`` (default: the channel
        asked in; in private messages, every server), against ``versus`` if given.

        Refusals: ``bad_options`` (no such rule set), ``stats_bad_scope`` (no such
        scope), ``stats_all_others`` (every server's figures of someone else),
        ``stats_private_scope`` (a channel's or server's in private messages),
        ``stats_versus_self``."""
        await self._languages.seen(cause)
        whose = cause.user_id if user_id is None else user_id
        place = cause.place
        private = place is None or place.private
        kind = scope or ("all" if private else "channel")
        if kind not in SCOPES:
            raise Refused(E.STATS_BAD_SCOPE, f"no scope named {kind!r}", scope=echo(kind))
        if rules is not None and rules not in RULESETS:
            raise Refused(E.BAD_OPTIONS, f"there are no rules named {rules!r}",
                          refusal=Refusal.of(Code.UNKNOWN_RULES, name=echo(rules),
                                             choices=tuple(RULESETS)))
        if kind == "all" and whose != cause.user_id:
            raise Refused(E.STATS_ALL_OTHERS, "every server's figures are their own's only")
        if kind != "all" and private:
            raise Refused(E.STATS_PRIVATE_SCOPE, "no channel or server in private messages",
                          scope=kind)
        if versus is not None and versus == whose:
            raise Refused(E.STATS_VERSUS_SELF, "a person against themself")
        assert place is not None or kind == "all"
        where = Scope(kind, None if kind == "all" or place is None else place.guild_id,
                      place.channel_id if kind == "channel" and place is not None else None)
        return await self.figures(whose, rules, where, versus=versus,
                                  rated_in=None if place is None else place.guild_id)

    async def figures(self, user_id: int, rules: str | None, scope: Scope, *,
                      versus: int | None = None, rated_in: int | None = None
                      ) -> PlayerStats:
        """The figures of ``user_id`` in ``scope`` (already judged), their rating of
        the server ``rated_in``."""
        stats = self._store.stats
        played = [(r, n) for r, n in await stats.rules_played(user_id, scope)
                  if r in RULESETS]  # a rule set no longer registered is not shown
        if rules is None:
            rules = played[0][0] if played else next(iter(RULESETS))
        others = tuple(r for r, _ in played if r != rules)
        hands = await stats.hands(user_id, rules, scope)
        matches = await stats.matches(user_id, rules, scope)
        biggest = await stats.biggest(user_id, rules, scope) if hands.wins else None
        together = None if versus is None else \
            await stats.together(user_id, versus, rules, scope)
        rating = await self._rating(rated_in, rules, user_id)
        return player_stats(user_id, rules, scope, hands, matches, biggest,
                            other_rules=others, rating=rating, together=together,
                            other_id=versus)

    async def _rating(self, guild_id: int | None, rules: str, user_id: int
                      ) -> Rating | None:
        """The person's rating in the server (None: no server, or not rated there)."""
        if guild_id is None:
            return None
        return (await self._store.ratings.shown(guild_id, rules, [user_id])).get(user_id)


__all__ = ["SCOPES", "BiggestWin", "HeadToHead", "PlayerStats", "Rating", "Stats",
           "player_stats"]
