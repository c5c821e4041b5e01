// What the interactive screen knows, fed by keys and by the pipeline's events: the field, the
// latest search and its answer, the selection, and the status. Plain values, tested on their own;
// the controller owns one behind a lock and draws it with InteractiveView.
import Pipeline

/// The state of an interactive session.
///
/// Only the answer to the latest `search` event is shown: results, partials and errors for any
/// other term are superseded and never reach the screen, even if they arrive late.
struct InteractiveState: Sendable {
  /// What the status line reports.
  enum Status: Equatable, Sendable {
    /// Nothing searched yet, or the field was cleared.
    case idle
    /// A search for the term started and has not answered.
    case searching(String)
    /// A search for the term waits this long, at the most, for the rate budget before it can
    /// send (the longest wait any of its categories was told).
    case waitingForBudget(String, milliseconds: Int64)
    /// The search for the term answered.
    case answered(String, count: Int, origins: [ItemOrigin], elapsedMilliseconds: Int64)
    /// Every category of the search for the term failed.
    case failed(String, message: String)
  }

  /// The search field.
  var field = FieldEditor()
  /// The term of the latest `search` event; nil before the first and after a clear.
  private(set) var searchedTerm: String?
  /// The latest search's answer so far, by category, in the order asked.
  private(set) var results: [CategoryResult] = []
  /// The selected row among ``items``, from 0.
  private(set) var selection = 0
  /// What the status line says.
  private(set) var status = Status.idle
  /// Requests sent to the source so far.
  var requests = 0

  /// Every item shown, in screen order, with its category.
  var items: [(category: Category, item: SearchItem)] {
    results.flatMap { result -> [(category: Category, item: SearchItem)] in
      guard case .items(let items, _) = result.outcome else { return [] }
      return items.map { (result.category, $0) }
    }
  }

  /// The selected item, if there are any.
  var selectedItem: SearchItem? {
    let items = items
    return items.indices.contains(selection) ? items[selection].item : nil
  }

  /// Moves the selection by `offset` rows, staying on the list.
  mutating func moveSelection(by offset: Int) {
    selection = max(0, min(items.count - 1, selection + offset))
  }

  /// Takes one pipeline event.
  mutating func apply(_ event: SearchEvent) {
    switch event.kind {
    case .search(let term):
      // The old answer stays visible while the new one is on its way.
      searchedTerm = term
      status = .searching(term)
    case .partial(let term, let category):
      guard term == searchedTerm else { return }
      var shown = resultsTerm == term ? results : []
      if let index = shown.firstIndex(where: { $0.category == category.category }) {
        shown[index] = category
      } else {
        shown.append(category)
      }
      show(shown, for: term)
    case .results(let term, _, let categories, let elapsed):
      guard term == searchedTerm else { return }
      show(categories, for: term)
      let origins = categories.compactMap { result -> ItemOrigin? in
        if case .items(_, let origin) = result.outcome { origin } else { nil }
      }
      status = .answered(
        term, count: items.count, origins: ItemOrigin.allCases.filter(origins.contains),
        elapsedMilliseconds: elapsed)
    case .error(let term, let error):
      guard term == searchedTerm else { return }
      show([], for: term)
      status = .failed(term, message: error.message)
    case .cleared:
      searchedTerm = nil
      show([], for: nil)
      status = .idle
    case .waiting(let term, _, let wait):
      // Said at once when a request must wait for a permit, so the person knows why nothing comes.
      switch status {
      case .searching(term):
        status = .waitingForBudget(term, milliseconds: wait)
      case .waitingForBudget(term, let longest):
        status = .waitingForBudget(term, milliseconds: max(longest, wait))
      default:
        break
      }
    case .cancelled, .inputError, .summary:
      // A cancelled search is followed by the newer one's events; the screen makes no bad lines
      // and ends before the summary matters.
      break
    }
  }

  /// The term ``results`` answer; the selection goes back to the top when it changes.
  private var resultsTerm: String?

  private mutating func show(_ categories: [CategoryResult], for term: String?) {
    if term != resultsTerm { selection = 0 }
    resultsTerm = term
    results = categories
    moveSelection(by: 0)
  }
}
