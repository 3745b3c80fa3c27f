// Session safety: the crawler uses the user's own cookies, so a GET on "log out" or "delete" would act as them.
// Links whose URL or anchor text names such an action are never requested (configurable: config.safety.avoid).

export interface SafetyGuard {
  /** The word that makes this link unsafe, or null when it is safe to request. */
  unsafeWord(url: string, anchor: string): string | null;
}

export function makeSafetyGuard(avoid: string[]): SafetyGuard {
  const words = avoid.map((w) => w.trim().toLowerCase()).filter(Boolean);
  // Match on word-ish boundaries so "removed-species" in an article URL is not caught by "remove"... but
  // "remove" as its own path or query segment is. Separators: anything that is not a letter or digit.
  const pattern = words.length
    ? new RegExp(`(^|[^\\p{L}\\p{N}])(${words.map(escape).join('|')})($|[^\\p{L}\\p{N}])`, 'iu')
    : null;
  return {
    unsafeWord(url, anchor) {
      if (!pattern) return null;
      let path = url;
      try {
        const u = new URL(url);
        path = decodeURIComponent(u.pathname + u.search);
      } catch {
        /* keep the raw string */
      }
      const m = pattern.exec(path) ?? pattern.exec(anchor);
      return m ? m[2].toLowerCase() : null;
    },
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
