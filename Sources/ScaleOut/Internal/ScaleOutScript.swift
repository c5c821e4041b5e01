// The Lua scripts the workers run on Redis. Each is one atomic step: nothing else runs on the
// server between its reads and its writes, which is what makes a lease check and the writes it
// guards one decision (the fence).

/// A script, loaded once per connection with `SCRIPT LOAD` and called with `EVALSHA`.
enum ScaleOutScript: String, CaseIterable, Sendable {
  /// KEYS lease, fence, keystrokes; ARGV lease ms, worker, group. Takes a free lease with the
  /// next token and makes sure the consumer group exists; nil when the lease is held.
  case acquire
  /// KEYS lease; ARGV value, lease ms. Extends the lease if it is still ours: 1, else 0.
  case renew
  /// KEYS lease; ARGV value. Deletes the lease if it is still ours: 1, else 0.
  case release
  /// KEYS workers; ARGV worker, lease ms, `join` or `leave`. Marks the worker live until the
  /// server's now plus the lease, forgets workers past theirs, returns the live ones by name.
  case membership
  /// KEYS lease, keystrokes; ARGV value, group, consumer, cursor, count. Takes over every pending
  /// keystroke of the shard (any consumer's, any age): [next cursor, entries]; nil when the
  /// lease is not ours.
  case claim
  /// KEYS lease, keystrokes; ARGV value. Trims the keystrokes below the oldest entry any group
  /// still needs (its oldest pending one, else its last delivered one): the count removed.
  case trim

  /// The Lua source.
  var source: String {
    switch self {
    case .acquire:
      """
      if redis.call('EXISTS', KEYS[1]) == 1 then return false end
      local value = redis.call('INCR', KEYS[2]) .. ':' .. ARGV[2]
      redis.call('SET', KEYS[1], value, 'PX', ARGV[1])
      pcall(redis.call, 'XGROUP', 'CREATE', KEYS[3], ARGV[3], '0', 'MKSTREAM')
      return value
      """
    case .renew:
      """
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      return 1
      """
    case .release:
      """
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
      redis.call('DEL', KEYS[1])
      return 1
      """
    case .membership:
      """
      if ARGV[3] == 'leave' then
        redis.call('ZREM', KEYS[1], ARGV[1])
        return {}
      end
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
      return redis.call('ZRANGE', KEYS[1], 0, -1)
      """
    case .claim:
      """
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
      local r = redis.call('XAUTOCLAIM', KEYS[2], ARGV[2], ARGV[3], 0, ARGV[4], 'COUNT', ARGV[5])
      return {r[1], r[2]}
      """
    case .trim:
      Self.trimSource
    }
  }

  private static let trimSource = """
    if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
    local function before(a, b)
      local am, as = string.match(a, '^(%d+)-(%d+)$')
      local bm, bs = string.match(b, '^(%d+)-(%d+)$')
      am, as, bm, bs = tonumber(am), tonumber(as), tonumber(bm), tonumber(bs)
      return am < bm or (am == bm and as < bs)
    end
    local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', KEYS[2])
    if not ok or #groups == 0 then return 0 end
    local threshold = nil
    for _, group in ipairs(groups) do
      local info = {}
      for k = 1, #group, 2 do info[group[k]] = group[k + 1] end
      local needed = info['last-delivered-id']
      if tonumber(info['pending']) > 0 then
        needed = redis.call('XPENDING', KEYS[2], info['name'])[2]
      end
      if threshold == nil or before(needed, threshold) then threshold = needed end
    end
    if threshold == nil or threshold == '0-0' then return 0 end
    return redis.call('XTRIM', KEYS[2], 'MINID', threshold)
    """
}
