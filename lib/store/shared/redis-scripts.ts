// The shared frontier's atomic steps, as Lua run inside Redis: each script is one step no other worker can see
// half done. Every key of a crawl is passed in KEYS (in the order of `KEY_NAMES`) and shares the hash tag
// `{name}`, so the scripts run on one node of a Redis Cluster too. Times are Redis's own clock (TIME), so workers
// on machines whose clocks disagree still agree on politeness and on leases.

/** A crawl's keys, in the order every script receives them as KEYS[1..]. */
export const KEY_NAMES = [
  'config', // the crawl's parsed config (JSON): a worker with another config is refused
  'q', // sorted set: queued URL -> priority (higher first)
  'e', // hash: URL -> its frontier entry (JSON), while queued or leased
  'seen', // set: every URL ever queued, in canonical form
  'done', // set: URLs fetched (or failed, or skipped) for good
  'delayed', // sorted set: URL -> time before which it is not taken (Retry-After, a refresh)
  'lease', // hash: URL -> "worker\tfence\thost\tpriority"
  'leaseAt', // sorted set: URL -> the lease's deadline
  'fence', // counter: each lease's token
  'hnext', // hash: host -> earliest start of its next request
  'hact', // hash: host -> requests in flight, across all workers
  'stats', // hash: the crawl's counters (reserved = requests the budget counts)
  'workers', // sorted set: worker -> last time it was heard from
  'ended', // string: why the crawl ended, once it has
  'wpages', // hash: worker -> pages it committed
  'labels', // list: "worker\tlabeled link (JSON)", every worker's verdicts and labels, in the order they came
  'robots', // hash: robots.txt URL -> its answer (JSON), read once for the whole crawl
  'held', // string: while set, workers take nothing (and the crawl does not end): workers started apart begin together
  'tpending', // set: link sources not read yet: while any is, the crawl is training and workers take nothing
  'trained', // set: link sources read (by one worker, for the whole crawl)
  'tclaim', // hash: link source -> "worker\tdeadline", the worker reading it now
] as const;

export type KeyName = (typeof KEY_NAMES)[number];

const PRELUDE = `
local K = {}
local names = {${KEY_NAMES.map((k) => `'${k}'`).join(', ')}}
for i, n in ipairs(names) do K[n] = KEYS[i] end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function parseLease(v)
  local w, f, host, prio = string.match(v, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)$')
  return w, f, host, prio
end
local function hostEnded(host)
  if tonumber(redis.call('HINCRBY', K.hact, host, -1)) <= 0 then redis.call('HDEL', K.hact, host) end
end
-- Queues a URL, or raises a queued one found again by a better link (design A.7); a URL seen before stays as it is.
local function add(url, prio, entry)
  if redis.call('SADD', K.seen, url) == 1 then
    redis.call('ZADD', K.q, prio, url)
    redis.call('HSET', K.e, url, entry)
    return 1
  end
  local cur = redis.call('ZSCORE', K.q, url)
  if cur and tonumber(prio) > tonumber(cur) then
    redis.call('ZADD', K.q, prio, url)
    redis.call('HSET', K.e, url, entry)
  end
  return 0
end
`;

/**
 * Joins a crawl: the first worker stores its config and queues the seeds; a later one must bring the same config.
 * The crawl starts training while its link sources are not all read.
 * ARGV: config JSON, seeds JSON ([[url, priority, entry]...]), link sources JSON. Returns {'created'|'joined'|'different'|'ended', why}.
 */
export const JOIN = PRELUDE + `
local config = redis.call('GET', K.config)
if not config then
  redis.call('SET', K.config, ARGV[1])
  for _, s in ipairs(cjson.decode(ARGV[2])) do add(s[1], s[2], s[3]) end
  for _, u in ipairs(cjson.decode(ARGV[3])) do redis.call('SADD', K.tpending, u) end
  return {'created', ''}
end
if config ~= ARGV[1] then return {'different', ''} end
local ended = redis.call('GET', K.ended)
if ended then return {'ended', ended} end
return {'joined', ''}
`;

/**
 * Leases up to `max` of the best queued URLs whose host is ready (fewer than perHost in flight across all workers,
 * its delay since the last request over), within what is left of the page budget. First, leases whose deadline
 * passed (a worker stopped renewing them: killed, or cut off) go back to the queue, and delayed URLs that are
 * due join it. ARGV: worker, max, leaseMs, maxPages, perHost, scan.
 * Returns {taken (url, fence, entry triples), waitMs (-1: unknown), queued, leased, reserved, ended, reclaimed}.
 */
export const TAKE = PRELUDE + `
local worker, max, leaseMs, maxPages, perHost, scan = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZADD', K.workers, now, worker)
local reclaimed = 0
for _, url in ipairs(redis.call('ZRANGEBYSCORE', K.leaseAt, '-inf', now)) do
  local v = redis.call('HGET', K.lease, url)
  redis.call('ZREM', K.leaseAt, url)
  redis.call('HDEL', K.lease, url)
  if v then
    local _, _, host, prio = parseLease(v)
    hostEnded(host)
    if redis.call('SISMEMBER', K.done, url) == 0 then
      redis.call('ZADD', K.q, prio, url)
      reclaimed = reclaimed + 1
    end
  end
end
for _, url in ipairs(redis.call('ZRANGEBYSCORE', K.delayed, '-inf', now)) do
  redis.call('ZREM', K.delayed, url)
  local entry = redis.call('HGET', K.e, url)
  if entry then redis.call('ZADD', K.q, tostring(cjson.decode(entry).priority), url) end
end
local reserved = tonumber(redis.call('HGET', K.stats, 'reserved') or '0')
if redis.call('EXISTS', K.held) == 1 then
  return {{}, 100, redis.call('ZCARD', K.q) + redis.call('ZCARD', K.delayed), redis.call('ZCARD', K.leaseAt), reserved, '', reclaimed}
end
-- Training: no crawl request before every link source is read and its labeled links published.
if redis.call('SCARD', K.tpending) > 0 then
  return {{}, 200, redis.call('ZCARD', K.q) + redis.call('ZCARD', K.delayed), redis.call('ZCARD', K.leaseAt), reserved, '', reclaimed}
end
local want = math.min(max, maxPages - reserved)
local out, taken, wait = {}, 0, -1
if want > 0 then
  local hosts = {}
  local rows = redis.call('ZREVRANGE', K.q, 0, scan - 1, 'WITHSCORES')
  for i = 1, #rows, 2 do
    if taken >= want then break end
    local url, prio = rows[i], rows[i + 1]
    local host = string.match(url, '^%a[%w+.-]*://([^/?#]+)') or ''
    local h = hosts[host]
    if not h then
      h = { a = tonumber(redis.call('HGET', K.hact, host) or '0'), n = tonumber(redis.call('HGET', K.hnext, host) or '0') }
      hosts[host] = h
    end
    if h.a < perHost and h.n <= now then
      h.a = h.a + 1
      redis.call('HSET', K.hact, host, h.a)
      redis.call('ZREM', K.q, url)
      local f = redis.call('INCR', K.fence)
      redis.call('HSET', K.lease, url, worker .. '\\t' .. f .. '\\t' .. host .. '\\t' .. prio)
      redis.call('ZADD', K.leaseAt, now + leaseMs, url)
      out[#out + 1] = url
      out[#out + 1] = tostring(f)
      out[#out + 1] = redis.call('HGET', K.e, url) or ''
      taken = taken + 1
    elseif h.a < perHost then
      local w = h.n - now
      if wait < 0 or w < wait then wait = w end
    end
  end
  if taken > 0 then reserved = tonumber(redis.call('HINCRBY', K.stats, 'reserved', taken)) end
end
local due = redis.call('ZRANGE', K.delayed, 0, 0, 'WITHSCORES')
if due[2] then
  local w = math.max(0, tonumber(due[2]) - now)
  if wait < 0 or w < wait then wait = w end
end
local queued = redis.call('ZCARD', K.q) + redis.call('ZCARD', K.delayed)
local leased = redis.call('ZCARD', K.leaseAt)
local ended = redis.call('GET', K.ended)
if not ended and taken == 0 and leased == 0 then
  if reserved >= maxPages then ended = 'page budget reached (' .. maxPages .. (maxPages == 1 and ' page)' or ' pages)')
  elseif queued == 0 then ended = 'frontier empty: every reachable page in scope was fetched' end
  if ended then redis.call('SET', K.ended, ended) end
end
return {out, wait, queued, leased, reserved, ended or '', reclaimed}
`;

/**
 * Completes leases: the lease's fence must be the worker's own, or, when it expired, the URL must not be done
 * yet (a slow worker that finishes first wins; the one that retook it is told 'dup' and its page is not counted).
 * Accepted pages count, mark their URL done (or queue it again), and queue their children.
 * ARGV: worker, delayMs, acks JSON ([{url, fence, requeue?, priority?, notBefore?, entry?, stats, children, aliases, labels}]).
 * Returns one of 'ok' | 'late' | 'dup' per ack.
 */
export const ACK = PRELUDE + `
local worker, delayMs = ARGV[1], tonumber(ARGV[2])
redis.call('ZADD', K.workers, now, worker)
local res = {}
for i, a in ipairs(cjson.decode(ARGV[3])) do
  local url = a.url
  local mine = false
  local v = redis.call('HGET', K.lease, url)
  if v then
    local w, f, host = parseLease(v)
    if w == worker and f == tostring(a.fence) then
      mine = true
      hostEnded(host)
      -- The host's delay runs from the end of this request, for every worker.
      local nx = now + delayMs
      if nx > tonumber(redis.call('HGET', K.hnext, host) or '0') then redis.call('HSET', K.hnext, host, nx) end
      redis.call('HDEL', K.lease, url)
      redis.call('ZREM', K.leaseAt, url)
    end
  end
  if redis.call('SISMEMBER', K.done, url) == 1 then
    res[i] = 'dup'
  else
    res[i] = mine and 'ok' or 'late'
    if not mine then
      -- Its lease expired and it went back to the queue, or to another worker: this result stands.
      redis.call('ZREM', K.q, url)
      redis.call('ZREM', K.delayed, url)
    end
    if a.requeue then
      redis.call('HSET', K.e, url, a.entry)
      if tonumber(a.notBefore) > now then redis.call('ZADD', K.delayed, a.notBefore, url)
      else redis.call('ZADD', K.q, a.priority, url) end
    else
      redis.call('SADD', K.done, url)
      redis.call('HDEL', K.e, url)
    end
    for k, n in pairs(a.stats) do redis.call('HINCRBYFLOAT', K.stats, k, tostring(n)) end
    if not a.requeue then redis.call('HINCRBY', K.wpages, worker, 1) end
    for _, alias in ipairs(a.aliases) do
      redis.call('SADD', K.seen, alias)
      redis.call('SADD', K.done, alias)
      redis.call('ZREM', K.q, alias)
      redis.call('HDEL', K.e, alias)
    end
    for _, c in ipairs(a.children) do add(c[1], c[2], c[3]) end
    for _, l in ipairs(a.labels) do redis.call('RPUSH', K.labels, worker .. '\t' .. l) end
  end
end
return res
`;

/** Gives back leases the worker will not start now (its own politeness said wait): queued again, not counted. ARGV: worker, JSON [[url, fence]]. */
export const RELEASE = PRELUDE + `
local worker = ARGV[1]
local n = 0
for _, r in ipairs(cjson.decode(ARGV[2])) do
  local v = redis.call('HGET', K.lease, r[1])
  if v then
    local w, f, host, prio = parseLease(v)
    if w == worker and f == tostring(r[2]) then
      hostEnded(host)
      redis.call('HDEL', K.lease, r[1])
      redis.call('ZREM', K.leaseAt, r[1])
      redis.call('ZADD', K.q, prio, r[1])
      redis.call('HINCRBY', K.stats, 'reserved', -1)
      n = n + 1
    end
  end
end
return n
`;

/** Extends the deadline of every lease the worker holds: the worker's heartbeat. ARGV: worker, leaseMs. Returns the leases renewed. */
export const RENEW = PRELUDE + `
local worker, leaseMs = ARGV[1], tonumber(ARGV[2])
redis.call('ZADD', K.workers, now, worker)
local n = 0
local all = redis.call('HGETALL', K.lease)
for i = 1, #all, 2 do
  if parseLease(all[i + 1]) == worker then
    redis.call('ZADD', K.leaseAt, 'XX', now + leaseMs, all[i])
    n = n + 1
  end
end
local claims = redis.call('HGETALL', K.tclaim)
for i = 1, #claims, 2 do
  if string.match(claims[i + 1], '^([^\\t]*)\\t') == worker then redis.call('HSET', K.tclaim, claims[i], worker .. '\\t' .. (now + leaseMs)) end
end
return n
`;

/**
 * Claims a link source for the worker to read: the first of the given ones that is neither read nor claimed by
 * another worker whose claim still holds (a claim lasts leaseMs and is renewed by the worker's heartbeat).
 * ARGV: worker, leaseMs, link sources JSON. Returns {url claimed or '', how many are not read yet}.
 */
export const TCLAIM = PRELUDE + `
local worker, leaseMs = ARGV[1], tonumber(ARGV[2])
redis.call('ZADD', K.workers, now, worker)
local left, claimed = 0, ''
for _, url in ipairs(cjson.decode(ARGV[3])) do
  if redis.call('SISMEMBER', K.trained, url) == 0 then
    left = left + 1
    local c = redis.call('HGET', K.tclaim, url)
    if claimed == '' and (not c or tonumber(string.match(c, '\\t(%d+)$') or '0') <= now) then
      redis.call('HSET', K.tclaim, url, worker .. '\\t' .. (now + leaseMs))
      claimed = url
    end
  end
end
if left == 0 then redis.call('DEL', K.tpending) end
return {claimed, left}
`;

/**
 * A link source read: marks it read for the whole crawl and publishes the labeled links learned from it, unless
 * another worker's read of it came first ('dup': its links are not published twice). The last one ends training.
 * Its addresses (as asked, and as answered) are seen: a link to it found later is not queued, as it was read.
 * ARGV: worker, link source, labels JSON (a list of labeled links, each JSON), addresses JSON. Returns 'ok' | 'dup'.
 */
export const TRAINED = PRELUDE + `
local worker, url = ARGV[1], ARGV[2]
redis.call('ZADD', K.workers, now, worker)
if redis.call('SADD', K.trained, url) == 0 then return 'dup' end
redis.call('SREM', K.tpending, url)
redis.call('HDEL', K.tclaim, url)
redis.call('HINCRBY', K.stats, 'trainPages', 1)
for _, u in ipairs(cjson.decode(ARGV[4])) do redis.call('SADD', K.seen, u) end
for _, l in ipairs(cjson.decode(ARGV[3])) do redis.call('RPUSH', K.labels, worker .. '\t' .. l) end
return 'ok'
`;
