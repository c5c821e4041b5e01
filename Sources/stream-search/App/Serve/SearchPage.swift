// `GET /`: the search page, one HTML document with its script and style inline, nothing from the
// internet. A per-response nonce in the Content-Security-Policy lets only this script and style
// run. The field is a WAI-ARIA combobox over a listbox of results grouped by category.
import Foundation
import WebServer

/// The search page.
enum SearchPage {
  /// The page with a fresh nonce, and the headers that confine it.
  static func response() -> HTTPResponse {
    var generator = SystemRandomNumberGenerator()
    let nonce = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/html; charset=utf-8")
    headers.set(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
        + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    headers.set("X-Content-Type-Options", "nosniff")
    headers.set("Referrer-Policy", "no-referrer")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(
      status: 200, headers: headers, body: Array(html.replacingOccurrences(of: "NONCE", with: nonce).utf8))
  }

  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>stream-search</title>
    <style nonce="NONCE">
    body { font: 16px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; }
    input { width: 100%; font-size: 1.2rem; padding: .5rem; box-sizing: border-box; }
    #status { min-height: 1.4em; color: #555; font-size: .9rem; }
    #status.error { color: #b00020; }
    #results.stale { opacity: .55; }
    [role=listbox] { list-style: none; padding: 0; margin: 0; }
    .group { font-weight: 600; margin: .8rem 0 .2rem; text-transform: capitalize; }
    [role=option] { padding: .3rem .5rem; border-radius: 4px; cursor: pointer; }
    [role=option][aria-selected=true] { background: #1a73e8; color: #fff; }
    .meta { color: inherit; opacity: .75; font-size: .85rem; }
    #picked { margin-top: 1rem; font-weight: 600; }
    </style>
    </head>
    <body>
    <label for="q">Search music, movies and podcasts</label>
    <input id="q" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false"
      aria-controls="results" autocomplete="off" spellcheck="false" autofocus>
    <div id="status" role="status" aria-live="polite"></div>
    <ul id="results" role="listbox" aria-label="Results"></ul>
    <div id="picked" aria-live="polite"></div>
    <script nonce="NONCE">
    "use strict";
    const field = document.getElementById("q");
    const list = document.getElementById("results");
    const status = document.getElementById("status");
    const picked = document.getElementById("picked");
    let socket = null, latest = null, shownTerm = null, options = [], active = -1;
    function connect() {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      socket.onmessage = (message) => handle(JSON.parse(message.data));
      socket.onopen = () => { if (field.value) socket.send(field.value); };
      socket.onclose = () => { setStatus("Disconnected; reconnecting…", true); setTimeout(connect, 1000); };
    }
    function setStatus(text, isError) { status.textContent = text; status.className = isError ? "error" : ""; }
    function handle(event) {
      switch (event.type) {
      case "search":
        latest = event.term;
        setStatus("Searching “" + event.term + "”…");
        list.classList.add("stale");
        break;
      case "results":
      case "partial":
        // Only the latest search's answer is shown: an answer for a superseded term never replaces it.
        if (event.term !== latest) return;
        show(event);
        if (event.type === "results") { setStatus(""); list.classList.remove("stale"); }
        break;
      case "error":
        if (event.term !== latest) return;
        setStatus("Search failed: " + event.error.message, true);
        break;
      case "cleared":
        latest = null; clear(); setStatus("");
        break;
      }
    }
    function clear() {
      list.replaceChildren(); options = []; active = -1; shownTerm = null;
      field.setAttribute("aria-expanded", "false"); field.removeAttribute("aria-activedescendant");
    }
    function show(event) {
      const categories = event.categories || (event.category ? [event.category] : []);
      const items = [];
      const groups = document.createDocumentFragment();
      for (const category of categories) {
        if (!category.items || category.items.length === 0) continue;
        const group = document.createElement("li");
        group.setAttribute("role", "presentation");
        group.className = "group";
        group.textContent = category.category;
        groups.append(group);
        for (const item of category.items.slice(0, 5)) {
          const option = document.createElement("li");
          option.setAttribute("role", "option");
          option.id = "option-" + items.length;
          option.setAttribute("aria-selected", "false");
          option.dataset.category = category.category;
          const meta = document.createElement("span");
          meta.className = "meta";
          meta.textContent = [item.artist, item.release_year].filter(Boolean).join(" · ");
          option.append(item.title + " ", meta);
          option.addEventListener("mousedown", (e) => { e.preventDefault(); pick(items.indexOf(item)); });
          groups.append(option);
          items.push(item);
        }
      }
      list.replaceChildren(groups);
      options = items; active = -1; shownTerm = event.term;
      field.removeAttribute("aria-activedescendant");
      field.setAttribute("aria-expanded", items.length > 0 ? "true" : "false");
      if (items.length === 0 && event.type === "results") setStatus("No results for “" + event.term + "”");
    }
    function select(index) {
      const all = list.querySelectorAll("[role=option]");
      all.forEach((option, i) => option.setAttribute("aria-selected", i === index ? "true" : "false"));
      active = index;
      if (index >= 0) { field.setAttribute("aria-activedescendant", all[index].id); all[index].scrollIntoView({block: "nearest"}); }
      else field.removeAttribute("aria-activedescendant");
    }
    function pick(index) {
      const item = options[index];
      if (!item) return;
      picked.textContent = "Chosen: " + item.title + (item.artist ? " — " + item.artist : "");
      if (socket && socket.readyState === 1) socket.send(JSON.stringify({pick: {term: shownTerm, id: item.id, title: item.title}}));
    }
    field.addEventListener("input", () => {
      list.classList.add("stale");
      if (socket && socket.readyState === 1) socket.send(field.value);
    });
    field.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown") { e.preventDefault(); if (options.length) select(Math.min(active + 1, options.length - 1)); }
      else if (e.key === "ArrowUp") { e.preventDefault(); if (options.length) select(Math.max(active - 1, 0)); }
      else if (e.key === "Enter") { e.preventDefault(); pick(active >= 0 ? active : 0); }
      else if (e.key === "Escape") { e.preventDefault(); field.value = ""; clear(); setStatus(""); if (socket && socket.readyState === 1) socket.send(""); }
    });
    connect();
    </script>
    </body>
    </html>
    """
}
