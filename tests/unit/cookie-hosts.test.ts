import { describe, expect, it } from 'vitest';
import { CookieHosts } from '../../lib/net/cookie-hosts';

describe('CookieHosts: the hosts a request can carry cookies to', () => {
  it('a host-only cookie covers its own host, a domain cookie its domain and every host under it', () => {
    const hosts = new CookieHosts();
    hosts.add({ domain: 'app.example.com', hostOnly: true });
    hosts.add({ domain: '.news.test', hostOnly: false });
    expect(hosts.covers('app.example.com')).toBe(true);
    expect(hosts.covers('www.app.example.com')).toBe(false);
    expect(hosts.covers('example.com')).toBe(false);
    expect(hosts.covers('news.test')).toBe(true);
    expect(hosts.covers('a.b.news.test')).toBe(true);
    expect(hosts.covers('othernews.test')).toBe(false);
    expect(hosts.covers('127.0.0.1')).toBe(false);
  });

  it('says its hosts as match patterns, each once, and counts what is new', () => {
    const hosts = new CookieHosts();
    expect(hosts.add({ domain: '.Shop.Test', hostOnly: false })).toBe(true);
    expect(hosts.add({ domain: 'shop.test', hostOnly: false })).toBe(false);
    expect(hosts.add({ domain: 'shop.test', hostOnly: true })).toBe(true);
    expect(hosts.add({ domain: '127.0.0.1', hostOnly: true })).toBe(true);
    expect(hosts.add({ domain: '', hostOnly: true })).toBe(false);
    expect(hosts.patterns().sort()).toEqual(['*://*.shop.test/*', '*://127.0.0.1/*', '*://shop.test/*']);
    expect(hosts.size).toBe(3);
    const more = new CookieHosts();
    more.add({ domain: 'forum.test', hostOnly: true });
    more.addAll(hosts);
    expect(more.covers('forum.test') && more.covers('x.shop.test') && more.covers('127.0.0.1')).toBe(true);
  });
});
