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
  /// KEYS lease, keystrokes; ARGV value, group, consumer, count. New keystrokes for this worker:
  /// the entries, or (when there are none) the stream's last id to wait after; nil when the
  /// lease is not ours.
  case read
  /// KEYS lease, keystrokes, events, open, last batch; ARGV value, group, keep, batch id, event
  /// count, then 7 per event (class, session, key, type, json, extra, settling id), then the ids
  /// to acknowledge. Appends the events and acknowledges the keystrokes if the lease is still
  /// ours and this batch is not the one committed last: 1, else 0.
  case commit
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
    case .read:
      """
      if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
      local r = redis.call('XREADGROUP', 'GROUP', ARGV[2], ARGV[3], 'COUNT', ARGV[4], 'STREAMS', KEYS[2], '>')
      if r then return r[1][2] end
      local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
      if #last > 0 then return last[1][1] end
      return '0-0'
      """
    case .commit:
      Self.commitSource
    case .trim:
      Self.trimSource
    }
  }

  /// The fenced commit. Event classes: `s` a search (opens the session's search), `e` a search's
  /// end (closes it), `S` and `E` a search and its end committed in one batch (nothing to open
  /// or close), `c` a clear, `x` an input error, `o` anything else (waiting, partial).
  ///
  /// A batch is committed once: its id (the lease and the committer's count) is kept in the
  /// shard's last-batch key, and a batch sent again after a lost reply finds it there and does
  /// nothing. That costs one read per batch where checking each event's keystroke for still
  /// being pending cost one per event. A search or clear arriving while another search of the
  /// session is open (its worker died before its end) first ends that one with the `cancelled`
  /// event stored when it opened; a search already open (committed by a worker that died, and
  /// processed again) is not appended twice.
  private static let commitSource = """
    if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
    if redis.call('GET', KEYS[5]) == ARGV[4] then return 1 end
    local now = nil
    local function append(key, etype, session, json)
      if session == '' then
        redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], '*', 'key', key, 'type', etype, 'event', json)
      else
        redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[3], '*', 'key', key, 'type', etype,
          'session', session, 'event', json)
      end
    end
    local function split(s)
      local out, start = {}, 1
      while true do
        local a = string.find(s, '\\n', start, true)
        if not a then
          out[#out + 1] = string.sub(s, start)
          return out
        end
        out[#out + 1] = string.sub(s, start, a - 1)
        start = a + 1
      end
    end
    local function stamped(json)
      local a, b = string.find(json, '"at_ms":0,', 1, true)
      if not a then return json end
      if not now then
        local t = redis.call('TIME')
        now = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
      end
      return string.sub(json, 1, a - 1) .. '"at_ms":' .. now .. ',' .. string.sub(json, b + 1)
    end
    local function closeOpen(session, open, which)
      local fields = split(open)
      append(fields[2], 'cancelled', session, stamped(fields[which]))
      redis.call('HDEL', KEYS[4], session)
    end
    local n = tonumber(ARGV[5])
    local i = 6
    for _ = 1, n do
      local class, session, key, etype = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
      local json, extra = ARGV[i + 4], ARGV[i + 5]
      i = i + 7
      if class == 'o' or class == 'x' or class == 'E' then
        append(key, etype, session, json)
      elseif class == 's' or class == 'S' then
        local open = redis.call('HGET', KEYS[4], session)
        if not (open and split(open)[1] == key) then
          if open then closeOpen(session, open, 3) end
          append(key, etype, session, json)
          if class == 's' then redis.call('HSET', KEYS[4], session, key .. '\\n' .. extra) end
        end
      elseif class == 'c' then
        local open = redis.call('HGET', KEYS[4], session)
        if open then closeOpen(session, open, 4) end
        append(key, etype, session, json)
      elseif class == 'e' then
        append(key, etype, session, json)
        local open = redis.call('HGET', KEYS[4], session)
        if open and split(open)[1] == extra then redis.call('HDEL', KEYS[4], session) end
      end
    end
    for j = i, #ARGV, 1000 do
      redis.call('XACK', KEYS[2], ARGV[2], unpack(ARGV, j, math.min(j + 999, #ARGV)))
    end
    redis.call('SET', KEYS[5], ARGV[4])
    return 1
    """

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
