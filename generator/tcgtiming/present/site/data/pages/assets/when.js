// tcgtiming "May I play now?": filter the timings by kind of play, player and phase, in the page.
// The status of each row is worked out from its data attributes (data-by: the kinds only some players
// may play, and who; data-if: the kinds some players may play only if a condition holds then) the way
// `tcgtiming when` does it: closed (no one plays), other kinds only, the other player only, depends on
// the state, or open. No server, no request.
(function () {
  "use strict";
  const form = document.getElementById("tcg-when-filter");
  const table = document.getElementById("tcg-when");
  if (!form || !table) return;
  const rows = Array.from(table.tBodies[0].rows);
  const count = document.getElementById("tcg-when-count");
  const words = {
    open: form.dataset.statusOpen, depends: form.dataset.statusDepends, closed: form.dataset.statusClosed,
    other_kind: form.dataset.statusOtherKind, other_player: form.dataset.statusOtherPlayer,
  };
  function status(row, play, seat) {
    const type = row.dataset.type;
    if (type !== "window" && type !== "action") return "closed";
    const plays = row.dataset.plays.split(" ").filter(Boolean);
    if (!plays.length) return "closed";
    if (play && plays.indexOf(play) < 0) return "other_kind";
    const rowSeats = row.dataset.seats.split(" ");
    if (seat && rowSeats.indexOf(seat) < 0) return "other_player";
    // kinds only some players may play (a timing a text names, a condition naming the player's role), and
    // kinds some may play only if a condition holds then (the stack empty): "kind:seat,seat ..."
    const seatsOf = function (attr) {
      const out = {};
      for (const x of (attr || "").split(" ").filter(Boolean)) out[x.split(":")[0]] = x.split(":")[1].split(",").filter(Boolean);
      return out;
    };
    const by = seatsOf(row.dataset.by), cond = seatsOf(row.dataset.if);
    const seats = seat ? [seat] : rowSeats;
    let depends = false;
    for (const k of (play ? [play] : plays)) {
      for (const s of seats) {
        if (by[k] && by[k].indexOf(s) < 0) continue;
        if (cond[k] && cond[k].indexOf(s) >= 0) { depends = true; continue; }
        return "open";
      }
    }
    return depends ? "depends" : "other_player";
  }
  function apply() {
    const play = form.elements.play.value, seat = form.elements.player.value, phase = form.elements.phase.value;
    const onlyOpen = form.elements.open.checked;
    let shown = 0;
    for (const row of rows) {
      const s = status(row, play, seat);
      row.className = row.className.replace(/\bs-\S+/, "s-" + s);
      row.querySelector(".tcg-when-status").textContent = words[s];
      const inPhase = !phase || row.dataset.phase === phase || row.dataset.step === phase;
      row.hidden = !inPhase || (onlyOpen && s !== "open");
      if (!row.hidden) shown += 1;
    }
    count.textContent = form.dataset.shown.replace("{}", String(shown));
    const q = new URLSearchParams();
    for (const k of ["play", "player", "phase"]) if (form.elements[k].value) q.set(k, form.elements[k].value);
    if (onlyOpen) q.set("open", "1");
    const hash = q.toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }
  // a filter in the address (#play=counter&player=non_turn) is restored, so that a link keeps it
  const given = new URLSearchParams(location.hash.slice(1));
  for (const k of ["play", "player", "phase"]) {
    const v = given.get(k);
    if (v && Array.from(form.elements[k].options).some(function (o) { return o.value === v; })) form.elements[k].value = v;
  }
  form.elements.open.checked = given.get("open") === "1";
  form.hidden = false;
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  apply();
})();
