"""The texts of the table's channel: what happened, pings, the settlement, the caption,
the wall's commitment and reveal, the match's end, in English and 简体中文, by key.

A feature's strings module: what that means and what holds it, `bot.discord.core.i18n`.
"""

from __future__ import annotations

EN: dict[str, str] = {
    "reply.score.title": "Table #{table}: after {played} of {hands} hands",
    "reply.score.cancelled": "Table #{table} was cancelled after {played} of {hands} hands",
    "reply.score.row": "{name}: {points}",
    "chan.your_turn": "{mention}, your turn at table #{table} (hand {hand}), {when}.",
    "chan.your_claim": "{mention}, you may claim a discard at table #{table} (hand {hand}), "
                       "{when}.",
    "chan.where": "Your tiles and buttons are in your DMs, or use /mahjong hand.",
    "chan.where_closed": "Your DMs are closed: play with /mahjong hand (its private reply "
                         "follows the game).",
    "chan.turn_reminder": "{mention}, half of your time for your turn at table #{table} (hand "
                          "{hand}) is gone: decide {when}.",
    "chan.claim_closed_dms": "A discard may be claimed at table #{table} (hand {hand}). "
                             "{mentions}: your DMs are closed, so look at /mahjong hand in "
                             "case the decision is yours.",
    "chan.claim_closed_dms_reminder": "Half the time to claim the discard at table #{table} "
                                      "(hand {hand}) is gone. {mentions}: your DMs are closed, "
                                      "so look at /mahjong hand in case the decision is yours.",
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
    "settle.value": "Value: {value}",
    "settle.liability": "Liability: {text}",
    "settle.payments": "Payments: {payments}",
    "settle.totals": "Match totals: {totals}",
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
    "caption.huangfan.dice": "荒番 hand: the dice {dice} make it one; payments are multiplied.",
    "caption.huangfan.carried": "荒番 hand: carried over from an earlier drawn hand (or dice); "
                                "payments are multiplied.",
    "caption.caishen": "财神: {tile}",
    "caption.commitment": "Wall commitment (SHA-256): `{digest}`",
    "caption.reveal": "Wall of hand {hand}: `{wall}` salt `{salt}`; check sha256(salt + wall).",
    "chan.hand_start": "**Table #{table}: hand {hand} of {hands} begins**; {name} deals, dice "
                       "{dice}.",
    "chan.away": "{name} is away: the computer plays for them until they act again.",
    "chan.back": "{name} is back.",
    "chan.removed": "{name} timed out too many times in a row and has left the match: the "
                    "computer plays the seat until the match ends.",
    "chan.removed_penalty": "{name} timed out too many times in a row and has left the match: "
                            "the computer plays the seat until the match ends. 逃跑 penalty: "
                            "{points}.",
    "chan.match_ended": "**The match at table #{table} is over** after {hands} hands. Totals: "
                        "{totals}",
    "chan.match_cancelled": "The match at table #{table} was cancelled. Totals so far: {totals}",
    "chan.left": "{name} left the match at table #{table}: the computer plays the seat until "
                 "the match ends. No penalty under {rules} rules.",
    "chan.left_penalty": "{name} left the match at table #{table}: the computer plays the seat "
                         "until the match ends. 逃跑 penalty: {points}, which nobody receives.",
    "chan.left_penalty_to": "{name} left the match at table #{table}: the computer plays the "
                            "seat until the match ends. 逃跑 penalty: {points}, paid to "
                            "{receiver}.",
    "dm.cancelled": "**Table #{table} was cancelled by {name}.** This decision is void; the "
                    "hand's wall is revealed in <#{channel}>.",
    "dm.cancelled_anon": "**Table #{table} was cancelled.** This decision is void; the hand's "
                         "wall is revealed in <#{channel}>.",
}

ZH: dict[str, str] = {
    "reply.score.title": "第 {table} 桌：共 {hands} 局，已打 {played} 局",
    "reply.score.cancelled": "第 {table} 桌已取消：共 {hands} 局，取消前打了 {played} 局",
    "reply.score.row": "{name}：{points}",
    "chan.your_turn": "{mention}，第 {table} 桌（第 {hand} 局）轮到你了，{when}截止。",
    "chan.your_claim": "{mention}，第 {table} 桌（第 {hand} "
                       "局）有一张牌你可以吃碰杠胡，{when}截止。",
    "chan.where": "手牌和按钮在你的私信里，也可以用 /mahjong hand。",
    "chan.where_closed": "你的私信已关闭：请用 /mahjong hand 打牌（它的私密回复会随牌局更新）。",
    "chan.turn_reminder": "{mention}，第 {table} 桌（第 {hand} "
                          "局）轮到你出牌的时间已过一半，{when}截止。",
    "chan.claim_closed_dms": "第 {table} 桌（第 {hand} 局）有一张牌可能有人吃碰杠胡。{mentions}"
                             "：你的私信已关闭，请用 /mahjong hand 看看是否需要你决定。",
    "chan.claim_closed_dms_reminder": "第 {table} 桌（第 {hand} "
                                      "局）吃碰杠胡的时间已过一半。{mentions}：你的私信已关闭，"
                                      "请用 /mahjong hand 看看是否需要你决定。",
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
    "settle.value": "牌值：{value}",
    "settle.liability": "承包：{text}",
    "settle.payments": "输赢：{payments}",
    "settle.totals": "本场累计：{totals}",
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
    "chan.hand_start": "**第 {table} 桌：第 {hand} 局（共 {hands} 局）开始**；{name} "
                       "坐庄，骰子 {dice}。",
    "chan.away": "{name} 暂时离开：在其再次操作前由电脑代打。",
    "chan.back": "{name} 回来了。",
    "chan.removed": "{name} 连续超时次数过多，视为离开本场：此后由电脑代打该座位直到本场结束。",
    "chan.removed_penalty": "{name} 连续超时次数过多，视为离开本场：此后由电脑代打该座位直到本"
                            "场结束。逃跑罚分：{points}。",
    "chan.match_ended": "**第 {table} 桌本场结束**，共打 {hands} 局。总分：{totals}",
    "chan.match_cancelled": "第 {table} 桌本场已取消。目前得分：{totals}",
    "chan.left": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束。按{rules}"
                 "规则不罚分。",
    "chan.left_penalty": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束。"
                         "逃跑罚分：{points}，无人收取。",
    "chan.left_penalty_to": "{name} 离开了第 {table} 桌的本场：此后由电脑代打该座位直到本场结束"
                            "。逃跑罚分：{points}，付给 {receiver}。",
    "dm.cancelled": "**第 {table} 桌已被 {name} 取消。** 这个决定作废；本局牌墙在 <#{channel}> "
                    "公开。",
    "dm.cancelled_anon": "**第 {table} 桌已被取消。** 这个决定作废；本局牌墙在 <#{channel}> "
                         "公开。",
}
