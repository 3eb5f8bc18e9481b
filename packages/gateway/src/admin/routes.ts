import { GATEWAY_VERSION } from '../cli/version.js';
import { type AdminRoute, adminJson } from './admin-route.js';
import { OPS_ROUTES } from './ops-routes.js';
import { UI_ROUTES } from '../ui/ui-routes.js';
import { KEY_ROUTES } from './keys-routes.js';
import { USAGE_ROUTES } from './usage-routes.js';

/** `GET /admin/status`: the gateway's version, upstream names and which stores it runs on. */
const status: AdminRoute = {
  method: 'GET',
  pattern: '/admin/status',
  handle: (_call, context) => {
    const config = context.config();
    return adminJson(200, {
      version: GATEWAY_VERSION,
      upstreams: Object.keys(config.upstreams),
      store: { postgres: Boolean(config.store?.postgres), redis: Boolean(config.store?.redis), ledger: config.ledger !== false },
    });
  },
};

/**
 * Every admin route, in the order they are tried. Each concern adds its own file's routes here
 * (keys, usage, the dashboard).
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [status, ...USAGE_ROUTES, ...KEY_ROUTES, ...OPS_ROUTES, ...UI_ROUTES];
