// The crawl-wide re-score of a shared frontier (docs/scale-out.md, "The shared queue learns"), as Lua. A pass opens
// once for the whole crawl: by page count in the completion script (as a local crawl decides), or when a worker asks
// (a retrain, a HITS round). One worker at a time leads it, under a lease: it reads a slice of the queue (ZSCAN from
// the pass's cursor), ranks it with its model, and writes the slice back with the next cursor. A leader that stops
// renewing (killed) loses the lead; the next worker to lead goes on from the cursor, redoing the slice it had.
import { PRELUDE } from './redis-prelude';

/**
 * Takes the lead of the open pass, or opens one for `why` first when none is open and `why` is given. A pass open for
 * another reason that has begun scanning is followed by one more. ARGV: worker, leaseMs, why.
 * Returns {'lead', pass, fence, cursor, why} | {'led', leader} | {'none'}.
 */
export const RLEAD = PRELUDE + `
local worker, leaseMs, why = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local r = redis.call('HMGET', K.rescore, 'state', 'leader', 'until', 'why', 'started')
if r[1] ~= 'open' then
  if why == '' then return {'none'} end
  openPass(why)
  r = redis.call('HMGET', K.rescore, 'state', 'leader', 'until', 'why', 'started')
elseif why ~= '' and why ~= r[4] and r[5] == '1' then
  redis.call('HSET', K.rescore, 'again', '1', 'againWhy', why)
end
if r[2] ~= '' and r[2] ~= worker and tonumber(r[3]) >= now then return {'led', nameOf(r[2])} end
-- A leader that went quiet: its pass is taken over where it was.
if r[2] ~= '' and r[2] ~= worker then redis.call('HINCRBY', K.rescore, 'takeovers', 1) end
local fence = redis.call('HINCRBY', K.rescore, 'fence', 1)
redis.call('HSET', K.rescore, 'leader', worker, 'until', now + leaseMs)
local s = redis.call('HMGET', K.rescore, 'pass', 'cursor', 'why')
return {'lead', s[1], tostring(fence), s[2], s[3]}
`;

/**
 * A slice ranked: each queued URL whose priority is still the one read moves to its new one (a URL raised meanwhile
 * by a better link was ranked by the model already); its in-links too, where they changed. The cursor moves on; a
 * cursor of 0 ends the pass (and opens the next, when one was asked for meanwhile). Refused ('lost') when another
 * worker leads now. ARGV: worker, fence, leaseMs, cursor read from, next cursor, scanned, moves JSON
 * ([[key, priority read, new priority, in-links or '']]). Returns {'more' | 'done' | 'lost', scanned, changed} (the pass's).
 */
export const RWRITE = PRELUDE + `
local worker, fence, leaseMs, from, nextCursor, scanned = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6])
local r = redis.call('HMGET', K.rescore, 'state', 'leader', 'fence', 'cursor', 'openedAt', 'again', 'againWhy')
if r[1] ~= 'open' or r[2] ~= worker or r[3] ~= fence or r[4] ~= from then return {'lost', 0, 0} end
local changed = 0
for _, m in ipairs(cjson.decode(ARGV[7])) do
  if redis.call('ZSCORE', K.q, m[1]) == m[2] then
    redis.call('ZADD', K.q, m[3], m[1])
    changed = changed + 1
    if m[4] ~= '' then
      local v = redis.call('HGET', K.e, m[1])
      if v then
        local u, p, _, d, rest = fields(v)
        redis.call('HSET', K.e, m[1], entryOf(u, p, m[4], d, rest))
      end
    end
  end
end
local total = redis.call('HINCRBY', K.rescore, 'scanned', scanned)
local moved = redis.call('HINCRBY', K.rescore, 'changed', changed)
redis.call('HSET', K.rescore, 'cursor', nextCursor, 'started', '1', 'until', now + leaseMs)
redis.call('HINCRBY', K.rescore, 'slices:' .. nameOf(worker), 1)
if nextCursor ~= '0' then return {'more', total, moved} end
redis.call('HSET', K.rescore, 'state', 'done', 'leader', '', 'endedAt', now, 'ms', now - tonumber(r[5]))
if r[6] == '1' then openPass(r[7]) end
return {'done', total, moved}
`;

/** The leader gives the lead up (its crawl paused or ended): another worker may take it at once. ARGV: worker, fence. */
export const RLEAVE = PRELUDE + `
local r = redis.call('HMGET', K.rescore, 'leader', 'fence')
if r[1] == ARGV[1] and r[2] == ARGV[2] then redis.call('HSET', K.rescore, 'leader', '', 'until', '0') end
return 1
`;
