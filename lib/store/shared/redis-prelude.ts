// What every Lua step of a shared crawl starts with (redis-scripts.ts and its neighbours): the crawl's keys, Redis's
// clock, how entries are read and written, the crawl's rules, and the steps several scripts share (queueing a link,
// the site book, a queued URL entering or leaving the queue). Every key of a crawl is passed in KEYS (in the order of
// `KEY_NAMES`) and shares the hash tag `{name}`, so the scripts run on one node of a Redis Cluster too. A URL is its
// key (redis-entries.ts, `urlKey`) everywhere.

/** A crawl's keys, in the order every script receives them as KEYS[1..]. */
export const KEY_NAMES = [
  'config', // the crawl's parsed config (JSON): a worker with another config is refused
  'rules', // hash: what the crawl's config says the scripts apply (redis-frontier.ts, `CrawlRules`)
  'q', // sorted set: queued URL key -> priority (higher first; by queues, the queue's number and the place in it)
  'e', // hash: URL key -> its entry string, while queued, delayed or leased (a URL seen is in `e` or in `done`)
  'done', // set: URL keys fetched (or failed, or kept from requesting, or another address of a page) for good
  'delayed', // sorted set: URL key -> time before which it is not taken (Retry-After, a refresh)
  'lease', // hash: URL key -> "worker#run\tfence\thost\tpriority"
  'leaseAt', // sorted set: URL key -> the lease's deadline
  'fence', // counter: each lease's token
  'order', // counter: the place of each URL queued by queues (design D.3: first in, first out)
  'hnext', // hash: host -> earliest start of its next request
  'hact', // hash: host -> requests in flight, across all workers
  'qact', // hash: queue (a priority) -> requests in flight from it, when the crawl takes by queues
  'stats', // hash: the crawl's counters (reserved = requests the budget counts; "dropped:why" = links kept out)
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
  'revisits', // hash: URL key -> what the link to a fetched page last showed of its version (design D.5)
  'rescore', // hash: the crawl-wide re-score: its pass, state, reason, cursor, leader and lease (redis-rescore.ts)
  'tlinks', // list: "label\tlinks..." of each labeled link source, for every worker's URL authority
  'tjudge', // list: "worker\tlabel\tword count word count..." of each labeled link source, for every worker's page judge
  'hsite', // hash: host -> its site (registrable domain)
  'sites', // hash: site -> "fetched relevant", its pages judged (design B.5)
  'sq', // hash: site -> its URLs queued (design B.4)
  'closed', // hash: site -> why no URL of it is queued (the config's list, or design B.5's blacklist)
  'sstate', // hash: worker -> what its strategy saved (JSON): a crawl by queues learns its iFactor from every worker's
  'graph', // list: "worker#run\turl\tlink link..." of each relevant page, for a strategy that keeps the crawled graph (design C.2)
  'tsearch', // hash: a template crawl's cycle: its number, the search's claim and lease, the seeds and run it made, the cycle before's run
  'records', // hash: URL -> a template's record (JSON, design E.5), kept across cycles
  'rchanges', // hash: URL -> what this cycle changed of its record (JSON, design E.6)
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
-- The crawl's rules, as its first worker stored them from the config.
local RULE_NAMES = {'everyLink', 'judged', 'everyPages', 'unknownSiteQueue', 'admitReason', 'blacklistAfter', 'closeReason', 'queues', 'iFactor'}
local function rules()
  local v = redis.call('HMGET', K.rules, unpack(RULE_NAMES))
  local r = {}
  for i, n in ipairs(RULE_NAMES) do r[n] = v[i] or '' end
  for _, n in ipairs({'judged', 'everyPages', 'unknownSiteQueue', 'blacklistAfter', 'queues', 'iFactor'}) do r[n] = tonumber(r[n]) or 0 end
  return r
end
-- A worker is one runner: "name#run". Its leases, claims and lead are the run's (a worker started again under its name
-- does not renew what its killed run held); its pages, labels and liveness are the name's.
local function nameOf(w) return string.match(w, '^(.*)#[^#]*$') or w end
local function parseLease(v)
  local w, f, host, prio = string.match(v, '^([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)\\t([^\\t]*)$')
  return w, f, host, prio
end
local function hostOf(url) return string.match(url, '^%a[%w+.-]*://([^/?#]+)') or '' end
-- An entry's first four fields (URL, delayed priority, in-links, depth) and the rest.
local function fields(v)
  local a = string.find(v, US, 1, true)
  local b = string.find(v, US, a + 1, true)
  local c = string.find(v, US, b + 1, true)
  local d = string.find(v, US, c + 1, true)
  return string.sub(v, 1, a - 1), string.sub(v, a + 1, b - 1), string.sub(v, b + 1, c - 1), string.sub(v, c + 1, d - 1), string.sub(v, d + 1)
end
local function entryOf(u, p, inl, d, rest) return u .. US .. p .. US .. inl .. US .. d .. US .. rest end
local function urlOfEntry(v) return string.sub(v, 1, string.find(v, US, 1, true) - 1) end
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
-- By queues (design D.3), a URL's score is its queue's number and its place in it: the first queued, the highest.
local function queueScore(p, place) return num(tonumber(p) + 1 - place / 1099511627776) end
local function queueOf(score) return math.floor(tonumber(score)) end
local function place(score) return (1 - (tonumber(score) - queueOf(score))) * 1099511627776 end
-- A queued URL of a host enters (+1) or leaves (-1) the queue: its site's count (design B.4) follows.
local function countQueued(host, by)
  local site = redis.call('HGET', K.hsite, host)
  if site and tonumber(redis.call('HINCRBY', K.sq, site, by)) < 0 then redis.call('HSET', K.sq, site, 0) end
end
-- A request from a host ended; by queues, one from its queue too.
local function requestEnded(host, prio, R)
  if tonumber(redis.call('HINCRBY', K.hact, host, -1)) <= 0 then redis.call('HDEL', K.hact, host) end
  if R.queues > 0 then redis.call('HINCRBY', K.qact, queueOf(prio), -1) end
end
local function drop(why, n) redis.call('HINCRBY', K.stats, 'dropped:' .. why, n or 1) end
-- Design B.4 and the config's list: why a new URL of a site is not queued, or nil (then it is counted as queued there).
local function admit(site, host, R)
  if site == '' then return nil end
  local closed = redis.call('HGET', K.closed, site)
  if closed then return 'site blacklisted' end
  if R.unknownSiteQueue > 0 then
    local row = redis.call('HGET', K.sites, site)
    local relevant = row and tonumber(string.match(row, ' (%S+)$')) or 0
    if relevant == 0 and tonumber(redis.call('HGET', K.sq, site) or '0') >= R.unknownSiteQueue then return R.admitReason end
  end
  redis.call('HSET', K.hsite, host, site)
  redis.call('HINCRBY', K.sq, site, 1)
  return nil
end
-- Queues a new URL, or lets a link found again to a queued one count (design A.7: raised when better; with every
-- link counted, ranked by all of them: the mean of its best link's log-odds and of all its links', when the
-- crawl's priority is that log-odds, else the better link's priority). A URL leased or delayed stays as it is; a
-- fetched one is queued again when its link shows another version of it (design D.5). Returns why a new URL was
-- kept out, if it was. c: {key, priority, entry, the link's log-odds or '', site, version or ''}; pid: the number of
-- the page the link is on ('' for a seed).
local function add(c, R, pid)
  local id, prio, value, lo = c[1], c[2], withParent(c[3], pid), c[4]
  local mode = R.everyLink
  local old = redis.call('HGET', K.e, id)
  if not old then
    if redis.call('SISMEMBER', K.done, id) == 1 then
      local shown = c[6] or ''
      local was = shown ~= '' and redis.call('HGET', K.revisits, id)
      if not was or was == shown then return nil end
      redis.call('SREM', K.done, id)
      redis.call('HSET', K.revisits, id, shown)
    else
      local why = admit(c[5] or '', hostOf(urlOfEntry(value)), R)
      if why then return why end
    end
    if mode ~= '' and lo ~= '' then
      local u, p, _, d, rest = fields(value)
      value = entryOf(u, p, '1 ' .. lo .. ' ' .. lo, d, rest)
    end
    redis.call('HSET', K.e, id, value)
    redis.call('ZADD', K.q, R.queues > 0 and queueScore(prio, redis.call('INCR', K.order)) or prio, id)
    return nil
  end
  local cur = redis.call('ZSCORE', K.q, id)
  if not cur then return nil end
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
  elseif tonumber(prio) > (R.queues > 0 and queueOf(cur) or tonumber(cur)) then
    redis.call('HSET', K.e, id, entryOf(ou, op, oinl, depth, nrest))
    -- By queues, raised to a higher queue at the place it had.
    redis.call('ZADD', K.q, R.queues > 0 and queueScore(prio, place(cur)) or prio, id)
  end
  return nil
end
-- The crawl-wide re-score (redis-rescore.ts): a new pass, waiting for a worker to lead it.
local function openPass(why)
  local s = redis.call('HMGET', K.stats, 'fetched', 'listPages')
  redis.call('HINCRBY', K.rescore, 'pass', 1)
  redis.call('HSET', K.rescore, 'state', 'open', 'why', why, 'cursor', '0', 'started', '0', 'leader', '', 'until', '0', 'scanned', '0',
    'changed', '0', 'openedAt', now, 'pagesAt', tonumber(s[1] or '0') + tonumber(s[2] or '0'), 'again', '0')
end
`;
