"""The catalogue's words for the rule language itself: each condition predicate of the vocabulary as a
phrase (``cond.``), the comparisons (``cmp.``) and the joins (``cond.not`` …), so that the pages say a
condition in words and keep the code form for rule writers; and the words of the pages that show the
procedures that way (``site.``). Part of ``words.WORDS`` (merged there)."""
from __future__ import annotations

RULE_WORDS: dict[str, tuple[str, str]] = {
    "cond.first_turn_of_game": ("ゲームの最初のターン", "the first turn of the game"),
    "cond.first_attack_of_turn": ("このターン最初のアタック", "the first attack of the turn"),
    "cond.attacks_this_turn": ("このターンのアタック回数が{}", "attacks this turn: {}"),
    "cond.player_count": ("プレイヤーの人数が{}", "number of players: {}"),
    "cond.count": ("{1}の{0}の枚数が{2}", "cards in {1}'s {0}: {2}"),
    "cond.has_pending": ("{}に待機中の自動能力がある", "{} has abilities waiting"),
    "cond.has_state": ("{0}の{2}に{1}のカードがある", "{0}: a card in {2} is {1}"),
    "cond.can_attack": ("{}がアタックできる", "{} can attack"),
    "cond.opposing_character": ("正面にキャラがいる", "there is an opposing character"),
    "cond.attacker_present": ("アタックキャラがいる", "the attacker is there"),
    "cond.defender_present": ("防御側のキャラがいる", "the defender is there"),
    "cond.chose": ("{0}で「{1}」を選んだ", "{1} was chosen at {0}"),
    "cond.revealed_is": ("めくったカードが{}", "the revealed card is {}"),
    "cond.active_has": ("アクティブキャラクターが{}を持つ", "the active character has {}"),
    "cond.lost": ("{}が敗北している", "{} lost"),
    "cond.stack_empty": ("解決を待つものがない", "nothing waits to resolve"),
    "cond.damage_left": ("残りのダメージが{}", "damage left: {}"),
    "cond.has_keyword": ("{0}の{2}に{1}を持つカードがある", "{0} has a card with {1} in {2}"),
    "cond.stat_at_least": ("{0}の{1}が{2}の{3}以上", "the {0}'s {1} is at least the {2}'s {3}"),
    "cond.not": ("「{}」ではない", "not ({})"),
    "cond.all": ("、かつ", " and "),
    "cond.any": ("、または", " or "),
    "cond.anywhere": ("場", "play"),
    "cond.attacker": ("アタックキャラ", "attacker"),
    "cond.defender": ("防御側のキャラ", "defender"),
    "cmp.gt": ("{}より多い", "more than {}"),
    "cmp.ge": ("{}以上", "at least {}"),
    "cmp.lt": ("{}未満", "fewer than {}"),
    "cmp.le": ("{}以下", "at most {}"),
    "cmp.eq": ("{}", "exactly {}"),
    "site.code_toggle": ("ルールファイルの書き方（コード）も表示する", "also show the rule file's code"),
    "site.back_to": ("{}へ戻る", "back to {}"),
    "site.go_to": ("{}へ", "on to {}"),
    "site.timing_full": ("全ての行（生成した区切りの行と、選択肢・場合分けの中身も）",
                         "every row (with the generated boundaries and the bodies of options and cases)"),
}
