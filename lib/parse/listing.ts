// What a link says about a listing, read without configuration (design D.1, D.5): whether it is a "next page"
// link or a numbered page next to one, and the reply count shown next to a thread's link. Uses only the DOM
// calls link-context.ts allows (parentNode, localName, textContent), so linkedom and a live page agree.

/** Anchors that mean "the next page", after trimming and lowercasing ("next", "›", "»", "下一页"...). */
const NEXT = /^(?:next(?: page)?|next\s*[›»>→]+|[›»→]|>|>>|下一页|下页|下一頁|下頁|后页|後頁)$/;
/** Anchors of the rest of a pager: previous, first, last (they sit among the numbers). */
const PAGER_WORD = /^(?:prev(?:ious)?(?: page)?|[‹«←]|<|<<|[‹«←]\s*prev(?:ious)?|first|last|上一页|上页|上一頁|首页|末页|尾页|前页|\.\.\.|…)$/;
const PAGE_NUMBER = /^\[?\d{1,5}\]?$/;
/** Text allowed between two links of one pager ("1 2 … 9", "| 3 |", the current page as plain text). */
const PAGER_GAP = 12;

export interface PagerLink {
  anchor: string;
  rel: string[];
  /** Offsets of the link in the page's text stream. */
  start: number;
  end: number;
}

/**
 * For each link, in document order: 'next' for a next-page link (rel="next" or a next anchor), 'page' for the
 * numbered and previous/first/last links that sit right next to one (a pager), undefined otherwise. Numbers
 * alone are not a pager: a thread list's "[1 2 3]" per thread is not the list's own pagination.
 */
export function pagerRoles(links: PagerLink[]): ('next' | 'page' | undefined)[] {
  const roles: ('next' | 'page' | undefined)[] = links.map((l) => (l.rel.includes('next') || NEXT.test(l.anchor.trim().toLowerCase()) ? 'next' : undefined));
  const inPager = (l: PagerLink) => {
    const a = l.anchor.trim().toLowerCase();
    return PAGE_NUMBER.test(a) || PAGER_WORD.test(a);
  };
  for (let i = 0; i < links.length; i++) {
    if (roles[i] !== 'next') continue;
    for (let j = i - 1; j >= 0 && roles[j] === undefined && inPager(links[j]!) && links[j + 1]!.start - links[j]!.end <= PAGER_GAP; j--) roles[j] = 'page';
    for (let j = i + 1; j < links.length && roles[j] === undefined && inPager(links[j]!) && links[j]!.start - links[j - 1]!.end <= PAGER_GAP; j++) roles[j] = 'page';
  }
  return roles;
}

/** A number before a reply word ("12 replies", "12 回复"), else after one ("Replies: 12", "回复 12"). */
const COUNT_THEN_WORD = /(\d[\d,]*)\s*(?:replies|reply|comments?|posts?|回复|回帖|评论)/gi;
const WORD_THEN_COUNT = /(?:replies|reply|comments?|回复|回帖|评论)\s*[:：]?\s*(\d[\d,]*)/gi;
const ROW_TAGS = new Set(['tr', 'li', 'dd', 'article']);
/** How far up a link's row is looked for: a thread list's row holds the link a few levels down. */
const MAX_ROW_DEPTH = 6;

/**
 * Design D.5: the reply count shown next to a link, read from the link's row (its nearest `tr`, `li`, `dd` or
 * `article`): the one number labelled as replies or comments there, or undefined when the row shows none or
 * several. Rows are read once per page (`rows` caches their counts).
 */
export function replyCount(el: Element, rows: Map<Node, number | undefined>): number | undefined {
  let node: Node | null = el.parentNode;
  for (let depth = 0; node && depth < MAX_ROW_DEPTH; depth++, node = node.parentNode) {
    const tag = (node as Element).localName?.toLowerCase();
    if (!tag || !ROW_TAGS.has(tag)) continue;
    if (!rows.has(node)) rows.set(node, countIn(node.textContent ?? ''));
    return rows.get(node);
  }
  return undefined;
}

function countIn(text: string): number | undefined {
  const numbers = (re: RegExp) => new Set([...text.matchAll(re)].map((m) => Number(m[1]!.replace(/,/g, ''))));
  let found = numbers(COUNT_THEN_WORD);
  if (found.size === 0) found = numbers(WORD_THEN_COUNT);
  return found.size === 1 ? [...found][0] : undefined;
}
