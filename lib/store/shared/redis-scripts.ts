// The shared frontier's atomic steps, as Lua run inside Redis: each script is one step no other worker can see
// half done. Every key of a crawl is passed in KEYS (in the order of `KEY_NAMES`) and shares the hash tag
// `{name}`, so the scripts run on one node of a Redis Cluster too. Times are Redis's own clock (TIME), so workers
// on machines whose clocks disagree still agree on politeness and on leases. A URL is its key (redis-entries.ts,
// `urlKey`) everywhere; its entry string starts with the URL, a delayed URL's priority, its in-links and its depth.

/** A crawl's keys, in the order every script receives them as KEYS[1..]. */
export const KEY_NAMES = [
  'config', // the crawl's parsed config (JSON): a worker with another config is refused
  'q', // sorted set: queued URL key -> priority (higher first)
  'e', // hash: URL key -> its entry string, while queued, delayed or leased (a URL seen is in `e` or in `done`)
  'done', // set: URL keys fetched (or failed, or kept from requesting, or another address of a page) for good
  'delayed', // sorted set: URL key -> time before which it is not taken (Retry-After, a refresh)
  'lease', // hash: URL key -> "worker#run\tfence\thost\tpriority"
  'leaseAt', // sorted set: URL key -> the lease's deadline
  'fence', // counter: each lease's token
  'hnext', // hash: host -> earliest start of its next request
  'hact', // hash: host -> requests in flight, across all workers
  'stats', // hash: the crawl's counters (reserved = requests the budget counts)
  'workers', // sorted set: worker -> last time it was heard from
  'ended', // string: why the crawl ended, once it has
  'wpages', // hash: worker -> pages it committed
  'labels', // list: "worker\tlabeled link", every worker's verdicts and labels, in the order they came ("" for the crawl's own)
  'robots', // hash: robots.txt URL -> its answer (JSON), read once for the whole crawl
  'held', // string: while set, workers take nothing (and the crawl does not end): workers started apart begin together
  'tpending', // set: link sources not read yet: while any is, the crawl is training and workers take nothing
  'trained', // set: link sources read (by one worker, for the whole crawl)
  'tclaim', // hash: link source -> "worker\tdeadline", the worker reading it now
  'pages', // hash: number -> URL of a fetched page that queued links (their entries name it by its number; '#' counts them)
  'verdicts', // hash: URL key -> a judged page's label and how many labeled links to it were learned (learning.linksToJudged)
  'rescore', // hash: the crawl-wide re-score: its pass, state, reason, cursor, leader and lease (rescore-scripts.ts)
  'tlinks', // list: "label\tlinks..." of each labeled link source, for every worker's URL authority
  'tjudge', // list: "worker\tlabel\tword count word count..." of each labeled link source, for every worker's page judge
] as const;

export type KeyName = (typeof KEY_NAMES)[number];

export const PRELUDE = `
local K = {}
local names = {${KEY_NAMES.map((k) => `'${k}'`).join(', ')}}
for i, n in ipairs(names) do K[n] = KEYS[i] end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local US = '\\31'
local function num(x) return string.format('%.17g', x) end
-- A log-odds as entries keep it: three decimals, no trailing zeros.
local function short(x) return (string.gsub(string.format('%.3f', x), '%.?0+$', '')) end
local B62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
local function b62(n)
  local s = ''
  repeat
    local d = n % 62
    s = string.sub(B62, d + 1, d + 1) .. s
    n = math.floor(n / 62)
  until n == 0
  return s
end
-- A worker is one runner: "name#run". Its leases, claims and lead are the run's (a worker started again under its name
-- does not renew what its killed run held); its pages, labels and liveness are the name's.
local function nameOf(w) return string.match(w, '^(.*)#[^#]*$') or w end
local function parseLease(v)
  local w, f, host, prio = string.match(v, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)$')
  return w, f, host, prio
end
local function hostEnded(host)
  if tonumber(redis.call('HINCRBY', K.hact, host, -1)) <= 0 then redis.call('HDEL', K.hact, host) end
end
-- An entry's first four fields (URL, delayed priority, in-links, depth) and the rest.
local function fields(v)
  local a = string.find(v, US, 1, true)
  local b = string.find(v, US, a + 1, true)
  local c = string.find(v, US, b + 1, true)
  local d = string.find(v, US, c + 1, true)
  return string.sub(v, 1, a - 1), string.sub(v, a + 1, b - 1), string.sub(v, b + 1, c - 1), string.sub(v, c + 1, d - 1), string.sub(v, d + 1)
end
local function entryOf(u, p, inl, d, rest) return u .. US .. p .. US .. inl .. US .. d .. US .. rest end
-- An entry with its parent's field (empty as a worker sends it) set to the number its parent page was given.
local function withParent(v, pid)
  local u, p, inl, d, rest = fields(v)
  return entryOf(u, p, inl, d, pid .. string.match(rest, '^[^\\31]*(.*)$'))
end
-- A fetched page whose links are queued gets a number: their entries name it by that (pages: number -> URL).
local function pageNumber(url)
  local pid = b62(redis.call('HINCRBY', K.pages, '#', 1))
  redis.call('HSET', K.pages, pid, url)
  return pid
end
local function hostOf(url) return string.match(url, '^%a[%w+.-]*://([^/?#]+)') or '' end
-- Queues a new URL, or lets a link found again to a queued one count (design A.7: raised when better; with every
-- link counted, ranked by all of them: the mean of its best link's log-odds and of all its links', when the
-- crawl's priority is that log-odds, else the better link's priority). A URL done, leased or delayed stays as it is.
-- c: {key, priority, entry, the link's log-odds or '', site}; mode: 'logodds' | 'max' | '' (classifier.everyLink off);
-- pid: the number of the page the link is on ('' for a seed).
local function add(c, mode, pid)
  local id, prio, value, lo = c[1], c[2], withParent(c[3], pid), c[4]
  local old = redis.call('HGET', K.e, id)
  if not old then
    if redis.call('SISMEMBER', K.done, id) == 1 then return false end
    if mode ~= '' and lo ~= '' then
      local u, p, _, d, rest = fields(value)
      value = entryOf(u, p, '1 ' .. lo .. ' ' .. lo, d, rest)
    end
    redis.call('HSET', K.e, id, value)
    redis.call('ZADD', K.q, prio, id)
    return true
  end
  local cur = redis.call('ZSCORE', K.q, id)
  if not cur then return false end
  local ou, op, oinl, od, orest = fields(old)
  local _, _, _, nd, nrest = fields(value)
  local depth = math.min(tonumber(od), tonumber(nd))
  local n, sum, best = string.match(oinl, '^(%S+) (%S+) (%S+)$')
  if mode ~= '' and lo ~= '' and n then
    local l = tonumber(lo)
    n, sum, best = tonumber(n) + 1, tonumber(sum) + l, tonumber(best)
    local better = l > best
    if better then best = l end
    local p = mode == 'logodds' and (best + sum / n) / 2 or (better and tonumber(prio) or tonumber(cur))
    redis.call('HSET', K.e, id, entryOf(ou, op, n .. ' ' .. short(sum) .. ' ' .. short(best), depth, better and nrest or orest))
    redis.call('ZADD', K.q, num(p), id)
    return better
  end
  if tonumber(prio) > tonumber(cur) then
    redis.call('HSET', K.e, id, entryOf(ou, op, oinl, depth, nrest))
    redis.call('ZADD', K.q, prio, id)
    return true
  end
  return false
end
-- The crawl-wide re-score (rescore-scripts.ts): a new pass, waiting for a worker to lead it.
local function openPass(why)
  local s = redis.call('HMGET', K.stats, 'fetched', 'listPages')
  redis.call('HINCRBY', K.rescore, 'pass', 1)
  redis.call('HSET', K.rescore, 'state', 'open', 'why', why, 'cursor', '0', 'started', '0', 'leader', '', 'until', '0', 'scanned', '0',
    'changed', '0', 'openedAt', now, 'pagesAt', tonumber(s[1] or '0') + tonumber(s[2] or '0'), 'again', '0')
end
`;

/**
 * Joins a crawl: the first worker stores its config and queues the seeds; a later one must bring the same config.
 * The crawl starts training while its link sources are not all read.
 * ARGV: config JSON, seeds JSON ([[key, priority, entry, '', site]...]), link sources JSON. Returns {'created'|'joined'|'different'|'ended', why}.
 */
export const JOIN = PRELUDE + `
local config = redis.call('GET', K.config)
if not config then
  redis.call('SET', K.config, ARGV[1])
  for _, s in ipairs(cjson.decode(ARGV[2])) do add(s, '', '') end
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
 * Returns {taken (key, fence, entry, priority, parent URL per URL), waitMs (-1: unknown), queued, leased, reserved, ended,
 * reclaimed, the reason of a re-score that waits for a leader ('' when none)}.
 */
export const TAKE = PRELUDE + `
local worker, max, leaseMs, maxPages, perHost, scan = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZADD', K.workers, now, nameOf(worker))
local reclaimed = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K.leaseAt, '-inf', now)) do
  local v = redis.call('HGET', K.lease, id)
  redis.call('ZREM', K.leaseAt, id)
  redis.call('HDEL', K.lease, id)
  if v then
    local _, _, host, prio = parseLease(v)
    hostEnded(host)
    if redis.call('SISMEMBER', K.done, id) == 0 and redis.call('HEXISTS', K.e, id) == 1 then
      redis.call('ZADD', K.q, prio, id)
      reclaimed = reclaimed + 1
    end
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K.delayed, '-inf', now)) do
  redis.call('ZREM', K.delayed, id)
  local v = redis.call('HGET', K.e, id)
  if v then
    local _, p = fields(v)
    redis.call('ZADD', K.q, p, id)
  end
end
local r = redis.call('HMGET', K.rescore, 'state', 'leader', 'until', 'why')
local rescore = (r[1] == 'open' and (r[2] == '' or tonumber(r[3]) < now)) and r[4] or ''
local reserved = tonumber(redis.call('HGET', K.stats, 'reserved') or '0')
local function waiting(ms)
  return {{}, ms, redis.call('ZCARD', K.q) + redis.call('ZCARD', K.delayed), redis.call('ZCARD', K.leaseAt), reserved, '', reclaimed, rescore}
end
if redis.call('EXISTS', K.held) == 1 then return waiting(100) end
-- Training: no crawl request before every link source is read and its labeled links published.
if redis.call('SCARD', K.tpending) > 0 then return waiting(200) end
local want = math.min(max, maxPages - reserved)
local out, taken, wait = {}, 0, -1
if want > 0 then
  local hosts = {}
  local rows = redis.call('ZREVRANGE', K.q, 0, scan - 1, 'WITHSCORES')
  for i = 1, #rows, 2 do
    if taken >= want then break end
    local id, prio = rows[i], rows[i + 1]
    local v = redis.call('HGET', K.e, id)
    if not v then
      redis.call('ZREM', K.q, id)
    else
      local url = string.sub(v, 1, string.find(v, US, 1, true) - 1)
      local host = hostOf(url)
      local h = hosts[host]
      if not h then
        h = { a = tonumber(redis.call('HGET', K.hact, host) or '0'), n = tonumber(redis.call('HGET', K.hnext, host) or '0') }
        hosts[host] = h
      end
      if h.a < perHost and h.n <= now then
        h.a = h.a + 1
        redis.call('HSET', K.hact, host, h.a)
        redis.call('ZREM', K.q, id)
        local f = redis.call('INCR', K.fence)
        redis.call('HSET', K.lease, id, worker .. '\\t' .. f .. '\\t' .. host .. '\\t' .. prio)
        redis.call('ZADD', K.leaseAt, now + leaseMs, id)
        local _, _, _, _, rest = fields(v)
        local pk = string.match(rest, '^([^\\31]*)')
        out[#out + 1] = id
        out[#out + 1] = tostring(f)
        out[#out + 1] = v
        out[#out + 1] = prio
        out[#out + 1] = pk ~= '' and (redis.call('HGET', K.pages, pk) or '') or ''
        taken = taken + 1
      elseif h.a < perHost then
        local w = h.n - now
        if wait < 0 or w < wait then wait = w end
      end
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
return {out, wait, queued, leased, reserved, ended or '', reclaimed, rescore}
`;

/**
 * Completes leases: the lease's fence must be the worker's own, or, when it expired, the URL must not be done
 * yet (a slow worker that finishes first wins; the one that retook it is told 'dup' and its page is not counted).
 * Accepted pages count, mark their URL done (or queue it again), and queue their links (every link, so that each
 * counts: design A.7's raise, `classifier.everyLink`). A link to a page judged before teaches its verdict, at most
 * `judged` times a page (`learning.linksToJudged`). Every `everyPages` pages of the crawl, a re-score pass opens.
 * ARGV: worker, delayMs, everyLink mode, judged, everyPages, acks JSON
 * ([{key, url, fence, requeue, priority, notBefore, entry, stats, children, kept, labels, verdict}]).
 * Returns one of 'ok' | 'late' | 'dup' per ack.
 */
export const ACK = PRELUDE + `
local worker, delayMs, mode, judged, everyPages = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZADD', K.workers, now, nameOf(worker))
local res = {}
for i, a in ipairs(cjson.decode(ARGV[6])) do
  local id = a.key
  local mine = false
  local v = redis.call('HGET', K.lease, id)
  if v then
    local w, f, host = parseLease(v)
    if w == worker and f == tostring(a.fence) then
      mine = true
      hostEnded(host)
      -- The host's delay runs from the end of this request, for every worker.
      local nx = now + delayMs
      if nx > tonumber(redis.call('HGET', K.hnext, host) or '0') then redis.call('HSET', K.hnext, host, nx) end
      redis.call('HDEL', K.lease, id)
      redis.call('ZREM', K.leaseAt, id)
    end
  end
  if redis.call('SISMEMBER', K.done, id) == 1 then
    res[i] = 'dup'
  else
    res[i] = mine and 'ok' or 'late'
    if not mine then
      -- Its lease expired and it went back to the queue, or to another worker: this result stands.
      redis.call('ZREM', K.q, id)
      redis.call('ZREM', K.delayed, id)
    end
    if a.requeue then
      -- Its parent stays the page that queued it.
      local old = redis.call('HGET', K.e, id)
      local pid = ''
      if old then
        local _, _, _, _, orest = fields(old)
        pid = string.match(orest, '^([^\\31]*)')
      end
      redis.call('HSET', K.e, id, withParent(a.entry, pid))
      if tonumber(a.notBefore) > now then redis.call('ZADD', K.delayed, a.notBefore, id)
      else redis.call('ZADD', K.q, a.priority, id) end
    else
      redis.call('SADD', K.done, id)
      redis.call('HDEL', K.e, id)
      if a.verdict ~= '' and judged > 0 then redis.call('HSET', K.verdicts, id, a.verdict .. '0') end
    end
    for k, n in pairs(a.stats) do redis.call('HINCRBYFLOAT', K.stats, k, tostring(n)) end
    if not a.requeue then redis.call('HINCRBY', K.wpages, nameOf(worker), 1) end
    -- Its other addresses and the links kept from requesting: never requested (a URL leased now is its worker's).
    for _, k in ipairs(a.kept) do
      if redis.call('HEXISTS', K.lease, k) == 0 then
        redis.call('SADD', K.done, k)
        redis.call('ZREM', K.q, k)
        redis.call('ZREM', K.delayed, k)
        redis.call('HDEL', K.e, k)
      end
    end
    local pid = #a.children > 0 and pageNumber(a.url) or ''
    for _, c in ipairs(a.children) do
      add(c, mode, pid)
      if judged > 0 then
        local j = redis.call('HGET', K.verdicts, c[1])
        if j and tonumber(string.sub(j, 2)) < judged then
          redis.call('HSET', K.verdicts, c[1], string.sub(j, 1, 1) .. (tonumber(string.sub(j, 2)) + 1))
          redis.call('RPUSH', K.labels, '\\t' .. string.sub(j, 1, 1) .. US .. 'verdict' .. US .. a.url .. US .. now .. US .. c[3])
        end
      end
    end
    for _, l in ipairs(a.labels) do redis.call('RPUSH', K.labels, nameOf(worker) .. '\\t' .. l) end
  end
end
if everyPages > 0 then
  local r = redis.call('HMGET', K.rescore, 'state', 'pagesAt', 'endedAt', 'ms')
  local s = redis.call('HMGET', K.stats, 'fetched', 'listPages')
  local pages = tonumber(s[1] or '0') + tonumber(s[2] or '0')
  -- As a local crawl: a pass by page count waits until twice as long as the last one took has passed since it ended.
  if r[1] ~= 'open' and pages - tonumber(r[2] or '0') >= everyPages and now - tonumber(r[3] or '0') >= 2 * tonumber(r[4] or '0') then
    openPass(everyPages .. ' pages fetched')
  end
end
return res
`;

/** Gives back leases the worker will not start now (its own politeness said wait): queued again, not counted. ARGV: worker, JSON [[key, fence]]. */
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
redis.call('ZADD', K.workers, now, nameOf(worker))
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
