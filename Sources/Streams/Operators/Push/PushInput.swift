// How the stages of this package take what they are pushed, and are cancelled, without a closure
// per subscription: a session of the pipeline subscribes several stages, and each closure is an
// allocation.

/// A stage of this package as the sequence it subscribed to sees it: it takes the elements and
/// the end itself. `package`: the pipeline's per-session sink is one too.
@usableFromInline
package protocol PushInput<Element>: AnyObject, Sendable {
  associatedtype Element: Sendable
  /// One element.
  func receive(_ element: Element)
  /// The end: nil when the sequence finished, else its failure.
  func receiveEnd(_ error: (any Error)?)
}

/// A stage of this package as its subscription sees it.
@usableFromInline
protocol PushCancellable: AnyObject, Sendable {
  /// The receiver left: stop delivering, and cancel what the stage runs.
  func cancel()
}
