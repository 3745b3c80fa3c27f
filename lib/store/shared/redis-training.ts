// Training on a shared crawl, as Lua: each link source is claimed by one worker (with a lease its heartbeat renews)
// and read once for the whole crawl; what it taught is published for every worker (docs/scale-out.md).
import { PRELUDE } from './redis-prelude';

/**
 * Claims a link source for the worker to read: the first of the given ones that is neither read nor claimed by
 * another worker whose claim still holds (a claim lasts leaseMs and is renewed by the worker's heartbeat).
 * ARGV: worker, leaseMs, link sources JSON. Returns {url claimed or '', how many are not read yet}.
 */
export const TCLAIM = PRELUDE + `
local worker, leaseMs = ARGV[1], tonumber(ARGV[2])
redis.call('ZADD', K.workers, now, nameOf(worker))
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
 * A link source read: marks it read for the whole crawl and publishes what it taught, unless another worker's read
 * of it came first ('dup': nothing is published twice): the labeled links learned from it, and, for a labeled page,
 * its label and out-links (every worker's URL authority counts them) and its words (every worker's judge learns them).
 * The last one ends training. Its addresses
 * (as asked, and as answered) are done unless queued: a link to it found later is not queued, as it was read.
 * ARGV: worker, link source, labels JSON (each encoded), address keys JSON, out-links line ('' when none), what the judge
 * learned of it ('label\tword count word count...', '' when none).
 * Returns 'ok' | 'dup'.
 */
export const TRAINED = PRELUDE + `
local worker, url = ARGV[1], ARGV[2]
redis.call('ZADD', K.workers, now, nameOf(worker))
if redis.call('SADD', K.trained, url) == 0 then return 'dup' end
redis.call('SREM', K.tpending, url)
redis.call('HDEL', K.tclaim, url)
redis.call('HINCRBY', K.stats, 'trainPages', 1)
for _, k in ipairs(cjson.decode(ARGV[4])) do
  if redis.call('HEXISTS', K.e, k) == 0 then redis.call('SADD', K.done, k) end
end
for _, l in ipairs(cjson.decode(ARGV[3])) do redis.call('RPUSH', K.labels, nameOf(worker) .. '\\t' .. l) end
if ARGV[5] ~= '' then redis.call('RPUSH', K.tlinks, ARGV[5]) end
if ARGV[6] ~= '' then redis.call('RPUSH', K.tjudge, nameOf(worker) .. '\t' .. ARGV[6]) end
return 'ok'
`;
