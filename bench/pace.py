"""The pace model of issue 30: how long a hand takes when four friends play it on their
own schedules, and how often each is asked and notified (never a timed test).

    python bench/pace.py [--hands N] [--seed S] [--rules shanghai|hangzhou|all]
                         [--why] [--what-if]

Prints, per rule set, one row per configuration (``defaults``, ``quiet``, ``premoves``,
``answers``, ``digest``, ``clock``, ``all``) — hand hours (median, p90), prompts per seat
per hand, notifications per seat per hand, computer moves for a sleeping person per
hand — with the issue's "today" figures beside the ``defaults`` row. Its last line is one
JSON object: ``{rule set: {configuration: {"median_hours", "p90_hours", "prompts",
"notifications", "sleeping_moves"}}}``. ``--why`` adds, for ``all``, the prompts left
by why no feature answered them, and the notifications by kind; ``--what-if`` adds rows
``all + …`` for feature changes the design does not have (below; not in the JSON line).
The default 300 hands per rule set take about a minute (two on a loaded machine): the
medians of seeds 1, 2, 3 and 30 stay within ±1.5 h of each other (Shanghai defaults
71.9–74.6 h, Hangzhou 47.5–49.8 h); 100 hands move them by about ±3 h.

The hands
---------
Each hand is dealt from a seeded wall (a random dealer, the table's default options) and
played once by the engine with the computer player's choice (`engine.ai.choose_action`)
for every decision: a person's, a timer's, a pre-move's or an advance answer's alike,
so every configuration plays the very same hands and only times, prompts and
notifications differ. A claim window's answers are each seat's computer choice on the
window as it opened (a claim choice reads only the seat's own tiles and the window);
the engine takes them in seat order, and the model's clock closes the window at the
first moment at which the answers given so far settle it (`engine.game.resolve`, as the
engine itself closes one), so a seat a settled window no longer waits for is asked but
never answers. The configurations are then timed over the same recorded hands, one
continuous timeline per configuration and rule set (a hand is dealt the moment the one
before ends; the first starts at 09:00), with the same random delays (common random
numbers: each decision draws its four seats' delays from the hand's own seeded stream).

The people
----------
Four people in one time zone, awake 07:00–23:00. A prompt (a DM that asks a decision)
reaching a person who is awake is answered after a delay drawn from a lognormal of
median 20 minutes (σ = 1.2) of awake time: a delay running past 23:00 continues at
07:00; one reaching a sleeper waits for 07:00 plus the delay. Nobody acts at night
(a timer may). A claim window asks its seats at once and closes with the answer that
settles it. The table's defaults: turn timer 12 h, claim timer 2 h, the turn's
half-time reminder, ``mentions`` "when_needed", away after 3 turn timeouts in a row.

What the bot does, read from it (bot/service/moves.py, announcements.py; the adapter's
bot/discord/play/dms.py, moves.py), and so modelled in every configuration:

- The deal DMs every seat its hand (`Moves.dealt` announces with no state before). The
  dealer's is its first turn's prompt; each other seat's asks nothing and notifies
  (unless silent), and it is a *visit*: the person looks at it after a delay of their
  own from the deal and, with the features on, sets their next discard and claim
  answers there, before their first turn (the "Next discard…" menu and the claim
  answers are offered on a DM that asks nothing).
- After one's own claim (chi, pong, kong) clicked: the click's reply takes the
  clicked message's buttons off, and the discard decision comes as a new DM (a prompt,
  notifying unless silent) seconds later. When their click was the answer that
  settled the window, the person is still there: the turn is answered in the same
  visit (no new delay; still a prompt and a notification). When the window closed
  later (another seat's answer or timer settled it), the turn's DM finds them gone:
  a prompt with its own delay.
- A DM goes to every person whose tiles or decision changed, except the echo of their
  own click (the click's reply edited that message) and a decision answered for them
  in advance (held back, told with the next DM). So besides prompts, reminders and
  pre-move DMs, these notify (unless silent): the deal DM (above), the DM to the
  seat whose discard was claimed, the DM to an asked seat whose window another
  answer closed before theirs, and the DM after the computer played for them (a
  timer, or away).

Timers (today, `bot.service.timers` / `alarms`): a decision's deadline is its moment plus
the timer (wall time). At expiry the computer plays the seat (the model plays the
computer's choice where the bot plays `timeout_action`, so that hands stay equal);
counted as a *sleeping move* when the person is asleep then. Three turn timeouts in a
row (a claim timeout does not count; any move of the person's own ends the run) mark
the seat away: the computer then plays each of its decisions at once, also counted as a
sleeping move when made at night, until the person comes back — at the moment they
would have answered the third timed-out prompt. At half the time (wall time) a pending
decision is reminded: its DM again (a notification), and for a turn a channel mention of
the person ("when_needed": a reminder mentions; another notification). The people's
DMs are open, so nothing else is mentioned in the channel.

Counted
-------
- prompts: DMs that ask a decision (a turn, or a claim window that offers the seat a
  claim), counted also when the window closed before the seat answered;
- notifications: every DM and mention that notifies: prompts, reminders (DM and turn
  mention), the clock's warnings, the digests, the DM that shows a turn played by a
  pre-move, and the DMs that ask nothing listed above (the deal's, a claimed discard's,
  a window closed before one's answer, the computer's move for one), each unless
  silent. (The first figures of the morning counted none of the DMs that ask
  nothing; the hand's end sends none beyond those: its settlement is the channel's.)
- sleeping moves: computer moves (timer or away) made for a person while asleep.

The features, modelled as DESIGN30.md says they behave
------------------------------------------------------
- ``quiet``: everyone's quiet hours are their sleep (23:00–07:00). Deadlines count only
  awake time (`QuietHours.awake_after`, `Timers._due`), so a timer never expires at
  night; the half-time reminder comes halfway between the prompt and that deadline
  (`Pending.half_at`), the warning three quarters of the way, and neither notifies
  while quiet (the service skips the reminder then); every DM or mention while quiet is
  silent.
- ``premoves``: "discard my draw unless it wins or kongs" is on for good (a standing
  toggle); it acts while the seat is ready (its tiles before the draw wait on a tile the
  win button would accept: the view's ``waits``). A turn is played at once when the
  turn has a draw that offers no win and no kong, the seat's last move was a discard
  (not a claim or kong: after those a person is asked), and the computer's move is
  either the drawn tile while ready, or, while not ready, the next discard the person
  chose. They choose it at every visit (a prompt answered, or the DM of a pre-move
  played seen after a fresh delay) after their last discard: the computer's choice from
  the tiles they keep (`choose_discard` over those tiles alone, "as if the draw were the
  tile it would throw"); a person whose hand is ready chooses none (it would come
  before "discard my draw" and break the ready hand). A turn that comes before that
  visit finds no pre-move. Otherwise the turn is a prompt: the model never lets a
  pre-move play a move the computer would not (so hands stay equal; the figure errs
  on the slow side). A move played so is the person's: it ends a run of timeouts.
- ``answers``: at every visit a person sets, for this hand, what the computer would
  answer with the tiles they hold then: "kong T"/"pong T" for each tile T whose kong /
  pong the computer would take, "win only" when it would claim nothing at all, "never
  chi" when it would take no chi; "always win" is on for good; "pong T" answers are
  cleared at the hand's end, and before the hand's first visit only "always win"
  stands. A window seat is covered when these decide its options (a win: always win;
  a kong/pong offer of T made of the seat's own natural T tiles: "kong T", then "pong T"
  plays it (`bot.service.live.advance_answer`), "win only" passes it; only
  chi offers: "never chi" or "win only" passes) and what they decide equals the
  computer's answer now (a chi is never covered: there is no "chi" answer): its answer
  is played at once (no prompt, no wait; a move of the person's). Claim prompts whose
  offers hold no win are silent (their reminders and warnings too).
- ``digest`` (with ``quiet``): when quiet hours end and a decision waits for the person,
  one notifying DM says so (once a morning; with one table it adds a notification to a
  night's silent prompts, its gain is across several tables).
- ``clock``: a warning DM when a quarter of the time is left and the decision still
  waits (a notification unless silent); the time bank stays off (the option's default:
  with the defaults' timers it would only delay the rare timeout).
- ``all``: every feature at once.

Checked against the issue
-------------------------
The ``defaults`` row gives the issue's median, p90 and prompts within 0–3 % (Shanghai
73 h / 103 h / 19.6 against 73 / 101 / 20; Hangzhou 47.5 / 72 / 13.9 against 48 / 73 /
14), but fewer sleeping moves: 0.7 and 0.8 a hand against 1.5 and 2.5. In this model a
computer move for a sleeper needs a timer to run out at night: a turn pending at 23:00
is answered early the next morning, well inside its 12 h; a claim window pending at
23:00 runs out its 2 h at night, once per asked seat, and the turn it leads to then
waits for the morning. The game so stalls at the one decision pending at 23:00, and the
model gives about 0.22 (Shanghai) / 0.35 (Hangzhou) sleeping moves a night, over 3.1 /
2.0 nights a hand. Hangzhou's 2.5 would need more than one a night, which the issue's
own model description cannot produce. Closing windows only at the last asked seat's
answer (the issue's words, instead of the engine's resolution) was tried: 0.71 / 0.79,
no change. Which assumption of the issue's author differed was not found.

What-ifs (``--what-if``)
------------------------
Each is "all" with one change the design does not have, to show what would move the
goals: ``played silent`` (the DM that shows a pre-move played goes out silently),
``either`` (the pre-move plays the drawn tile or the pre-chosen one, whichever
the computer throws: "next: 9p, or the draw when it is the less useful"), ``pre always``
(the next discard plays whatever the computer would throw, as a real person's does: the
hands would then differ, so only its timing means something), ``suggested`` (a standing
"play the suggested discard unless the draw wins or kongs": the DM's suggestion is the
computer's choice, no pre-move to set), ``wild kongs`` (a kong offer that needs a 财神
does not stop a pre-move), ``named only`` (an advance answer "only the claims I named":
every unnamed pong/kong/chi offer passes), ``chi named`` (advance answers may name a
chi), ``same visit`` (the turn after one's own claim is answered in the claim's visit),
``claim then`` (an advance claim names the discard after it, taken to be the
computer's), and combinations (each with ``played silent``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

if Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:  # run as a script
    # The checkout on the path instead of this folder (whose discord.py and engine.py
    # are not those packages).
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from engine import rules
from engine.ai import (
    Judge,
    choose_action,
    choose_discard,
    claim_helps,
    remembered_judge,
    unseen_counts,
)
from engine.game import (
    Action,
    ActionKind,
    ClaimWindow,
    HandState,
    Phase,
    apply,
    deciding_seats,
    legal_actions,
    new_hand,
    resolve,
)
from engine.melds import Meld, MeldKind
from engine.rules.common import SEATS, RuleError, make_meld, upper_seat
from engine.tiles import Tile
from engine.view import view

DEFAULT_HANDS = 300
"""Hands per rule set: the medians of four seeds stay within ±1.5 h of each other."""

@dataclass(frozen=True)
class Today:
    """Issue 30's figures for a rule set with today's defaults (the issue measured no
    notifications): quoted from the issue, to be printed beside the defaults row."""

    rules: str
    median_hours: float
    p90_hours: float
    prompts: float
    sleeping_moves: float


TODAY = (Today("shanghai", 73, 101, 20, 1.5), Today("hangzhou", 48, 73, 14, 2.5))
RULESETS = tuple(today.rules for today in TODAY)

WAKE, SLEEP = 7.0, 23.0
"""Everyone's waking hours (hours of the day)."""
MEDIAN_DELAY = 20 / 60
SIGMA = 1.2
AWAY_AFTER = 3

HandKey = tuple[tuple[Tile, ...], tuple[Meld, ...]]
"""A seat's concealed tiles and melds."""


# ---------------------------------------------------------------------------
# Time of day (hours since day 0's midnight)


def awake(t: float) -> bool:
    return WAKE <= t % 24 < SLEEP


def awake_after(t: float, hours: float) -> float:
    """The moment by which ``hours`` of awake time have passed since ``t`` (from the next
    07:00 when ``t`` is at night)."""
    day = math.floor(t / 24) * 24
    h = t - day
    if h < WAKE:
        h = WAKE
    elif h >= SLEEP:
        day, h = day + 24, WAKE
    while True:
        left = SLEEP - h
        if hours <= left:
            return day + h + hours
        hours -= left
        day, h = day + 24, WAKE


def mornings(start: float, end: float) -> list[int]:
    """The days whose 07:00 falls in [start, end)."""
    day = math.ceil((start - WAKE) / 24)
    out = []
    while day * 24 + WAKE < end:
        out.append(day)
        day += 1
    return out


# ---------------------------------------------------------------------------
# A hand, played once and recorded


@dataclass(frozen=True)
class Turn:
    seat: int
    hand: HandKey
    """The seat's tiles after its move (what a visit then sees)."""
    plays_drawn: bool
    """A turn with a draw after the seat's own discard, the seat ready, and the computer
    discards the drawn tile ("discard my draw" plays it unless ``blocked``)."""
    plays_pre: bool
    """The same, not ready, and the computer discards the tile it would have pre-chosen
    after the seat's previous discard (the next discard plays it unless ``blocked``)."""
    plays_either: bool
    """What-if: the same, and the computer throws the drawn tile or the pre-chosen one
    (a pre-move "next: 9p, or the draw when it is the less useful")."""
    plain: bool
    """What-if: a turn with a draw after the seat's own discard, and the computer
    discards (a standing "play the suggested discard" plays it unless ``blocked``)."""
    blocked: str
    """What the draw offers that stops a pre-move: "win", "kong", "wild kong" (every
    kong offered needs a 财神, which the computer never gives up) or ""."""
    why: str
    """Why no pre-move plays it when not ``blocked``."""
    wins: bool
    """The computer wins (a standing "always win" plays it at once)."""
    after_claim: bool
    """The turn follows the seat's own chi or pong (it was just there)."""
    move: Action
    """The computer's move."""


@dataclass(frozen=True)
class Window:
    window: ClaimWindow
    judge: Judge
    choices: tuple[Action | None, ...]
    """Each asked seat's computer answer (None: not asked)."""
    hands: tuple[HandKey, ...]
    """Each seat's tiles as the window opened."""
    taken: int | None
    """The seat whose chi, pong or kong was taken (None: a win, or nobody claimed)."""
    claimed_from: bool
    """The discarder's tiles changed (its discard was claimed) and it decides nothing:
    the service DMs it the news (a DM that asks nothing)."""


Decision = Turn | Window


@dataclass
class Hand:
    decisions: list[Decision]
    delays: list[tuple[float, ...]]
    """Per decision, each seat's answer delay and then each seat's fresh delay (hours)."""
    multiple_winners: bool
    judge: Judge
    dealer: int
    dealt: tuple[HandKey, ...]
    """Each seat's tiles as dealt (what its deal DM shows)."""
    deal_delays: tuple[float, ...]
    """Each seat's delay before it looks at its deal DM (hours)."""


Observer = Callable[[HandState, Decision, Tile | None], None]
"""Told each decision with the state it was taken on and, for a turn, the next discard
the seat's person would have chosen (None: none, their hand being ready)."""


def record_hand(rules_name: str, rng: random.Random, observe: Observer | None = None
                ) -> Hand:
    """One hand played by the computer, with what each configuration needs to time it
    (``observe``: tests compare the model's judgement with the service's)."""
    ruleset = rules.get(rules_name)
    wall = ruleset.tile_set()
    rng.shuffle(wall)
    dealer = rng.randrange(4)
    state, _ = new_hand(rules_name, {}, tuple(wall), dealer,
                        (rng.randint(1, 6), rng.randint(1, 6)))
    judge = remembered_judge(state)
    side = random.Random(rng.random())  # the pre-move choices' ties: not the hand's rng
    decisions: list[Decision] = []
    dealt = tuple((s.hand, s.melds) for s in state.seats)
    pre: list[Tile | None] = [None] * SEATS   # chosen after the seat's last discard
    ready: list[bool] = [False] * SEATS
    last_discard: list[bool] = [False] * SEATS  # the seat's last move was a discard
    for seat in range(SEATS):
        if seat != dealer and state.phase is not Phase.ENDED:
            # its deal DM is a visit: the next discard chosen from the dealt tiles
            last_discard[seat] = True
            ready[seat], pre[seat] = _pre_move(state, seat, side)
    claimed: list[bool] = [False] * SEATS  # the seat's last move was a chi or pong
    while state.phase is not Phase.ENDED:
        if state.phase is Phase.TURN:
            seat = state.turn
            s = state.seats[seat]
            legal = legal_actions(state, seat)
            action = choose_action(state, seat, rng)
            plain = s.drawn is not None and last_discard[seat] and \
                action.kind is ActionKind.DISCARD
            plays_drawn = plain and ready[seat] and action.tile == s.drawn
            plays_pre = plain and not ready[seat] and action.tile == pre[seat]
            plays_either = plain and not ready[seat] and action.tile in (pre[seat], s.drawn)
            wins = action.kind is ActionKind.WIN
            why = _why_turn(s.drawn is not None, last_discard[seat], action, ready[seat])
            blocked = _blocked(legal, state)
            asked_on = state
            state, _ = apply(state, action)
            after = state.seats[seat]
            decisions.append(Turn(seat, (after.hand, after.melds), plays_drawn, plays_pre,
                                  plays_either, plain, blocked, why, wins,
                                  claimed[seat], action))
            if observe is not None:
                observe(asked_on, decisions[-1], None if ready[seat] else pre[seat])
            claimed[seat] = False
            discard = action.kind is ActionKind.DISCARD
            last_discard[seat] = discard
            if discard and state.phase is not Phase.ENDED:
                ready[seat], pre[seat] = _pre_move(state, seat, side)
            continue
        window = state.window
        assert window is not None
        asked = deciding_seats(state)
        choices = tuple(choose_action(state, s, rng) if s in asked else None
                        for s in range(SEATS))
        before, opened = state.seats, state
        for seat in asked:
            if state.window is None or seat not in deciding_seats(state):
                break  # settled before this seat's answer
            answer = choices[seat]
            assert answer is not None
            state, _ = apply(state, answer)
        taken = next((s for s in asked if state.seats[s].melds != before[s].melds), None)
        source = window.from_seat
        claimed_from = state.seats[source] is not before[source] and \
            source not in deciding_seats(state)
        if taken is not None:  # its claim, a chi, pong or kong, was the one taken
            last_discard[taken] = False
            claimed[taken] = _kind(choices[taken]) in (ActionKind.CHI, ActionKind.PONG)
        decisions.append(Window(window, remembered_judge(state), choices,
                                tuple((s.hand, s.melds) for s in before), taken,
                                claimed_from))
        if observe is not None:
            observe(opened, decisions[-1], None)
    delays = [tuple([_delay(rng) for _ in range(2 * SEATS)]) for _ in decisions]
    deal_delays = tuple(_delay(rng) for _ in range(SEATS))
    return Hand(decisions, delays, ruleset.multiple_winners, judge, dealer, dealt,
                deal_delays)


def _delay(rng: random.Random) -> float:
    return rng.lognormvariate(math.log(MEDIAN_DELAY), SIGMA)


def _pre_move(state: HandState, seat: int, side: random.Random) -> tuple[bool, Tile | None]:
    """(ready, next discard) as the seat's person sets them looking at ``state`` with 13
    tiles: a ready hand sets none ("discard my draw" is on); else the computer's choice
    from the tiles kept, as if the draw were the tile it would throw."""
    s = state.seats[seat]
    if view(state, seat).waits:
        return True, None
    return False, choose_discard(remembered_judge(state), s.hand, s.melds,
                                 unseen_counts(state, seat), side, s.hand)


def _kind(action: Action | None) -> ActionKind | None:
    return None if action is None else action.kind


def _why_turn(drawn: bool, after_discard: bool, action: Action, ready: bool) -> str:
    if not after_discard:
        return "turn: the hand's first, or after the seat's own claim or kong"
    if not drawn:
        return "turn: no draw"
    if action.kind is ActionKind.WIN:
        return "turn: a win ('always win' plays it)"
    if action.kind is not ActionKind.DISCARD:
        return "turn: the computer kongs"
    if ready:
        return "turn: ready, the computer keeps the draw"
    return "turn: the computer throws another tile than the one it pre-chose"


def _blocked(legal: Sequence[Action], state: HandState) -> str:
    kongs = [a for a in legal if a.kind in _KONGS]
    if any(a.kind is ActionKind.WIN for a in legal):
        return "win"
    if not kongs:
        return ""
    wild = state.wildcards
    if all(any(wild.is_joker(t) for t in (*a.tiles, a.tile) if t is not None) for a in kongs):
        return "wild kong"
    return "kong"


_KONGS = frozenset((ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG))


# ---------------------------------------------------------------------------
# Advance answers: what a person set at a visit, and whether it covers a window


@dataclass
class Stored:
    """A person's advance answers, set from their tiles at their last visit."""

    judge: Judge
    hand: HandKey
    seat: int


_CLAIMS: dict[tuple[int, HandKey, Action, Tile, int], bool] = {}
_STANDING: dict[tuple[int, HandKey, int], tuple[bool, bool]] = {}


def _would_claim(judge: Judge, hand: HandKey, meld_kind: MeldKind, used: tuple[Tile, ...],
                 tile: Tile, from_seat: int) -> bool:
    tiles, melds = hand
    rest = list(tiles)
    for t in used:
        if t not in rest:
            return False
        rest.remove(t)
    try:
        meld = make_meld(meld_kind, (*used, tile), from_seat, judge.wildcards)
    except RuleError:
        return False
    return claim_helps(judge, tiles, melds, tuple(rest), (*melds, meld), used,
                       must_discard=meld_kind is not MeldKind.KONG)


def claims_option(stored: Stored, option: Action, tile: Tile, from_seat: int) -> bool:
    """Whether the computer would take ``option`` (a kong or pong of ``tile``) with the
    stored tiles ("kong T" / "pong T" set)."""
    key = (id(stored.judge), stored.hand, option, tile, from_seat)
    found = _CLAIMS.get(key)
    if found is None:
        kind = {ActionKind.KONG: MeldKind.KONG, ActionKind.PONG: MeldKind.PONG,
                ActionKind.CHI: MeldKind.CHI}[option.kind]
        found = _CLAIMS[key] = _would_claim(stored.judge, stored.hand, kind, option.tiles,
                                            tile, from_seat)
    return found


def standing(stored: Stored) -> tuple[bool, bool]:
    """("win only", "never chi") as set from the stored tiles: whether the computer would
    claim no tile at all / take no chi, whatever is discarded (natural tiles; a 财神 is
    never used in a claim by the computer)."""
    key = (id(stored.judge), stored.hand, stored.seat)
    found = _STANDING.get(key)
    if found is None:
        found = _STANDING[key] = _standing(stored)
    return found


def _standing(stored: Stored) -> tuple[bool, bool]:
    judge, (tiles, melds), seat = stored.judge, stored.hand, stored.seat
    wild = judge.wildcards
    natural = [t for t in tiles if not wild.is_joker(t) and not t.is_flower]
    counts = {t: natural.count(t) for t in set(natural)}
    upper = upper_seat(seat)
    never_chi = True
    for c in range(27):  # a suit tile discarded by the seat before this one
        for low in (c - 2, c - 1, c):
            if low < 0 or low // 9 != c // 9 or low % 9 > 6:
                continue
            used = tuple(Tile(k) for k in (low, low + 1, low + 2) if k != c)
            if all(u in counts for u in used) and \
                    _would_claim(judge, (tiles, melds), MeldKind.CHI, used, Tile(c), upper):
                never_chi = False
                break
        if not never_chi:
            break
    if not never_chi:
        return False, False
    other = (seat + 2) % SEATS
    for t, n in sorted(counts.items()):
        if n >= 2 and _would_claim(judge, (tiles, melds), MeldKind.PONG, (t, t), t, other):
            return False, True
        if n >= 3 and _would_claim(judge, (tiles, melds), MeldKind.KONG, (t, t, t), t, other):
            return False, True
    return True, True


def covered(stored: Stored | None, w: Window, seat: int) -> bool:
    """Whether the stored answers decide ``seat``'s options on ``w`` exactly as the
    computer answers now."""
    return not uncovered(stored, w, seat, Config(answers=True))


def uncovered(stored: Stored | None, w: Window, seat: int, cfg: Config) -> str:
    """Why the stored answers do not cover ``seat`` on ``w`` ("": they do)."""
    answer = w.choices[seat]
    assert answer is not None
    options = w.window.options[seat]
    kinds = {a.kind for a in options}
    if ActionKind.WIN in kinds:
        # "always win" is on for good
        return "" if answer.kind is ActionKind.WIN else "claim: a win declined"
    if stored is None:
        return "claim: no visit yet this hand"
    if answer.kind is ActionKind.CHI:
        if cfg.chi_named and claims_option(stored, answer, w.window.tile, w.window.from_seat):
            return ""
        return "claim: the computer chis (no advance answer says chi)"
    tile, from_seat = w.window.tile, w.window.from_seat
    decided: Action | None = None
    for kind, size in ((ActionKind.KONG, 3), (ActionKind.PONG, 2)):
        for option in options:
            # "pong T" / "kong T" play only the claim made of the seat's own natural T
            # tiles (never one with a 财神 or a tile standing in for T)
            if option.kind is kind and option.tiles == (tile,) * size and \
                    claims_option(stored, option, tile, from_seat):
                decided = option
                break
        if decided is not None:
            break
    if decided is None and cfg.named_only:
        return "" if answer.kind is ActionKind.PASS else \
            "claim: the pong/kong is not among the stored answers (tiles changed)"
    if decided is None:
        win_only, never_chi = standing(stored)
        if win_only or (kinds == {ActionKind.CHI} and never_chi):
            decided = Action(ActionKind.PASS, seat)
    if decided is None:
        if answer.kind is ActionKind.PASS:
            return "claim: a pong/kong offer passed (only 'win only' passes one)" \
                if kinds & {ActionKind.PONG, ActionKind.KONG} else \
                "claim: a chi offer passed, 'never chi' not set"
        return "claim: the pong/kong is not among the stored answers (tiles changed)"
    if decided.kind is ActionKind.PASS:
        return "" if answer.kind is ActionKind.PASS else \
            "claim: 'win only'/'never chi' stored, the computer claims now"
    return "" if decided == answer else "claim: another claim stored than the computer's"


# ---------------------------------------------------------------------------
# The timeline of one configuration


@dataclass(frozen=True)
class Config:
    quiet: bool = False
    premoves: bool = False
    answers: bool = False
    digest: bool = False
    clock: bool = False
    # What-ifs: feature changes the design does not have (printed with --what-if only)
    either: bool = False
    """The pre-move plays the drawn tile or the pre-chosen one, whichever the computer
    throws ("next: 9p, or the draw when it is the less useful")."""
    same_visit: bool = False
    """The turn after one's own chi or pong is answered in the same visit (the claim's
    reply asks the discard at once)."""
    named_only: bool = False
    """An advance answer "only the claims I named": every pong/kong/chi offer not named
    passes."""
    chi_named: bool = False
    """Advance answers may name a chi ("chi 5m with 3m4m")."""
    pre_always: bool = False
    """The next discard plays on every turn it is set for (a draw offering no win or
    kong, the seat not ready), whatever the computer would throw: a real person's
    pre-move does; the hands would then differ, so this is an upper bound's timing."""
    suggested: bool = False
    """A standing "play the suggested discard" (the DM's advice, which is the computer's
    choice) on every turn whose draw offers no win or kong: no pre-move to choose."""
    wild_kongs: bool = False
    """A kong offer that needs a 财神 does not stop a pre-move or "discard my draw"."""
    played_silent: bool = False
    """The DM that shows a pre-move played goes out silently (it asks nothing)."""
    claim_then: bool = False
    """An advance claim names the discard after it too ("pong 5m, then 9p"): the turn
    after a claim an advance answer played is played at once (taken to be the tile the
    computer throws: the most this change could give)."""


CONFIGURATIONS = {
    "defaults": Config(),
    "quiet": Config(quiet=True),
    "premoves": Config(premoves=True),
    "answers": Config(answers=True),
    "digest": Config(quiet=True, digest=True),
    "clock": Config(clock=True),
    "all": Config(quiet=True, premoves=True, answers=True, digest=True, clock=True),
}
_ALL = CONFIGURATIONS["all"]
WHAT_IFS = {
    "all + either": replace(_ALL, either=True),
    "all + same visit": replace(_ALL, same_visit=True),
    "all + named only": replace(_ALL, named_only=True),
    "all + chi named": replace(_ALL, named_only=True, chi_named=True),
    "all + claim then": replace(_ALL, claim_then=True),
    "all + wild kongs": replace(_ALL, wild_kongs=True),
    "all + played silent": replace(_ALL, played_silent=True),
    "all + pre always": replace(_ALL, pre_always=True),
    "all + suggested": replace(_ALL, suggested=True),
    "all + suggested, named": replace(_ALL, suggested=True, named_only=True,
                                      chi_named=True, wild_kongs=True, played_silent=True),
    "all + either, named": replace(_ALL, either=True, named_only=True, chi_named=True,
                                   wild_kongs=True, claim_then=True, played_silent=True),
    "all + every what-if": replace(_ALL, either=True, same_visit=True, named_only=True,
                                   chi_named=True, claim_then=True, wild_kongs=True,
                                   suggested=True, played_silent=True),
}


@dataclass
class Tally:
    hours: list[float] = field(default_factory=list)
    prompts: int = 0
    notifications: int = 0
    sleeping: int = 0
    why: Counter[str] = field(default_factory=Counter)
    """Prompts by why no feature answered them."""
    what: Counter[str] = field(default_factory=Counter)
    """Notifications by what they were."""


@dataclass
class People:
    """What the timeline keeps of each person across hands."""

    timeouts: list[int] = field(default_factory=lambda: [0] * SEATS)
    away_until: list[float | None] = field(default_factory=lambda: [None] * SEATS)
    digests: set[tuple[int, int]] = field(default_factory=set)


class Timeline:
    def __init__(self, cfg: Config, turn_timer: float, claim_timer: float) -> None:
        self.cfg = cfg
        self.turn_timer = turn_timer
        self.claim_timer = claim_timer
        self.people = People()
        self.tally = Tally()
        self.now = 9.0
        self.last_answer: list[float | None] = [None] * SEATS
        self.auto_claim = [False] * SEATS
        """The seat's last claim was played by an advance answer."""

    # -- helpers
    def after(self, t: float, hours: float) -> float:
        """``t`` plus ``hours`` of the person's time: awake time with quiet hours on."""
        return awake_after(t, hours) if self.cfg.quiet else t + hours

    def notify(self, t: float, what: str, claim_without_win: bool = False) -> None:
        if self.cfg.quiet and not awake(t):
            return
        if self.cfg.answers and claim_without_win:
            return
        self.tally.notifications += 1
        self.tally.what[what] += 1

    def prompt(self, seat: int, t: float, timer: float, delay: float, turn: bool,
               without_win: bool) -> tuple[float, float]:
        """Ask ``seat`` at ``t``: (answer moment, deadline)."""
        self.tally.prompts += 1
        self.notify(t, "turn prompt" if turn else "claim prompt", without_win)
        return awake_after(t, delay), self.after(t, timer)

    def waited(self, seat: int, t: float, end: float, timer: float, turn: bool,
               without_win: bool) -> None:
        """A prompt pending from ``t`` until ``end``: its reminder, warning, digest."""
        due = self.after(t, timer)
        half = t + (due - t) / 2  # `Pending.half_at`
        if half < end:
            self.notify(half, "reminder DM", without_win)  # the DM again
            if turn:
                self.notify(half, "reminder mention")  # "when_needed": a reminder mentions
        if self.cfg.clock:
            warn = t + (due - t) * 3 / 4
            if warn < end:
                self.notify(warn, "warning", without_win)
        if self.cfg.digest:
            for day in mornings(t, end):
                if (seat, day) not in self.people.digests:
                    self.people.digests.add((seat, day))
                    self.tally.notifications += 1
                    self.tally.what["digest"] += 1

    def why_turn(self, d: Turn, free: bool) -> str:
        if d.why.startswith("turn: the hand's first") or d.why == "turn: no draw":
            return d.why
        if not free:
            return {"win": "turn: a win offered, the computer declines it (Hangzhou 财飘)",
                    "kong": "turn: a kong offered",
                    "wild kong": "turn: a kong with a 财神 offered"}[d.blocked]
        if d.plays_drawn or d.plays_pre or (self.cfg.either and d.plays_either):
            return "turn: the pre-move was not chosen yet"
        return d.why

    def computer(self, seat: int, t: float) -> None:
        """The computer plays for the seat's person (a timer, or away): counted as a
        sleeping move at night; their DM then tells them (it asks nothing, it notifies
        as any)."""
        if not awake(t):
            self.tally.sleeping += 1
        self.notify(t, "DM: the computer played for you")

    def away(self, seat: int, t: float) -> bool:
        until = self.people.away_until[seat]
        if until is None:
            return False
        if t < until:
            return True
        self.people.away_until[seat] = None
        self.people.timeouts[seat] = 0
        return False

    # -- a hand
    def play(self, hand: Hand) -> None:
        start = t = self.now
        cfg = self.cfg
        stored: list[Stored | None] = [None] * SEATS
        pre_at: list[float | None] = [None] * SEATS   # the next discard chosen (when)
        seen: list[tuple[float, HandKey] | None] = [None] * SEATS  # a pre-move's DM seen
        last_answer: list[float | None] = [None] * SEATS  # a person's last claim answer
        self.last_answer = last_answer
        judge = hand.judge

        def visit(seat: int, when: float, tiles: HandKey, moved: bool = True) -> None:
            stored[seat] = Stored(judge, tiles, seat)
            if pre_at[seat] is None:
                pre_at[seat] = when
            if moved:
                self.people.timeouts[seat] = 0

        deal: list[float | None] = [None] * SEATS  # the deal DM seen (when)
        for seat in range(SEATS):
            if seat != hand.dealer:  # the dealer's deal DM is its first turn's prompt
                self.notify(t, "deal DM")
                deal[seat] = awake_after(t, hand.deal_delays[seat])

        for d, delays in zip(hand.decisions, hand.delays, strict=True):
            for seat in range(SEATS):
                dealt = deal[seat]
                if dealt is not None and dealt <= t:
                    deal[seat] = None
                    if stored[seat] is None:  # nothing newer seen yet
                        visit(seat, dealt, hand.dealt[seat], moved=False)
                look = seen[seat]
                if look is not None and look[0] <= t:
                    seen[seat] = None
                    visit(seat, look[0], look[1])
            if isinstance(d, Window):
                t = self.window(d, t, delays, hand.multiple_winners, stored, visit)
                continue
            seat = d.seat
            seen[seat] = None
            if self.away(seat, t):
                self.computer(seat, t)
                pre_at[seat] = None
                continue
            chosen_at = pre_at[seat]
            active = chosen_at is not None and chosen_at <= t
            pre_at[seat] = None
            if cfg.answers and d.wins:  # "always win", a standing choice, on for good
                self.people.timeouts[seat] = 0
                continue
            free = not d.blocked or (cfg.wild_kongs and d.blocked == "wild kong")
            if cfg.premoves and free and (d.plays_drawn or (cfg.suggested and d.plain) or (
                    active and (d.plays_either if cfg.either else d.plays_pre)) or (
                    active and cfg.pre_always and d.plain and not d.plays_drawn
                    and d.why != "turn: ready, the computer keeps the draw")):
                self.people.timeouts[seat] = 0
                seen[seat] = (awake_after(t, delays[SEATS + seat]), d.hand)
                if not cfg.played_silent:
                    self.notify(t, "pre-move played DM")  # the draw and the move
                continue
            if cfg.claim_then and d.after_claim and self.auto_claim[seat]:
                self.auto_claim[seat] = False
                self.people.timeouts[seat] = 0
                seen[seat] = (awake_after(t, delays[SEATS + seat]), d.hand)
                continue
            if d.after_claim and last_answer[seat] == t:
                # Their own claim click settled the window: the click's reply takes its
                # buttons off, and the discard is asked by a new DM seconds later while
                # they are still there (a prompt, notifying as any): the same visit.
                self.tally.prompts += 1
                self.tally.why["turn: after one's own claim, asked in the same visit"] += 1
                self.notify(t, "turn prompt")
                visit(seat, t, d.hand)
                continue
            self.tally.why[self.why_turn(d, free) if cfg.premoves else "turn"] += 1
            answer, due = self.prompt(seat, t, self.turn_timer, delays[seat], True, False)
            end = min(answer, due)
            self.waited(seat, t, end, self.turn_timer, True, False)
            if answer <= due:
                visit(seat, answer, d.hand)
            else:
                self.computer(seat, due)
                self.people.timeouts[seat] += 1
                if self.people.timeouts[seat] >= AWAY_AFTER:
                    self.people.away_until[seat] = answer
            t = end
        self.tally.hours.append(t - start)
        self.now = t

    def window(self, w: Window, t: float, delays: tuple[float, ...], multiple: bool,
               stored: list[Stored | None],
               visit: Callable[[int, float, HandKey], None]) -> float:
        """Time one claim window opened at ``t``; the moment it closes."""
        answered: dict[int, float] = {}   # seat → moment of its answer
        asked: dict[int, tuple[float, float, bool]] = {}  # prompted: answer, due, no win
        for seat in w.window.asked:
            if self.away(seat, t):
                self.computer(seat, t)
                answered[seat] = t
            elif self.cfg.answers and not (why := uncovered(stored[seat], w, seat, self.cfg)):
                self.people.timeouts[seat] = 0
                answered[seat] = t
                self.auto_claim[seat] = w.taken == seat
            else:
                self.tally.why[why if self.cfg.answers else "claim"] += 1  # (set if answers)
                without_win = all(a.kind is not ActionKind.WIN for a in w.window.options[seat])
                answer, due = self.prompt(seat, t, self.claim_timer, delays[seat], False,
                                          without_win)
                asked[seat] = (answer, due, without_win)
                answered[seat] = min(answer, due)
        close = self.close(w, answered, multiple)
        if w.claimed_from:
            self.notify(close, "DM: your discard was claimed")
        for seat, (answer, due, without_win) in asked.items():
            end = min(answer, due, close)
            self.waited(seat, t, end, self.claim_timer, False, without_win)
            if answered[seat] > close:
                self.notify(close, "DM: a window closed before your answer")
            if answered[seat] <= close:
                if answer <= due:
                    visit(seat, answer, w.hands[seat])
                    self.last_answer[seat] = answer
                else:
                    self.computer(seat, due)  # a claim timeout is not counted for away
        return close

    @staticmethod
    def close(w: Window, answered: dict[int, float], multiple: bool) -> float:
        """The first moment at which the answers given by then settle the window."""
        answers: list[Action | None] = [None] * SEATS
        window = w.window
        for seat in sorted(answered, key=lambda s: (answered[s], s)):
            answers[seat] = w.choices[seat]
            if resolve(replace(window, answers=tuple(answers)), multiple) is not None:
                return answered[seat]
        raise AssertionError("a window every asked seat answered is settled")


# ---------------------------------------------------------------------------


def record(rules_name: str, hands: int, seed: int) -> list[Hand]:
    rng = random.Random(f"{seed}:{rules_name}")
    return [record_hand(rules_name, rng) for _ in range(hands)]


def timed(recorded: Sequence[Hand], cfg: Config, turn_timer: float, claim_timer: float
          ) -> Tally:
    line = Timeline(cfg, turn_timer, claim_timer)
    for hand in recorded:
        line.play(hand)
    return line.tally


def figures(tally: Tally, n: int) -> dict[str, float]:
    hours = sorted(tally.hours)
    return {"median_hours": round(statistics.median(hours), 1),
            "p90_hours": round(hours[min(n - 1, int(0.9 * n))], 1),
            "prompts": round(tally.prompts / SEATS / n, 2),
            "notifications": round(tally.notifications / SEATS / n, 2),
            "sleeping_moves": round(tally.sleeping / n, 2)}


def measure(rules_name: str, hands: int, seed: int, what_if: bool = False
            ) -> dict[str, Tally]:
    """Each configuration's tally over the same recorded hands (``what_if``: the
    what-ifs' too)."""
    options = rules.get(rules_name).options({})
    recorded = record(rules_name, hands, seed)
    turn, claim = options.turn_timer / 3600, options.claim_timer / 3600
    chosen = {**CONFIGURATIONS, **WHAT_IFS} if what_if else CONFIGURATIONS
    return {name: timed(recorded, cfg, turn, claim) for name, cfg in chosen.items()}


def why_table(tally: Tally, hands: int) -> str:
    """The prompts left with every feature on, by why no feature answered them."""
    lines = ["prompts per seat per hand with all on, by why no feature answered them:"]
    for why, count in tally.why.most_common():
        lines.append(f"  {count / SEATS / hands:6.2f}  {why}")
    lines.append("notifications per seat per hand with all on:")
    for what, count in tally.what.most_common():
        lines.append(f"  {count / SEATS / hands:6.2f}  {what}")
    return "\n".join(lines)


def table(rules_name: str, rows: dict[str, dict[str, float]], hands: int) -> str:
    today = next(t for t in TODAY if t.rules == rules_name)
    out = [f"{rules_name} ({hands} hands; goals with all on: median <= 24 h, 0 sleeping "
           "moves, <= 8 prompts and <= 8 notifications per seat per hand)",
           f"{'configuration':22} {'median h':>9} {'p90 h':>7} {'prompts':>8} "
           f"{'notifs':>7} {'sleeping':>9}   today (issue 30)"]
    for name, f in rows.items():
        beside = ""
        if name == "defaults":
            beside = (f"   {today.median_hours:g} h / {today.p90_hours:g} h, "
                      f"{today.prompts:g} prompts, {today.sleeping_moves:g} sleeping")
        out.append(f"{name:22} {f['median_hours']:9.1f} {f['p90_hours']:7.1f} "
                   f"{f['prompts']:8.2f} {f['notifications']:7.2f} "
                   f"{f['sleeping_moves']:9.2f}{beside}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python bench/pace.py",
                                     description="Issue 30's pace model.")
    parser.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                        help=f"hands per rule set (default {DEFAULT_HANDS})")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--rules", choices=(*RULESETS, "all"), default="all")
    parser.add_argument("--why", action="store_true",
                        help="also print why the prompts left with all on were asked")
    parser.add_argument("--what-if", action="store_true",
                        help="also time feature changes the design does not have "
                             "(rows 'all + ...'; not in the JSON line)")
    args = parser.parse_args(argv)
    chosen = RULESETS if args.rules == "all" else (args.rules,)
    result = {}
    for name in chosen:
        tallies = measure(name, args.hands, args.seed, args.what_if)
        rows = {c: figures(t, args.hands) for c, t in tallies.items()}
        result[name] = {c: rows[c] for c in CONFIGURATIONS}
        print(table(name, rows, args.hands), flush=True)
        if args.why:
            print(why_table(tallies["all"], args.hands), flush=True)
            if args.what_if:
                print(why_table(tallies["all + every what-if"], args.hands).replace(
                    "with all on", "with all on and every what-if"), flush=True)
        print(flush=True)
    print(json.dumps(result, sort_keys=False))


if __name__ == "__main__":
    main()
