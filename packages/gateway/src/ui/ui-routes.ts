import type { RouterReply } from '@llm/router';
import { ADMIN_COOKIE, sameKey } from '../admin/admin-handler.js';
import { type AdminCall, type AdminRoute, adminError } from '../admin/admin-route.js';
import { type UiFile, UI_FILES, uiFile } from './ui-assets.js';

/**
 * The dashboard's Content-Security-Policy: its own script and styles only, no inline code, data
 * only from the gateway itself, never framed. Chart.js draws on a canvas and sets element styles
 * through the DOM, which `style-src 'self'` allows.
 */
export const UI_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** How long the sign-in cookie lasts: 12 hours (a browser left open signs in again after). */
export const UI_SESSION_SECONDS = 12 * 60 * 60;

const SECURITY_HEADERS = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function fileReply(status: number, file: UiFile, extra: Record<string, string> = {}): RouterReply {
  return { status, headers: { 'content-type': UI_FILES[file], ...SECURITY_HEADERS, ...extra }, body: uiFile(file) };
}

/** Whether the dashboard is reached over HTTPS (directly or through a proxy saying so): the cookie is then `Secure`. */
function overHttps(call: AdminCall): boolean {
  return call.url.protocol === 'https:' || call.request.headers.get('x-forwarded-proto') === 'https';
}

function sessionCookie(call: AdminCall, value: string, maxAge: number): string {
  return `${ADMIN_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${overHttps(call) ? '; Secure' : ''}`;
}

/** `GET /ui`: the dashboard with the admin key (header or cookie), else the sign-in page, answered 401. */
const page: AdminRoute = {
  method: 'GET',
  pattern: '/ui',
  public: true,
  handle: (call) => (call.authorized ? fileReply(200, 'dashboard.html') : fileReply(401, 'sign-in.html')),
};

/** The script, styles and Chart.js: static, no data in them, so served before sign-in (the sign-in page uses them). */
const assets: AdminRoute = {
  method: 'GET',
  pattern: '/ui/assets/:file',
  public: true,
  handle: ({ params }) => {
    const file = params.file as UiFile;
    if (!Object.hasOwn(UI_FILES, file) || file.endsWith('.html')) return adminError(404, 'not_found_error', `no dashboard file ${params.file}`);
    return fileReply(200, file, { 'cache-control': 'no-cache' });
  },
};

/**
 * `POST /ui/sign-in` `{"key": "<admin key>"}`: sets the `llm_gateway_admin` cookie (HttpOnly,
 * SameSite=Strict, so no other site's page can send it) that the admin API accepts. 204, or 401.
 */
const signIn: AdminRoute = {
  method: 'POST',
  pattern: '/ui/sign-in',
  public: true,
  handle: (call, context) => {
    const key = (call.body as { key?: unknown } | undefined)?.key;
    if (typeof key !== 'string' || key === '') return adminError(400, 'invalid_request_error', 'key: the admin key is required', 'key');
    if (!sameKey(key, context.config().adminKey ?? '')) return adminError(401, 'authentication_error', 'invalid admin key');
    return { status: 204, headers: { 'set-cookie': sessionCookie(call, key, UI_SESSION_SECONDS), 'cache-control': 'no-store' }, body: null };
  },
};

/** `POST /ui/sign-out`: clears the cookie. */
const signOut: AdminRoute = {
  method: 'POST',
  pattern: '/ui/sign-out',
  public: true,
  handle: (call) => ({ status: 204, headers: { 'set-cookie': sessionCookie(call, '', 0), 'cache-control': 'no-store' }, body: null }),
};

/** The dashboard's routes (`/ui`), tried with the admin API's. */
export const UI_ROUTES: readonly AdminRoute[] = [page, assets, signIn, signOut];
