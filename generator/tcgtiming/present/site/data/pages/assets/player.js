/* The trace player of a scenario page (present/site/player.py writes its data). Steps through the
   run's entries; rebuilds the zones from the changes; marks the entry's node on the page's chart.
   Every text from the data is put in as text (textContent), never as markup. */
(function () {
  "use strict";
  var root = document.querySelector(".tcg-player");
  if (!root) return;
  var data = JSON.parse(root.querySelector(".tcg-player-data").textContent);
  var W = JSON.parse(root.querySelector(".tcg-player-words").textContent);
  var E = data.entries, every = false, at = 0;
  var range = root.querySelector("input[type=range]");
  var now = root.querySelector(".tcg-player-now"), panels = root.querySelector(".tcg-player-panels");
  root.classList.add("tcg-player-on");

  function shown() { var out = []; for (var i = 0; i < E.length; i++) if (every || E[i][11]) out.push(i); return out; }
  var order = shown();

  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }

  function zonesAt(i) {  // the starting zones, then every change of entries 0..i
    var owner = {}, where = {}, state = {}, damage = {}, order = [], values = {};
    Object.keys(data.values || {}).forEach(function (p) {
      values[p] = {}; data.values[p].forEach(function (nv) { values[p][nv[0]] = nv[1]; });
    });
    Object.keys(data.zones).forEach(function (p) {
      data.zones[p].forEach(function (zc) { zc[1].forEach(function (c) { owner[c] = p; where[c] = zc[0]; order.push(c); }); });
    });
    Object.keys(data.cards).forEach(function (c) { state[c] = data.cards[c][1]; });
    for (var k = 0; k <= i; k++) {
      E[k][10].forEach(function (ch) {
        if (ch[0] === "move") { where[ch[1]] = ch[3]; if (ch[3] !== data.stage) delete damage[ch[1]]; var j = order.indexOf(ch[1]); if (j >= 0) order.splice(j, 1); order.push(ch[1]); }
        else if (ch[0] === "state") state[ch[1]] = ch[3];
        else if (ch[0] === "damage") damage[ch[1]] = ch[3];
        else if (ch[0] === "value") (values[ch[1]] = values[ch[1]] || {})[ch[2]] = ch[4];
      });
    }
    var out = {};
    order.forEach(function (c) {
      var p = owner[c], z = where[c];
      if (!p || !z) return;
      out[p] = out[p] || {}; (out[p][z] = out[p][z] || []).push(c);
    });
    return {zones: out, state: state, damage: damage, values: values};
  }

  function charts() {  // the chart SVG documents on the page (inline, or inside <object>)
    var docs = [document];
    document.querySelectorAll("object[type='image/svg+xml']").forEach(function (o) {
      try { if (o.contentDocument) docs.push(o.contentDocument); } catch (e) { /* another origin */ }
    });
    return docs;
  }

  function mark(entry) {
    var ids = [entry[2], entry[4], entry[3]].filter(Boolean);
    charts().forEach(function (doc) {
      doc.querySelectorAll(".tcg-player-here").forEach(function (g) { g.classList.remove("tcg-player-here"); });
      for (var k = 0; k < ids.length; k++) {
        var g = doc.getElementById("n:" + ids[k]);
        if (g) {
          g.classList.add("tcg-player-here");
          if (doc !== document && !doc.getElementById("tcg-player-style")) {
            var s = doc.createElementNS("http://www.w3.org/2000/svg", "style");
            s.id = "tcg-player-style";
            s.textContent = ".tcg-player-here polygon,.tcg-player-here ellipse,.tcg-player-here path{stroke:#d00;stroke-width:4px}";
            doc.documentElement.appendChild(s);
          }
          break;
        }
      }
    });
  }

  function show() {
    var i = order[at], e = E[i];
    range.max = String(order.length - 1); range.value = String(at);
    now.textContent = "";
    var head = el("p", null, "tcg-player-head");
    head.appendChild(el("strong", "#" + e[0] + " / " + E[E.length - 1][0]));
    head.appendChild(document.createTextNode(" · " + W.turn + " " + e[1] + " · "));
    var a = el("a", e[2]); a.href = data.hrefs[e[2]] || "#"; a.className = "tcg-player-node";
    head.appendChild(a);
    if (e[5]) head.appendChild(document.createTextNode(" · " + e[5]));
    now.appendChild(head);
    now.appendChild(el("p", e[6], "tcg-player-what"));
    root.dataset.node = e[2]; root.dataset.seq = String(e[0]);
    panels.textContent = "";
    function panel(title, text) { var d = el("div", null, "tcg-player-panel"); d.appendChild(el("h4", title)); d.appendChild(el("p", text || W.nothing)); panels.appendChild(d); return d; }
    panel(W.stack, e[8]); panel(W.pending, e[7]); panel(W.priority, e[9]);
    var b = zonesAt(i), z = panel(W.zones, ""); z.removeChild(z.lastChild);
    data.players.forEach(function (pl) {
      var zs = b.zones[pl[0]] || {};
      var vs = b.values[pl[0]] || {}, said = Object.keys(vs).sort().map(function (v) { return (data.value_names[v] || v) + " " + vs[v]; });
      var t = el("table", null, "tcg-player-zones"), cap = el("caption", pl[1] + (said.length ? " · " + said.join(" · ") : ""));
      t.appendChild(cap);
      Object.keys(zs).forEach(function (zn) {
        var tr = el("tr"); tr.dataset.zone = zn; tr.dataset.player = pl[0];
        tr.appendChild(el("th", data.zone_names[zn] || zn));
        tr.appendChild(el("td", zs[zn].map(function (c) {
          var n = (data.cards[c] || [c])[0], s = b.state[c];
          return n + (s ? " (" + (data.states[s] || s) + ")" : "") + (b.damage[c] ? " ×" + b.damage[c] : "");
        }).join(", ")));
        tr.dataset.cards = zs[zn].join(" ");
        t.appendChild(tr);
      });
      z.appendChild(t);
    });
    mark(e);
  }

  function go(k) { at = Math.max(0, Math.min(order.length - 1, k)); show(); }
  root.addEventListener("click", function (ev) {
    var t = ev.target.closest("[data-act]");
    if (!t || t.type === "checkbox") return;
    var act = t.dataset.act;
    go(act === "first" ? 0 : act === "last" ? order.length - 1 : act === "back" ? at - 1 : at + 1);
  });
  root.querySelector("input[data-act=every]").addEventListener("change", function (ev) {
    var seq = E[order[at]][0]; every = ev.target.checked; order = shown();
    var k = 0; for (var j = 0; j < order.length; j++) if (E[order[j]][0] <= seq) k = j;
    go(k);
  });
  range.addEventListener("input", function () { go(parseInt(range.value, 10)); });
  root.addEventListener("keydown", function (ev) {
    var k = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: order.length - 1}[ev.key];
    if (k !== undefined && ev.target.type !== "range") { ev.preventDefault(); go(k); }
  });
  root.tabIndex = 0;
  window.addEventListener("load", function () { mark(E[order[at]]); });
  go(0);
})();
