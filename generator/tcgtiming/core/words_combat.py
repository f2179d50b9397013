"""The catalogue's words for combat with several attackers and blockers and for the players' values
(life): the actions (``act.``), the conditions (``cond.``), what a branch tested (``tested.``) and
the trace's events (``event.``), in Japanese and English. Part of ``words.WORDS`` (merged there)."""
from __future__ import annotations

COMBAT_WORDS: dict[str, tuple[str, str]] = {
    "points.ask.blocks": ("ブロックするカードと、それぞれがブロックするアタック中のカードを選ぶ", "picks blockers, each with the attacker it blocks"),
    "act.declare_attackers": ("{0}がアタックするカードを何枚でも指定する", "{0} declares any number of attacking cards"),
    "act.declare_attackers.state": ("アタックするカードは{}になる", "attackers become {}"),
    "act.declare_attackers.defender": ("アタックされるのは{}", "{} is attacked"),
    "act.declare_blockers": ("{0}がブロックするカードと、それぞれがブロックする相手を指定する",
                             "{0} declares blockers, each blocking one attacker"),
    "act.combat_damage": ("{0}: アタックとブロックをしているカードが{1}に等しいダメージを同時に与える（{2}・{3}で分ける。致死は{4}、プレイヤーへのダメージは{5}を減らす）",
                          "{0}: attacking and blocking cards deal damage equal to their {1}, all at once (split by {2} "
                          "and {3}; lethal by {4}; damage to a player lowers {5})"),
    "act.step.first": ("先制のステップ", "first-strike step"),
    "act.step.regular": ("通常のステップ", "regular step"),
    "act.end_if_lost": ("敗北したプレイヤーがいれば、ここでゲームが終わる", "if a player has lost, the game ends here"),
    "cond.in_combat": ("{}のカードが戦闘に参加している", "{} has a card attacking or blocking"),
    "cond.has_keyword.in_combat": ("（攻撃かブロックをしているカードのうち）", " (among the attacking and blocking cards)"),
    "cond.player_value": ("{0}の{1}が{2}", "{0}'s {1}: {2}"),
    "tested.player_value": ("{0}の{1}: {2}", "{0}'s {1}: {2}"),
    "tested.in_combat": ("{0}の戦闘中のカード: {1}", "{0} in combat: {1}"),
    "event.attackers": ("{0}でアタック → {1}", "attacks {1} with {0}"),
    "event.blockers": ("ブロック: {}", "blocks: {}"),
    "event.blockers.none": ("ブロックなし", "no block"),
    "event.blocks": ("{0}が{1}をブロック", "{0} blocks {1}"),
    "event.combat_damage": ("戦闘ダメージ（{0}）: {1}", "combat damage ({0}): {1}"),
    "event.combat_damage.none": ("戦闘ダメージ（{0}）: 与えるカードなし", "combat damage ({0}): no card deals any"),
    "event.hit_card": ("{0}が{1}に{2}点", "{0} deals {2} to {1}"),
    "event.hit_player": ("{0}が{1}に{2}点（{3} {4}→{5}）", "{0} deals {2} to {1} ({3} {4} → {5})"),
    "event.change_value": ("{0}の{1}: {2}→{3}", "{0}'s {1}: {2} → {3}"),
    "event.game_over": ("ゲーム終了: {}の敗北", "game over: {} lost"),
    "event.game_over.draw": ("ゲーム終了: 引き分け", "game over: a draw"),
}
