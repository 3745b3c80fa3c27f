// The shared frontier's atomic steps, as Lua run inside Redis: each script is one step no other worker can see
// half done. Times are Redis's own clock (TIME), so workers on machines whose clocks disagree still agree on
// politeness and on leases. The keys, the rules and the shared steps are in redis-prelude.ts.
import { PRELUDE } from './redis-prelude';

export { KEY_NAMES, PRELUDE, type KeyName } from './redis-prelude';

/**
 * Joins a crawl: the first worker stores its config and rules, closes the sites the config lists, and queues the
 * seeds; a later one must bring the same config. The crawl starts training while its link sources are not all read.
 * ARGV: config JSON, seeds JSON ([[key, priority, entry, '', site]...]), link sources JSON, rules JSON, sites the
 * config lists JSON. Returns {'created'|'joined'|'different'|'ended', why}.
 */
export const JOIN = PRELUDE + `
local config = redis.call('GET', K.config)
if not config then
  redis.call('SET', K.config, ARGV[1])
  for n, v in pairs(cjson.decode(ARGV[4])) do redis.call('HSET', K.rules, n, tostring(v)) end
  for _, site in ipairs(cjson.decode(ARGV[5])) do redis.call('HSET', K.closed, site, 'listed in the config') end
  local R = rules()
  for _, s in ipairs(cjson.decode(ARGV[2])) do add(s, R, '') end
  for _, u in ipairs(cjson.decode(ARGV[3])) do redis.call('SADD', K.tpending, u) end
  return {'created', ''}
end
if config ~= ARGV[1] then return {'different', ''} end
local ended = redis.call('GET', K.ended)
if ended then return {'ended', ended} end
return {'joined', ''}
`;

/**
 * Leases up to `max` ready queued URLs within what is left of the page budget: the best (or, by queues, the first of
 * the heaviest queue, design D.3) whose host is ready (fewer than perHost in flight across all workers, its delay
 * since the last request over). A URL of a site closed since it was queued leaves the queue as it is met. First,
 * leases whose deadline passed (a worker stopped renewing them: killed, or cut off) go back to the queue, and delayed
 * URLs that are due join it. ARGV: worker, max, leaseMs, maxPages, perHost, scan.
 * Returns {taken (key, fence, entry, priority, parent URL per URL), waitMs (-1: unknown), queued, leased, reserved, ended,
 * reclaimed, the reason of a re-score that waits for a leader ('' when none), the queues' loads (JSON, by queues)}.
 */
export const TAKE = PRELUDE + `
local worker, max, leaseMs, maxPages, perHost, scan = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local R = rules()
redis.call('ZADD', K.workers, now, nameOf(worker))
local reclaimed = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K.leaseAt, '-inf', now)) do
  local v = redis.call('HGET', K.lease, id)
  redis.call('ZREM', K.leaseAt, id)
  redis.call('HDEL', K.lease, id)
  if v then
    local _, _, host, prio = parseLease(v)
    requestEnded(host, prio, R)
    if redis.call('SISMEMBER', K.done, id) == 0 and redis.call('HEXISTS', K.e, id) == 1 then
      redis.call('ZADD', K.q, prio, id)
      countQueued(host, 1)
      reclaimed = reclaimed + 1
    end
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', K.delayed, '-inf', now)) do
  redis.call('ZREM', K.delayed, id)
  local v = redis.call('HGET', K.e, id)
  if v then
    local _, p = fields(v)
    redis.call('ZADD', K.q, R.queues > 0 and queueScore(p, redis.call('INCR', K.order)) or p, id)
  end
end
local r = redis.call('HMGET', K.rescore, 'state', 'leader', 'until', 'why')
local rescore = (r[1] == 'open' and (r[2] == '' or tonumber(r[3]) < now)) and r[4] or ''
local reserved = tonumber(redis.call('HGET', K.stats, 'reserved') or '0')
local function waiting(ms)
  return {{}, ms, redis.call('ZCARD', K.q) + redis.call('ZCARD', K.delayed), redis.call('ZCARD', K.leaseAt), reserved, '', reclaimed, rescore, ''}
end
if redis.call('EXISTS', K.held) == 1 then return waiting(100) end
-- Training: no crawl request before every link source is read and its labeled links published.
if redis.call('SCARD', K.tpending) > 0 then return waiting(200) end
local want = math.min(max, maxPages - reserved)
local out, taken, wait = {}, 0, -1
local hosts = {}
-- One queued URL looked at: 'taken', 'busy' (its host is not ready), or 'gone' (dropped, or not there: it left the queue).
local function consider(id, prio)
  local v = redis.call('HGET', K.e, id)
  if not v then
    redis.call('ZREM', K.q, id)
    return 'gone'
  end
  local host = hostOf(urlOfEntry(v))
  local h = hosts[host]
  if not h then
    local site = redis.call('HGET', K.hsite, host)
    h = { a = tonumber(redis.call('HGET', K.hact, host) or '0'), n = tonumber(redis.call('HGET', K.hnext, host) or '0'),
      closed = site and redis.call('HEXISTS', K.closed, site) == 1 }
    hosts[host] = h
  end
  if h.closed then
    -- Design B.5: its site was closed after it was queued.
    redis.call('ZREM', K.q, id)
    redis.call('HDEL', K.e, id)
    redis.call('SADD', K.done, id)
    redis.call('HINCRBY', K.stats, 'skipped', 1)
    drop('site blacklisted')
    return 'gone'
  end
  if h.a >= perHost then return 'busy' end
  if h.n > now then
    local w = h.n - now
    if wait < 0 or w < wait then wait = w end
    return 'busy'
  end
  h.a = h.a + 1
  redis.call('HSET', K.hact, host, h.a)
  redis.call('ZREM', K.q, id)
  countQueued(host, -1)
  local f = redis.call('INCR', K.fence)
  redis.call('HSET', K.lease, id, worker .. '\\t' .. f .. '\\t' .. host .. '\\t' .. prio)
  redis.call('ZADD', K.leaseAt, now + leaseMs, id)
  local _, _, _, _, rest = fields(v)
  local pk = string.match(rest, '^([^\\31]*)')
  out[#out + 1] = id
  out[#out + 1] = tostring(f)
  out[#out + 1] = v
  out[#out + 1] = R.queues > 0 and tostring(queueOf(prio)) or prio
  out[#out + 1] = pk ~= '' and (redis.call('HGET', K.pages, pk) or '') or ''
  taken = taken + 1
  if R.queues > 0 then redis.call('HINCRBY', K.qact, queueOf(prio), 1) end
  return 'taken'
end
local loads = ''
if want > 0 and R.queues == 0 then
  local rows = redis.call('ZREVRANGE', K.q, 0, scan - 1, 'WITHSCORES')
  for i = 1, #rows, 2 do
    if taken >= want then break end
    consider(rows[i], rows[i + 1])
  end
elseif R.queues > 0 then
  -- Design D.3: each queue weighs its length / iFactor^(max - its number) / (1 + its requests in flight); the heaviest
  -- gives the next URL, first in first out, a busy host's passed over (D.4); the weights again after each URL.
  local reads, links = 0, 0
  for _, st in ipairs(redis.call('HVALS', K.sstate)) do
    local o = cjson.decode(st)
    reads = reads + (tonumber(o.listReads) or 0)
    links = links + (tonumber(o.newLinks) or 0)
  end
  local iF = reads == 0 and R.iFactor or math.max(1, links / reads)
  local qs = {}
  for p = 1, R.queues do
    qs[p] = { len = redis.call('ZCOUNT', K.q, p, '(' .. (p + 1)), act = tonumber(redis.call('HGET', K.qact, p) or '0'), off = 0, asked = 0, done = false }
  end
  while taken < want do
    local best, weight = nil, -1
    for p = R.queues, 1, -1 do
      local Q = qs[p]
      if Q.len > 0 and not Q.done then
        local w = Q.len / iF ^ (R.queues - p) / (1 + Q.act)
        if w > weight then best, weight = p, w end
      end
    end
    if not best then break end
    local Q = qs[best]
    local got = false
    while not got and Q.asked < scan do
      local rows = redis.call('ZREVRANGEBYSCORE', K.q, '(' .. (best + 1), best, 'WITHSCORES', 'LIMIT', Q.off, 16)
      if #rows == 0 then break end
      for i = 1, #rows, 2 do
        Q.asked = Q.asked + 1
        local what = consider(rows[i], rows[i + 1])
        if what == 'busy' then Q.off = Q.off + 1
        else
          Q.len = Q.len - 1
          if what == 'taken' then
            Q.act = Q.act + 1
            got = true
            break
          end
        end
        if Q.asked >= scan then break end
      end
    end
    if not got then Q.done = true end
  end
  local l = {}
  for p = 1, R.queues do
    local Q = qs[p]
    if Q.len > 0 or Q.act > 0 then l[#l + 1] = { priority = p, queued = Q.len, inFlight = Q.act } end
  end
  loads = #l > 0 and cjson.encode(l) or '[]'
end
if taken > 0 then reserved = tonumber(redis.call('HINCRBY', K.stats, 'reserved', taken)) end
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
return {out, wait, queued, leased, reserved, ended or '', reclaimed, rescore, loads}
`;

/**
 * Completes leases: the lease's fence must be the worker's own, or, when it expired, the URL must not be done
 * yet (a slow worker that finishes first wins; the one that retook it is told 'dup' and its page is not counted).
 * Accepted pages count (for the crawl and their site, which they may close, design B.5), mark their URL done (or
 * queue it again), and queue their links (every link, so that each counts: design A.7's raise, `classifier.everyLink`),
 * each new one admitted by its site (design B.4). A link to a page judged before teaches its verdict, at most
 * `judged` times a page (`learning.linksToJudged`). Every `everyPages` pages of the crawl, a re-score pass opens.
 * ARGV: worker, delayMs, acks JSON ([{key, url, site, fence, requeue, priority, notBefore, entry, stats, children, kept,
 * labels, verdict, revisit, dropped, outlinks, record}]). Returns one of 'ok' | 'late' | 'dup' per ack. A relevant page's out-links
 * join the crawled graph of a strategy that keeps one (design C.2), for every worker's; a template's final page writes its record.
 */
export const ACK = PRELUDE + `
local worker, delayMs = ARGV[1], tonumber(ARGV[2])
local R = rules()
redis.call('ZADD', K.workers, now, nameOf(worker))
local res = {}
-- A URL that leaves the queue (or the delayed set) for good.
local function unqueue(id)
  local v = redis.call('HGET', K.e, id)
  local gone = redis.call('ZREM', K.q, id) + redis.call('ZREM', K.delayed, id)
  if v and gone > 0 then countQueued(hostOf(urlOfEntry(v)), -1) end
end
for i, a in ipairs(cjson.decode(ARGV[3])) do
  local id = a.key
  local mine = false
  local v = redis.call('HGET', K.lease, id)
  if v then
    local w, f, host, prio = parseLease(v)
    if w == worker and f == tostring(a.fence) then
      mine = true
      requestEnded(host, prio, R)
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
    -- Its lease expired and it went back to the queue, or to another worker: this result stands.
    if not mine then unqueue(id) end
    if a.requeue then
      -- Its parent stays the page that queued it.
      local old = redis.call('HGET', K.e, id)
      local pid = ''
      if old then
        local _, _, _, _, orest = fields(old)
        pid = string.match(orest, '^([^\\31]*)')
      end
      redis.call('HSET', K.e, id, withParent(a.entry, pid))
      countQueued(hostOf(a.url), 1)
      if tonumber(a.notBefore) > now then redis.call('ZADD', K.delayed, a.notBefore, id)
      else redis.call('ZADD', K.q, R.queues > 0 and queueScore(a.priority, redis.call('INCR', K.order)) or a.priority, id) end
    else
      redis.call('SADD', K.done, id)
      redis.call('HDEL', K.e, id)
      if a.verdict ~= '' and R.judged > 0 then redis.call('HSET', K.verdicts, id, a.verdict .. '0') end
      if a.revisit ~= '' then redis.call('HSET', K.revisits, id, a.revisit) end
    end
    for k, n in pairs(a.stats) do redis.call('HINCRBYFLOAT', K.stats, k, tostring(n)) end
    for why, n in pairs(a.dropped) do drop(why, n) end
    if not a.requeue then redis.call('HINCRBY', K.wpages, nameOf(worker), 1) end
    -- Design B.5 first: a site this page tips over is closed before its new links are admitted.
    if a.site ~= '' and ((a.stats.fetched or 0) > 0 or (a.stats.relevant or 0) > 0) then
      local row = redis.call('HGET', K.sites, a.site)
      local fetched, relevant = 0, 0
      if row then fetched, relevant = string.match(row, '^(%S+) (%S+)$') end
      fetched, relevant = tonumber(fetched) + (a.stats.fetched or 0), tonumber(relevant) + (a.stats.relevant or 0)
      redis.call('HSET', K.sites, a.site, fetched .. ' ' .. relevant)
      if R.blacklistAfter > 0 and fetched - relevant > R.blacklistAfter and redis.call('HEXISTS', K.closed, a.site) == 0 then
        redis.call('HSET', K.closed, a.site, string.format(R.closeReason, fetched - relevant))
        redis.call('HSET', K.sq, a.site, 0)
      end
    end
    -- Its other addresses and the links kept from requesting: never requested (a URL leased now is its worker's).
    for _, k in ipairs(a.kept) do
      if redis.call('HEXISTS', K.lease, k) == 0 then
        unqueue(k)
        redis.call('SADD', K.done, k)
        redis.call('HDEL', K.e, k)
      end
    end
    local pid = #a.children > 0 and pageNumber(a.url) or ''
    for _, c in ipairs(a.children) do
      local why = add(c, R, pid)
      if why then drop(why) end
      if R.judged > 0 then
        local j = redis.call('HGET', K.verdicts, c[1])
        if j and tonumber(string.sub(j, 2)) < R.judged then
          redis.call('HSET', K.verdicts, c[1], string.sub(j, 1, 1) .. (tonumber(string.sub(j, 2)) + 1))
          redis.call('RPUSH', K.labels, '\\t' .. string.sub(j, 1, 1) .. US .. 'verdict' .. US .. a.url .. US .. now .. US .. c[3])
        end
      end
    end
    for _, l in ipairs(a.labels) do redis.call('RPUSH', K.labels, nameOf(worker) .. '\\t' .. l) end
    if a.outlinks ~= '' then redis.call('RPUSH', K.graph, worker .. '\\t' .. a.url .. '\\t' .. a.outlinks) end
    -- A template's final page: its record, and what this cycle did to it (design E.5, E.6).
    if type(a.record) == 'table' then
      if a.record.value ~= '' then redis.call('HSET', K.records, a.record.url, a.record.value) else redis.call('HDEL', K.records, a.record.url) end
      redis.call('HSET', K.rchanges, a.record.url, a.record.change)
    end
  end
end
if R.everyPages > 0 then
  local r = redis.call('HMGET', K.rescore, 'state', 'pagesAt', 'endedAt', 'ms')
  local s = redis.call('HMGET', K.stats, 'fetched', 'listPages')
  local pages = tonumber(s[1] or '0') + tonumber(s[2] or '0')
  -- As a local crawl: a pass by page count waits until twice as long as the last one took has passed since it ended.
  if r[1] ~= 'open' and pages - tonumber(r[2] or '0') >= R.everyPages and now - tonumber(r[3] or '0') >= 2 * tonumber(r[4] or '0') then
    openPass(R.everyPages .. ' pages fetched')
  end
end
return res
`;

/** Gives back leases the worker will not start now (its own politeness said wait): queued again, not counted. ARGV: worker, JSON [[key, fence]]. */
export const RELEASE = PRELUDE + `
local worker = ARGV[1]
local R = rules()
local n = 0
for _, r in ipairs(cjson.decode(ARGV[2])) do
  local v = redis.call('HGET', K.lease, r[1])
  if v then
    local w, f, host, prio = parseLease(v)
    if w == worker and f == tostring(r[2]) then
      requestEnded(host, prio, R)
      redis.call('HDEL', K.lease, r[1])
      redis.call('ZREM', K.leaseAt, r[1])
      redis.call('ZADD', K.q, prio, r[1])
      countQueued(host, 1)
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
if redis.call('HGET', K.tsearch, 'holder') == worker then redis.call('HSET', K.tsearch, 'until', now + leaseMs) end
local claims = redis.call('HGETALL', K.tclaim)
for i = 1, #claims, 2 do
  if string.match(claims[i + 1], '^([^\\t]*)\\t') == worker then redis.call('HSET', K.tclaim, claims[i], worker .. '\\t' .. (now + leaseMs)) end
end
return n
`;
