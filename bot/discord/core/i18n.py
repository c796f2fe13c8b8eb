"""Every user-facing string of the Discord adapter, in English and 简体中文.

Strings are looked up by key so that the same code path can answer in the locale of
the person who clicked (`interaction.locale`) or of the server (`guild_locale`) for
channel messages. Both tables must hold exactly the same keys with the same format
fields: tests enforce it, so a string can never be missing in one language.

Command names, descriptions and choice names go to Discord through discord.py's
translator: build them with `ls(key)` (a `locale_str` whose message is the English
text and whose ``key`` extra names the entry) and install `MahjongTranslator` on the
command tree. Players in zh-CN (and zh-TW, which falls back to zh-CN) see Chinese.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands

from engine import rules as rulesets
from engine.rules import Words

Lang = Literal["en", "zh"]
LocaleLike = discord.Locale | str | None

# Command group and subcommands: (name, description). Names obey Discord's
# ^[-_\p{L}\p{N}]{1,32}$ in lower case; descriptions are at most 100 characters.
_COMMANDS_EN: dict[str, tuple[str, str]] = {
    "group": ("mahjong", "Play {either} mahjong, one move at a time"),
    "new": ("new", "Open a new mahjong table in this channel"),
    "join": ("join", "Take a seat at this channel's table"),
    "leave": ("leave", "Leave the table (a computer takes over a game in play)"),
    "addbot": ("addbot", "Seat a computer player in an empty seat"),
    "start": ("start", "Start the match once all four seats are filled"),
    "hand": ("hand", "See your tiles and moves privately (use it when your DMs are closed)"),
    "table": ("table", "Show the table picture again"),
    "leaderboard": ("leaderboard", "This channel's running leaderboard, one per rule set"),
    "rules": ("rules", "A summary of the rules, this table's options and how to read your hand "
                       "picture"),
    "score": ("score",
              "Score a hand (give hand and win_tile, or a JSON case); alone: the match totals"),
    "cancel": ("cancel", "Cancel the table (its creator or a server manager)"),
    "history": ("history", "The last finished hand: its moves and its revealed wall"),
}
_COMMANDS_ZH: dict[str, tuple[str, str]] = {
    "group": ("麻将", "{every}麻将：异步对局，随时出牌"),
    "new": ("开桌", "在本频道开一张新牌桌"),
    "join": ("加入", "在本频道的牌桌入座"),
    "leave": ("离开", "离开牌桌（对局中由电脑接替）"),
    "addbot": ("加电脑", "让电脑玩家坐一个空位"),
    "start": ("开始", "四个座位坐满后开始对局"),
    "hand": ("手牌", "私下查看你的手牌和可选操作（私信关闭时使用）"),
    "table": ("牌桌", "重新显示牌桌图片"),
    "leaderboard": ("排行榜", "本频道的累计排行榜（每种规则各一个）"),
    "rules": ("规则", "规则、本桌选项摘要及手牌图的看法"),
    "score": ("算分", "计算一手牌的得分（给出手牌与胡的牌，或 JSON）；不填则显示本场比分"),
    "cancel": ("取消", "取消牌桌（开桌人或服务器管理员）"),
    "history": ("历史", "上一局的全部操作与公开的牌墙"),
}

# Parameters: (name, description).
_PARAMS_EN: dict[str, tuple[str, str]] = {
    "rules": ("rules", "{either} rules"),
    "hands": ("hands", "Hands in the match (1–64, default 8)"),
    "turn_timer": ("turn_timer", "Time for a turn (default 12 h)"),
    "claim_timer": ("claim_timer", "Time to claim a discard or pass (default 2 h)"),
    "away_after": ("away_after",
                   "Timeouts in a row before the computer plays for a seat (1–10, default 3)"),
    "away_leaves": ("away_leaves",
                    "Those timeouts count as leaving: the computer keeps the seat, 逃跑 penalty "
                    "(default off)"),
    "mentions": ("mentions", "When to mention a player in the channel (default: only "
                             "when needed)"),
    "table": ("table", "The table number, when the channel has more than one"),
    "hand": ("hand", "Calculator: the concealed tiles before the winning tile, e.g. 123m456p"),
    "win_tile": ("win_tile", "Calculator: the winning tile, e.g. 5s"),
    "win": ("win", "Calculator: how the hand was won (default self-draw)"),
    "melds": ("melds", "Calculator: melds, e.g. pong:555m chi:123s kong:1111z ckong:9999p"),
    "flowers": ("flowers", "Calculator, Shanghai: the winner's flowers, e.g. 1f5f"),
    "dealer": ("dealer", "Calculator: the winner is the dealer (default no)"),
    "case": ("case", "Calculator: a whole case as JSON, seats 0–3 (see the calculator's README)"),
}
_PARAMS_ZH: dict[str, tuple[str, str]] = {
    "rules": ("规则", "{either}规则"),
    "hands": ("局数", "本场局数（1–64，默认 8）"),
    "turn_timer": ("出牌时限", "每次出牌的时限（默认 12 小时）"),
    "claim_timer": ("吃碰时限", "吃、碰、杠、胡或过的时限（默认 2 小时）"),
    "away_after": ("托管次数", "连续超时几次后由电脑托管（1–10，默认 3）"),
    "away_leaves": ("超时算逃跑",
                    "连续超时视为离开：电脑接替座位直到本场结束，并按逃跑处罚（默认关）"),
    "mentions": ("频道提醒", "何时在频道里 @ 玩家（默认：仅在需要时）"),
    "table": ("桌号", "桌号（频道里有多张牌桌时）"),
    "hand": ("手牌", "算分：胡牌前的暗手，例如 123m456p"),
    "win_tile": ("胡的牌", "算分：胡的那张牌，例如 5s"),
    "win": ("胡法", "算分：怎样胡的（默认自摸）"),
    "melds": ("副露", "算分：副露，例如 pong:555m chi:123s kong:1111z ckong:9999p"),
    "flowers": ("花牌", "算分（上海）：胡家的花，例如 1f5f"),
    "dealer": ("庄家", "算分：胡家是庄家（默认否）"),
    "case": ("案例", "算分：用 JSON 写出整个案例（座位编号 0–3）"),
}

_EN: dict[str, str] = {
    # -- choice names (≤ 100 characters)
    "choice.default": "{name} (default)",
    # -- durations, values
    "dur.s": "{n} s",
    "dur.min": "{n} min",
    "dur.h": "{n} h",
    "dur.d": "{n} d",
    "val.on": "on",
    "val.off": "off",
    "val.none": "none",
    "choice.mentions.when_needed": "When needed: closed DMs or half the time gone",
    "choice.mentions.every_turn": "Every turn, on top of the DM",
    "val.mentions.when_needed": "only when needed (closed DMs, half-time reminders)",
    "val.mentions.every_turn": "every turn",
    "list.sep": ", ",
    # -- refusals: one sentence per code of the service (bot/discord/core/refusals.py)
    "refused.wrap": "Not done.",
    "refused.no_table": "There is no table here; open one with /mahjong new.",
    "refused.bad_options": "Those options don't work: {why}.",
    "refused.channel_busy": "This channel already has a table; finish or cancel it first.",
    "refused.bad_name": "A seat can't show your name; set a display name with letters in it "
                        "and try again.",
    "refused.not_in_lobby": "The table has already started and takes no more seats.",
    "refused.not_playing": "No game is being played at this table.",
    "refused.table_full": "The table is full.",
    "refused.already_seated": "You already sit at this table.",
    "refused.seat_taken": "Seat {seat} is taken.",
    "refused.no_such_seat": "Seats are numbered 1 to 4.",
    "refused.not_seated": "You don't sit at this table.",
    "refused.not_member": "Only players at this table, its creator or a server manager can "
                          "do that.",
    "refused.not_yours": "That button is for {name}; you don't sit at this table.",
    "refused.not_allowed": "Only the table's creator or a server manager can do that.",
    "refused.empty_seats": "Seat(s) {seats} are empty: wait for players or add computer "
                           "players.",
    "refused.not_a_computer": "Seat {seat} is not a computer player.",
    "refused.wrong_seat": "That button is for {name}, not for you.",
    "refused.no_hand": "No hand is being played.",
    "refused.stale": "That button is for a decision that has passed.",
    "refused.stale_hand": "That button is from an earlier hand.",
    "refused.raced": "Another move landed first; look at the table again.",
    "refused.illegal": "That move isn't allowed: {why}.",
    "seat.n": "seat {n}",
    # -- why the engine refused, as a clause: one per engine.refusals.Code (its value)
    "why.hand_over": "the hand is over",
    "why.not_your_turn": "it is {seat}'s turn, not yours",
    "why.turn_only": "there is no discard to claim; it is your turn to discard, kong or win",
    "why.not_held": "you do not hold {tiles}",
    "why.no_pong": "you have no pong that {tile} makes a kong of",
    "why.no_draw": "no tile has been drawn this turn, and a self-draw needs one",
    "why.incomplete": "the tiles do not form a complete hand",
    "why.not_valid": "it is not a valid win",
    "why.own_tile": "the others are deciding on your own discard",
    "why.nothing_to_claim": "you have nothing to claim on {tile}",
    "why.answered": "you already answered this discard",
    "why.not_a_choice": "it is not one of your choices now",
    "why.claim_or_pass": "{seat}'s {tile} is waiting for claims: claim it or pass",
    "why.rob_only": "an added kong may only be robbed by a win (抢杠), or passed",
    "why.chi_upper": "chi is only from the upper player (the seat just before you)",
    "why.not_complete": "{tile} does not complete your hand",
    "why.action_not_object": "a move is written as a JSON object",
    "why.action_field": "a move has no field {field}",
    "why.action_kind": "there is no kind of move {value}",
    "why.not_an_action": "that is not a move",
    "why.not_tile_values": "a move's tiles must be tiles",
    "why.tile_needed": "that move needs a tile",
    "why.tile_unwanted": "that move takes no single tile",
    "why.action_size": "that move takes {size} tile(s) from the hand, not {got}",
    "why.action_seat": "seats are numbered 1 to 4",
    "why.bao_tou": "a 暴头 hand wins by self-draw only",
    "why.seven_pairs": "a seven-pairs hand wins by self-draw only",
    "why.streak": "a win on a discard needs the dealer's streak at 老庄 {need} or more "
                  "(now 老庄 {now}); only a self-draw wins",
    "why.dealer_only": "a win on a discard is only between the dealer and another player",
    "why.caishen_discard": "a discarded 财神 can never be claimed",
    "why.caishen_claim": "a discarded 财神 can never be claimed",
    "why.zhua_da_claim": "抓打: {seat} discarded a 财神, and until they draw again nobody "
                         "else may chi, pong, kong or win on a discard",
    "why.zhua_da_turn": "抓打: {seat} discarded a 财神, and until they draw again you may "
                        "only win by self-draw, make a concealed kong or discard the tile "
                        "just drawn",
    "why.last_window": "流局: 20 or fewer tiles are left, so only a win may be claimed",
    "why.lou_hu": "漏胡: you passed a win on {tile}, so no win on another {tile} until your "
                  "own next draw",
    "why.lou_peng": "漏碰: you passed a pong of {tile}, so no pong of it until your own "
                    "next draw",
    "why.caishen_melds": "at this table a 财神 may not be used in chi, pong or kong",
    "why.tan": "摊: you already have {n} claims on {seat}'s discards, the most allowed",
    "why.tan_third": "摊: you already have {n} claims on {seat}'s discards, the most allowed",
    "why.chi_limit": "without 承包 liability nobody may chi more than {n} times in a hand",
    "why.win_after_claim": "after a chi or pong you must discard, not win",
    "why.plain_hand": "a plain hand cannot win in Shanghai: it needs a flush, all pungs, "
                      "honours, a big crane, a replacement win or another special pattern",
    "why.eight_flowers": "八花 Eight Flowers wins as a self-draw only",
    "why.no_win_tile": "without a winning tile only all eight flowers (八花) win",
    "why.bad_seat": "{field} must be a seat number from 0 to 3, not {value}",
    "why.self_draw_from": "a self-draw comes from nobody: drop 'from'",
    "why.needs_from": "a win on a discard needs 'from', the seat that gave the tile",
    "why.from_winner": "nobody wins on their own discard",
    "why.replacement_discard": "a replacement tile is drawn, so its win must be a self-draw",
    "why.no_flowers": "these rules have no flowers",
    "why.flowers_only": "'flowers' may hold only flowers",
    "why.flower_in_hand": "a flower is never part of a hand: list it under 'flowers'",
    "why.replacement_kong": "a kong replacement needs a kong, and the winner shows none",
    "why.replacement_flower": "a flower replacement needs a flower, and the winner shows "
                              "none",
    "why.first_go_round": "in the first go-round nobody has made a chi, pong or kong yet",
    "why.concealed_kong_from": "a concealed kong comes from nobody: drop its 'from'",
    "why.meld_from": "a claimed meld needs 'from', whose discard it claimed",
    "why.own_discard": "nobody claims their own discard ({tiles})",
    "why.chi_from_upper": "chi is only from the upper player, {seat} ({tiles})",
    "why.claims_shape": "'claims' must be four rows of four counts",
    "why.claims_count": "{seat}'s count of claims on {seat_b} must be a whole number, 0 or "
                        "more, not {value}",
    "why.claims_own": "{seat} cannot have claimed their own discards",
    "why.claims_row": "{seat} cannot have made {n} claims in one hand: at most {limit}, each "
                      "one a meld",
    "why.claims_fewer": "the winner, {seat}, shows {melds} meld(s) claimed from {seat_b}, so "
                        "their claims on {seat_b} are {melds}, not {n}",
    "why.claims_more": "the winner, {seat}, shows {melds} meld(s) claimed from {seat_b}, so "
                       "their claims on {seat_b} are {melds}, not {n}",
    "why.copies_in_play": "{n} copies of {tile} are in play, but only {limit} can be",
    "why.hand_size": "with {melds} meld(s) the hand before the winning tile holds {want} "
                     "tiles, not {got}",
    "why.meld_size": "{tiles} do not make that meld",
    "why.flower_meld": "flowers never form melds",
    "why.not_a_run": "{tiles} do not make that meld",
    "why.not_identical": "{tiles} do not make that meld",
    "why.flipped_fixed": "'flipped' is only for a table whose 财神 is turned up",
    "why.flip_needs_flipped": "a table whose 财神 is turned up needs 'flipped', the tile "
                              "turned after the deal",
    "why.no_caishen": "{rules} has no 财神, so no 'flipped'",
    "why.needs_win_tile": "a win needs 'win_tile', the tile that completed the hand",
    "why.no_rob_kong": "{rules} rules have no 抢杠 (robbing a kong)",
    "why.streak_range": "the dealer's streak runs from 1 to {top}, not {value}",
    "why.no_flower_replacement": "Hangzhou has no flowers, so no flower replacement",
    "why.tan_count": "{seat} cannot have made {n} claims (摊) on {seat_b}'s discards: at most "
                     "{limit} in this hand",
    "why.chain_kongs": "the chain counts {n} kong(s), but the winner shows {kongs}",
    "why.eight_flowers_tile": "all eight flowers win as 八花 the moment the eighth comes, so "
                              "such a win has no winning tile",
    "why.shanghai_field": "'huangfan' is a Shanghai field",
    "why.hangzhou_fields": "'streak' and 'chain' are Hangzhou fields",
    "why.option_unknown": "{option} is not an option of these rules",
    "why.option_choice": "{option} must be one of {choices}, not {value}",
    "why.option_bool": "{option} is on or off, not {value}",
    "why.option_whole": "{option} must be a whole number, not {value}",
    "why.option_range": "{option} must be between {low} and {high}, not {value}",
    "why.options_type": "those options are not {rules} options",
    "why.unknown_rules": "there are no rules named {name}: choose {choices}",
    "why.notation_not_text": "tiles are written as text, such as 123m",
    "why.no_tiles": "tiles are needed, such as 123m",
    "why.one_tile": "that is {n} tiles ({text}), not one",
    "why.suit_letter": "{letter} in {text} is not a suit letter: use m, p, s, z or f",
    "why.no_such_tile": "there is no tile {face} (in {text})",
    "why.no_suit": "the digits {text} need a suit letter: end each run with m, p, s, z or f",
    "why.stray": "{char} does not belong in the tiles {text}",
    "why.copies": "{n} copies of {tile} are in play, but only {limit} can be",
    "why.case_not_object": "a case is a JSON object",
    "why.too_deep": "the case nests lists or objects more than {depth} deep (it needs three: "
                    "the case, its melds, a meld)",
    "why.number_too_long": "a number of {digits} digits is too long (at most {limit})",
    "why.unknown_field": "a case has no field {field}",
    "why.missing_field": "the case needs the field '{field}'",
    "why.field_whole": "'{field}' must be a whole number, not {value}",
    "why.field_type": "'{field}' must be a {type}, not {value}",
    "why.field_seat": "'{field}' must be a seat number from 0 to 3, not {value}",
    "why.field_choice": "'{field}' must be one of {choices}, not {value}",
    "why.chain_step": "'chain' holds only P (a 财神 discard) and K (a kong), not {char}",
    "why.meld_object": "each meld is an object with 'type' and 'tiles'",
    "why.unknown_meld_field": "a meld has no field {field}",
    "why.claims_list": "'claims' must be four rows of four counts",
    "why.kind.illegal": "it is not allowed now",
    "why.kind.malformed": "that is not a move",
    "why.kind.hand_over": "the hand is over",
    "why.kind.not_your_decision": "there is nothing for you to decide now",
    "why.kind.wrong_phase": "that kind of move does not fit this moment",
    "why.kind.already_answered": "you already answered",
    "why.kind.tile_not_held": "you do not hold those tiles",
    "why.kind.invalid_meld": "those tiles do not make that meld",
    "why.kind.not_a_win": "it is not a valid win",
    "why.kind.restricted": "a rule forbids it now",
    "why.kind.options": "one of the options does not fit these rules",
    "refused.option_not_for_rules": "Option {option} is not part of {rules} rules.",
    "error.unexpected": "Something went wrong on my side; please try again.",
    "error.check": "You can't use that command here.",
    "error.bad_value": "One of the values you gave doesn't fit that command.",
    "error.bad_component": "That button is out of date. Use /mahjong hand for fresh ones.",
    # -- replies to commands and buttons (ephemeral unless said otherwise)
    "reply.created": "Table #{table} is open: press Join to take a seat.",
    "reply.joined": "{name} sits down at seat {seat}.",
    "reply.left": "{name} leaves the table.",
    "reply.computer_added": "A computer player sits down at seat {seat}.",
    "reply.started": "The match at table #{table} begins: check your DMs.",
    "reply.cancelled": "Table #{table} is cancelled.",
    "reply.move_taken": "Done: {move}.",
    "reply.hand.follows": "This reply follows the game until {until}; after that, "
                          "use /mahjong hand again.",
    "reply.leaderboard.title": "Leaderboard of this channel",
    "reply.leaderboard.row": "{rank}. {name}: {points} (won {won} of {hands} hands)",
    "reply.leaderboard.row.one": "{rank}. {name}: {points} (won {won} of {hands} hand)",
    "reply.leaderboard.empty": "No hand has been settled in this channel yet.",
    "reply.leaderboard.rules_empty": "No {rules} hand has been settled in this channel yet.",
    "reply.leaderboard.others": "This channel keeps a {boards} board too: "
                                "`/mahjong leaderboard` with its rules.",
    "board.title": "{rules} leaderboard of this channel",
    "board.name": "Name",
    "board.points": "Points",
    "board.won": "Won",
    "board.matches": "Matches",
    "board.best": "Best hand",
    "best.hand": "{patterns} · {value}",
    "best.plain": "平胡 Plain win",
    "best.repeat": "{name} ×{count}",
    "reply.score.title": "Table #{table}: after {played} of {hands} hands",
    "reply.score.cancelled": "Table #{table} was cancelled after {played} of {hands} hands",
    "reply.score.row": "{name}: {points}",
    "reply.history.title": "Table #{table}: hand {hand}",
    "reply.history.attached": "The whole hand is in the attached file; its end:",
    "reply.history.empty": "No hand has finished at this table yet.",
    # -- lobby
    "lobby.title": "{rules} mahjong · table #{table}",
    "lobby.seats": "Seats",
    "lobby.seat": "Seat {seat} ({wind}): {name}",
    "lobby.seat_empty": "Seat {seat} ({wind}): empty",
    "lobby.computer": "🤖 {name}",
    "name.computer": "Computer {n}",
    "name.computer_for": "Computer {n} (for {name})",
    "lobby.away": "{name} (away)",
    "lobby.options": "Options",
    "lobby.status.lobby": "Waiting for players: {free} seat(s) free.",
    "lobby.status.playing": "Playing: hand {hand} of {hands}.",
    "lobby.status.finished": "The match is over.",
    "lobby.status.cancelled": "This table was cancelled.",
    "lobby.footer": "Buttons: join, leave, add a computer player, start when four are seated.",
    # -- buttons and the discard menu (labels ≤ 80, option text ≤ 100)
    "btn.join": "Join",
    "btn.leave": "Leave",
    "btn.addbot": "Add computer",
    "btn.start": "Start",
    "btn.win": "胡 Win",
    "btn.win_value": "胡 Win ({value})",
    "btn.kong": "杠 Kong {tiles}",
    "btn.added_kong": "加杠 Add to kong {tiles}",
    "btn.concealed_kong": "暗杠 Concealed kong {tiles}",
    "btn.pong": "碰 Pong {tiles}",
    "btn.chi": "吃 Chi {tiles}",
    "btn.pass": "过 Pass",
    "btn.discard": "打 Discard {tiles}",
    "btn.pref.always_win": "Always win when allowed",
    "btn.pref.pass_claims": "Pass every chi/pong/kong",
    "btn.pref.discard_drawn_when_away": "When away, discard the drawn tile",
    "btn.pref.on": "✓ {label}",
    "btn.back": "I'm back",
    "discard.placeholder": "打 Discard a tile…",
    "discard.numbered": "{numbers} · {label}",
    "discard.waits": "听 waits: {tiles}",
    "tile.copies": "{name} ×{count}",
    "tile.caishen": "{name} (财神)",
    "wait.group": "{tiles} ({value})",
    "wait.groups_sep": "; ",
    "wait.many": "{n} tiles",
    "wait.self_draw": "self-draw only, {value}",
    "wait.discard": "on a discard only, {value}",
    "wait.both": "self-draw {self_draw}, on a discard {discard}",
    "discard.drawn": "just drawn",
    "discard.suggested": "suggested",
    "discard.sep": " · ",
    "value.hua": "{value} 花",
    "value.times": "×{value}",
    # -- what happened (plain words from engine events)
    "ev.discard": "{name} discarded {tile}.",
    "ev.chi": "{name} chi {tiles}.",
    "ev.pong": "{name} pong {tiles}.",
    "ev.kong": "{name} kong {tiles}.",
    "ev.added_kong": "{name} added to a kong: {tiles}.",
    "ev.concealed_kong": "{name} declared a concealed kong.",
    "ev.my_concealed_kong": "You declared a concealed kong (the others see four backs).",
    "ev.flower": "{name} laid aside the flower {tile}.",
    "ev.wildcard": "Turned {tile}: its other copies are 财神 this hand.",
    "ev.drew": "You drew {tile}.",
    "ev.dealt": "Your tiles are dealt.",
    "ev.hand_start": "Hand {hand} begins; {name} deals.",
    "ev.win": "{name} wins!",
    "ev.drawn_hand": "The hand is drawn: nobody won.",
    # -- DMs and channel pings
    "dm.header": "**{rules} · table #{table} · hand {hand}**",
    "dm.turn": "Your turn: discard a tile (or kong, or win, when the buttons offer it).",
    "dm.claim": "{name} discarded {tile}: claim it or pass.",
    "dm.rob_kong": "{name} adds {tile} to a kong: win on it or pass.",
    "dm.waiting": "Nothing to decide now; waiting for {names}.",
    "dm.waiting_claim": "Nothing to decide now; the discard may be claimed.",
    "dm.ended": "The hand is over.",
    "dm.hand": "Your hand: {tiles}",
    "dm.hand_drawn": "Your hand: {tiles} + drawn {drawn}",
    "dm.waits": "听 Ready, waiting on: {tiles}",
    "dm.deadline": "Decide {when} (at {at}); after that the default move is played.",
    "dm.reminder": "Reminder: half of your time for this decision has passed.",
    "dm.caishen": "财神 this hand: {tile}",
    "dm.legend": "In the picture: {parts}.",
    "dm.legend.numbers": "the numbers under the tiles are those of the discard menu",
    "dm.legend.suggested": "tile {n}, outlined in blue, is the suggested discard (⭐)",
    "dm.legend.drawn": "tile {n}, set apart on the right, is the tile you just drew",
    "dm.legend.caishen": "a red 财 badge and a gold frame mark each 财神",
    "dm.legend.sep": "; ",
    "dm.legend.again": "(Said once a match: /mahjong rules says it again.)",
    "legend.title": "Your hand picture: {parts}.",
    "legend.suggested": "the tile outlined in blue is the suggested discard (⭐)",
    "legend.drawn": "the tile set apart on the right is the one you just drew",
    "dm.closed": "{mention}, I can't send you direct messages: use /mahjong hand to play "
                 "(its private reply follows the game).",
    "chan.your_turn": "{mention}, your turn at table #{table} (hand {hand}), {when}.",
    "chan.your_claim": "{mention}, you may claim a discard at table #{table} (hand {hand}), "
                       "{when}.",
    "chan.where": "Your tiles and buttons are in your DMs, or use /mahjong hand.",
    "chan.where_closed": "Your DMs are closed: play with /mahjong hand (its private reply "
                         "follows the game).",
    "chan.turn_reminder": "{mention}, half of your time for your turn at table #{table} "
                          "(hand {hand}) is gone: decide {when}.",
    "chan.claim_closed_dms": "A discard may be claimed at table #{table} (hand {hand}). "
                             "{mentions}: your DMs are closed, so look at /mahjong hand in "
                             "case the decision is yours.",
    "chan.claim_closed_dms_reminder": "Half the time to claim the discard at table #{table} "
                                      "(hand {hand}) is gone. {mentions}: your DMs are "
                                      "closed, so look at /mahjong hand in case the "
                                      "decision is yours.",
    # -- rules summary
    "rules.title": "{rules} rules",
    "rules.options": "Options of this table:",
    "rules.defaults": "Default options (set them with /mahjong new):",
    "rules.patterns": "Patterns: {patterns}",
    "opt.hands": "局数 hands in the match: {value}",
    "opt.turn_timer": "Turn timer: {value}",
    "opt.claim_timer": "Claim timer: {value}",
    "opt.away_after": "Computer takes over after {value} timeouts in a row",
    "opt.away_leaves": "Those timeouts count as leaving the match (逃跑): {value}",
    "opt.mentions": "Channel mentions: {value}",
    # -- settlement, scores, the table caption
    "settle.self_draw": "**Hand {hand}: {name} wins by self-draw**",
    "settle.discard": "**Hand {hand}: {name} wins on {giver}'s discard**",
    "settle.rob_kong": "**Hand {hand}: {name} robs {giver}'s kong**",
    "settle.drawn": "**Hand {hand} is drawn: nobody wins.**",
    "settle.hand": "Winning hand: {tiles} + {win}",
    "settle.melds": "Melds: {melds}",
    "settle.flowers": "Flowers: {tiles}",
    "settle.base": "底花 base: {parts} = {total} 花",
    "base.stake": "{hua} stake",
    "base.flowers": "{hua} flowers",
    "base.pungs": "{hua} honour pungs",
    "base.kongs": "{hua} kongs",
    "settle.patterns": "Patterns: {patterns}",
    "settle.no_patterns": "平胡 Plain win",
    "settle.pattern": "{name} ({value})",
    "settle.value": "Value: {value}",
    "settle.liability": "Liability: {text}",
    "settle.payments": "Payments: {payments}",
    "settle.totals": "Match totals: {totals}",
    "settle.amount": "{name} {amount}",
    "settle.how": "How it is paid:",
    "settle.charge.one": "{names} pays {formula} = {amount}",
    "settle.charge.each": "{names} each pay {formula} = {amount}",
    "factor.hand.hua": "{value} 花",
    "factor.hand.times": "{value} (hand)",
    "factor.base": "{value} (底分 base)",
    "factor.huangfan": "{value} (荒番 dead-hand round)",
    "factor.shares": "{value} (shares)",
    "factor.rob_kong": "{value} (抢杠 robbed kong: shares)",
    "factor.three_claims": "{value} (吃三口包 three-claim liability: shares)",
    "factor.dealer": "{value} (庄闲分: the dealer's share at 老庄 {streak})",
    "factor.liability": "{value} (承包 liability: paying for everyone)",
    "factor.reverse_liability": "{value} (倒承包 reverse liability: twice for everyone)",
    "factor.shared": "{value} (liability shared by {count})",
    "meld.sep": "; ",
    "meld.chi": "chi {tiles}",
    "meld.pong": "pong {tiles}",
    "meld.kong": "kong {tiles}",
    "meld.added_kong": "added kong {tiles}",
    "meld.concealed_kong": "concealed kong {tiles}",
    "caption.table": "{rules} · table #{table} · hand {hand} · {left} tiles left",
    "caption.turn": "{name} to play.",
    "caption.claim": "The discard may be claimed: waiting for answers.",
    "caption.rob_kong": "The added kong may be robbed: waiting for answers.",
    "caption.dealer": "Dealer: {name}",
    "caption.streak": "The dealer's streak: 老庄 {streak}",
    "caption.huangfan.dice": "荒番 hand: the dice {dice} make it one; payments are "
                             "multiplied.",
    "caption.huangfan.carried": "荒番 hand: carried over from an earlier drawn hand (or "
                                "dice); payments are multiplied.",
    "caption.caishen": "财神: {tile}",
    "caption.commitment": "Wall commitment (SHA-256): `{digest}`",
    "caption.reveal": "Wall of hand {hand}: `{wall}` salt `{salt}`; check sha256(salt + wall).",
}

_ZH: dict[str, str] = {
    "choice.default": "{name}（默认）",
    "dur.s": "{n} 秒",
    "dur.min": "{n} 分钟",
    "dur.h": "{n} 小时",
    "dur.d": "{n} 天",
    "val.on": "开",
    "val.off": "关",
    "val.none": "不封顶",
    "choice.mentions.when_needed": "需要时：私信关闭或时间过半",
    "choice.mentions.every_turn": "每次轮到都 @（另有私信）",
    "val.mentions.when_needed": "仅在需要时（私信关闭、时间过半提醒）",
    "val.mentions.every_turn": "每次轮到",
    "list.sep": "、",
    "refused.wrap": "未能执行。",
    "refused.no_table": "这里没有牌桌；用 /mahjong new 开一张吧。",
    "refused.bad_options": "选项不对：{why}。",
    "refused.channel_busy": "本频道已经有一张牌桌了；请先打完或取消它。",
    "refused.bad_name": "牌桌上无法显示你的名字；请设置一个带文字的显示名称后再试。",
    "refused.not_in_lobby": "牌桌已经开始，不再接受入座。",
    "refused.not_playing": "这张牌桌没有在对局。",
    "refused.table_full": "牌桌已坐满。",
    "refused.already_seated": "你已经在这张牌桌入座了。",
    "refused.seat_taken": "{seat} 号位已经有人了。",
    "refused.no_such_seat": "座位编号是 1 到 4。",
    "refused.not_seated": "你不在这张牌桌上。",
    "refused.not_member": "只有本桌玩家、开桌人或服务器管理员可以这样做。",
    "refused.not_yours": "这个按钮是给 {name} 的；你不在这张牌桌上。",
    "refused.not_allowed": "只有开桌人或服务器管理员可以这样做。",
    "refused.empty_seats": "{seats} 号位还空着：请等玩家入座或加电脑。",
    "refused.not_a_computer": "{seat} 号位不是电脑玩家。",
    "refused.wrong_seat": "这个按钮是给 {name} 的，不是给你的。",
    "refused.no_hand": "现在没有在打的牌局。",
    "refused.stale": "这个按钮对应的决定已经过去了。",
    "refused.stale_hand": "这个按钮来自之前的一局。",
    "refused.raced": "另一步操作先到了；请重新看看牌桌。",
    "refused.illegal": "这一步不能走：{why}。",
    "seat.n": "{n} 号位",
    "why.hand_over": "这一局已经结束",
    "why.not_your_turn": "现在轮到{seat}，不是你",
    "why.turn_only": "现在没有可以吃碰的牌，轮到你打牌、杠或胡",
    "why.not_held": "你手里没有 {tiles}",
    "why.no_pong": "你没有可以用 {tile} 加杠的碰",
    "why.no_draw": "这一轮没有摸牌，不能自摸",
    "why.incomplete": "这些牌还不能和牌",
    "why.not_valid": "这不是有效的胡牌",
    "why.own_tile": "其他人正在决定要不要你打出的牌",
    "why.nothing_to_claim": "{tile} 你没有可以吃碰杠胡的",
    "why.answered": "你已经对这张牌做过决定了",
    "why.not_a_choice": "这不是你现在能做的选择",
    "why.claim_or_pass": "{seat}打出的 {tile} 正等待吃碰杠胡：要么吃碰杠胡，要么过",
    "why.rob_only": "加杠只能抢杠胡，或者过",
    "why.chi_upper": "只能吃上家打出的牌",
    "why.not_complete": "{tile} 不能让你和牌",
    "why.action_not_object": "一步棋要写成一个对象",
    "why.action_field": "一步棋没有 {field} 这一项",
    "why.action_kind": "没有 {value} 这种走法",
    "why.not_an_action": "这不是一步棋",
    "why.not_tile_values": "一步棋里的牌必须是牌",
    "why.tile_needed": "这一步需要一张牌",
    "why.tile_unwanted": "这一步不用单张牌",
    "why.action_size": "这一步要从手里拿 {size} 张牌，不是 {got} 张",
    "why.action_seat": "座位编号是 1 到 4",
    "why.bao_tou": "暴头只能自摸",
    "why.seven_pairs": "七对子只能自摸",
    "why.streak": "胡别人打的牌需要老庄 {need} 以上（现在是老庄 {now}），只能自摸",
    "why.dealer_only": "胡别人打的牌只能在庄家与闲家之间",
    "why.caishen_discard": "打出的财神不能吃、碰、杠或胡",
    "why.caishen_claim": "打出的财神不能吃、碰、杠或胡",
    "why.zhua_da_claim": "抓打：{seat}打出了财神，在其再次摸牌前其他人不能吃、碰、杠或胡打出的牌",
    "why.zhua_da_turn": "抓打：{seat}打出了财神，在其再次摸牌前你只能自摸、暗杠或打出刚摸的牌",
    "why.last_window": "流局在即：只剩 20 张或更少，这张牌只能胡",
    "why.lou_hu": "漏胡：你放过了 {tile} 的胡，在你下次摸牌前不能再胡 {tile}",
    "why.lou_peng": "漏碰：你放过了碰 {tile}，在你下次摸牌前不能再碰它",
    "why.caishen_melds": "本桌财神不能用于吃、碰、杠",
    "why.tan": "摊：你已经吃碰杠了{seat}的牌 {n} 次，不能再多",
    "why.tan_third": "摊：你已经吃碰杠了{seat}的牌 {n} 次，不能再多",
    "why.chi_limit": "不承包时每人每局最多吃 {n} 次",
    "why.win_after_claim": "吃或碰之后必须打牌，不能胡",
    "why.plain_hand": "上海麻将不能平胡：需要清一色、碰碰胡、字牌、大吊车、杠开等牌型",
    "why.eight_flowers": "八花只能算自摸",
    "why.no_win_tile": "没有胡的那张牌时，只有八张花齐了（八花）才算胡",
    "why.bad_seat": "{field} 必须是 0 到 3 号位，不能是 {value}",
    "why.self_draw_from": "自摸的牌不是别人打的：请去掉 'from'",
    "why.needs_from": "胡别人打的牌需要写 'from'：打出这张牌的座位",
    "why.from_winner": "不能胡自己打出的牌",
    "why.replacement_discard": "补牌是摸来的，所以只能算自摸",
    "why.no_flowers": "这套规则没有花牌",
    "why.flowers_only": "'flowers' 里只能有花牌",
    "why.flower_in_hand": "花牌不算手牌：请写在 'flowers' 里",
    "why.replacement_kong": "杠后补牌要先有杠，但胡牌者没有杠",
    "why.replacement_flower": "补花要先有花，但胡牌者没有花",
    "why.first_go_round": "第一圈还没有人吃、碰或杠过",
    "why.concealed_kong_from": "暗杠不是别人打的：请去掉它的 'from'",
    "why.meld_from": "吃碰杠的副露需要写 'from'：吃碰的是谁的牌",
    "why.own_discard": "不能吃碰自己打出的牌（{tiles}）",
    "why.chi_from_upper": "只能吃上家{seat}的牌（{tiles}）",
    "why.claims_shape": "'claims' 必须是四行、每行四个数",
    "why.claims_count": "{seat}对{seat_b}的吃碰杠次数必须是 0 或更大的整数，不能是 {value}",
    "why.claims_own": "{seat}不可能吃碰自己打出的牌",
    "why.claims_row": "{seat}一局最多吃碰杠 {limit} 次（每次成一组副露），不可能有 {n} 次",
    "why.claims_fewer": "胡牌者{seat}亮出 {melds} 组吃碰杠{seat_b}的副露，所以对{seat_b}的"
                        "吃碰杠是 {melds} 次，不是 {n} 次",
    "why.claims_more": "胡牌者{seat}亮出 {melds} 组吃碰杠{seat_b}的副露，所以对{seat_b}的"
                       "吃碰杠是 {melds} 次，不是 {n} 次",
    "why.copies_in_play": "{tile} 出现了 {n} 张，最多只能有 {limit} 张",
    "why.hand_size": "有 {melds} 组副露时，胡牌前的手牌是 {want} 张，而不是 {got} 张",
    "why.meld_size": "{tiles} 组不成这组副露",
    "why.flower_meld": "花牌不能组成副露",
    "why.not_a_run": "{tiles} 组不成这组副露",
    "why.not_identical": "{tiles} 组不成这组副露",
    "why.flipped_fixed": "只有翻财神的牌桌才写 'flipped'",
    "why.flip_needs_flipped": "翻财神的牌桌需要写 'flipped'：开牌后翻出的那张牌",
    "why.no_caishen": "{rules}没有财神，不用写 'flipped'",
    "why.needs_win_tile": "胡牌需要写 'win_tile'：胡的那张牌",
    "why.no_rob_kong": "{rules}没有抢杠",
    "why.streak_range": "老庄只能是 1 到 {top}，不能是 {value}",
    "why.no_flower_replacement": "杭州麻将没有花牌，也就没有补花",
    "why.tan_count": "{seat}不可能吃碰杠了{seat_b}的牌 {n} 次：这一局最多 {limit} 摊",
    "why.chain_kongs": "飘杠里有 {n} 个杠，但胡牌者只有 {kongs} 个杠",
    "why.eight_flowers_tile": "八张花一齐就当场胡八花，没有胡的那张牌",
    "why.shanghai_field": "'huangfan' 是上海麻将的项",
    "why.hangzhou_fields": "'streak' 和 'chain' 是杭州麻将的项",
    "why.option_unknown": "{option}不是这套规则的选项",
    "why.option_choice": "{option}只能是 {choices}，不能是 {value}",
    "why.option_bool": "{option}只能是开或关，不能是 {value}",
    "why.option_whole": "{option}必须是整数，不能是 {value}",
    "why.option_range": "{option}应在 {low} 到 {high} 之间，不能是 {value}",
    "why.options_type": "这些选项不是{rules}的选项",
    "why.unknown_rules": "没有叫 {name} 的规则：请选 {choices}",
    "why.notation_not_text": "牌要写成文字，例如 123m",
    "why.no_tiles": "需要写出牌，例如 123m",
    "why.one_tile": "{text} 是 {n} 张牌，不是一张",
    "why.suit_letter": "{text} 中的 {letter} 不是花色字母：请用 m、p、s、z 或 f",
    "why.no_such_tile": "没有 {face} 这张牌（在 {text} 中）",
    "why.no_suit": "数字 {text} 缺少花色字母：每组以 m、p、s、z 或 f 结尾",
    "why.stray": "{char} 不应出现在 {text} 中",
    "why.copies": "{tile} 出现了 {n} 张，最多只能有 {limit} 张",
    "why.case_not_object": "案例要写成一个对象",
    "why.too_deep": "案例的列表或对象嵌套超过 {depth} 层（只需三层：案例、副露列表、副露）",
    "why.number_too_long": "{digits} 位的数字太长了（最多 {limit} 位）",
    "why.unknown_field": "案例没有 {field} 这一项",
    "why.missing_field": "案例缺少 '{field}' 这一项",
    "why.field_whole": "'{field}' 必须是整数，不能是 {value}",
    "why.field_type": "'{field}' 必须是 {type} 类型，不能是 {value}",
    "why.field_seat": "'{field}' 必须是 0 到 3 号位，不能是 {value}",
    "why.field_choice": "'{field}' 只能是 {choices}，不能是 {value}",
    "why.chain_step": "'chain' 里只能有 P（打出财神）和 K（杠），不能有 {char}",
    "why.meld_object": "每组副露要写成带 'type' 和 'tiles' 的对象",
    "why.unknown_meld_field": "副露没有 {field} 这一项",
    "why.claims_list": "'claims' 必须是四行、每行四个数",
    "why.kind.illegal": "现在不允许",
    "why.kind.malformed": "这不是一步棋",
    "why.kind.hand_over": "这一局已经结束",
    "why.kind.not_your_decision": "你现在没有需要做的决定",
    "why.kind.wrong_phase": "现在不能这样做",
    "why.kind.already_answered": "你已经做过决定了",
    "why.kind.tile_not_held": "你手里没有这些牌",
    "why.kind.invalid_meld": "这些牌组不成这组副露",
    "why.kind.not_a_win": "这不是有效的胡牌",
    "why.kind.restricted": "规则现在不允许",
    "why.kind.options": "有一个选项不符合这套规则",
    "refused.option_not_for_rules": "选项 {option} 不属于{rules}规则。",
    "error.unexpected": "出了点问题，请再试一次。",
    "error.check": "你不能在这里使用这个命令。",
    "error.bad_value": "你填写的某个值不适合这个命令。",
    "error.bad_component": "这个按钮已经过时。请用 /mahjong hand 获取新的按钮。",
    "reply.created": "第 {table} 桌已开：按「加入」入座。",
    "reply.joined": "{name} 坐到了 {seat} 号座位。",
    "reply.left": "{name} 离开了牌桌。",
    "reply.computer_added": "一位电脑玩家坐到了 {seat} 号座位。",
    "reply.started": "第 {table} 桌开始对局：请查看私信。",
    "reply.cancelled": "第 {table} 桌已取消。",
    "reply.move_taken": "已执行：{move}。",
    "reply.hand.follows": "这条回复会随牌局更新到 {until}；之后请再用 /mahjong hand。",
    "reply.leaderboard.title": "本频道排行榜",
    "reply.leaderboard.row": "{rank}. {name}：{points}（{hands} 局胡 {won} 局）",
    "reply.leaderboard.row.one": "{rank}. {name}：{points}（{hands} 局胡 {won} 局）",
    "reply.leaderboard.empty": "本频道还没有结算过的牌局。",
    "reply.leaderboard.rules_empty": "本频道还没有结算过的{rules}牌局。",
    "reply.leaderboard.others": "本频道另有{boards}排行榜：在 `/麻将 排行榜` 中选规则查看。",
    "board.title": "本频道{rules}排行榜",
    "board.name": "玩家",
    "board.points": "积分",
    "board.won": "胡牌",
    "board.matches": "场次",
    "board.best": "最佳牌型",
    "best.hand": "{patterns} · {value}",
    "best.plain": "平胡",
    "best.repeat": "{name} ×{count}",
    "reply.score.title": "第 {table} 桌：共 {hands} 局，已打 {played} 局",
    "reply.score.cancelled": "第 {table} 桌已取消：共 {hands} 局，取消前打了 {played} 局",
    "reply.score.row": "{name}：{points}",
    "reply.history.title": "第 {table} 桌：第 {hand} 局",
    "reply.history.attached": "整局记录见附件；结尾如下：",
    "reply.history.empty": "这张牌桌还没有打完的牌局。",
    "lobby.title": "{rules}麻将 · 第 {table} 桌",
    "lobby.seats": "座位",
    "lobby.seat": "{seat} 号位（{wind}）：{name}",
    "lobby.seat_empty": "{seat} 号位（{wind}）：空",
    "lobby.computer": "🤖 {name}",
    "name.computer": "电脑 {n}",
    "name.computer_for": "电脑 {n}（代 {name}）",
    "lobby.away": "{name}（托管中）",
    "lobby.options": "选项",
    "lobby.status.lobby": "等待玩家：还有 {free} 个空位。",
    "lobby.status.playing": "对局中：第 {hand} 局，共 {hands} 局。",
    "lobby.status.finished": "本场已结束。",
    "lobby.status.cancelled": "这张牌桌已取消。",
    "lobby.footer": "按钮：加入、离开、加电脑；四人坐满后开始。",
    "btn.join": "加入",
    "btn.leave": "离开",
    "btn.addbot": "加电脑",
    "btn.start": "开始",
    "btn.win": "胡",
    "btn.win_value": "胡（{value}）",
    "btn.kong": "杠 {tiles}",
    "btn.added_kong": "加杠 {tiles}",
    "btn.concealed_kong": "暗杠 {tiles}",
    "btn.pong": "碰 {tiles}",
    "btn.chi": "吃 {tiles}",
    "btn.pass": "过",
    "btn.discard": "打 {tiles}",
    "btn.pref.always_win": "能胡就胡",
    "btn.pref.pass_claims": "不吃不碰不杠",
    "btn.pref.discard_drawn_when_away": "托管时摸什么打什么",
    "btn.pref.on": "✓ {label}",
    "btn.back": "我回来了",
    "discard.placeholder": "打一张牌…",
    "discard.numbered": "{numbers} · {label}",
    "discard.waits": "听：{tiles}",
    "tile.copies": "{name}×{count}",
    "tile.caishen": "{name}（财神）",
    "wait.group": "{tiles}（{value}）",
    "wait.groups_sep": "；",
    "wait.many": "{n} 种牌",
    "wait.self_draw": "只能自摸，{value}",
    "wait.discard": "只能点炮，{value}",
    "wait.both": "自摸 {self_draw}，点炮 {discard}",
    "discard.drawn": "刚摸的",
    "discard.suggested": "推荐",
    "discard.sep": " · ",
    "value.hua": "{value} 花",
    "value.times": "×{value}",
    "ev.discard": "{name} 打出 {tile}。",
    "ev.chi": "{name} 吃 {tiles}。",
    "ev.pong": "{name} 碰 {tiles}。",
    "ev.kong": "{name} 杠 {tiles}。",
    "ev.added_kong": "{name} 加杠 {tiles}。",
    "ev.concealed_kong": "{name} 暗杠。",
    "ev.my_concealed_kong": "你暗杠了（其他人只看到四张牌背）。",
    "ev.flower": "{name} 补花 {tile}。",
    "ev.wildcard": "翻出 {tile}：本局其余三张为财神。",
    "ev.drew": "你摸到 {tile}。",
    "ev.dealt": "发牌完毕。",
    "ev.hand_start": "第 {hand} 局开始，{name} 坐庄。",
    "ev.win": "{name} 胡了！",
    "ev.drawn_hand": "流局：无人胡牌。",
    "dm.header": "**{rules} · 第 {table} 桌 · 第 {hand} 局**",
    "dm.turn": "轮到你了：打一张牌（按钮里有杠、胡时也可以杠、胡）。",
    "dm.claim": "{name} 打出 {tile}：吃碰杠胡，或者过。",
    "dm.rob_kong": "{name} 加杠 {tile}：可以抢杠胡，或者过。",
    "dm.waiting": "现在不用你做决定；等待 {names}。",
    "dm.waiting_claim": "现在不用你做决定；这张牌可能有人吃碰杠胡。",
    "dm.ended": "本局已结束。",
    "dm.hand": "你的手牌：{tiles}",
    "dm.hand_drawn": "你的手牌：{tiles}，摸到 {drawn}",
    "dm.waits": "听牌：{tiles}",
    "dm.deadline": "请在 {when}（{at}）前决定；超时将自动执行默认操作。",
    "dm.reminder": "提醒：这次决定的时间已过一半。",
    "dm.caishen": "本局财神：{tile}",
    "dm.legend": "图中：{parts}。",
    "dm.legend.numbers": "牌下的编号就是出牌菜单里的编号",
    "dm.legend.suggested": "蓝框的第 {n} 张是推荐打出的牌（⭐）",
    "dm.legend.drawn": "单独放在右边的第 {n} 张是刚摸到的牌",
    "dm.legend.caishen": "带红色“财”字和金框的是财神",
    "dm.legend.sep": "；",
    "dm.legend.again": "（每场只说一次：/mahjong rules 可以再看。）",
    "legend.title": "手牌图中：{parts}。",
    "legend.suggested": "蓝框的牌是推荐打出的牌（⭐）",
    "legend.drawn": "单独放在右边的是刚摸到的牌",
    "dm.closed": "{mention}，我无法给你发私信：请用 /mahjong hand 打牌（它的私密回复会随牌局"
                 "更新）。",
    "chan.your_turn": "{mention}，第 {table} 桌（第 {hand} 局）轮到你了，{when}截止。",
    "chan.your_claim": ("{mention}，第 {table} 桌（第 {hand} 局）有一张牌你可以吃碰杠胡，"
                        "{when}截止。"),
    "chan.where": "手牌和按钮在你的私信里，也可以用 /mahjong hand。",
    "chan.where_closed": "你的私信已关闭：请用 /mahjong hand 打牌（它的私密回复会随牌局更新）。",
    "chan.turn_reminder": "{mention}，第 {table} 桌（第 {hand} 局）轮到你出牌的时间已过一半，"
                          "{when}截止。",
    "chan.claim_closed_dms": "第 {table} 桌（第 {hand} 局）有一张牌可能有人吃碰杠胡。"
                             "{mentions}：你的私信已关闭，请用 /mahjong hand 看看是否需要你决定。",
    "chan.claim_closed_dms_reminder": "第 {table} 桌（第 {hand} 局）吃碰杠胡的时间已过一半。"
                                      "{mentions}：你的私信已关闭，请用 /mahjong hand "
                                      "看看是否需要你决定。",
    "rules.title": "{rules}规则",
    "rules.options": "本桌选项：",
    "rules.defaults": "默认选项（开桌时可用 /mahjong new 设置）：",
    "rules.patterns": "牌型：{patterns}",
    "opt.hands": "局数：{value}",
    "opt.turn_timer": "出牌时限：{value}",
    "opt.claim_timer": "吃碰时限：{value}",
    "opt.away_after": "连续超时 {value} 次后由电脑托管",
    "opt.away_leaves": "连续超时视为逃跑（离开本场）：{value}",
    "opt.mentions": "频道 @ 提醒：{value}",
    "settle.self_draw": "**第 {hand} 局：{name} 自摸**",
    "settle.discard": "**第 {hand} 局：{name} 胡 {giver} 打出的牌**",
    "settle.rob_kong": "**第 {hand} 局：{name} 抢 {giver} 的杠**",
    "settle.drawn": "**第 {hand} 局流局：无人胡牌。**",
    "settle.hand": "胡牌：{tiles} + {win}",
    "settle.melds": "副露：{melds}",
    "settle.flowers": "花：{tiles}",
    "settle.base": "底花：{parts} = {total} 花",
    "base.stake": "底 {hua}",
    "base.flowers": "花牌 {hua}",
    "base.pungs": "字牌刻子 {hua}",
    "base.kongs": "杠 {hua}",
    "settle.patterns": "牌型：{patterns}",
    "settle.no_patterns": "平胡",
    "settle.pattern": "{name}（{value}）",
    "settle.value": "牌值：{value}",
    "settle.liability": "承包：{text}",
    "settle.payments": "输赢：{payments}",
    "settle.totals": "本场累计：{totals}",
    "settle.amount": "{name} {amount}",
    "settle.how": "怎么算：",
    "settle.charge.one": "{names} 付 {formula} = {amount}",
    "settle.charge.each": "{names} 各付 {formula} = {amount}",
    "factor.hand.hua": "{value} 花",
    "factor.hand.times": "{value}（牌值）",
    "factor.base": "{value}（底分）",
    "factor.huangfan": "{value}（荒番）",
    "factor.shares": "{value}（份）",
    "factor.rob_kong": "{value} 份（抢杠）",
    "factor.three_claims": "{value} 份（吃三口包）",
    "factor.dealer": "{value}（庄闲分：老庄 {streak}）",
    "factor.liability": "{value}（承包：替各家付）",
    "factor.reverse_liability": "{value}（倒承包：替各家付两倍）",
    "factor.shared": "{value}（{count} 家分担承包）",
    "meld.sep": "；",
    "meld.chi": "吃 {tiles}",
    "meld.pong": "碰 {tiles}",
    "meld.kong": "明杠 {tiles}",
    "meld.added_kong": "加杠 {tiles}",
    "meld.concealed_kong": "暗杠 {tiles}",
    "caption.table": "{rules} · 第 {table} 桌 · 第 {hand} 局 · 余 {left} 张",
    "caption.turn": "轮到 {name}。",
    "caption.claim": "这张牌可能有人吃碰杠胡：等待决定。",
    "caption.rob_kong": "这张加杠可能被抢：等待决定。",
    "caption.dealer": "庄家：{name}",
    "caption.streak": "老庄 {streak}",
    "caption.huangfan.dice": "荒番局：骰子 {dice} 带来荒番，输赢加倍。",
    "caption.huangfan.carried": "荒番局：由前面的流局（或骰子）带来，输赢加倍。",
    "caption.caishen": "财神：{tile}",
    "caption.commitment": "牌墙承诺（SHA-256）：`{digest}`",
    "caption.reveal": "第 {hand} 局牌墙：`{wall}` 盐 `{salt}`；可验证 sha256(盐 + 牌墙)。",
}


# The adapter's own replies and channel notices (bot/discord/commands.py, the features'
# items, table/notifier.py).
_EN.update({
    "choice.win.self_draw": "Self-draw 自摸",
    "choice.win.discard": "On a discard 点炮",
    "choice.win.rob_kong": "Robbing a kong 抢杠",
    "reply.score.calc_title": "**Score: {rules}**",
    "reply.score.value": "Value: {value}",
    "reply.score.payments": "Payments: {payments}",
    "calc.pays": "{a} pays {b} ({c} × one share)",
    "calc.share": "One share = {a}",
    "reply.score.invalid": "Not a valid win: {reason}",
    "reply.score.bad_case": "That case is not valid JSON (line {line}, column {column}).",
    "reply.score.not_object": "A case is one JSON object, as the calculator's README shows.",
    "reply.score.too_deep": "That case nests lists or objects more than {depth} deep; a case "
                            "needs three (the case, its melds, a meld).",
    "reply.score.long_number": "That case has a number of {digits} digits; no field needs "
                               "more than {limit}.",
    "reply.score.bad_meld": "I can't read the meld {meld}; write pong:555m, chi:123s, "
                            "kong:1111z, akong:4444p or ckong:9999p.",
    "reply.score.no_table": "Give a hand and a winning tile to score it, or use this in a "
                            "channel with a table for its match totals.",
    "reply.pref_saved": "Saved: {label}.",
    "reply.back": "Welcome back: your timers run again.",
    "reply.table.none": "No hand is being played at table #{table} right now.",
    "chan.hand_start": "**Table #{table}: hand {hand} of {hands} begins**; {name} deals, "
                       "dice {dice}.",
    "chan.away": "{name} is away: the computer plays for them until they act again.",
    "chan.back": "{name} is back.",
    "chan.removed": "{name} timed out too many times in a row and has left the match: the "
                    "computer plays the seat until the match ends.",
    "chan.removed_penalty": "{name} timed out too many times in a row and has left the match: "
                            "the computer plays the seat until the match ends. 逃跑 penalty: "
                            "{points}.",
    "chan.match_ended": "**The match at table #{table} is over** after {hands} hands. "
                        "Totals: {totals}",
    "chan.match_cancelled": "The match at table #{table} was cancelled. Totals so far: {totals}",
    "perm.missing": "I can't post at table #{table} in <#{channel}>: a permission is missing "
                    "({what}). Please give me View Channel, Send Messages, Embed Links, Attach "
                    "Files and Read Message History there; the game itself goes on.",
})
_ZH.update({
    "choice.win.self_draw": "自摸",
    "choice.win.discard": "点炮",
    "choice.win.rob_kong": "抢杠",
    "reply.score.calc_title": "**算分：{rules}**",
    "reply.score.value": "分值：{value}",
    "reply.score.payments": "输赢：{payments}",
    "calc.pays": "{a}付 {b}（{c} 份）",
    "calc.share": "每份 = {a}",
    "reply.score.invalid": "不能这样胡：{reason}",
    "reply.score.bad_case": "这个案例不是有效的 JSON（第 {line} 行第 {column} 列）。",
    "reply.score.not_object": "案例应是一个 JSON 对象（见算分器的说明）。",
    "reply.score.too_deep": "这个案例的列表或对象嵌套超过 {depth} 层；一个案例只需三层（案例、"
                            "副露列表、副露）。",
    "reply.score.long_number": "这个案例里有一个 {digits} 位的数字；任何字段都用不到超过 "
                               "{limit} 位。",
    "reply.score.bad_meld": "看不懂副露 {meld}；请写成 pong:555m、chi:123s、kong:1111z、"
                            "akong:4444p 或 ckong:9999p。",
    "reply.score.no_table": "给出手牌和胡的牌即可算分；在有牌桌的频道里不填则显示本场比分。",
    "reply.pref_saved": "已保存：{label}。",
    "reply.back": "欢迎回来：你的计时重新开始。",
    "reply.table.none": "第 {table} 桌现在没有在打的牌局。",
    "chan.hand_start": "**第 {table} 桌：第 {hand} 局（共 {hands} 局）开始**；{name} 坐庄，"
                       "骰子 {dice}。",
    "chan.away": "{name} 暂时离开：在其再次操作前由电脑代打。",
    "chan.back": "{name} 回来了。",
    "chan.removed": "{name} 连续超时次数过多，视为离开本场：此后由电脑代打该座位直到本场结束。",
    "chan.removed_penalty": "{name} 连续超时次数过多，视为离开本场："
                            "此后由电脑代打该座位直到本场结束。逃跑罚分：{points}。",
    "chan.match_ended": "**第 {table} 桌本场结束**，共打 {hands} 局。总分：{totals}",
    "chan.match_cancelled": "第 {table} 桌本场已取消。目前得分：{totals}",
    "perm.missing": "我无法在 <#{channel}> 的第 {table} 桌发消息：缺少权限（{what}）。"
                    "请在该频道给我查看频道、发送消息、嵌入链接、附加文件和读取消息历史的权限；对局照常进行。",
})


# Leaving a running match (a private confirmation, then the channel's line) and a
# cancelled table (its players' open DMs, an old button) (bot/discord/lobby/leave.py,
# table/notifier.py, play/dms.py).
_EN.update({
    "leave.confirm.title": "**Leave table #{table} while its match is running?** The "
                           "computer plays your seat until the match ends.",
    "leave.confirm.free": "Under {rules} rules leaving costs no points; the hands you "
                          "played stay on your leaderboard line.",
    "leave.confirm.penalty": "Under {rules} rules leaving a running hand is 逃跑: you are "
                             "charged {points}, which nobody receives. It goes on your "
                             "leaderboard line with the hands you played.",
    "leave.confirm.penalty_to": "Under {rules} rules leaving a running hand is 逃跑: you are "
                                "charged {points}, paid to {receiver} (who discarded the 财神 "
                                "and is waiting). It goes on your leaderboard line with the "
                                "hands you played.",
    "leave.changed": "What leaving costs changed meanwhile: here it is again.",
    "leave.kept": "You keep your seat at table #{table}.",
    "leave.done": "You left table #{table}: the computer plays your seat until the match "
                  "ends.",
    "leave.not_yours": "This confirmation belongs to another player.",
    "btn.leave.confirm": "Leave the match",
    "btn.leave.keep": "Keep my seat",
    "chan.left": "{name} left the match at table #{table}: the computer plays the seat "
                 "until the match ends. No penalty under {rules} rules.",
    "chan.left_penalty": "{name} left the match at table #{table}: the computer plays the "
                         "seat until the match ends. 逃跑 penalty: {points}, which nobody "
                         "receives.",
    "chan.left_penalty_to": "{name} left the match at table #{table}: the computer plays the "
                            "seat until the match ends. 逃跑 penalty: {points}, paid to "
                            "{receiver}.",
    "dm.cancelled": "**Table #{table} was cancelled by {name}.** This decision is void; the "
                    "hand's wall is revealed in <#{channel}>.",
    "dm.cancelled_anon": "**Table #{table} was cancelled.** This decision is void; the "
                         "hand's wall is revealed in <#{channel}>.",
    "refused.cancelled": "This table was cancelled.",
    "refused.confirm_leave": "Leaving a running match needs your confirmation first.",
})
_ZH.update({
    "leave.confirm.title": "**确定在对局进行中离开第 {table} 桌吗？** "
                           "此后由电脑代打你的座位直到本场结束。",
    "leave.confirm.free": "按{rules}规则离开不扣分；你打过的局仍记在你的排行榜上。",
    "leave.confirm.penalty": "按{rules}规则在牌局进行中离开即为逃跑：罚你 {points} 分，无人收取。"
                             "罚分与你打过的局一起记在你的排行榜上。",
    "leave.confirm.penalty_to": "按{rules}规则在牌局进行中离开即为逃跑：罚你 {points} 分，付给 "
                                "{receiver}（打出财神且已听牌）。罚分与你打过的局一起记在你的排行榜上。",
    "leave.changed": "离开的代价刚刚变了，请重新确认。",
    "leave.kept": "你保留第 {table} 桌的座位。",
    "leave.done": "你已离开第 {table} 桌：此后由电脑代打你的座位直到本场结束。",
    "leave.not_yours": "这个确认属于另一位玩家。",
    "btn.leave.confirm": "离开本场",
    "btn.leave.keep": "保留座位",
    "chan.left": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束。"
                 "按{rules}规则不罚分。",
    "chan.left_penalty": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束。"
                         "逃跑罚分：{points}，无人收取。",
    "chan.left_penalty_to": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束。"
                            "逃跑罚分：{points}，付给 {receiver}。",
    "dm.cancelled": "**第 {table} 桌已被 {name} 取消。** "
                    "这个决定作废；本局牌墙在 <#{channel}> 公开。",
    "dm.cancelled_anon": "**第 {table} 桌已被取消。** 这个决定作废；本局牌墙在 <#{channel}> 公开。",
    "refused.cancelled": "这张牌桌已被取消。",
    "refused.confirm_leave": "对局进行中离开需要先确认。",
})


def _add_commands(table: dict[str, str], commands: dict[str, tuple[str, str]],
                  params: dict[str, tuple[str, str]]) -> None:
    for cmd, (name, desc) in commands.items():
        table[f"cmd.{cmd}.name"] = name
        table[f"cmd.{cmd}.desc"] = desc
    for param, (name, desc) in params.items():
        table[f"param.{param}.name"] = name
        table[f"param.{param}.desc"] = desc


_add_commands(_EN, _COMMANDS_EN, _PARAMS_EN)
_add_commands(_ZH, _COMMANDS_ZH, _PARAMS_ZH)

STRINGS: dict[Lang, dict[str, str]] = {"en": _EN, "zh": _ZH}
"""Both tables, by language; tests check they hold the same keys and fields. They also
hold the words of the registered rule sets (`rule_set_words`), kept in step with the
registry."""

# The descriptions naming every rule set: filled in from the registry.
_LISTING = ("cmd.group.desc", "param.rules.desc")
_TEMPLATES: dict[Lang, dict[str, str]] = {
    language: {key: table.pop(key) for key in _LISTING} for language, table in STRINGS.items()}
_DERIVED: set[str] = set()
MAX_DESCRIPTION = 100
"""Discord's limit on a command's or a parameter's description."""


def rule_set_words() -> dict[Lang, dict[str, str]]:
    """What players read of the registered rule sets, by key, as each rule set's object
    says it (`engine.rules.RuleSet`): its name (``rules.<name>``, its choice
    ``choice.rules.<name>``), its paragraph (``rules.about.<name>``), its leaderboard's
    unit (``board.unit.<name>``) and, for each option it adds, the parameter's name and
    description (``param.<option>.*``, one description per rule set having it), its
    ``/mahjong rules`` line (``opt.<option>``) and its choices and values
    (``choice.<option>.<value>``, ``val.<option>.<value>``); and the descriptions that
    list every rule set. Nothing here names a rule set."""
    words: dict[str, Words] = {}
    descs: dict[str, list[Words]] = {}
    sets = list(rulesets.RULESETS.values())
    for ruleset in sets:
        name = ruleset.name
        words[f"rules.{name}"] = Words(ruleset.en, ruleset.zh)
        words[f"choice.rules.{name}"] = Words(f"{ruleset.en} {ruleset.zh}", ruleset.zh)
        words[f"rules.about.{name}"] = ruleset.about
        words[f"board.unit.{name}"] = ruleset.unit
        for option in ruleset.own_options():
            said = ruleset.option_words[option]
            if said.desc not in descs.setdefault(option, []):
                descs[option].append(said.desc)
            if f"opt.{option}" in words:  # the first rule set having it names it
                continue
            words[f"param.{option}.name"] = said.name
            words[f"opt.{option}"] = said.line
            words.update({f"choice.{option}.{v}": w for v, w in said.choices.items()})
            words.update({f"val.{option}.{v}": w for v, w in said.values.items()})
    for option, several in descs.items():
        words[f"param.{option}.desc"] = Words(
            _clip("; ".join(w.en for w in several)), _clip("；".join(w.zh for w in several)))
    out: dict[Lang, dict[str, str]] = {
        "en": {key: w.en for key, w in words.items()},
        "zh": {key: w.zh for key, w in words.items()}}
    listing: dict[Lang, tuple[str, str]] = {
        "en": (_either([r.en for r in sets], ", ", " or "), ", ".join(r.en for r in sets)),
        "zh": (_either([r.zh for r in sets], "、", "或"), "、".join(r.zh for r in sets))}
    for language, (either, every) in listing.items():
        for key in _LISTING:
            out[language][key] = _clip(_TEMPLATES[language][key].format(either=either,
                                                                          every=every))
    return out


def _either(names: Sequence[str], sep: str, last: str) -> str:
    """"A or B", "A, B or C" (or the Chinese "A或B", "A、B或C")."""
    return last.join([sep.join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[:MAX_DESCRIPTION - 1] + "…"


def _follow_the_registry() -> None:
    """Put the registered rule sets' words in `STRINGS` (and take a gone one's out)."""
    for table in STRINGS.values():
        for key in _DERIVED:
            table.pop(key, None)
    _DERIVED.clear()
    for language, words in rule_set_words().items():
        clash = set(words) & set(STRINGS[language])
        if clash:
            raise ValueError(f"a rule set's words would replace the adapter's: {sorted(clash)}")
        STRINGS[language].update(words)
        _DERIVED.update(words)


_follow_the_registry()
rulesets.on_change(_follow_the_registry)

COMMANDS: tuple[str, ...] = tuple(k for k in _COMMANDS_EN if k != "group")
"""The subcommands of /mahjong, in the order they are registered."""

PARAMS: tuple[str, ...] = tuple(_PARAMS_EN)


def lang(locale: LocaleLike) -> Lang:
    """Chinese for any zh locale (zh-CN; zh-TW falls back to it), English otherwise."""
    if locale is None:
        return "en"
    found = _LANGS.get(locale)
    if found is None:
        value = locale.value if isinstance(locale, discord.Locale) else str(locale)
        found = "zh" if value.lower().startswith("zh") else "en"
        if len(_LANGS) < MAX_LOCALES:
            _LANGS[locale] = found
    return found


MAX_LOCALES = 256
"""Locales whose language `lang` remembers (Discord has about 30; the bound keeps a
stream of made-up locale strings from growing it)."""
_LANGS: dict[LocaleLike, Lang] = {}
"""Each text a message needs asks for its language: a dict look-up instead of an
enum check and a string test each time (a DM asks ~50 times)."""


def t(key: str, locale: LocaleLike = None, /, **kw: Any) -> str:
    """The text of ``key`` in the locale, formatted with ``kw``.

    An unknown key raises KeyError: it is a programming error, caught by the tests that
    check every key exists in both languages.
    """
    text = STRINGS[lang(locale)][key]
    return text.format(**kw) if kw else text


def has(key: str) -> bool:
    return key in _EN


def join(items: list[str] | tuple[str, ...], locale: LocaleLike) -> str:
    """A list in the locale's style: "a, b" or "a、b"."""
    return t("list.sep", locale).join(items)


def ls(key: str, /, **kw: Any) -> app_commands.locale_str:
    """A `locale_str` for discord.py: English message, ``key`` and format fields as extras.

    The message must be the English text: Discord sends it back to dispatch commands.
    A field may itself be an `ls(...)`: the translator translates it too.
    """
    return app_commands.locale_str(t(key, "en", **kw), key=key, **kw)


class MahjongTranslator(app_commands.Translator):
    """Gives Discord the zh-CN (and zh-TW) text of every `ls()` string.

    Install with ``await tree.set_translator(MahjongTranslator())`` before syncing.
    Other locales get None, so Discord shows the English default.
    """

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return translate(string, locale)


def translate(string: app_commands.locale_str, locale: LocaleLike) -> str | None:
    """The synchronous core of `MahjongTranslator.translate`."""
    if lang(locale) != "zh":
        return None
    extras = dict(string.extras)
    key = extras.pop("key", None)
    if not isinstance(key, str) or key not in _ZH:
        return None
    fields = {k: _field(v, locale) for k, v in extras.items()}
    return t(key, "zh", **fields)


def _field(value: Any, locale: LocaleLike) -> Any:
    """A field that is itself a `locale_str` (a nested `ls`) is translated too."""
    if isinstance(value, app_commands.locale_str):
        return translate(value, locale) or value.message
    return value
