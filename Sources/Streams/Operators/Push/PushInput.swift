// How the stages of this package take what they are pushed, and are cancelled, without a closure
// per subscription: a session of the pipeline subscribes several stages, and each closure is an
// allocation.

/// Where a stage delivers: a ``PushReceiver`` (a user's closures, or a stage reached through an
/// existential), or, in a chain composed with concrete types, the next stage itself. A stage is
/// generic over its downstream, so that in such a chain every call from one stage to the next is
/// a direct call into code specialised for the whole chain; through an existential, each stage
/// runs its generic code, which looks its types' metadata up at run time.
@usableFromInline
package protocol PushDownstream<Element>: Sendable {
  associatedtype Element: Sendable
  /// One element.
  func receive(_ element: Element)
  /// The end: nil when the sequence finished, else its failure.
  func receiveEnd(_ error: (any Error)?)
}

/// A stage of this package as the sequence it subscribed to sees it: it takes the elements and
/// the end itself. `package`: the pipeline's per-session sink is one too.
@usableFromInline
package protocol PushInput<Element>: PushDownstream, AnyObject {}

/// A stage of this package as its subscription sees it.
@usableFromInline
package protocol PushCancellable: AnyObject, Sendable {
  /// The receiver left: stop delivering, and cancel what the stage runs.
  func cancel()
}
