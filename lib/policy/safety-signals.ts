// What besides words says that a link acts: anti-forgery tokens, operation keys and their values, the endpoints
// that run commands, statements in a query, and the link's markup; and what says that it reads: the keys of a
// search box, the words of a view, and the collections whose pages have names. Data only: safety-url.ts and
// safety.ts read it, tests/unit/safety-signals.test.ts checks every table in both directions.

/**
 * Query keys (lowercase, leading `_` and `-`/`_` inside left out: `_wpnonce` is `wpnonce`, `atl_token` is
 * `atltoken`) of the tokens an application puts on a link so that only its own page can make the request: the
 * link acts. WordPress `_wpnonce`, Moodle `sesskey`, Roundcube and Laravel `_token`, Rails `authenticity_token`,
 * Nextcloud `requesttoken`, Atlassian `atl_token`, Magento `form_key`, Keycloak `stateChecker`, OTRS
 * `ChallengeToken`, SMF `sesc`, MyBB `my_post_key` and `logoutkey`, vBulletin `logouthash`, Zabbix `_csrf_token`.
 */
export const TOKEN_KEYS: ReadonlySet<string> = new Set([
  'token', 'nonce', 'wpnonce', 'sesskey', 'csrf', 'csrftoken', 'xsrf', 'xsrftoken', 'csrfmiddlewaretoken',
  'authenticitytoken', 'requesttoken', 'atltoken', 'formkey', 'statechecker', 'challengetoken', 'sesc', 'logouthash',
  'markreadhash', 'mypostkey', 'logoutkey', 'auth', 'sig', 'signature', 'postkey', 'formtoken', 'securitytoken',
]);
/** Key endings that name such a token: `bug_monitor_add_token`, `edit_nonce`, `x_csrf`. */
export const TOKEN_SUFFIXES: readonly string[] = ['token', 'nonce', 'csrf', 'sesskey', 'hash'];
/**
 * Tokens that let the holder read something shared with them (an order's page, a document), not act: OAuth's
 * `access_token` on a portal's link to an order, a presigned download's signature.
 */
export const READ_TOKEN_KEYS: ReadonlySet<string> = new Set(['accesstoken', 'xamzsignature', 'xgoogsignature', 'idtokenhint']);
/** Keys that carry a session or a checksum on every link of some sites: a token only beside an action (phpBB `sid`, `hash`). */
export const TOKEN_BESIDE_ACTION: ReadonlySet<string> = new Set(['hash', 'sid', 'h', 'key', 'code']);
/** Path segments followed by a token: Magento's `/form_key/Xk3pQ9/`. */
export const TOKEN_SEGMENTS: ReadonlySet<string> = new Set(['formkey', 'csrf', 'token', 'nonce']);

/**
 * Keys whose value names what the server should do. With a value it does not know, a strict key is taken to act
 * (MediaWiki's and DokuWiki's unknown actions mostly do); a loose one to read (`?mode=team`, `?_task=mail`,
 * `?route=/table/structure` name a view as often as not).
 */
export const STRICT_OPERATION_KEYS: ReadonlySet<string> = new Set([
  'action', 'do', 'cmd', 'command', 'act', 'op', 'func', 'subaction', 'sa', 'actionmode', 'todo', 'operation', 'perform',
]);
export const LOOSE_OPERATION_KEYS: ReadonlySet<string> = new Set(['mode', 'task', 'method', 'route', 'a', 'event', 'submitbutton']);

/**
 * Words of an operation's value that show something (MediaWiki's view, history, info, raw, render, credits;
 * DokuWiki's show, revisions, diff, backlink, index, recent; Zabbix's `dashboard.view`, `maintenance.list`; OTRS's
 * `AgentTicketSearch`). An operation whose words are these and no action is a read.
 */
export const READ_WORDS: ReadonlySet<string> = new Set([
  'view', 'show', 'display', 'list', 'index', 'overview', 'dashboard', 'home', 'main', 'search', 'find', 'browse',
  'explore', 'info', 'details', 'detail', 'summary', 'history', 'revisions', 'diff', 'compare', 'preview', 'print',
  'raw', 'render', 'credits', 'backlink', 'recent', 'unread', 'zoom', 'profile', 'stats', 'statistics', 'status',
  'calendar', 'inbox', 'feed', 'timeline', 'activity', 'help', 'about', 'faq', 'download', 'export', 'get', 'read',
  'viewprofile', 'showprofile', 'showthread', 'showpost', 'members', 'who', 'online', 'sitemap', 'preferences',
  'settings', 'options',
]);

/** Query keys whose value is text typed into a search box: never an action, however it reads. */
export const SEARCH_KEYS: ReadonlySet<string> = new Set([
  'q', 'query', 'search', 's', 'term', 'keyword', 'keywords', 'text', 'keys', 'searchword', 'searchstring',
  'searchquery', 'searchterm', 'jql', 'k', 'wd', 'qs',
]);

/**
 * Path segments that run whatever command their query names: Nagios's `cmd.cgi`, a router's `apply.cgi`,
 * `/exec`, `/execute`, `/dispatch`. Alone, with a query, they act.
 */
export const OPERATION_ENDPOINTS: ReadonlySet<string> = new Set(['cmd', 'command', 'exec', 'execute', 'apply', 'perform', 'dispatch', 'doaction']);

/**
 * What a route written as one word acts on, after its verb: `removepage`, `deletemsg`, `approvecomment`,
 * `restartservice`, `addsubscription`, `delchoice`. A verb fused with one of these is an action; a verb fused with
 * anything else is often a word of its own (`addressbook`, `undocumented`, `startseite`).
 */
export const VERB_OBJECTS: readonly string[] = [
  'page', 'comment', 'post', 'user', 'msg', 'message', 'item', 'service', 'account', 'issue', 'choice', 'attempt',
  'favourite', 'favorite', 'fav', 'subscription', 'version', 'file', 'topic', 'thread', 'entry', 'node', 'record',
  'group', 'member', 'contact', 'identity', 'session', 'cookie', 'all', 'selected', 'friend', 'bookmark', 'tag',
  'label', 'task', 'job', 'server', 'device', 'app', 'plugin', 'module', 'theme', 'cache', 'order', 'cart', 'product',
  'review', 'vote', 'reaction', 'notification', 'alert', 'event', 'link', 'self', 'me', 'invite', 'invitation', 'request',
];

/** An SQL statement that writes, as a query value carries it (phpMyAdmin's `sql_query=DROP TABLE ...`). */
export const WRITING_SQL = /^\s*(drop|truncate|delete|update|insert|alter|create|grant|revoke|rename|replace)\s+\S/i;

/**
 * Segments after which a path names a page rather than an action: the collections of content sites, in the web's
 * languages. A segment of several words after one of these is the name of an article, a product, a recipe or a
 * topic (`/products/sign-out-sheet-clipboard`, `/docs/delete-api-reference`, `/blogs/news/comment-se-deconnecter`),
 * unless its words are an action and nothing else (`/posts/delete-all`); a verb that names a page
 * (`/blog/archive`, `/docs/build`) right after one is the page, not the action.
 */
export const CONTENT_COLLECTIONS: ReadonlySet<string> = new Set([
  'blog', 'blogs', 'news', 'article', 'articles', 'story', 'stories', 'wiki', 'docs', 'doc', 'documentation',
  'reference', 'guide', 'guides', 'manual', 'help', 'kb', 'faq', 'howto', 'tutorial', 'tutorials', 'learn', 'recipe',
  'recipes', 'product', 'products', 'item', 'items', 'p', 'shop', 'store', 'collections', 'collection', 'category',
  'categories', 'tag', 'tags', 'topic', 'topics', 't', 'questions', 'threads', 'title', 'watch', 'video', 'videos',
  'podcast', 'episodes', 'pages', 'page', 'book', 'books', 'library', 'glossary', 'course', 'courses', 'lessons',
  'ratgeber', 'rezepte', 'rezept', 'nachrichten', 'artikel', 'produkte', 'produkt', 'hilfe', 'recettes', 'recette',
  'actualites', 'produits', 'produit', 'aide', 'recetas', 'receta', 'noticias', 'productos', 'producto', 'ayuda',
  'receitas', 'produtos', 'produto', 'ajuda', 'ricette', 'ricetta', 'notizie', 'prodotti', 'prodotto', 'aiuto',
  'recepten', 'nieuws', 'producten', 'przepisy', 'poradnik', 'aktualnosci', 'produkty', 'pomoc', 'haber', 'haberler',
  'urunler', 'tarifler', 'новости', 'статьи', 'товары', 'рецепты', 'помощь', 'новини', 'clanky', 'zpravy', 'nyheter',
  'recept', 'berita', 'resep', 'tin-tuc', '新闻', '帮助', '产品', '商品', 'ニュース', '記事', 'ヘルプ', '뉴스', '상품',
  'أخبار', 'اخبار', 'مقالات',
]);
/** A year in a permalink (`/2024/05/slug`): what follows is a post's name. */
export const YEAR_SEGMENT = /^(19|20)\d\d$/;
/** Language prefixes (`/de/`, `/pt-br/`): they name no object, so a verb after one has nothing to act on. */
export const LANGUAGE_SEGMENT = /^[a-z]{2}([-_][a-z]{2,4})?$/i;

/**
 * A link's text that names an API endpoint ("DELETE /observations", "POST /v1/charges"): the title of its
 * reference page, not a button.
 */
export const ENDPOINT_TITLE = /^(get|post|put|patch|delete|head|options)\s+\/\S*/i;

// ---- markup ----

/** `data-method` and its kin: a script makes the request with this method (Rails, Laravel, Turbo). */
export const METHOD_ATTRIBUTES: readonly string[] = ['data-method', 'data-turbo-method', 'data-http-method'];
/** Methods that write: a link marked with one acts, whatever its URL reads like when asked with GET. */
export const WRITING_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete']);
/** Attributes with which htmx or Livewire send a write when the link is clicked. */
export const WRITING_ATTRIBUTES: readonly string[] = ['hx-post', 'hx-put', 'hx-patch', 'hx-delete', 'wire:click', 'data-request'];
/** Attributes that ask the user to confirm before the click goes on. */
export const CONFIRM_ATTRIBUTES: readonly string[] = ['data-confirm', 'data-turbo-confirm', 'data-confirm-message', 'data-confirmation'];
/** An inline handler that asks to confirm: `onclick="return confirm('Delete?')"`. */
export const CONFIRM_HANDLER = /\bconfirm\s*\(/;
/** Attributes of links whose click a script turns into a request of its own (XenForo, Rails' remote links). */
export const SCRIPTED_ATTRIBUTES: readonly string[] = ['data-xf-click', 'data-remote', 'data-ajax', 'data-toggle-url'];
/**
 * Words in the class of an icon inside a link (Font Awesome, Bootstrap, Material, GitLab's): an icon of an action.
 * Alone it is not enough (a link to the Trash folder shows a bin too); with another sign it is.
 */
export const ACTION_ICON_WORDS: ReadonlySet<string> = new Set([
  'trash', 'delete', 'remove', 'times', 'xmark', 'ban', 'power', 'off', 'signout', 'logout', 'stop', 'play', 'pause',
  'repeat', 'redo', 'undo', 'rotate', 'refresh', 'sync', 'lock', 'unlock', 'archive', 'eraser', 'cancel', 'close',
  'check', 'thumbs', 'heart', 'star', 'flag', 'bell', 'publish', 'unpublish', 'hide', 'eye', 'slash', 'plus', 'minus',
]);
