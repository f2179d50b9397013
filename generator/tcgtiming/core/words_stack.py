"""The catalogue's words for the stack and priority constructs of windows (``before_priority``,
``stack_pending``, ``resolve: top``) and for skipped steps. Part of ``words.WORDS`` (merged there)."""
from __future__ import annotations

STACK_WORDS: dict[str, tuple[str, str]] = {
    "event.before_priority": ("優先権の前に: {}", "before priority: {}"),
    "event.stack_pending": ("スタックに置く: {}", "onto the stack: {}"),
    "event.stack_pending.none": ("スタックに置く能力なし", "no ability to put on the stack"),
    "event.skipped": ("{}を飛ばす", "{}: skipped"),
    "stat.toughness": ("タフネス", "toughness"),
    "chart.before_priority": ("優先権の前に毎回: {}", "before each priority: {}"),
    "chart.r.top": ("一番上の1つだけ解決", "resolves the top object only"),
}
