// How shards are spread over the live workers: each worker computes the same fair share from the
// same membership, keeps what it owns up to it, gives back the rest, and takes free shards until
// it has it. Only the excess moves when a worker joins or leaves.

/// The balancing rule, a pure function of what a worker sees.
///
/// With `N` shards and `W` live workers sorted by name, the worker at index `k` aims for
/// `N / W` shards, plus one when `k < N % W`. A worker above its share releases its
/// highest-numbered shards; one below it acquires free shards, its "own" ones first (those with
/// `shard % W == k`), so that workers starting together seldom race for the same shard. A race
/// is harmless: the acquire script gives a free lease to one worker only.
enum ShardBalance {
  /// The share of `worker` among `live` (the worker itself counted even if its heartbeat is not
  /// yet visible).
  static func share(of worker: String, live: [String], shardCount: Int) -> (target: Int, index: Int, workers: Int) {
    var names = Set(live)
    names.insert(worker)
    let sorted = names.sorted()
    let index = sorted.firstIndex(of: worker) ?? 0
    let base = shardCount / sorted.count
    let extra = shardCount % sorted.count
    return (base + (index < extra ? 1 : 0), index, sorted.count)
  }

  /// The shards to give back: those beyond `target`, highest first.
  static func excess(owned: Set<Int>, target: Int) -> [Int] {
    guard owned.count > target else { return [] }
    return Array(owned.sorted(by: >).prefix(owned.count - target))
  }

  /// The free shards to try, in order, while below `target`: the worker's own first.
  static func candidates(free: [Int], ownedCount: Int, target: Int, index: Int, workers: Int) -> [Int] {
    guard ownedCount < target else { return [] }
    let own = free.filter { $0 % workers == index }
    let others = free.filter { $0 % workers != index }
    return Array((own + others).prefix(target - ownedCount))
  }
}
