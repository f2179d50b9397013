// tcgtiming chart: pan and zoom inside the chart's own SVG document (it runs in the page's <object>
// and in the chart opened alone, from a server or from file://). No dependency, no request.
// Zoom: the page's buttons (they post a message), Ctrl/⌘ + wheel, a double click, two fingers.
// Pan: drag with the mouse or one finger once zoomed in. A drag never follows a link.
(function () {
  "use strict";
  const svg = document.documentElement;
  if (!svg || svg.localName !== "svg") return;
  const box = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
  if (box.length !== 4 || box.some(isNaN) || !box[2] || !box[3]) return;
  const full = { x: box[0], y: box[1], w: box[2], h: box[3] };
  const MAX = 8;
  let z = 1, cx = full.x + full.w / 2, cy = full.y + full.h / 2;

  function apply() {
    z = Math.min(MAX, Math.max(1, z));
    const w = full.w / z, h = full.h / z;
    cx = Math.min(full.x + full.w - w / 2, Math.max(full.x + w / 2, cx));
    cy = Math.min(full.y + full.h - h / 2, Math.max(full.y + h / 2, cy));
    svg.setAttribute("viewBox", [cx - w / 2, cy - h / 2, w, h].map(v => v.toFixed(2)).join(" "));
    svg.style.touchAction = z > 1.001 ? "none" : "pan-y";
    svg.style.cursor = z > 1.001 ? "grab" : "";
    svg.setAttribute("data-zoom", z.toFixed(3));
    if (window.parent !== window) window.parent.postMessage({ tcgChartZoom: z }, "*");
  }
  function at(clientX, clientY) {  // a point of the screen in chart units
    const r = svg.getBoundingClientRect();
    const w = full.w / z, h = full.h / z;
    return { x: cx - w / 2 + (clientX - r.left) / r.width * w, y: cy - h / 2 + (clientY - r.top) / r.height * h };
  }
  function zoomAt(factor, clientX, clientY) {
    const r = svg.getBoundingClientRect();
    const px = clientX === undefined ? r.left + r.width / 2 : clientX;
    const py = clientY === undefined ? r.top + r.height / 2 : clientY;
    const p = at(px, py);
    const nz = Math.min(MAX, Math.max(1, z * factor));
    // keep the point under the pointer where it is
    const fx = (px - r.left) / r.width, fy = (py - r.top) / r.height;
    const w = full.w / nz, h = full.h / nz;
    cx = p.x - fx * w + w / 2;
    cy = p.y - fy * h + h / 2;
    z = nz;
    apply();
  }

  window.addEventListener("message", function (ev) {
    const d = ev.data && ev.data.tcgChart;
    if (d === "in") zoomAt(1.5);
    else if (d === "out") zoomAt(1 / 1.5);
    else if (d === "fit") { z = 1; apply(); }
  });
  svg.addEventListener("wheel", function (ev) {
    if (!(ev.ctrlKey || ev.metaKey)) return;  // a plain wheel scrolls the page
    ev.preventDefault();
    zoomAt(Math.exp(-ev.deltaY / 300), ev.clientX, ev.clientY);
  }, { passive: false });
  svg.addEventListener("dblclick", function (ev) {
    ev.preventDefault();
    zoomAt(ev.shiftKey ? 1 / 2 : 2, ev.clientX, ev.clientY);
  });

  const pointers = new Map();
  let moved = 0, pinch = null, last = null;
  svg.addEventListener("pointerdown", function (ev) {
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    moved = 0;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), z: z };
    }
    last = { x: ev.clientX, y: ev.clientY };
  });
  svg.addEventListener("pointermove", function (ev) {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.d > 0) zoomAt(pinch.z * d / pinch.d / z, (a.x + b.x) / 2, (a.y + b.y) / 2);
      moved += 10;
      ev.preventDefault();
      return;
    }
    if (z <= 1.001 || pointers.size !== 1 || !last) return;
    const r = svg.getBoundingClientRect();
    const dx = ev.clientX - last.x, dy = ev.clientY - last.y;
    moved += Math.abs(dx) + Math.abs(dy);
    cx -= dx / r.width * full.w / z;
    cy -= dy / r.height * full.h / z;
    last = { x: ev.clientX, y: ev.clientY };
    if (moved > 4) { svg.style.cursor = "grabbing"; apply(); ev.preventDefault(); }
  });
  function up(ev) {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = null;
    last = pointers.size === 1 ? [...pointers.values()][0] : null;
    svg.style.cursor = z > 1.001 ? "grab" : "";
  }
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // a drag or a pinch is not a click on the link under it
  svg.addEventListener("click", function (ev) {
    if (moved > 4) { ev.preventDefault(); ev.stopPropagation(); moved = 0; }
  }, true);
  apply();
})();
