// tcgtiming site: small helpers, no dependency. The language switch keeps the node anchor.
(function () {
  "use strict";
  // the menu: open beside the page on a wide screen, folded above it on a narrow one
  const menu = document.querySelector("details.tcg-menu");
  if (menu && !document.body.classList.contains("tcg-home") && matchMedia("(max-width: 60rem)").matches) menu.open = false;
  for (const link of document.querySelectorAll("a[data-keep-hash]")) {
    link.addEventListener("click", function () {
      if (location.hash) link.href = link.href.split("#")[0] + location.hash;
    });
  }
  // on a narrow screen the charts' legends start folded under the chart
  if (matchMedia("(max-width: 60rem)").matches) for (const d of document.querySelectorAll("details.tcg-legend")) d.open = false;
  // the charts' zoom buttons: each asks the chart's own document (assets/chart.js inside the SVG) to zoom
  for (const frame of document.querySelectorAll(".tcg-chart-frame")) {
    const obj = frame.querySelector("object");
    const tools = frame.querySelector(".tcg-zoom");
    if (!obj || !tools) continue;
    tools.hidden = false;
    for (const b of tools.querySelectorAll("button[data-chart]")) {
      b.addEventListener("click", function () {
        if (obj.contentWindow) obj.contentWindow.postMessage({ tcgChart: b.dataset.chart }, "*");
      });
    }
  }
})();
