// The built-in demo: a small community-library website served on loopback. Its "Sky and Space" section is
// the topic (astronomy); kitchen, sports and local-news sections are off topic and link across. It also has
// what a real site has: a log-out link, a PDF, a moved page, a redirect loop, a dead link and a staff area
// closed by robots.txt.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback';

interface DemoPage {
  path: string;
  title: string;
  section: 'space' | 'kitchen' | 'sports' | 'news' | 'home';
  paragraphs: string[];
  /** Paths linked inline after paragraph i, and in the page's "See also" list. */
  related: string[];
}

const SPACE: [string, string, string[]][] = [
  ['planets', 'The planets of our solar system', ['Eight planets orbit the Sun, from rocky Mercury to the ice giant Neptune.', 'Astronomers group them into terrestrial planets and gas giants by their density and atmosphere.']],
  ['moon', 'Watching the Moon', ['The Moon shows its phases as it orbits the Earth every twenty-nine days.', 'A small telescope reveals craters, maria and mountain ranges along the terminator.']],
  ['telescopes', 'Choosing a first telescope', ['Refractors use lenses, reflectors use mirrors; aperture matters more than magnification.', 'A Dobsonian reflector is a favourite of amateur astronomers for deep-sky observing.']],
  ['galaxies', 'Galaxies beyond the Milky Way', ['The Andromeda galaxy is the most distant object visible to the naked eye.', 'Spiral, elliptical and irregular galaxies hold billions of stars bound by gravity.']],
  ['stars', 'How stars are born and die', ['Stars form in collapsing clouds of gas and dust called nebulae.', 'Massive stars end as supernovae, leaving neutron stars or black holes.']],
  ['mars', 'Mars, the red planet', ['Rovers have studied the dusty surface of Mars and its ancient river valleys.', 'Its two small moons, Phobos and Deimos, may be captured asteroids.']],
  ['jupiter', 'Jupiter and its moons', ['Jupiter is the largest planet; its Great Red Spot is a storm older than telescopes.', 'Galileo discovered its four large moons in 1610 with a simple refractor.']],
  ['eclipses', 'Solar and lunar eclipses', ['A solar eclipse happens when the Moon passes between the Sun and the Earth.', 'Never look at the Sun without a certified solar filter on your telescope.']],
  ['comets', 'Comets and meteor showers', ['Comets are icy bodies whose tails point away from the Sun.', 'Meteor showers such as the Perseids occur when Earth crosses a comet orbit.']],
  ['star-charts', 'Reading a star chart', ['Star charts map constellations, bright stars and deep-sky objects by right ascension and declination.', 'Planisphere wheels show which stars are above the horizon tonight.']],
  ['nebulae', 'Nebulae, the nurseries of stars', ['The Orion Nebula is a stellar nursery visible in binoculars.', 'Emission and reflection nebulae glow in the light of young stars.']],
  ['space-missions', 'Space missions that changed astronomy', ['The Hubble Space Telescope imaged galaxies at the edge of the observable universe.', 'Probes like Voyager left the solar system carrying a golden record.']],
  ['observing-club', 'Join the astronomy observing club', ['Our astronomy club meets on clear Friday nights to observe planets and galaxies.', 'Members share telescopes and teach beginners to find the Moon, Saturn and the Pleiades.']],
  ['black-holes', 'Black holes explained', ['A black hole is a region of spacetime whose gravity prevents light from escaping.', 'The Event Horizon Telescope imaged the shadow of a black hole in galaxy M87.']],
];
const KITCHEN: [string, string, string[]][] = [
  ['bread', 'Baking sourdough bread', ['A sourdough starter is flour and water fermented by wild yeast.', 'Long, cold proofing gives the crumb its open texture and tangy flavour.']],
  ['soups', 'Winter soups', ['Roast the vegetables before simmering to deepen the flavour of the stock.', 'Lentil soup freezes well and reheats in minutes.']],
  ['mooncakes', 'Mooncakes for the autumn festival', ['Mooncakes are pastries filled with lotus seed paste and a salted egg yolk.', 'Press the dough into a carved mould before baking until golden.']],
  ['pasta', 'Fresh pasta at home', ['Knead eggs and flour until smooth, rest the dough, then roll it thin.', 'Fresh pasta cooks in two minutes in well-salted boiling water.']],
  ['preserves', 'Jams and preserves', ['Pectin, sugar and acid set a jam; test it on a cold plate.', 'Sterilise jars in the oven before filling them with hot preserves.']],
  ['spices', 'A guide to spices', ['Toast whole spices in a dry pan to release their oils.', 'Grind cumin, coriander and cardamom fresh for curries.']],
  ['cakes', 'Celebration cakes', ['Cream butter and sugar until pale before adding the eggs one at a time.', 'Level the sponge layers with a serrated knife before icing.']],
  ['knife-skills', 'Knife skills for beginners', ['Curl your fingertips and guide the blade with your knuckles.', 'A sharp knife is safer than a dull one.']],
  ['salads', 'Summer salads', ['Dress delicate leaves at the last moment so they stay crisp.', 'Grain salads with farro or barley keep well for lunches.']],
  ['dumplings', 'Folding dumplings', ['Pleat the wrapper edges tightly so the filling stays juicy.', 'Steam or pan-fry them, then serve with black vinegar.']],
];
// More everyday pages, as a real library site has: dishes and events, far more of them than astronomy pages.
for (const dish of ['risotto', 'curry', 'pancakes', 'stew', 'tacos', 'paella', 'omelette', 'chowder', 'flatbread', 'noodles', 'pie', 'crumble']) {
  KITCHEN.push([dish, `Members' recipe: ${dish}`, [`Our members share their favourite ${dish} recipe, tested in the library kitchen.`, `Gather the ingredients for the ${dish}, prepare them in advance, and cook slowly for the best flavour.`]]);
}
const SPORTS: [string, string, string[]][] = [
  ['football', 'Youth football league', ['Training for the under-twelve football team is on Tuesday evenings.', 'The league final is played at the town stadium in May.']],
  ['cycling', 'Cycling routes', ['The river loop is a flat forty-kilometre ride for all levels.', 'Check your tyre pressure and brakes before every ride.']],
  ['swimming', 'Swimming lessons', ['Lessons for adults focus on breathing and freestyle technique.', 'The pool opens early for lane swimming on weekdays.']],
  ['chess', 'The chess circle', ['Our chess circle plays rapid games every Thursday night.', 'Beginners learn openings, tactics and endgames from club members.']],
  ['running', 'Couch to 5K running', ['Alternate walking and running intervals for the first weeks.', 'Rest days let muscles recover and prevent injuries.']],
  ['tennis', 'Tennis courts', ['Book the courts online up to a week ahead.', 'Coaching sessions cover serve, volley and footwork.']],
  ['hiking', 'Hiking in the hills', ['Carry water, a map and a warm layer on every hike.', 'The ridge path has wide views over the valley.']],
];
const NEWS: [string, string, string[]][] = [
  ['opening-hours', 'New opening hours', ['From March the library opens at nine on weekdays.', 'The reading room stays open late on Thursdays.']],
  ['book-sale', 'Annual book sale', ['Donated books are sold to fund the children\'s reading programme.', 'Volunteers sort the donations in the week before the sale.']],
  ['council', 'Council meeting notes', ['The council approved the new bicycle parking outside the library.', 'Residents asked for longer weekend opening hours.']],
  ['stargazing', 'Astronomy club starts stargazing nights', ['The astronomy club invites everyone to observe planets, the Moon and galaxies through its telescopes.', 'Bring warm clothes; the club lends telescopes and star charts to beginners.']],
];
for (const event of ['quiz-night', 'film-club', 'knitting-circle', 'poetry-reading', 'craft-fair', 'story-time', 'repair-cafe', 'garden-swap']) {
  NEWS.push([event, `Event: ${event.replace(/-/g, ' ')}`, [`Join us for the ${event.replace(/-/g, ' ')} in the main hall this month.`, 'Entry is free for members; refreshments are served by volunteers.']]);
}

function buildPages(): DemoPage[] {
  const pages: DemoPage[] = [];
  const add = (section: DemoPage['section'], rows: [string, string, string[]][]) =>
    rows.map(([slug, title, paragraphs]) => ({ path: `/${section}/${slug}`, title, section, paragraphs, related: [] as string[] }));
  const space = add('space', SPACE), kitchen = add('kitchen', KITCHEN), sports = add('sports', SPORTS), news = add('news', NEWS);
  const stargazing = news.find((p) => p.path === '/news/stargazing')!;
  // Within a section, each page links to the next three (a ring); sections link across a little, as real sites do.
  for (const group of [space, kitchen, sports, news]) {
    group.forEach((p, i) => {
      for (let k = 1; k <= 3; k++) p.related.push(group[(i + k) % group.length].path);
    });
  }
  kitchen.forEach((p, i) => p.related.push(sports[i % sports.length].path, news[i % news.length].path));
  sports.forEach((p, i) => p.related.push(kitchen[(i + 2) % kitchen.length].path));
  news.forEach((p, i) => p.related.push(kitchen[i % kitchen.length].path, sports[i % sports.length].path));
  // The only ways into the space section: the club's news item and a recipe that mentions the Moon.
  stargazing.related.unshift('/space/observing-club', '/space/');
  kitchen[2].related.push('/space/moon');
  space[0].related.push('/kitchen/mooncakes', '/files/star-chart.pdf', '/old/telescope-guide', '/space/missing-page');
  space[3].related.push('/loop/a', '/staff/rota');
  pages.push(...space, ...kitchen, ...sports, ...news);
  return pages;
}

const PAGES = buildPages();
const BY_PATH = new Map(PAGES.map((p) => [p.path, p]));

/** Paths of the demo pages that are on topic (the astronomy section). */
export const ON_TOPIC_PATHS = PAGES.filter((p) => p.section === 'space').map((p) => p.path);

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - Northfield Library</title></head>
<body><header><a href="/">Northfield Library</a> | <a href="/kitchen/">Kitchen</a> |
<a href="/sports/">Sports and Clubs</a> | <a href="/news/">News</a> | <a href="/account/logout">Log out</a></header>
<main>${body}</main><footer><p>Northfield Community Library, 12 Mill Lane. <a href="/account/delete">Delete my account</a></p></footer></body></html>`;
}

function renderPage(p: DemoPage): string {
  const linkTo = (path: string) => {
    const t = BY_PATH.get(path);
    return `<a href="${path}">${esc(t ? t.title : path.split('/').pop()!.replace(/-/g, ' '))}</a>`;
  };
  const paras = p.paragraphs.map((text, i) => `<p>${esc(text)} Read more in ${linkTo(p.related[i % p.related.length])}.</p>`).join('\n');
  const list = p.related.map((r) => `<li>${linkTo(r)}</li>`).join('');
  return layout(p.title, `<h1>${esc(p.title)}</h1>\n${paras}\n<h2>See also</h2><ul>${list}</ul>`);
}

function renderIndex(section: DemoPage['section'], title: string, intro: string): string {
  const list = PAGES.filter((p) => p.section === section).map((p) => `<li><a href="${p.path}">${esc(p.title)}</a></li>`).join('');
  return layout(title, `<h1>${esc(title)}</h1><p>${esc(intro)}</p><ul>${list}</ul>`);
}

function renderHome(): string {
  return layout('Welcome', `<h1>Welcome to Northfield Library</h1>
<p>Borrow books, join a club, or browse our guides. Our members write about <a href="/kitchen/">cooking</a>
and <a href="/sports/">sports and clubs</a>, and post <a href="/news/">news</a> of the library's events.</p>
<h2>Latest news</h2>
<ul><li><a href="/news/opening-hours">New opening hours</a></li><li><a href="/news/book-sale">Annual book sale</a></li>
<li><a href="/news/stargazing">Astronomy club starts stargazing nights</a></li><li><a href="/news/quiz-night">Quiz night</a></li>
<li><a href="/kitchen/bread">Baking sourdough bread</a></li><li><a href="/sports/chess">The chess circle</a></li></ul>`);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(body);
};

export function demoHandler(hits?: Map<string, number>): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://demo').pathname;
    hits?.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /staff/\n');
    }
    if (path === '/') return html(res, renderHome());
    if (path === '/space/') return html(res, renderIndex('space', 'Sky and Space', 'Guides to astronomy and observing the night sky: planets, stars, galaxies and telescopes.'));
    if (path === '/kitchen/') return html(res, renderIndex('kitchen', 'Kitchen', 'Recipes and cooking notes from our members.'));
    if (path === '/sports/') return html(res, renderIndex('sports', 'Sports and Clubs', 'Clubs, leagues and outdoor activities.'));
    if (path === '/news/') return html(res, renderIndex('news', 'News', 'What is happening at the library.'));
    if (path === '/files/star-chart.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end('%PDF-1.4\n% a star chart\n');
    }
    if (path === '/old/telescope-guide') {
      res.writeHead(301, { location: '/space/telescopes' });
      return res.end();
    }
    if (path === '/loop/a' || path === '/loop/b') {
      res.writeHead(302, { location: path === '/loop/a' ? '/loop/b' : '/loop/a' });
      return res.end();
    }
    if (path.startsWith('/account/')) return html(res, layout('Account', '<p>You have been signed out.</p>'));
    const page = BY_PATH.get(path);
    if (page) return html(res, renderPage(page));
    html(res, layout('Not found', '<h1>Page not found</h1>'), 404);
  };
}

export interface DemoServer {
  origin: string;
  server: Server;
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startDemoServer(port = 0): Promise<DemoServer> {
  const hits = new Map<string, number>();
  const server = createServer(demoHandler(hits));
  const { origin, close } = await listenOnLoopback(server, port);
  return { origin, server, hits, close };
}

export function demoConfig(origin: string) {
  return {
    name: 'Demo: astronomy at Northfield Library',
    seeds: [`${origin}/`],
    topic: { keywords: ['astronomy', 'astronomer', 'planet', 'star', 'telescope', 'galaxy', 'orbit', 'moon', 'nebula', 'sky', 'space'] },
    strategy: { name: 'best-first' },
    budget: { maxPages: 30 },
    politeness: { delayMs: 50, concurrency: 2, robots: true },
  };
}
