// Types shared by the crawl core, the storage layer and the extension's pages.

/**
 * What a URL is on a targeted site (design D.1): a list page (a board: mined for links and refreshed, not
 * content), a content page, the pagination of a list page, a content-return link (a content page's own next
 * pages and attachments), or other.
 */
export type UrlClass = 'list' | 'content' | 'pagination' | 'content-return' | 'other';

/** State a strategy keeps on a frontier entry (stored with it). */
export interface EntryStrategyState {
  /** design B.3: irrelevant pages in a row on the path that found this URL, up to and including its parent. */
  tunnel?: number;
  /** design C.1: the text similarities the link was planned with (its parent page's and its anchor's). */
  simPage?: number;
  simAnchor?: number;
  /** design E.4: the filter layer the page is on (0: a seed; the template's last layer: a final page). */
  layer?: number;
  /** design D.1: the class of the link the URL was queued by. */
  urlClass?: UrlClass;
}

/** A link found on a page, with the text the classifier reads (design A.3, A.4). */
export interface ExtractedLink {
  /** Absolute URL, resolved against `<base href>` or the page URL, not yet normalized. */
  url: string;
  /** Visible text of the `<a>` element (or its image alt/title), whitespace collapsed. */
  anchor: string;
  /** Link context per design A.4: neighbouring anchors when other links are close, else nearby text. */
  context: string;
  /** rel attribute values, lowercased (e.g. "nofollow"). */
  rel: string[];
  /** What the link's markup says a click does, when it says anything (the session-safety guard reads it). */
  markup?: LinkMarkup;
  /** A "next page" link, or a numbered page of the pager next to one (lib/parse/listing.ts). */
  pagination?: 'next' | 'page';
  /** The reply count shown in the link's row (a forum's thread list), when the row shows exactly one. */
  replies?: number;
}

/**
 * The attributes of a link that say what a click on it does, beyond its URL and text: a script that sends it with
 * another method (Rails' `data-method`, Turbo, Laravel), htmx and Livewire writes, a confirmation, a script that
 * takes the click over, and the link's title and accessible name. The parser keeps these and no others.
 */
export const LINK_MARKUP_ATTRIBUTES: readonly string[] = [
  'data-method', 'data-turbo-method', 'data-http-method', 'hx-post', 'hx-put', 'hx-patch', 'hx-delete', 'wire:click', 'data-request',
  'data-confirm', 'data-turbo-confirm', 'data-confirm-message', 'data-confirmation', 'onclick', 'data-xf-click', 'data-remote',
  'data-ajax', 'data-toggle-url', 'title', 'aria-label',
];

/** What a link's markup says (LINK_MARKUP_ATTRIBUTES), read by the parser and judged by lib/policy/safety.ts. */
export interface LinkMarkup {
  /** Those of LINK_MARKUP_ATTRIBUTES the link has, by name (values cut to 200 characters). */
  attrs?: Record<string, string>;
  /** The accessible name of an icon inside the link: its `title` or `aria-label`. */
  iconLabel?: string;
  /** The class of an icon inside the link (`fa fa-trash`). */
  icon?: string;
  /** The link sits inside a form. */
  inForm?: boolean;
}

/** What the parser returns for one HTML page. */
export interface ParsedPage {
  title: string;
  /** Visible text (no script, style, noscript, template), whitespace collapsed. */
  text: string;
  links: ExtractedLink[];
  /** True when `<meta name="robots">` says nofollow. */
  nofollow: boolean;
  /** The page has a password field (a sign-in form, most often). */
  passwordField?: boolean;
  /**
   * The main text in blocks, without the site's navigation, header, footer and sidebars: what tells a page apart from
   * another of the same site (lib/parse/main-text.ts). Absent where a page was not read from HTML.
   */
  main?: string[];
  /** The page's `<link rel="canonical">`, absolute, when it names an http(s) URL. */
  canonical?: string;
  /** The text of its first `<h1>` outside the site's furniture (a logo's is not), when it has one. */
  heading?: string;
}

export type EntryState = 'queued' | 'inflight' | 'done' | 'failed' | 'skipped';

/** One URL known to a crawl. The frontier table holds every URL ever seen, in all states: it is also the dedup set. */
export interface FrontierEntry {
  crawlId: number;
  /** Normalized URL; the key within a crawl. */
  url: string;
  /**
   * The URL as the link that queued it spelled it (url.ts `requestUrl`), when that differs from `url`: what is
   * requested and what robots.txt is checked against.
   */
  href?: string;
  host: string;
  /** Its site (registrable domain): strategies count and judge sites (design B). Absent only in rows older than schema v4. */
  site?: string;
  state: EntryState;
  /** Predicted relevance P(+|F) in [0,1] of the link it was found by (1 for seeds; with `classifier.everyLink`, of every link found to it). */
  score: number;
  /** Sort key of the frontier: higher is taken first. The log-odds of score for best-first, -depth for breadth-first. */
  priority: number;
  /** Tie-breaker: -(discovery sequence), so that among equal priorities the earliest found is taken first. */
  order: number;
  depth: number;
  parentUrl: string | null;
  /** Anchor and context of the link it was (best) found by; used to learn from the page's verdict. */
  anchor: string;
  context: string;
  /** Why the entry is failed or skipped, or a note (e.g. "seed"). */
  reason?: string;
  /** Attempts made (retries after a reclaim count too). */
  attempts: number;
  /** Not to be taken before this time (a server's Retry-After, a backoff after a passing fault). */
  notBefore?: number;
  /** Requests of it that met a passing fault (429, 5xx, network error) and were re-queued. */
  retries?: number;
  /** Times it was in flight when the service worker stopped. */
  reclaims?: number;
  /** What the crawl's strategy keeps on the entry (lib/strategies/types.ts), e.g. a tunnel distance. */
  strategy?: EntryStrategyState;
  /** What the link to it last showed of its version (design D.5: a thread's reply count); another value queues it again. */
  revisit?: string;
  /** Queued from a sitemap (lib/net/sitemap.ts), with the time its `<lastmod>` gave, when it gave one. */
  sitemap?: { lastmod?: number };
  /**
   * Why the link it was found by may be another spelling of a page the crawl knows (docs/duplicates.md): it waits
   * behind every other link, its priority lowered by PRESUMED_PENALTY (lib/learning/duplicates.ts).
   */
  presumed?: string;
  /** Whether the page it was (best) found on was judged on topic: the link classifier's parent-page feature. */
  parentOnTopic?: boolean;
  /** That page's hub bucket (link-features.ts `hubBucket`) when it links to labeled pages: the parent-hub feature. */
  parentHub?: number;
  /** The links found to it (`classifier.everyLink`): how many, and their log-odds' sum and best. */
  inlinks?: { n: number; sum: number; best: number };
  /**
   * A fetched page's verdict by the trained judge, kept when links to it may be learned from: a link to it found
   * later becomes a labeled link with this label (`learning.linksToJudged`).
   */
  verdict?: LabelValue;
  discoveredAt: number;
  updatedAt: number;
}

export type Phase = 'train' | 'crawl';

/** One fetch attempt's outcome, in fetch order. What `pages.jsonl` exports. */
/**
 * A page's verdict, or why it has none: judged relevant or not, fetched without a verdict, a duplicate of content
 * held (not judged again), failed, skipped.
 */
export type PageKind = 'relevant' | 'irrelevant' | 'unjudged' | 'duplicate' | 'failed' | 'skipped';

export interface PageRecord {
  crawlId: number;
  seq: number;
  url: string;
  finalUrl: string;
  status: number;
  phase: Phase;
  depth: number;
  parentUrl: string | null;
  /** The priority score the URL was taken with. */
  score: number;
  /** The frontier priority it was taken with (absent in rows older than it, and for training reads). */
  priority?: number;
  /** What the strategy said the URL is (design D.1: list, content, pagination, content-return, other), when it tells. */
  urlClass?: UrlClass;
  relevant: boolean | null;
  /** The page judge's probability that the page is on topic. */
  relevance: number | null;
  /** Which judge gave the verdict: the keyword judge (too few labeled pages yet) or the one trained on labeled pages. */
  judgedBy?: 'keywords' | 'model';
  title: string;
  textLength: number;
  contentType: string;
  bytes: number;
  truncated: boolean;
  linkCount: number;
  fetchedAt: number;
  durationMs: number;
  /** Why the page could not be had (failed) or was not requested (skipped). */
  error?: string;
  /** `done`: fetched and judged; `failed`: could not be had; `skipped`: not requested, or its redirect was not followed. Absent in rows before it existed. */
  outcome?: 'done' | 'failed' | 'skipped';
  /** The redirects followed to reach `finalUrl`, in order (each a URL and the 3xx it answered). */
  redirects?: { url: string; status: number }[];
  /**
   * The seq of the training read this page was judged from, when the crawl reached a page training had already
   * read: no request was made for it, and its body is a copy of that read's.
   */
  copyOf?: number;
  /** The answer's validators, which a later request of the page asks with (If-None-Match, If-Modified-Since). */
  etag?: string;
  lastModified?: string;
  /** The page was asked for again and found unchanged: its body is the stored copy, and an archive says so. */
  revisit?: Revisit;
  /**
   * The page held the same content (or nearly: another sidebar, timestamp, "recently viewed" box) as this page the
   * crawl already had: it was not judged again (docs/duplicates.md).
   */
  duplicateOf?: string;
  /** The URL its `<link rel="canonical">` named, when another than its own (canonical form). */
  canonical?: string;
  /** Why that canonical URL was not taken as the page's (another site, a login page, a chain...); absent when it was. */
  canonicalNote?: string;
  /**
   * Whether the page was rendered in a browser tab before it was read, and why. Absent when it was not and its HTML
   * gave no reason to (rendering is off, or the page read as a whole page).
   */
  render?: RenderNote;
  /**
   * Links of this page the session-safety guard kept from requesting (the first MAX_KEPT_ON_ROW): each URL with the
   * link that named it unsafe, and the other names this page gave the same URL. `keptLinks` counts them all.
   */
  kept?: KeptByPage[];
  keptLinks?: number;
  /** The Pages table's filter keys (lib/store/page-keys.ts), set when the row is written; indexed from schema v7. */
  kind?: PageKind;
  site?: string;
  /** The words a Pages-table search finds the page by, each after its crawl's id (`"3 moon"`, lib/store/page-keys.ts); indexed from schema v9. */
  terms?: string[];
}

/** A link a page holds that the session-safety guard kept from requesting, and which of the page's links named it so. */
export interface KeptByPage {
  url: string;
  /** The text of the link that named it unsafe. */
  anchor: string;
  /** The rule that caught that link, and what it matched. */
  rule: string;
  match: string;
  /** The texts of the page's other links to the same URL, which alone would have let it be requested. */
  alsoAs?: string[];
}

/** Links a page row lists as kept from requesting, at most; `keptLinks` counts the rest. */
export const MAX_KEPT_ON_ROW = 20;

/** Bulky payload kept apart from the page rows that are listed and sorted. */
/**
 * How a page asked for again was found unchanged (WARC 1.1 6.7.2's revisit profiles): the server answered 304 to the
 * stored copy's validators, or sent the same bytes again. `url` and `date` name the capture with the full answer.
 */
export interface Revisit {
  profile: 'server-not-modified' | 'identical-payload-digest';
  url: string;
  date: number;
  /** The 304's own headers (server-not-modified): what the archive's revisit record holds. */
  headers?: Record<string, string>;
}

export interface PageBody {
  crawlId: number;
  seq: number;
  headers: Record<string, string>;
  /**
   * The decoded HTML, kept only where `payload` and `charset` cannot give it back (a body without its bytes), and in
   * rows stored before the charset was (they have both). Read a body's HTML with `bodyHtml` (lib/records/page-body.ts).
   */
  html?: string;
  /** The body bytes exactly as received (up to the size cap); absent in rows stored before it was kept. */
  payload?: Uint8Array;
  /** The encoding the fetch decoded `payload` with (a WHATWG encoding name): with it the bytes are the HTML. */
  charset?: string;
  /** The DOM the page's scripts built, serialized, when the page was rendered: what its text and links were read from. */
  rendered?: string;
  /**
   * What the rendered page's tab loaded besides the page (its scripts, styles, JSON calls, images), as the server sent
   * it, within `fetch.renderCaptureBytes`: written to a WARC as response records so that a replay tool shows the page.
   */
  resources?: PageResource[];
}

/** One response a rendered page's tab received, kept for the archive. */
export interface PageResource {
  url: string;
  status: number;
  /** The response headers as the browser reported them. */
  headers: Record<string, string>;
  /** The body, decoded of any Content-Encoding (the headers keep the encoding it was sent with). */
  payload: Uint8Array;
}

/**
 * What stopped a rendered page that grew as it was scrolled or pressed: a step that added nothing (its end), or one of
 * the caps (`fetch.renderScrolls` and `renderClicks`, `renderGrowMs`, `renderGrowLinks`).
 */
export type GrowthStop = 'end' | 'steps' | 'time' | 'links';

/**
 * Where a rendered page's time went, in ms: `load` from asking for a tab to the page's load event, `settle` from then
 * until its network and DOM were quiet (half a second of quiet included), `grow` scrolling and pressing it, `read`
 * serializing its DOM and reading what it loaded.
 */
export interface RenderPhases {
  load: number;
  settle: number;
  grow: number;
  read: number;
}

/** How `fetch.render` treated a page (lib/policy/render-policy.ts). */
export interface RenderNote {
  rendered: boolean;
  /** Why it was rendered or not: the sign its HTML showed, what rendering showed on pages of its kind, the mode. */
  why: string;
  /** The kind of page `auto` counted it as (lib/parse/page-kind.ts): its URL's shape and the look of its HTML. */
  kind?: string;
  /** Rendered: false when the page was still busy at the timeout (what it showed then was read). */
  settled?: boolean;
  /** Rendered: times scrolling to the page's end made it grow (an endless feed), when it did. */
  scrolled?: number;
  /** Rendered: times pressing the page's "load more" control made it grow, when it did. */
  pressed?: number;
  /** Rendered and grown: what stopped its growing (`RenderResult.stopped`). */
  stopped?: GrowthStop;
  /** Rendered: what rendering added (more links, more text), when it added anything. */
  changed?: string;
  /** Why rendering failed; the page was then read from its HTML. */
  error?: string;
  /** Requests the rendered page made that were stopped (each is listed as kept from requesting). */
  blocked?: number;
  /** How long the tab took. */
  ms?: number;
  /** Rendered: where that time went. */
  phases?: RenderPhases;
}

export type LabelValue = 1 | 0; // 1 on topic, 0 off topic
/**
 * Where a labeled link came from:
 * - `auto`: a training read, by the URL patterns of known on- and off-topic pages (design A.6);
 * - `verdict`: the trained page judge's verdict on the page the link led to (online learning);
 * - `user`: the user, on the page (the labeler) or in the dashboard, or imported;
 * - `page`: a link to a page the user labeled on or off topic.
 */
export type LabelSource = 'auto' | 'verdict' | 'user' | 'page';

/** A labeled link: the classifier's training example (design A.5). Labels belong to a topic. */
export interface LabeledLink {
  id?: number;
  topicId: number;
  /** The crawl that produced it; null for labels made on the web or imported. */
  crawlId: number | null;
  url: string;
  anchor: string;
  context: string;
  label: LabelValue;
  source: LabelSource;
  createdAt: number;
  /** The page the link was labeled on, when known. */
  pageUrl?: string;
  /** Whether that page is on topic (its training label, or the judge's verdict), when known. */
  parentOnTopic?: boolean;
  /** That page's hub bucket, its own target left out, when the page links to labeled pages. */
  parentHub?: number;
}

/** A fetched page labeled on or off topic: trains the page judge. The page's HTML is in `bodies`. */
export interface PageLabel {
  id?: number;
  topicId: number;
  crawlId: number;
  seq: number;
  url: string;
  label: LabelValue;
  /** `auto`: a training read matched by the URL patterns; `user`: the user labeled it in the dashboard. */
  source: 'auto' | 'user';
  createdAt: number;
}

/**
 * A topic (a crawl profile): its name, keywords, labeled links, labeled pages and model. Crawls run for a
 * topic, and every crawl of a topic learns from all of its labels.
 */
export interface Topic {
  id?: number;
  name: string;
  keywords: string[];
  /**
   * Bumped whenever a label of the topic is changed, removed or imported, or its keywords change: a model
   * built before then cannot be brought up to date by learning only the newer labels, and is rebuilt.
   */
  revision: number;
  /** A page judge imported with the topic (its labeled pages are not here): rebuilding the judge starts from it. */
  judgeBase?: unknown;
  createdAt: number;
  updatedAt: number;
}
