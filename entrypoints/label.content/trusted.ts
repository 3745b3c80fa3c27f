// A page's own scripts can dispatch any event on its elements (a `mouseover` then a `keydown` "1" on a link
// to https://victim.example/vote?...), and the labeler's document listeners hear them like the user's.
// Only events the browser made from real input carry `isTrusted`; nothing that labels a link, or chooses
// which link a key labels, may act on any other.

/** The handler, called only for events the user made. */
export function trusted<E extends Event>(handler: (e: E) => void): (e: E) => void {
  return (e) => {
    if (e.isTrusted) handler(e);
  };
}
