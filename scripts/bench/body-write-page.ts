// The page side of body-write.ts: page commits written to Chromium's IndexedDB, each with its body stored in one of
// the forms measured, and the page's own time spent preparing the bodies (compression).
import pako from 'pako';

interface Plan { form: string; pages: number; group: number; links: number }

const frontierRow = (page: number, i: number) => ({
  crawlId: 1, url: `http://127.0.0.1:8080/wiki/Article_${page}_${i}.html`, state: 'queued', priority: -Math.random(), order: page * 1000 + i,
  site: '127.0.0.1', host: '127.0.0.1:8080', depth: 2, anchor: `Article ${i}`, context: 'words around the link, about as many as the crawler keeps for one',
  parentUrl: `http://127.0.0.1:8080/wiki/Article_${page}.html`, score: Math.random(),
});

/** Compressed with the browser's own zlib; written to the stream directly (a Blob would be registered with the browser). */
async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const cs = new CompressionStream('gzip');
  const writer = cs.writable.getWriter();
  void writer.write(bytes as BufferSource);
  void writer.close();
  return new Uint8Array(await new Response(cs.readable).arrayBuffer());
}

async function open(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(name, 1);
    r.onupgradeneeded = () => {
      r.result.createObjectStore('frontier', { keyPath: ['crawlId', 'url'] });
      r.result.createObjectStore('pages', { keyPath: ['crawlId', 'seq'] });
      r.result.createObjectStore('bodies', { keyPath: ['crawlId', 'seq'] });
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function run(plan: Plan, htmls: string[]): Promise<{ ms: number; prepareMs: number; bytes: number }> {
  const db = await open(`bodies-${plan.form}`);
  const enc = new TextEncoder();
  const t0 = performance.now();
  let prepareMs = 0, bytes = 0;
  for (let first = 0; first < plan.pages; first += plan.group) {
    const group: { seq: number; payload: unknown }[] = [];
    for (let seq = first; seq < Math.min(plan.pages, first + plan.group); seq++) {
      const raw = enc.encode(htmls[seq % htmls.length]!);
      const p0 = performance.now();
      let payload: unknown = raw;
      if (plan.form === 'gzip') payload = await gzip(raw);
      else if (plan.form === 'blob') payload = new Blob([raw]);
      else if (plan.form.startsWith('pako')) payload = pako.gzip(raw, { level: Number(plan.form.slice(4)) as 1 });
      prepareMs += performance.now() - p0;
      bytes += payload instanceof Uint8Array ? payload.byteLength : raw.byteLength;
      group.push({ seq, payload });
    }
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction(['frontier', 'pages', 'bodies'], 'readwrite', { durability: 'relaxed' });
      for (const { seq, payload } of group) {
        tx.objectStore('pages').put({ crawlId: 1, seq, url: `http://127.0.0.1:8080/wiki/Article_${seq}.html`, status: 200, title: `Article ${seq}`, bytes: 21000, fetchedAt: Date.now() });
        for (let i = 0; i < plan.links; i++) tx.objectStore('frontier').put(frontierRow(seq, i));
        if (plan.form !== 'none') tx.objectStore('bodies').put({ crawlId: 1, seq, headers: { 'content-type': 'text/html; charset=utf-8' }, payload, charset: 'utf-8', ...(plan.form === 'gzip' || plan.form.startsWith('pako') ? { coding: 'gzip' } : {}) });
      }
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
  return { ms: performance.now() - t0, prepareMs, bytes };
}

(globalThis as unknown as { bodyWrite: unknown }).bodyWrite = { run };
