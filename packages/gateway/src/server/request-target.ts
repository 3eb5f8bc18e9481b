/**
 * The origin every inbound URL is built on. The gateway routes on the request target's path and
 * query alone: the `Host` header is the client's to write (`Host: x/v1/chat/completions#` must
 * not turn a `POST /v1/messages` into a Chat Completions call), so it never enters the URL.
 */
export const REQUEST_ORIGIN = 'http://gateway.local';

/**
 * The absolute URL of an inbound request, from its request target (`req.url`): the origin-form
 * (`/path?query`) as it is, the absolute-form (`http://host/path?query`, proxy style) reduced to
 * its path and query, anything else (`*`, garbage) to `/`, which serves nothing (404).
 */
export function requestUrlOf(target: string | undefined): URL {
  // Joined as text, never resolved against the origin: `//evil/x` is a path here, not a host.
  if (target?.startsWith('/')) return URL.parse(REQUEST_ORIGIN + target) ?? root();
  const absolute = target && /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? URL.parse(target) : null;
  return absolute ? (URL.parse(REQUEST_ORIGIN + absolute.pathname + absolute.search) ?? root()) : root();
}

function root(): URL {
  return new URL(`${REQUEST_ORIGIN}/`);
}
