import type { GatewayMetrics } from '../metrics.js';
import { type NodeServer, serveNode } from './node-adapter.js';

/**
 * `GET /metrics` on a port of its own (config `metrics.port`), so a scraper need not reach the
 * client-facing port; any other path is a 404. Loopback unless `host` says otherwise.
 */
export function serveMetrics(metrics: Pick<GatewayMetrics, 'contentType' | 'text'>, port: number, host = '127.0.0.1'): Promise<NodeServer> {
  return serveNode(
    async (request) => {
      if (request.parsedUrl?.pathname !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
      }
      return { status: 200, headers: { 'content-type': metrics.contentType }, body: request.method === 'HEAD' ? null : await metrics.text() };
    },
    { port, host, maxBodyBytes: 0 },
  );
}
