// An export's file name: letters, digits and dashes (dots inside a host), the crawl's words and its day, whatever the
// crawl was called.
import { expect, it } from 'vitest';
import { exportFileName } from '../../lib/export/export-crawl';
import { describedCrawlName } from '../../lib/records/crawl-name';

const DEC_7 = new Date(2026, 11, 7, 15, 30).getTime(); // local time: the day the user started it

it('names an export after the crawl\'s topic, host and day, in safe characters', () => {
  const described = describedCrawlName('telescope, planet, star', 'http://127.0.0.1:44127/space/', DEC_7);
  expect(described).toBe('telescope, planet, star on 127.0.0.1, 7 Dec');
  expect(exportFileName({ name: described, createdAt: DEC_7 }, 'jsonl')).toBe('telescope-planet-star-127.0.0.1-2026-12-07-pages.jsonl');
  expect(exportFileName({ name: 'astronomy on 127.0.0.1, 7 Dec', createdAt: DEC_7 }, 'jsonl')).toBe('astronomy-127.0.0.1-2026-12-07-pages.jsonl');
  expect(exportFileName({ name: 'astronomy on www.example.org, 7 Dec (2)', createdAt: DEC_7 }, 'wacz')).toBe('astronomy-www.example.org-2026-12-07-2-crawl.wacz');
});

it('makes any name safe: no spaces, slashes, colons, quotes or leading dots; letters of any script kept', () => {
  const names: [string, string][] = [
    ['Demo: astronomy at Northfield Library', 'demo-astronomy-at-northfield-library-2026-12-07-pages.csv'],
    ['../../etc/passwd', 'etc-passwd-2026-12-07-pages.csv'],
    ['Météo "Pyrénées" / été 2026?', 'meteo-pyrenees-ete-2026-2026-12-07-pages.csv'],
    ['天文 望远镜', '天文-望远镜-2026-12-07-pages.csv'],
    ['...', 'crawl-2026-12-07-pages.csv'],
    ['v1.2 release notes.', 'v1.2-release-notes-2026-12-07-pages.csv'],
  ];
  for (const [name, file] of names) {
    const got = exportFileName({ name, createdAt: DEC_7 }, 'csv');
    expect(got, name).toBe(file);
    expect(got).toMatch(/^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*$/u);
  }
});
