// What a WebSocket client sends: the field's whole text, `{"term": …}`, or `{"pick": …}` when the
// user chose an item on the page.
import Foundation

/// One text message from a search field's WebSocket.
enum ClientMessage: Equatable {
  /// The field's text now.
  case term(String)
  /// An item was chosen (counted).
  case pick
  /// A JSON object that is neither, and why.
  case invalid(String)

  init(_ text: String) {
    guard text.first == "{" else {
      self = .term(text)
      return
    }
    guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
      self = .invalid("invalid JSON")
      return
    }
    if let term = object["term"] as? String {
      self = .term(term)
    } else if object["pick"] != nil {
      self = .pick
    } else {
      self = .invalid("expected {\"term\": TEXT} or {\"pick\": …}")
    }
  }
}
