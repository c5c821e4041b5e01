// The search page's script. The field's text goes to /ws on every input; the server answers with
// the events of docs/events.md. What the page shows follows three rules that make it feel right
// on a slow connection:
// - Only the answer to the server's latest `search` is shown: an answer to a superseded term never
//   replaces a newer one (the server's events arrive in order, so "latest" is well defined).
// - Results on screen that no longer match the field's text are stale: dimmed (after a short
//   delay, so a quick answer replaces them without a blink) and marked busy, never removed until
//   their replacement is there, so the list does not flicker while typing.
// - Every state is visible and announced: searching, waiting for the rate budget, no results,
//   a failed search or category, a lost connection.
// The listbox follows the WAI-ARIA combobox pattern: options in one group per category, the
// active one named by the field's aria-activedescendant.

extension SearchPage {
  /// The page's script (plain JavaScript, no framework).
  static let script = """
    "use strict";
    const field = document.getElementById("q");
    const list = document.getElementById("results");
    const status = document.getElementById("status");
    const picked = document.getElementById("picked");
    const quote = (term) => "\\u201c" + term + "\\u201d";
    const normal = (text) => text.trim().replace(/\\s+/g, " ");
    let socket = null, attempts = 0;
    let searched = null;   // the term of the server's latest search
    let shown = null;      // the term whose results are in the list
    let partial = null;    // categories answered so far, while a progressive search goes on
    let answer = "";       // what the status says about the results shown
    let options = [], active = -1;

    function connect() {
      const next = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      next.onopen = () => {
        socket = next; attempts = 0;
        if (normal(field.value)) { socket.send(field.value); setStatus("Searching " + quote(normal(field.value)) + "\\u2026", "busy"); }
        else setStatus("");
      };
      next.onmessage = (message) => {
        let event;
        try { event = JSON.parse(message.data); } catch (error) { return; }
        handle(event);
      };
      next.onclose = () => {
        if (socket === next) socket = null;
        attempts += 1;
        setStatus("Connection lost; reconnecting\\u2026", "error");
        markStale(true);
        setTimeout(connect, Math.min(10000, 250 * 2 ** attempts));
      };
    }
    function send(text) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(text); }
    function setStatus(text, kind) {
      if (status.textContent !== text) status.textContent = text;
      status.className = kind || "";
    }
    function markStale(stale) {
      list.classList.toggle("stale", stale);
      list.setAttribute("aria-busy", stale ? "true" : "false");
    }
    function handle(event) {
      switch (event.type) {
      case "search":
        searched = event.term; partial = null;
        if (event.term === normal(field.value)) setStatus("Searching " + quote(event.term) + "\\u2026", "busy");
        break;
      case "waiting":
        if (event.term === searched) setStatus("Waiting for the rate limit, about " + Math.ceil(event.wait_ms / 1000) + " s\\u2026", "busy");
        break;
      case "partial":
        if (event.term !== searched) return;
        if (!partial) partial = new Map();
        for (const category of event.categories || []) partial.set(category.category, category);
        show(event.term, [...partial.values()], false);
        break;
      case "results":
        if (event.term !== searched) return;
        partial = null;
        show(event.term, event.categories || [], true);
        break;
      case "error":
        if (event.term !== searched) return;
        answer = "";
        setStatus("Search for " + quote(event.term) + " failed: " + event.error.message, "error");
        markStale(shown !== null);
        break;
      case "cancelled":
        if (event.reason === "shutdown") setStatus("The server is stopping", "error");
        break;
      case "cleared":
        searched = null; partial = null;
        if (!normal(field.value)) { clear(); setStatus(""); }
        break;
      }
    }
    function clear() {
      list.replaceChildren(); list.dataset.term = ""; options = []; active = -1; shown = null; answer = "";
      markStale(false);
      field.setAttribute("aria-expanded", "false"); field.removeAttribute("aria-activedescendant");
    }
    function show(term, categories, final) {
      const keep = active >= 0 && shown === term ? options[active].key : null;
      const items = [], failed = [], groups = document.createDocumentFragment();
      for (const category of categories) {
        if (category.error) { failed.push(category.category + " (" + category.error.message + ")"); continue; }
        if (!category.items || category.items.length === 0) continue;
        const group = document.createElement("li");
        group.setAttribute("role", "group");
        const label = document.createElement("div");
        label.className = "group"; label.id = "group-" + category.category; label.textContent = category.category;
        group.setAttribute("aria-labelledby", label.id);
        const members = document.createElement("ul");
        members.setAttribute("role", "none");
        for (const item of category.items.slice(0, 5)) {
          const index = items.length;
          const option = document.createElement("li");
          option.setAttribute("role", "option");
          option.id = "option-" + index;
          option.setAttribute("aria-selected", "false");
          const meta = document.createElement("span");
          meta.className = "meta";
          meta.textContent = [item.artist, item.release_year].filter(Boolean).join(" \\u00b7 ");
          option.append(item.title || "", meta);
          option.addEventListener("mousedown", (e) => { e.preventDefault(); select(index); choose(index); });
          members.append(option);
          items.push({item, category: category.category, key: category.category + ":" + item.id});
        }
        group.append(label, members);
        groups.append(group);
      }
      list.replaceChildren(groups);
      list.dataset.term = term;
      options = items; shown = term; active = -1;
      field.setAttribute("aria-expanded", items.length > 0 ? "true" : "false");
      field.removeAttribute("aria-activedescendant");
      const again = keep === null ? -1 : items.findIndex((entry) => entry.key === keep);
      if (again >= 0) select(again);
      answer = items.length > 0 ? items.length + " result" + (items.length === 1 ? "" : "s") + " for " + quote(term)
        : final ? "No results for " + quote(term) : "";
      const current = term === normal(field.value);
      markStale(!current || !final);
      if (!current) return;
      if (failed.length > 0) setStatus(answer + (answer ? "; " : "") + "no answer from " + failed.join(", "), "error");
      else if (final) setStatus(answer);
    }
    function select(index) {
      const all = list.querySelectorAll("[role=option]");
      all.forEach((option, i) => option.setAttribute("aria-selected", i === index ? "true" : "false"));
      active = index;
      if (index >= 0 && all[index]) {
        field.setAttribute("aria-activedescendant", all[index].id);
        all[index].scrollIntoView({block: "nearest"});
      } else field.removeAttribute("aria-activedescendant");
    }
    function choose(index) {
      const entry = options[index];
      if (!entry) return;
      picked.textContent = "Chosen: " + (entry.item.title || "") + (entry.item.artist ? " \\u2014 " + entry.item.artist : "");
      send(JSON.stringify({pick: {term: shown, category: entry.category, id: entry.item.id, title: entry.item.title}}));
    }
    field.addEventListener("input", () => {
      const term = normal(field.value);
      if (!term) { clear(); setStatus(""); }
      else if (term === shown) { markStale(false); setStatus(answer); }
      else {
        markStale(shown !== null);
        if (socket) setStatus("Searching " + quote(term) + "\\u2026", "busy");
      }
      send(field.value);
    });
    field.addEventListener("keydown", (e) => {
      if (e.isComposing) return;
      if (e.key === "ArrowDown" && options.length) { e.preventDefault(); select(Math.min(active + 1, options.length - 1)); }
      else if (e.key === "ArrowUp" && options.length) { e.preventDefault(); select(Math.max(active - 1, 0)); }
      else if (e.key === "Enter" && active >= 0) { e.preventDefault(); choose(active); }
      else if (e.key === "Escape") { e.preventDefault(); field.value = ""; clear(); setStatus(""); send(""); }
    });
    connect();
    """
}
