import { createHash, timingSafeEqual } from 'node:crypto';
import type { RouterReply, RouterRequest } from '@llm/router';
import { type AdminCall, type AdminContext, type AdminRoute, adminError } from './admin-route.js';

/** Largest admin request body (a key's metadata is the biggest thing sent): 64 KiB. */
export const MAX_ADMIN_BODY_BYTES = 64 * 1024;

/** Paths the admin handler owns: the API and the dashboard. */
export function isAdminPath(pathname: string): boolean {
  return pathname === '/admin' || pathname.startsWith('/admin/') || pathname === '/ui' || pathname.startsWith('/ui/');
}

/** The admin key a call presents: `Authorization: Bearer <key>` or `x-api-key`, or the dashboard's cookie. */
function presentedAdminKey(request: RouterRequest): string | undefined {
  const authorization = request.headers.get('authorization');
  if (authorization?.startsWith('Bearer ')) return authorization.slice(7).trim();
  return request.headers.get('x-api-key') ?? cookie(request.headers.get('cookie'), ADMIN_COOKIE);
}

/** The cookie the dashboard's sign-in sets (HttpOnly, SameSite=Strict), holding the admin key. */
export const ADMIN_COOKIE = 'llm_gateway_admin';

function cookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Compares keys in constant time (digests first: equal lengths, no early exit). */
export function sameKey(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Matches `pattern` (`/admin/keys/:name`) against `pathname`: the parameters, or undefined. */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    if (segment.startsWith(':')) {
      if (got[i] === '') return undefined;
      try {
        params[segment.slice(1)] = decodeURIComponent(got[i]!);
      } catch {
        return undefined;
      }
    } else if (segment !== got[i]) return undefined;
  }
  return params;
}

/**
 * The admin API and dashboard (`/admin/...`, `/ui...`): every call authenticated by the config's
 * `adminKey` (never by a client key); without one configured the paths answer 404, as if absent.
 * `routes` are tried in order; a path with no route is a 404, a known path with another method a 405.
 */
export function createAdminHandler(routes: readonly AdminRoute[], context: AdminContext): (request: RouterRequest, url: URL) => Promise<RouterReply> {
  return async (request, url) => {
    const adminKey = context.config().adminKey;
    if (!adminKey) return adminError(404, 'not_found_error', 'the admin API is off: set adminKey in the gateway config');
    const matches = routes.map((route) => ({ route, params: matchPattern(route.pattern, url.pathname) })).filter((match) => match.params);
    const match = matches.find(({ route }) => route.method === request.method || (request.method === 'HEAD' && route.method === 'GET'));
    // Public routes of the dashboard (its page and sign-in) come before the key check.
    const presented = presentedAdminKey(request);
    const authorized = presented !== undefined && sameKey(presented, adminKey);
    if (!authorized && !match?.route.public) {
      return adminError(401, 'authentication_error', presented === undefined ? 'missing admin key' : 'invalid admin key');
    }
    if (!match) {
      if (matches.length > 0) return adminError(405, 'invalid_request_error', `${request.method} is not allowed on ${url.pathname}`);
      return adminError(404, 'not_found_error', `no admin route ${url.pathname}`);
    }
    const text = await request.text();
    if (Buffer.byteLength(text) > MAX_ADMIN_BODY_BYTES)
      return adminError(413, 'invalid_request_error', `admin request body larger than ${MAX_ADMIN_BODY_BYTES} bytes`);
    let body: unknown;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return adminError(400, 'invalid_request_error', 'the request body is not valid JSON');
      }
    }
    const call: AdminCall = { request, url, params: match.params!, body, authorized };
    try {
      return await match.route.handle(call, context);
    } catch (error) {
      context.logger.error({ err: error instanceof Error ? error.message : String(error), path: url.pathname }, 'admin request failed');
      return adminError(500, 'api_error', 'the admin request failed; the gateway log has the detail');
    }
  };
}
