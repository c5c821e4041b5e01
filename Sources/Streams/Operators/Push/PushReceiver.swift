// Where a pushed operator chain delivers: a callback per element and one for the end, called on
// the thread that produces them.

/// Where a ``PushableAsyncSequence`` delivers.
public struct PushReceiver<Element: Sendable>: PushDownstream, Sendable {
  /// The two closures a user gives, or a stage of this package, which takes both calls itself
  /// (no closure to allocate per subscription: a session of the pipeline has several).
  @usableFromInline enum Target: Sendable {
    case closures(Closures)
    case stage(any PushInput<Element>)
  }

  /// A user's two closures in one object: a receiver is copied out of its sequence's lock for
  /// every element delivered, and a copy of one reference is one retain, of two closures two.
  @usableFromInline final class Closures: Sendable {
    @usableFromInline let element: @Sendable (Element) -> Void
    @usableFromInline let end: @Sendable ((any Error)?) -> Void

    @inlinable init(element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
      self.element = element
      self.end = end
    }
  }

  @usableFromInline let target: Target

  /// Takes one element.
  public var element: @Sendable (Element) -> Void {
    switch target {
    case .closures(let closures): closures.element
    case .stage(let stage): { stage.receive($0) }
    }
  }

  /// Takes the end: nil when the sequence finished, else its failure.
  public var end: @Sendable ((any Error)?) -> Void {
    switch target {
    case .closures(let closures): closures.end
    case .stage(let stage): { stage.receiveEnd($0) }
    }
  }

  /// A receiver of elements and of the end; see ``PushableAsyncSequence`` for when each is called.
  public init(element: @escaping @Sendable (Element) -> Void, end: @escaping @Sendable ((any Error)?) -> Void) {
    target = .closures(Closures(element: element, end: end))
  }

  /// A receiver that takes both calls itself, with no closure to allocate: a stage of this
  /// package, or the pipeline's per-session sink.
  @inlinable package init(_ stage: any PushInput<Element>) { target = .stage(stage) }

  /// Hands over one element.
  @inlinable package func receive(_ element: Element) {
    switch target {
    case .closures(let closures): closures.element(element)
    case .stage(let stage): stage.receive(element)
    }
  }

  /// Hands over the end: nil when the sequence finished, else its failure.
  @inlinable package func receiveEnd(_ error: (any Error)?) {
    switch target {
    case .closures(let closures): closures.end(error)
    case .stage(let stage): stage.receiveEnd(error)
    }
  }
}
