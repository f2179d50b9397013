// tcgtiming: the search page. Reads the Pagefind index of this language (built with the site), puts
// the node entries first, and writes every result as text (the excerpt's <mark> kept as elements).
// On file:// a browser refuses to fetch the index: the page says so instead of showing nothing.
(async function () {
  "use strict";
  const status = document.getElementById("tcg-search-status");
  const list = document.getElementById("tcg-search-results");
  const input = document.querySelector("form.tcg-search-page input");
  if (!status || !list) return;
  const say = (key, n) => { status.textContent = (status.dataset[key] || "").replace("{}", n); };
  const q = (new URLSearchParams(location.search).get("q") || "").trim();
  if (input) input.value = q;
  if (location.protocol === "file:") { say("file"); status.classList.add("tcg-warn"); return; }
  if (!q) { say("empty"); return; }
  say("loading");
  let pagefind;
  try {
    pagefind = await import(new URL("../pagefind/pagefind.js", document.currentScript ? document.currentScript.src : location.href).href);
  } catch (e) {
    try { pagefind = await import(new URL("pagefind/pagefind.js", location.href).href); }
    catch (e2) { say("failed"); status.classList.add("tcg-warn"); return; }
  }
  await pagefind.options({ baseUrl: location.pathname.replace(/[^/]*$/, ""), excerptLength: 24 });
  const found = await pagefind.search(q);
  const data = await Promise.all(found.results.slice(0, 40).map((r) => r.data()));
  const nodes = data.filter((d) => d.meta && d.meta.kind === "node");
  const pages = data.filter((d) => !(d.meta && d.meta.kind === "node"));
  const text = (html) => new DOMParser().parseFromString(html, "text/html").body.textContent;
  const excerpt = (html) => {
    const p = document.createElement("p");
    html.split(/(<mark>.*?<\/mark>)/).forEach((part) => {
      if (part.startsWith("<mark>")) {
        const m = document.createElement("mark");
        m.textContent = text(part.slice(6, -7));
        p.appendChild(m);
      } else {
        p.appendChild(document.createTextNode(text(part)));
      }
    });
    return p;
  };
  for (const d of nodes.concat(pages)) {
    const li = document.createElement("li");
    li.className = d.meta && d.meta.kind === "node" ? "tcg-hit tcg-hit-node" : "tcg-hit tcg-hit-page";
    const a = document.createElement("a");
    a.href = d.meta && d.meta.url ? new URL(d.meta.url, new URL(d.url, location.href)).href : d.url;
    a.textContent = (d.meta && d.meta.title) || d.url;
    li.appendChild(a);
    if (d.meta && d.meta.where) {
      const where = document.createElement("span");
      where.className = "tcg-where";
      where.textContent = d.meta.where;
      li.appendChild(where);
    }
    li.appendChild(excerpt(d.excerpt || ""));
    list.appendChild(li);
  }
  say(data.length ? "count" : "none", found.results.length);
})();
