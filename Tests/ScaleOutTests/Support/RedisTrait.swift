import TestSupport
// The condition every test that needs a real redis-server carries.
import Testing

extension Trait where Self == ConditionTrait {
  /// Runs the test when redis-server is installed or under CI (where its absence fails the
  /// test); elsewhere skips it with one line saying why.
  static var needsRedis: Self { .enabled(if: RedisServer.shouldRun, Comment(rawValue: RedisServer.skipNote)) }
}
