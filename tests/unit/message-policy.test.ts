// Which sender may ask the service worker what: the extension's own pages everything, the labeler's content
// script (running in a web page) only what the labeler needs, anyone else nothing.
import { describe, expect, it } from 'vitest';
import { refusal } from '../../lib/app/message-policy';
import type { MessageType } from '../../lib/app/protocol';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const self = { id: ID, rootUrl: `chrome-extension://${ID}/` };
const page = (url: string | undefined, id: string | undefined = ID) => ({ id, ...(url === undefined ? {} : { url }) });

describe('message policy', () => {
  it('answers every request from the extension’s own pages', () => {
    for (const url of [`chrome-extension://${ID}/dashboard.html?topic=2`, `chrome-extension://${ID}/popup.html`]) {
      for (const type of ['start', 'pages', 'exportModel', 'importModel', 'deleteCrawl', 'labelLink'] as MessageType[]) {
        expect(refusal(type, page(url), self)).toBeNull();
      }
    }
    const firefox = { id: 'focus-crawler@example.org', rootUrl: 'moz-extension://0d3f-uuid/' };
    expect(refusal('start', page('moz-extension://0d3f-uuid/dashboard.html', firefox.id), firefox)).toBeNull();
  });

  it('lets a web page’s content script label and score, and refuses it everything else', () => {
    const web = page('https://news.example/story?id=1');
    for (const type of ['labelLink', 'scoreLinks', 'activeTopic', 'listTopics'] as MessageType[]) expect(refusal(type, web, self)).toBeNull();
    for (const type of ['start', 'pages', 'exportModel', 'importModel', 'deleteCrawl', 'deleteTopic', 'relabel', 'importLabels', 'setLabeler', 'retrain'] as MessageType[]) {
      expect(refusal(type, web, self)).toMatch(new RegExp(`"${type}" only from its own pages, not from a web page \\(https://news\\.example\\)`));
    }
  });

  it('refuses a sender without an address, another extension, and a page that only names ours in its path', () => {
    expect(refusal('labelLink', page(undefined), self)).toMatch(/without an address/);
    expect(refusal('start', page(`chrome-extension://${ID}/dashboard.html`, 'ponmlkjihgfedcbaponmlkjihgfedcba'), self)).toMatch(/not the extension ponmlk/);
    expect(refusal('listTopics', { url: `chrome-extension://${ID}/dashboard.html` }, self)).toMatch(/unknown sender/);
    for (const url of [
      `https://evil.example/chrome-extension://${ID}/dashboard.html`,
      `https://evil.example/?u=chrome-extension://${ID}/`,
      `chrome-extension://${ID}x/dashboard.html`,
      `chrome-extension://${ID}`, // no root slash: not a page of ours
    ]) {
      expect(refusal('start', page(url), self), url).not.toBeNull();
      expect(refusal('exportModel', page(url), self), url).not.toBeNull();
    }
  });
});
