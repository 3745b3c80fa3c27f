// Parses one fetched HTML page into what the crawl needs: title, visible text, links with context.
// linkedom, because a Chrome MV3 service worker has no DOMParser; the same walk runs on a live DOM too.

import { parseHTML } from 'linkedom';
import type { ParsedPage } from '../records/types';
import { scanPage, type LinkContextOptions } from './link-context';

/** Cap on the page text kept for the page judge; a longer page is judged on its first part. */
export const MAX_TEXT_CHARS = 200_000;

/**
 * Parses HTML as a browser would for our purposes, broken markup included. linkedom (htmlparser2) is not a
 * spec parser: without `<html>` it makes the first element the documentElement and leaves the rest as its
 * siblings, and an unclosed `<head>` swallows the body. The walk starts at the document node and does not
 * skip `<head>`, so every top-level node is read whatever the tree's shape.
 */
export function parseHtml(html: string, pageUrl: string, opts: LinkContextOptions = {}): ParsedPage {
  const { document } = parseHTML(html);
  const scan = scanPage(document, pageUrl, opts);
  return {
    title: scan.title ?? scan.firstHeading ?? '',
    text: capText(scan.text, MAX_TEXT_CHARS),
    links: scan.links,
    nofollow: scan.robots.includes('nofollow') || scan.robots.includes('none'),
    ...(scan.passwordField ? { passwordField: true } : {}),
    ...(scan.main ? { main: capBlocks(scan.main, MAX_TEXT_CHARS) } : {}),
    ...(scan.mainHeading ? { heading: scan.mainHeading } : {}),
    ...(scan.canonical ? { canonical: scan.canonical } : {}),
  };
}

/** The first blocks up to `max` characters in all: a page is compared on its first part, as it is judged. */
function capBlocks(blocks: string[], max: number): string[] {
  let total = 0;
  for (let i = 0; i < blocks.length; i++) {
    total += blocks[i]!.length;
    if (total > max) return blocks.slice(0, i);
  }
  return blocks;
}

/** Cuts at the last space before the cap when there is one near it, so no word is split. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  return text.slice(0, space > max - 100 ? space : max);
}
