"""A chart on a page: the frame that fits the content width (pan and zoom by assets/chart.js inside
the SVG, the buttons here), and the chart's legend in HTML beside it, with only what the chart uses
(the SVG drawn for the site has no legend of its own, so nothing widens it)."""
from __future__ import annotations

from markupsafe import Markup

from ..charts import EDGE_STYLE, HIGHLIGHT, KIND_ORDER, NODE_STYLE, Chart, ui
from ..charts.style import EDGE_ORDER
from .markup import h, w

_SHAPE = {"box": "box", "tab": "box", "diamond": "diamond", "hexagon": "hexagon", "cds": "flag", "rarrow": "arrow",
          "doubleoctagon": "octagon"}


def _node_sample(kind: str) -> Markup:
    st = NODE_STYLE[kind] if kind != "visited" else {**NODE_STYLE["step"], "color": HIGHLIGHT, "style": "rounded,bold"}
    dashed = "dashed" in st.get("style", "")
    rounded = "rounded" in st.get("style", "")
    css = (f"border-color:{st.get('color', '#000')};background:{st.get('fillcolor', '#fff')};"
           f"color:{st.get('fontcolor', '#000')};border-style:{'dashed' if dashed else 'solid'};"
           f"border-width:{'3px' if st.get('peripheries') == '2' or 'bold' in st.get('style', '') else '1px'};"
           f"border-radius:{'6px' if rounded else '0'}")
    shape = _SHAPE.get(st.get("shape", "box"), "box")
    return h("span", "", class_=f"tcg-lg-node tcg-lg-{shape}", style=css, aria_hidden="true")


def _edge_sample(kind: str) -> Markup:
    st = EDGE_STYLE.get(kind, {}) if kind != "visited" else {"color": HIGHLIGHT, "penwidth": "3"}
    colour = st.get("color", "#000000")
    width = st.get("penwidth", "2" if "bold" in st.get("style", "") else "1.2")
    dash = ' stroke-dasharray="5 3"' if "dashed" in st.get("style", "") else ""
    return Markup(f'<svg class="tcg-lg-edge" width="38" height="10" viewBox="0 0 38 10" aria-hidden="true">'
                  f'<line x1="1" y1="5" x2="30" y2="5" stroke="{colour}" stroke-width="{width}"{dash}/>'
                  f'<path d="M29 1 L37 5 L29 9 Z" fill="{colour}"/></svg>')


def legend_html(ch: Chart, lang: str) -> Markup:
    """The legend of a chart: the kinds of node and of edge it draws, in the legend's order."""
    used, eused = {n.kind for n in ch.nodes}, {e.kind for e in ch.edges}
    items = [h("li", _node_sample(k), " ", ui("k." + k, lang), class_=f"k-{k}") for k in KIND_ORDER if k in used]
    if ch.traced:
        items.append(h("li", _node_sample("visited"), " ", ui("k.visited", lang), class_="k-visited"))
    edges = [h("li", _edge_sample(k), " ", ui("e." + k, lang)) for k in EDGE_ORDER if k in eused]
    if ch.traced:
        edges.append(h("li", _edge_sample("visited"), " ", ui("e.visited", lang)))
    hint = ui("hint", lang) + (" " + ui("s.hint", lang) if ch.kind == "overview" else "")
    return h("details", h("summary", ui("legend", lang)), h("ul", *items, class_="tcg-lg-nodes"),
             h("ul", *edges, class_="tcg-lg-edges"), h("p", hint, class_="tcg-lg-hint"), class_="tcg-legend", open=True)


def chart_frame(obj: Markup, legend: Markup, lang: str) -> Markup:
    """The chart's frame: the zoom buttons (they work through assets/chart.js inside the SVG), the
    chart, its legend."""
    tools = h("div", *(h("button", label, type="button", data_chart=act, title=w(f"zoom_{act}", lang),
                         aria_label=w(f"zoom_{act}", lang)) for act, label in (("in", "+"), ("out", "−"), ("fit", "⤢"))),
              h("span", w("zoom_hint", lang), class_="tcg-zoom-hint"), class_="tcg-zoom", hidden=True)
    return h("figure", tools, h("div", obj, class_="tcg-chart"), legend, class_="tcg-chart-frame")





def traced_legend(game, lang: str) -> Markup:
    """The legend of the turn chart with a run drawn over it."""
    from ..charts import build_chart

    ch = build_chart(game, "turn", lang)
    ch.traced = True
    return legend_html(ch, lang)
