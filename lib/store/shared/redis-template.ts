// A template crawl on a shared frontier (docs/scale-out.md), as Lua: each cycle's search is run by one worker under a
// lease its heartbeat renews (a killed one's is retaken) and its sampled seeds queued for the whole crawl; the records
// are the crawl's, written with each final page's completion (redis-scripts.ts, ACK); the next cycle starts once the
// crawl ended, keeping the records, rules and config, and the run of the cycle before (design E.3 samples from it).
import { PRELUDE } from './redis-prelude';

/**
 * Claims this cycle's search for the worker, unless another's claim holds or it was done. ARGV: worker, leaseMs.
 * Returns {'seeded', run JSON, seeds JSON} | {'wait'} | {'claimed', cycle, the cycle before's run JSON or '', and seeds JSON}.
 */
export const SCLAIM = PRELUDE + `
local worker, leaseMs = ARGV[1], tonumber(ARGV[2])
redis.call('ZADD', K.workers, now, nameOf(worker))
local s = redis.call('HMGET', K.tsearch, 'state', 'holder', 'until', 'run', 'seeds', 'cycle', 'prev', 'prevSeeds')
if s[1] == 'seeded' then return {'seeded', s[4], s[5]} end
if s[2] and s[2] ~= '' and s[2] ~= worker and tonumber(s[3]) >= now then return {'wait'} end
redis.call('HSET', K.tsearch, 'state', 'claimed', 'holder', worker, 'until', now + leaseMs)
return {'claimed', s[6] or '1', s[7] or '', s[8] or '[]'}
`;

/**
 * The search done: its run and sampled seeds kept for every worker, the seeds queued. 'dup' when another worker's search
 * came first. ARGV: worker, run JSON, seed URLs JSON, seeds JSON ([[key, priority, entry, '', site]...]).
 */
export const SDONE = PRELUDE + `
local worker = ARGV[1]
if redis.call('HGET', K.tsearch, 'state') == 'seeded' then return 'dup' end
local R = rules()
for _, c in ipairs(cjson.decode(ARGV[4])) do add(c, R, '') end
redis.call('HSET', K.tsearch, 'state', 'seeded', 'holder', '', 'run', ARGV[2], 'seeds', ARGV[3])
return 'ok'
`;

/** The keys a cycle starts anew (the config, rules, records, robots answers, labels and what training taught stay). */
const CYCLE_KEYS = ['q', 'e', 'done', 'delayed', 'lease', 'leaseAt', 'order', 'hnext', 'hact', 'qact', 'stats', 'ended', 'wpages', 'pages', 'verdicts',
  'revisits', 'rescore', 'sites', 'sq', 'graph', 'rchanges'];

/**
 * The next cycle of a template crawl that ended (a recrawl, design E.6): the cycle's keys start anew, the cycle before's
 * run is kept for the next search. Returns {'next', cycle} | {'running'} (it has not ended: the worker joins it).
 */
export const NEXT_CYCLE = PRELUDE + `
if not redis.call('GET', K.ended) then return {'running', ''} end
local s = redis.call('HMGET', K.tsearch, 'cycle', 'run', 'seeds')
local cycle = tonumber(s[1] or '1') + 1
for _, k in ipairs({${CYCLE_KEYS.map((k) => `K['${k}']`).join(', ')}}) do redis.call('DEL', k) end
redis.call('DEL', K.tsearch)
redis.call('HSET', K.tsearch, 'cycle', cycle, 'prev', s[2] or '', 'prevSeeds', s[3] or '[]')
return {'next', tostring(cycle)}
`;
