// "Crawl this site": the keywords a page suggests, the config it starts, and the tabs it refuses.
import { expect, it } from 'vitest';
import { parseConfig } from '../../lib/app/parse-config';
import { keywordsFromPage, siteStartConfig, siteStartLimits, siteStartProblem } from '../../lib/ui/site-start';

it('suggests keywords from the title\'s own part and the headings, not the site\'s name', () => {
  expect(keywordsFromPage({ title: 'Choosing a first telescope - Northfield Library', headings: ['Choosing a first telescope', 'See also'] }))
    .toEqual(['choosing', 'first', 'telescope']);
  expect(keywordsFromPage({ title: 'Home', headings: [] })).toEqual(['home']);
  expect(keywordsFromPage({ title: 'Galaxies | Sky blog', headings: ['Spiral galaxies and their arms', 'Elliptical galaxies', 'Irregular galaxies'] }).slice(0, 2))
    .toEqual(['galaxies', 'spiral']);
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
