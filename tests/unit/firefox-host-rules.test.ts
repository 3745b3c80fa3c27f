// Chromium's --host-resolver-rules as the PAC script the Firefox launcher installs: the script is run here as
// Firefox runs it, with shExpMatch, and must send mapped hosts to their address and everything else direct.
import { describe, expect, it } from 'vitest';
import { pacFromHostRules } from '../../scripts/lib/firefox';

/** Firefox's shExpMatch: * and ? as in shell patterns, the whole name. */
const shExpMatch = (s: string, pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(s);

function findProxy(pac: string, url: string): string {
  const run = new Function('shExpMatch', `${pac}; return FindProxyForURL;`) as (m: typeof shExpMatch) => (u: string, h: string) => string;
  return run(shExpMatch)(url, new URL(url).hostname);
}

describe('pacFromHostRules', () => {
  it('sends mapped hosts to their address and every other host direct', () => {
    const pac = pacFromHostRules('MAP *.test 127.0.0.1:8080, MAP shop.example 127.0.0.1:9090');
    expect(findProxy(pac, 'http://club.test/login')).toBe('PROXY 127.0.0.1:8080');
    expect(findProxy(pac, 'http://shop.example/')).toBe('PROXY 127.0.0.1:9090');
    expect(findProxy(pac, 'http://127.0.0.1:3000/')).toBe('DIRECT');
    expect(findProxy(pac, 'https://example.org/test')).toBe('DIRECT');
  });

  it('refuses a rule it cannot express in Firefox', () => {
    expect(() => pacFromHostRules('EXCLUDE localhost')).toThrow(/only "MAP <host pattern> <address>:<port>"/);
    expect(() => pacFromHostRules('MAP *.test 127.0.0.1')).toThrow(/host rule "MAP \*\.test 127\.0\.0\.1": only/);
  });
});
