// One consumer per sequence: what a second one is told instead of crashing the process (as the
// standard library's AsyncStream does) or waiting forever for elements that go elsewhere.

/// A single-consumer sequence was asked for elements by a second consumer: a task called
/// `next()` while another task was waiting in it, a task iterated a sequence that has a
/// subscriber, or a second receiver subscribed.
///
/// The first consumer is unaffected and keeps every element. ``AsyncFeed``, whose `next()` does
/// not throw, gives the second task nil (the end) instead; a second receiver gets
/// `end(SecondConsumerError())` at once.
public struct SecondConsumerError: Error, Hashable, CustomStringConvertible {
  /// The error; it carries nothing else.
  @inlinable public init() {}

  /// Says what happened and what to do instead.
  public var description: String {
    "a single-consumer sequence already has a consumer: iterate it from one task, or subscribe once"
  }
}
