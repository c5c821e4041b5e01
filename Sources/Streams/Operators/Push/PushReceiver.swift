// Where a pushed operator chain delivers: a callback per element and one for the end, called on
// the thread that produces them.

/// Where a ``PushableAsyncSequence`` delivers.
public struct PushReceiver<Element: Sendable>: Sendable {
  /// Takes one element.
  public let element: @Sendable (Element) -> Void
  /// Takes the end: nil when the sequence finished, else its failure.
  public let end: @Sendable ((any Error)?) -> Void
  /// Whether a task pulls at the end of the chain, and how a base that cannot push is iterated.
  @usableFromInline let route: PullRoute

  /// A receiver of elements and of the end; see ``PushableAsyncSequence`` for when each is called.
  public init(element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
    self.init(element: element, end: end, route: .pushed)
  }

  @inlinable init(
    element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void, route: PullRoute
  ) {
    self.element = element
    self.end = end
    self.route = route
  }
}
