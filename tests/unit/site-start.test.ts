// "Crawl this site": the keywords a page suggests, the config it starts, and the tabs it refuses. The keywords are read
// from real-shaped pages in four languages (tests/fixtures/keyword-pages/) and the demo site's own, as the popup reads
// them in the tab (lib/ui/page-outline.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { siteStartConfig, siteStartLimits, siteStartProblem } from '../../lib/ui/site-start';
import { keywordsFromPage, pageLanguage } from '../../lib/ui/page-keywords';
import { pageOutline } from '../../lib/ui/page-outline';
import { STOP_WORDS, type KeywordLanguage } from '../../lib/ui/keyword-stop-words';
import { demoHandler } from '../fixtures/sites/demo-site';

/** The outline of a page as the popup reads it in the tab. */
const outlineOf = (html: string) => pageOutline(parseHTML(html).document as unknown as Document);
const fixture = (name: string) => outlineOf(readFileSync(join(__dirname, '..', 'fixtures', 'keyword-pages', `${name}.html`), 'utf8'));

/** A page of the demo site, as its server sends it. */
function demoPage(path: string): string {
  let body = '';
  demoHandler()({ url: path } as never, { writeHead() {}, end(b: string) { body = b; } } as never);
  return body;
}

it('suggests a page\'s topical words, best first: never "choosing" or "first", nor the site\'s name', () => {
  const telescopes = outlineOf(demoPage('/space/telescopes'));
  expect(telescopes.title).toBe('Choosing a first telescope - Northfield Library');
  // The title's subject first, then what the text around its links is about; the navigation's links are the site's.
  expect(keywordsFromPage(telescopes)).toEqual(['telescope', 'reflector', 'refractors', 'lenses', 'mirrors', 'aperture']);
  expect(telescopes.links.map((l) => l.text)).not.toContain('Log out');
  expect(keywordsFromPage(outlineOf(demoPage('/space/')))).toEqual(['space', 'sky', 'stars', 'planet', 'solar', 'moon']);
});

it('reads pages in English, German, French and Spanish in their own words, their language said or not', () => {
  const cases: [string, KeywordLanguage, string[], string[]][] = [
    // [page, its language, keywords it must lead with, words it must not suggest]
    ['en-sourdough', 'en', ['starter', 'sourdough'], ['how', 'make', 'read', 'home', 'baker']],
    ['de-teleskop', 'de', ['teleskop', 'licht'], ['erste', 'sammelt', 'wikipedia', 'anmelden', 'siehe']],
    ['fr-randonnee', 'fr', ['randonnée', 'pyrénées', 'montagne'], ['nos', 'choisir', 'lire', 'carnets', 'connexion']],
    ['es-huerto', 'es', ['huerto', 'balcón', 'urbano'], ['cómo', 'empezar', 'usa', 'jardinería', 'artículos']],
  ];
  for (const [name, lang, lead, never] of cases) {
    const outline = fixture(name);
    expect(pageLanguage(outline), name).toBe(lang);
    const words = keywordsFromPage(outline);
    expect(words.slice(0, lead.length), name).toEqual(lead);
    expect(words.length, name).toBe(6);
    expect(words.filter((w) => never.includes(w) || STOP_WORDS[lang].includes(w)), name).toEqual([]);
  }
  // The French page declares no language: its function words tell.
  expect(fixture('fr-randonnee').lang).toBe('');
  expect(keywordsFromPage({ title: 'Home', headings: [] })).toEqual([]);
  expect(keywordsFromPage({ title: '', headings: [] })).toEqual([]);
});

it('starts on the tab\'s address, on its host, with the default limits, and refuses what is not a web page', () => {
  const config = parseConfig(siteStartConfig({ url: 'http://127.0.0.1:8080/space/moon#phases', keywords: ['moon'] }));
  expect(config.seeds).toEqual(['http://127.0.0.1:8080/space/moon']);
  expect(config.scope.mode).toBe('seed-hosts');
  expect(config.topic).toEqual({ keywords: ['moon'] });
  expect(config.budget.maxPages).toBe(100);
  expect(parseConfig(siteStartConfig({ url: 'https://example.org/', keywords: [], topicId: 3 })).topic).toEqual({ keywords: [], id: 3 });
  expect(siteStartLimits('http://127.0.0.1:8080/x')).toBe('Up to 100 pages on 127.0.0.1:8080 only, one request every 1 s per host, robots.txt obeyed.');
  expect(siteStartProblem('https://example.org/')).toBeNull();
  expect(siteStartProblem('chrome://settings/')).toMatch(/chrome: page; Focus crawls web sites \(http and https addresses\) only/);
  expect(siteStartProblem(undefined)).toMatch(/browser’s own pages/);
});
