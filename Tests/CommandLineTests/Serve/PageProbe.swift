// What the browser tests read from the search page: a recorder installed in the page that notes
// every state it went through (so that a verdict about order never depends on when the test
// looked), the conditions they wait for, and the page's state now.
import Foundation

/// Scripts run in the search page, and the state they report.
enum PageProbe {
  /// Notes (list's term, status, whether busy) each time the page changes, in `window.seen`.
  static let recorder = """
    window.seen = [];
    const list = document.getElementById("results"), status = document.getElementById("status");
    const note = () => {
      const now = {term: list.dataset.term || "", status: status.textContent, busy: status.className === "busy"};
      const last = window.seen[window.seen.length - 1];
      if (!last || last.term !== now.term || last.status !== now.status || last.busy !== now.busy) window.seen.push(now);
    };
    new MutationObserver(note).observe(document.body,
      {subtree: true, childList: true, attributes: true, characterData: true});
    """

  /// True once the list holds the final results for `term` and the field still says `term`.
  static func settled(_ term: String) -> String {
    let literal = String(decoding: (try? JSONEncoder().encode(term)) ?? Data("\"\"".utf8), as: UTF8.self)
    return """
      document.getElementById("results").dataset.term === \(literal)
        && document.getElementById("q").value.trim() === \(literal)
        && !document.getElementById("results").classList.contains("stale")
        && document.getElementById("status").className !== "busy"
      """
  }

  /// Every prefix of `text` as the server names the term it searched (trimmed, spaces collapsed).
  static func prefixes(_ text: String) -> [String] {
    var terms: [String] = []
    for end in text.indices.dropFirst() + [text.endIndex] {
      let term = text[..<end].split(separator: " ").joined(separator: " ")
      if terms.last != term { terms.append(term) }
    }
    return terms
  }

  /// One state the recorder noted.
  struct Seen: Decodable, CustomStringConvertible {
    let term: String
    let status: String
    let busy: Bool
    var description: String { "\(term)|\(status)\(busy ? "|busy" : "")" }
  }

  /// A category's group in the listbox: its label and its options' titles.
  struct Group: Decodable {
    let label: String
    let options: [String]
  }

  /// The page now.
  struct State: Decodable {
    let value: String
    let term: String
    let status: String
    let statusKind: String
    let stale: Bool
    let expanded: String?
    let active: String?
    let selected: [String]
    let groups: [Group]
    let picked: String
    let seen: [Seen]
  }

  /// Waits until `condition` holds in the page; a hang fails naming the page's state then.
  static func wait(_ browser: WebDriver, _ condition: String) async throws {
    do {
      _ = try await browser.waitUntil(condition)
    } catch {
      let page = try? await state(browser)
      let described = page.map {
        "field \"\($0.value)\", list for \"\($0.term)\", status \"\($0.status)\" (\($0.statusKind)), went through \($0.seen)"
      }
      throw WebDriver.Failure(description: "\(error); the page: \(described ?? "unreadable")")
    }
  }

  static func state(_ browser: WebDriver) async throws -> State {
    let script = """
      const list = document.getElementById("results"), field = document.getElementById("q");
      const status = document.getElementById("status");
      return JSON.stringify({
        value: field.value, term: list.dataset.term || "", status: status.textContent, statusKind: status.className,
        stale: list.classList.contains("stale"),
        expanded: field.getAttribute("aria-expanded"), active: field.getAttribute("aria-activedescendant"),
        selected: [...list.querySelectorAll("[role=option][aria-selected=true]")].map((o) => o.id),
        groups: [...list.querySelectorAll("[role=group]")].map((g) => ({
          label: document.getElementById(g.getAttribute("aria-labelledby")).textContent,
          options: [...g.querySelectorAll("[role=option]")].map((o) => o.firstChild.textContent.trim())})),
        picked: document.getElementById("picked").textContent, seen: window.seen || []});
      """
    guard let text = try await browser.run(script) as? String else {
      throw WebDriver.Failure(description: "the page's state is not a string")
    }
    return try JSONDecoder().decode(State.self, from: Data(text.utf8))
  }
}
