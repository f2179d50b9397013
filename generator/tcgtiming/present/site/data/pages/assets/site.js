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
})();
