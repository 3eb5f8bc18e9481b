import type { RouterReply, RouterRequest } from '@llm/router';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import type { KeyRegistry } from '../keys/key-registry.js';
import type { GatewayStores } from '../store/stores.js';
import type { RecentRequests } from './recent-requests.js';

/** What every admin route may use: the running config, the stores, the logger, the recent requests. */
export interface AdminContext {
  /** The config now running (a reload replaces it). */
  config(): GatewayConfig;
  stores: GatewayStores;
  logger: Logger;
  /** This process's newest finished requests (`GET /admin/requests`). */
  recentRequests: RecentRequests;
  /** Virtual keys (src/keys): absent where a gateway runs without them (the key routes then answer 404). */
  keys?: KeyRegistry;
}

/** One admin call, authenticated, with its path parameters (`:name` in the pattern). */
export interface AdminCall {
  request: RouterRequest;
  url: URL;
  params: Record<string, string>;
  /** The body parsed as JSON (`undefined` when empty); a body that is not JSON is a 400 before the route runs. */
  body: unknown;
  /** Whether the call presented the admin key: always on routes that are not `public`. */
  authorized: boolean;
}

/**
 * A route of the admin API or the dashboard. `pattern` is a path whose `:name` segments match one
 * non-empty segment each (`/admin/keys/:name`). Routes answer JSON with {@link adminJson} and
 * errors with {@link adminError}.
 */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  pattern: string;
  /** Served without the admin key (the dashboard's page and its sign-in); default false. */
  public?: boolean;
  handle(call: AdminCall, context: AdminContext): Promise<RouterReply> | RouterReply;
}

const JSON_TYPE = 'application/json';

/** A JSON answer of the admin API. */
export function adminJson(status: number, value: unknown): RouterReply {
  return { status, headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' }, body: JSON.stringify(value) };
}

/**
 * An error of the admin API: `{"error": {"type", "message", "param"?}}` (OpenAI's shape, which
 * most HTTP tooling prints readably). `param` names the JSON path of a bad field.
 */
export function adminError(status: number, type: string, message: string, param?: string): RouterReply {
  return adminJson(status, { error: { type, message, ...(param !== undefined && { param }) } });
}
