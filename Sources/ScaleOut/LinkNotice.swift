// What a connection to Redis reports while a command runs: the library prints nothing, the
// executable decides what a person sees (one line when the connection is lost, one when it is
// back).
import RESP

/// A change in a command's connection to Redis.
package enum LinkNotice: Sendable, Equatable {
  /// The connection failed; it is being made again with backoff. Nothing acknowledged is lost.
  case lost(RESPError)
  /// A connection works again after a ``lost(_:)``.
  case restored
  /// Redis refused a write because it is out of memory (`maxmemory` reached under `noeviction`),
  /// with its message; the write is kept and tried again with backoff. Nothing is lost.
  case outOfMemory(String)
  /// A write refused by ``outOfMemory(_:)`` went through.
  case roomAgain
}
