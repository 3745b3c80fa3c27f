// The session-safety guard on links of real web applications (tests/fixtures/safety/app-links.tsv): every link that
// acts is kept from requesting, and hardly any that reads is refused, on the half the rules were tuned on and on the
// half held out from tuning. The figures are printed for docs/security.md.
import { describe, expect, it } from 'vitest';
import { makeSafetyGuard } from '../../lib/policy/safety';
import { DEFAULTS } from '../../lib/records/config';
import { normalizeUrl } from '../../lib/records/url';
import { readAppLinks, scoreGuard, type AppLink } from '../fixtures/safety/app-links';

const guard = makeSafetyGuard(DEFAULTS.safety);
const rows = readAppLinks();
/** As the crawl hands a link over: its URL normalized, its text, its markup as the parser reads it. */
const refuses = (r: AppLink) => guard.check(normalizeUrl(r.url) ?? r.url, { anchor: r.anchor, markup: { attrs: r.attrs, ...(r.icon ? { icon: r.icon } : {}) } }) !== null;
const line = (r: AppLink) => `${r.app} ${r.url} "${r.anchor}"`;

/**
 * What the guard still gets wrong on the held-out halves, each with why (the limits in lib/policy/safety.ts): any
 * other miss or refusal fails the test.
 */
const KNOWN_MISSES = [
  // Shopify applies a discount code to the cart on a GET of /discount/CODE: neither its URL nor its text names an action.
  'shopify https://boutique.example.fr/discount/BIENVENUE10 "Profitez de -10 %"',
];
const KNOWN_REFUSALS = [
  // An `action` whose value names no view the guard knows is taken to act.
  'otrs https://helpdesk.example.de/otrs/index.pl?Action=AgentTicketQueue "Queue-Ansicht"',
  // A weak verb before an id: /report/1 is Trac's list of tickets, as /vote/123 is a vote.
  'trac https://trac.example.fr/report/1 "Tickets actifs"',
  // A script named by a verb and what it acts on: save_log.cgi also shows the log.
  'webmin https://server.example.it:10000/syslog/save_log.cgi?view=1&file=%2Fvar%2Flog%2Fsyslog "Visualizza"',
];
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

describe('the guard on links of web applications', () => {
  it.each(['tune', 'held', 'held2'] as const)('keeps the actions of the %s half from requesting and refuses hardly any of its reads', (half) => {
    const score = scoreGuard(rows.filter((r) => r.half === half), refuses);
    const acts = score.keptActs + score.missedActs.length;
    const reads = score.readReads + score.refusedReads.length;
    console.log(`${half}: ${acts} acts, ${reads} reads; kept ${score.keptActs}, refused reads ${score.refusedReads.length}: ` +
      `precision ${pct(score.precision)}, recall ${pct(score.recall)}, reads refused ${pct(score.refusedShare)}`);
    expect(score.missedActs.map(line).filter((l) => !KNOWN_MISSES.includes(l)), 'acts let through').toEqual([]);
    expect(score.refusedReads.map(line).filter((l) => !KNOWN_REFUSALS.includes(l)), 'reads refused').toEqual([]);
    if (half === 'tune') expect(score.missedActs.length + score.refusedReads.length).toBe(0);
    expect(score.refusedShare).toBeLessThanOrEqual(0.021);
  });

  it('is a labelled set of at least 200 links, about half acts, from many applications and languages', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    const acts = rows.filter((r) => r.label === 'act').length;
    expect(acts / rows.length).toBeGreaterThan(0.4);
    expect(new Set(rows.map((r) => r.app)).size).toBeGreaterThanOrEqual(30);
    expect(new Set(rows.map((r) => r.lang)).size).toBeGreaterThanOrEqual(15);
  });
});
