// A forum for multi-queue crawls (SPEC D): forum.test has boards whose thread lists run over several pages,
// threads of several pages each (their pagers say "Next »", "下一页" or "›"), and post authors whose profiles
// live on a second host, people.test. Each board row shows the thread's reply count; `addReply` changes one,
// as a new post would. Served on one listener, dispatched on the Host header; every request is logged with
// its arrival time.
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';

export interface ForumShape {
  boards: number;
  /** Pages of each board's thread list. */
  boardPages: number;
  threadsPerPage: number;
  /** Pages of each thread. */
  threadPages: number;
  members: number;
}

export const DEFAULT_FORUM: ForumShape = { boards: 2, boardPages: 2, threadsPerPage: 4, threadPages: 3, members: 12 };

export interface ForumSite {
  port: number;
  shape: ForumShape;
  requests: { host: string; path: string; at: number }[];
  /** Every thread page's path on forum.test, e.g. /thread/1-0-2?page=3. */
  threadPages(): string[];
  boardPages(): string[];
  /** A new reply in a thread: its row on the board shows one more. */
  addReply(thread: string): void;
  close(): Promise<void>;
}

const NEXT_WORDS = ['Next »', '下一页', '›'];
const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

export async function startForumSite(shape: ForumShape = DEFAULT_FORUM): Promise<ForumSite> {
  const requests: ForumSite['requests'] = [];
  const threadIds: string[] = [];
  for (let b = 1; b <= shape.boards; b++) {
    for (let p = 1; p <= shape.boardPages; p++) for (let t = 0; t < shape.threadsPerPage; t++) threadIds.push(`${b}-${p}-${t}`);
  }
  const replies = new Map(threadIds.map((id, i) => [id, 3 + (i % 5)]));
  const memberOf = (id: string, post: number) => 1 + ((threadIds.indexOf(id) * 3 + post) % shape.members);

  /** A pager: numbered pages, the current one as plain text, then a next link (its word varies by thread). */
  const pager = (base: string, current: number, last: number, word: string) => {
    const sep = base.includes('?') ? '&' : '?';
    const href = (n: number) => (n === 1 ? base : `${base}${sep}page=${n}`);
    const numbers = Array.from({ length: last }, (_, i) => (i + 1 === current ? `<b>${i + 1}</b>` : `<a href="${href(i + 1)}">${i + 1}</a>`));
    const next = current < last ? ` <a href="${href(current + 1)}">${word}</a>` : '';
    return `<div class="pager">${numbers.join(' ')}${next}</div>`;
  };

  const board = (b: number, p: number) => {
    const rows = threadIds.filter((id) => id.startsWith(`${b}-${p}-`)).map((id) => {
      return `<tr><td><a href="/thread/${id}">Thread ${id}: telescope mirrors and eyepieces</a></td>
        <td>by <a href="http://people.test/member/${memberOf(id, 0)}">member ${memberOf(id, 0)}</a></td><td>${replies.get(id)} replies</td></tr>`;
    });
    return page(`Board ${b}, page ${p}`, `<p><a href="/">Forum index</a></p><table>${rows.join('\n')}</table>
      ${pager(`/board/${b}`, p, shape.boardPages, 'Next »')}`);
  };

  const thread = (id: string, p: number) => {
    const posts = Array.from({ length: 3 }, (_, i) => {
      const m = memberOf(id, (p - 1) * 3 + i);
      return `<div class="post"><a href="http://people.test/member/${m}">member ${m}</a><p>Post ${i + 1} on page ${p} of thread ${id}: grinding a telescope mirror, collimation and eyepieces for planets.</p></div>`;
    });
    const word = NEXT_WORDS[threadIds.indexOf(id) % NEXT_WORDS.length]!;
    return page(`Thread ${id}, page ${p}`, `<p><a href="/board/${id.split('-')[0]}">Back to the board</a></p>${posts.join('\n')}
      ${pager(`/thread/${id}`, p, shape.threadPages, word)}`);
  };

  const server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    requests.push({ host, path, at: Date.now() });
    const send = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    if (path === '/robots.txt') return send('', 404);
    const url = new URL(path, 'http://x');
    const n = Number(url.searchParams.get('page') ?? 1);
    if (host === 'forum.test') {
      if (path === '/') {
        return send(page('Stargazers forum', Array.from({ length: shape.boards }, (_, i) => `<p><a href="/board/${i + 1}">Board ${i + 1}</a></p>`).join('')));
      }
      const b = /^\/board\/(\d+)$/.exec(url.pathname);
      if (b && Number(b[1]) <= shape.boards && n >= 1 && n <= shape.boardPages) return send(board(Number(b[1]), n));
      const t = /^\/thread\/([\d-]+)$/.exec(url.pathname);
      if (t && replies.has(t[1]!) && n >= 1 && n <= shape.threadPages) return send(thread(t[1]!, n));
    }
    if (host === 'people.test') {
      const m = /^\/member\/(\d+)$/.exec(url.pathname);
      if (m) return send(page(`Member ${m[1]}`, `<p>Amateur astronomer since ${1990 + Number(m[1])}.</p>`));
    }
    send(page('Not found', ''), 404);
  });
  const listening = await listenOnLoopback(server);
  return {
    port: Number(new URL(listening.origin).port),
    shape,
    requests,
    threadPages: () => threadIds.flatMap((id) => Array.from({ length: shape.threadPages }, (_, i) => (i === 0 ? `/thread/${id}` : `/thread/${id}?page=${i + 1}`))),
    boardPages: () => Array.from({ length: shape.boards }, (_, b) => Array.from({ length: shape.boardPages }, (_, p) => (p === 0 ? `/board/${b + 1}` : `/board/${b + 1}?page=${p + 1}`))).flat(),
    addReply: (id) => replies.set(id, (replies.get(id) ?? 0) + 1),
    close: listening.close,
  };
}

/** The crawl config the forum tests use: multi-queue with the forum's list and content patterns. */
export function forumConfig(origin = 'http://forum.test', extra: Record<string, unknown> = {}) {
  return {
    name: 'forum', seeds: [`${origin}/`], topic: { keywords: ['telescope', 'mirror', 'eyepieces'] },
    scope: { mode: 'anywhere' }, budget: { maxPages: 400 },
    strategy: { name: 'multi-queue', listPages: [`${origin}/board/*`], contentPages: [`${origin}/thread/*`], refreshMinutes: 0, ...extra },
  };
}
