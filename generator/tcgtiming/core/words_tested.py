"""The catalogue's words for what a branch tested (``engine.witness``): each predicate's value as the
trace tells it, in Japanese and English; ``core.words`` adds them to ``WORDS``."""
from __future__ import annotations

TESTED_WORDS: dict[str, tuple[str, str]] = {
    "event.case.tested": ("{0} → {1}（{2}）", "{0} → {1} ({2})"),
    "event.otherwise.tested": ("{0} → どれにも当たらない（{1}）", "{0} → no case holds ({1}): otherwise"),
    "event.loop.tested": ("{0}（{1}）", "{0} ({1})"),
    "tested.case": ("「{0}」: {1}", "'{0}': {1}"),
    "tested.fact": ("{0} {1}", "{0} {1}"),
    "tested.holds": ("→成立", "→ holds"),
    "tested.fails": ("→不成立", "→ does not hold"),
    "tested.yes": ("はい", "yes"),
    "tested.no": ("いいえ", "no"),
    "tested.always": ("条件なし", "no condition"),
    "tested.count": ("{0}の{1}: {2}枚", "{0}'s {1}: {2} card(s)"),
    "tested.has_state": ("{0}の{1}で{3}のカード: {2}枚", "{0}'s {1}: {2} card(s) {3}"),
    "tested.has_pending": ("{0}の待機中の自動能力: {1}個", "{0}'s abilities waiting: {1}"),
    "tested.has_type": ("{0}のその種類のカード: {1}枚", "{0}'s cards of that type: {1}"),
    "tested.has_keyword": ("{0}のそのキーワードを持つカード: {1}枚", "{0}'s cards with that keyword: {1}"),
    "tested.can_attack": ("{0}のアタックできるキャラ: {1}人", "{0}'s characters able to attack: {1}"),
    "tested.lost": ("{0}の敗北: {1}", "{0} has lost: {1}"),
    "tested.played_this_turn": ("{0}がこのターンにプレイした数: {1}", "{0}'s plays of that kind this turn: {1}"),
    "tested.attacks_this_turn": ("このターンのアタック回数: {0}", "attacks this turn: {0}"),
    "tested.first_attack_of_turn": ("このターンのアタック回数: {0}", "attacks this turn: {0}"),
    "tested.damage_left": ("残りのダメージ: {0}", "damage left: {0}"),
    "tested.stack_empty": ("解決を待つもの: {0}個", "waiting to resolve: {0}"),
    "tested.revealed_is": ("めくったカード: {0}", "the card revealed: {0}"),
    "tested.chosen_has": ("選んだカード: {0}", "the card chosen: {0}"),
    "tested.active_has": ("アクティブキャラクター: {0}", "the active character: {0}"),
    "tested.chose": ("{0}で選んだもの: {1}", "chosen at {0}: {1}"),
    "tested.stat_at_least": ("{0}の{1} {2}、{3}の{4} {5}", "the {0}'s {1} {2}, the {3}'s {4} {5}"),
    "tested.other": ("条件", "condition"),
}
