// Design E.5: fields of a record found near their keywords on a page, the surrounding tags weighed. A value
// in the cell beside a matching table header, the <dd> of a matching <dt>, or the element after a matching
// label weighs most; text after "keyword:" in the same block next; text after the keyword without a colon,
// and mailto:/tel: links, least. Each candidate goes through the field's validator, which takes the typed
// value out of it or refuses it ("Call me maybe" has no phone number in it), and the heaviest valid one wins.
import { parseHTML } from 'linkedom';
import { keywordMatcher, type KeywordMatcher } from './keywords';

export type FieldKind = 'email' | 'phone' | 'postcode' | 'url' | 'text';

/** A field's kind from its name: `email`, `phone`/`tel`/`mobile`/`fax`/`hotline`, `postcode`/`zip`, `url`/`homepage`/`website`; else text. */
export function fieldKind(name: string): FieldKind {
  const n = name.toLowerCase();
  if (/mail/.test(n)) return 'email';
  if (/phone|tel|mobile|fax|hotline|电话|手机|传真/.test(n)) return 'phone';
  if (/post.?code|postal|zip|邮编/.test(n)) return 'postcode';
  if (/url|homepage|website|web.?site|网址|主页/.test(n)) return 'url';
  return 'text';
}

const EMAIL = /[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}/u;
const PHONE = /(?<![\d\p{L}])\+?\(?\d[\d\s().\-/]{5,22}\d(?![\d\p{L}])/u;
const DATE = /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{4}$/;
const POSTCODE = [
  /(?<![\dA-Z])[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}(?![\dA-Z])/i, // UK
  /(?<![\d-])\d{5}(?:-\d{4})?(?![\d-])/, // US ZIP
  /(?<!\d)\d{6}(?!\d)/, // China
  /(?<![\d-])\d{4}(?![\d-])/, // many others
];
const URL_RE = /\bhttps?:\/\/[^\s<>"']+|\bwww\.[^\s<>"']+\.[a-z]{2,}[^\s<>"']*/i;

/** The typed value in a candidate text, or null when there is none. */
export function validate(kind: FieldKind, raw: string): string | null {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (!text) return null;
  switch (kind) {
    case 'email': {
      const m = EMAIL.exec(text.replace(/\s*(?:\[at\]|\(at\))\s*/gi, '@'));
      return m ? m[0].replace(/\.$/, '').toLowerCase() : null;
    }
    case 'phone': {
      const m = PHONE.exec(text);
      if (!m) return null;
      const value = m[0].trim();
      const digits = value.replace(/\D/g, '').length;
      if (digits < 7 || digits > 15 || DATE.test(value)) return null;
      return value;
    }
    case 'postcode': {
      for (const re of POSTCODE) {
        const m = re.exec(text);
        if (m) return m[0].toUpperCase();
      }
      return null;
    }
    case 'url': {
      const m = URL_RE.exec(text);
      return m ? m[0].replace(/[.,;)]+$/, '') : null;
    }
    case 'text': {
      const v = text.replace(/^[\s:：\-–—|]+/, '').trim();
      return v && v.length <= 200 ? v : null;
    }
  }
}

interface Candidate {
  text: string;
  weight: number;
  /** Document order of where it was found: the earlier wins a tie. */
  order: number;
}

/** What a label may be: a short text that is mostly the keyword ("E-mail:", "Tel", "联系电话："). */
const isLabel = (text: string, m: { index: number; end: number }) => text.trim().length <= m.end - m.index + 12;

const BLOCKS = new Set(['P', 'LI', 'DIV', 'TD', 'TH', 'DD', 'DT', 'SPAN', 'ADDRESS', 'LABEL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'SECTION', 'FOOTER', 'STRONG', 'B', 'EM']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);

type El = Element;

const textOf = (el: El | null | undefined): string => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

function nextElement(el: El): El | null {
  let n = el.nextElementSibling;
  while (n && SKIP.has(n.tagName)) n = n.nextElementSibling;
  return n;
}

/** Candidates for one field on a page. */
function candidates(doc: Document, matcher: KeywordMatcher, kind: FieldKind): Candidate[] {
  const out: Candidate[] = [];
  let order = 0;
  const all = doc.querySelectorAll('*') as unknown as Iterable<El>;
  for (const el of all) {
    order++;
    if (SKIP.has(el.tagName) || !BLOCKS.has(el.tagName)) continue;
    const text = textOf(el);
    if (!text || text.length > 2000) continue;
    const m = matcher.find(text);
    if (!m) continue;
    // Only the innermost element whose text holds the keyword speaks for it.
    if ([...el.children].some((c) => matcher.test(textOf(c as El)))) continue;
    const label = isLabel(text, m);
    if (label) {
      // <th>Phone</th><td>…</td>, <dt>E-mail</dt><dd>…</dd>, <label>Tel:</label> <span>…</span>
      const next = nextElement(el);
      if (next) out.push({ text: textOf(next), weight: el.tagName === 'TH' || el.tagName === 'TD' || el.tagName === 'DT' ? 3 : 2.5, order });
      // A header cell: the same column of the next row.
      if (el.tagName === 'TH' && el.parentElement?.tagName === 'TR') {
        const col = [...el.parentElement.children].indexOf(el);
        const row = nextElement(el.parentElement);
        const cell = row?.children[col];
        if (cell) out.push({ text: textOf(cell as El), weight: 2.5, order });
      }
      // <p><strong>Phone:</strong> 555 0101</p>: the text of the parent after the label.
      const parent = el.parentElement;
      if (parent && !['TR', 'DL', 'TBODY', 'TABLE', 'BODY'].includes(parent.tagName)) {
        const whole = textOf(parent);
        const at = whole.indexOf(text);
        if (at >= 0) out.push({ text: whole.slice(at + text.length, at + text.length + 120), weight: 2.5, order });
      }
    }
    // Running text: "… phone: 555 0101 …" or "call us on 555 0101".
    const after = text.slice(m.end, m.end + 120);
    const colon = /^\s*[:：]/.test(after);
    out.push({ text: after.replace(/^\s*(?:[:：]|is|are|at|on)\s*/i, ''), weight: colon ? 2 : 1.5, order });
    // Links inside the matching block: mailto:, tel:, or a homepage.
    for (const a of el.querySelectorAll('a[href]') as unknown as Iterable<El>) out.push(...linkCandidate(a, kind, 2.2, order));
  }
  // mailto:/tel: links anywhere, weighed least.
  for (const a of doc.querySelectorAll('a[href^="mailto:"], a[href^="tel:"]') as unknown as Iterable<El>) out.push(...linkCandidate(a, kind, 1, ++order));
  return out;
}

function linkCandidate(a: El, kind: FieldKind, weight: number, order: number): Candidate[] {
  const href = a.getAttribute('href') ?? '';
  if (kind === 'email' && /^mailto:/i.test(href)) return [{ text: decodeURIComponent(href.slice(7).split('?')[0]!), weight, order }];
  if (kind === 'phone' && /^tel:/i.test(href)) return [{ text: href.slice(4), weight, order }];
  if (kind === 'url' && /^https?:/i.test(href)) return [{ text: href, weight, order }];
  return [];
}

export type Fields = Record<string, string>;

/** The template's fields as matchers and kinds, compiled once per template. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  matcher: KeywordMatcher;
}

export function fieldSpecs(fields: Record<string, string[]>): FieldSpec[] {
  return Object.entries(fields).map(([name, keywords]) => ({ name, kind: fieldKind(name), matcher: keywordMatcher([name, ...keywords]) }));
}

/** The fields found on a page; a field not found is absent. */
export function extractFields(html: string, specs: FieldSpec[]): Fields {
  const { document } = parseHTML(html);
  const found: Fields = {};
  for (const spec of specs) {
    let best: { value: string; weight: number; order: number } | null = null;
    for (const c of candidates(document, spec.matcher, spec.kind)) {
      const value = validate(spec.kind, c.text);
      if (value === null) continue;
      if (!best || c.weight > best.weight || (c.weight === best.weight && c.order < best.order)) best = { value, weight: c.weight, order: c.order };
    }
    if (best) found[spec.name] = best.value;
  }
  return found;
}
