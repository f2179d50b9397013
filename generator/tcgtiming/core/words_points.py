"""The catalogue's words for decision points (``tcgtiming points``, the site's node entries), in
Japanese and English; ``core.words`` adds them to ``WORDS``."""
from __future__ import annotations

POINT_WORDS: dict[str, tuple[str, str]] = {
    "points.title": ("{0}: 決定の場面 {1}か所", "{0}: {1} decision points"),
    "points.line": ("{0}。{1}", "{0}; {1}"),
    "points.who": ("決めるのは{0}", "decided by {0}"),
    "points.nobody": ("（ルールが決める）", "(the rules)"),
    "points.self": ("ルール処理の対象のプレイヤー", "the player the rule process applies to"),
    "points.plays": ("プレイできるもの: {0}（行動できるのは{1}）", "plays allowed: {0} (who may act: {1})"),
    "points.ask.option": ("選択肢を1つ選ぶ", "picks one option"),
    "points.ask.may": ("行うかどうか", "does it or not"),
    "points.ask.card": ("カードを1枚選ぶ", "picks a card"),
    "points.ask.cards": ("カードを選ぶ", "picks cards"),
    "points.ask.paying": ("コストを払うカードを選べる", "may pick the cards that pay a play's cost"),
    "points.ask.window": ("パスするかプレイする（優先権を先に持つ）", "passes or plays (holds priority first)"),
    "points.ask.pending": ("待機中の能力から解決するものを選ぶ（コストを払うか）", "picks which pending ability resolves (and whether to pay its cost)"),
}
