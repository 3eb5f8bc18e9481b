import { DEFAULT_CIRCUIT_BREAKER } from '@llm/router';
import { type AdminRoute, adminError, adminJson } from './admin-route.js';

/**
 * `GET /admin/requests[?limit=N]`: this process's newest finished requests (newest first), with
 * their warnings and error kinds. Each gateway process keeps its own (with `--workers`, the worker
 * that answers the call).
 */
const recentRequests: AdminRoute = {
  method: 'GET',
  pattern: '/admin/requests',
  handle: ({ url }, context) => {
    const ring = context.recentRequests;
    const given = url.searchParams.get('limit');
    let limit = ring.capacity;
    if (given !== null) {
      limit = Number(given);
      if (!/^\d+$/.test(given) || limit < 1 || limit > ring.capacity) {
        return adminError(400, 'invalid_request_error', `limit: must be a whole number from 1 to ${ring.capacity}`, 'limit');
      }
    }
    return adminJson(200, { capacity: ring.capacity, requests: ring.newest(limit) });
  },
};

/**
 * `GET /admin/upstreams`: each configured upstream's circuit (state, failures in the window, the
 * cool-down's end), calls in flight from this process and its latency average. With Redis the
 * circuits are every instance's (the routing channel shares them); in-flight counts and latencies
 * are this process's.
 */
const upstreams: AdminRoute = {
  method: 'GET',
  pattern: '/admin/upstreams',
  handle: (_call, context) => {
    const config = context.config();
    const routing = context.stores.routing;
    const now = routing.now();
    const breaker = config.circuitBreaker === false ? false : { ...DEFAULT_CIRCUIT_BREAKER, ...config.circuitBreaker };
    const list = Object.entries(config.upstreams).map(([name, upstream]) => {
      const circuit = routing.circuitSnapshot(name);
      const latency = routing.latency(name);
      return {
        name,
        protocol: upstream.protocol,
        ...(upstream.flavor !== undefined && { flavor: upstream.flavor }),
        state: circuit.state,
        recentFailures: circuit.recentFailures,
        ...(circuit.openUntil !== undefined && {
          cooldownEndsAt: new Date(circuit.openUntil).toISOString(),
          cooldownRemainingMs: Math.max(0, circuit.openUntil - now),
        }),
        ...(circuit.probeAt !== undefined && { probeSentAt: new Date(circuit.probeAt).toISOString() }),
        inFlight: routing.inFlight(name),
        ...(latency !== undefined && { latencyMs: Math.round(latency * 10) / 10 }),
      };
    });
    return adminJson(200, { time: new Date(now).toISOString(), circuitBreaker: breaker, upstreams: list });
  },
};

/** The operations routes of the admin API (the dashboard's recent requests and upstream health). */
export const OPS_ROUTES: readonly AdminRoute[] = [recentRequests, upstreams];
