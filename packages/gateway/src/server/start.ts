import { describeError } from '@llm/core';
import { type ReplyHandler, createRouter } from '@llm/router';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import { toRouterConfig } from '../config/load.js';
import { type Ledger, openLedger } from '../ledger/ledger.js';
import { createLogger } from '../logger.js';
import { logOutcome } from '../outcome-log.js';
import { createMetrics, knownModels } from '../metrics.js';
import { logUpstreamFailures } from '../upstream-failure-log.js';
import { serveMetrics } from './metrics-server.js';
import { Readiness } from './readiness.js';
import type { RouterConfig } from '../router-contract.js';
import { createUndiciTransport } from '../transport.js';
import { clientProtocolOf } from './client-protocol.js';
import { type GatewayHandler, createGatewayHandler } from './gateway-handler.js';
import { serveNode } from './node-adapter.js';
import { internalErrorMessage } from './internal-error.js';
import { protocolError } from './protocol-error.js';
import { transportBodyIdleTimeoutMs } from './transport-backstop.js';

/** Builds the router from its config (the router's `createRouter`). */
export type CreateRouter = (config: RouterConfig) => ReplyHandler;

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** Overrides `config.listen`. */
  port?: number;
  host?: string;
  logger?: Logger;
  /** The router factory; default: `createRouter` from @llm/router. */
  createRouter?: CreateRouter;
  /** Milliseconds `close()` waits for in-flight streams before cutting them (default 10,000). */
  drainMs?: number;
}

/** A running gateway. */
export interface Gateway {
  url: string;
  port: number;
  /** Where `GET /metrics` is served when `metrics.port` is set (else on {@link url}). */
  metricsUrl?: string;
  /** The checks of `GET /health/ready`: add one for a store the gateway depends on. */
  readiness: Readiness;
  /** Stops accepting, drains in-flight requests, flushes the ledger, closes upstream pools. */
  close(): Promise<void>;
}

/** The headers the server's own answers (413, 500) pick a protocol by: none, the path decides. */
const NO_HEADERS = { get: () => null };

/** Starts the gateway server for a validated config. */
export async function startGateway(config: GatewayConfig, options: StartGatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.log.level);
  const { transport, close: closeTransport } = createUndiciTransport({ bodyIdleTimeoutMs: transportBodyIdleTimeoutMs(config) });
  let ledger: Ledger | undefined;
  if (config.ledger) {
    ledger = openLedger(config.ledger.path, {
      onError: (error) => logger.error({ err: error instanceof Error ? error.message : String(error) }, 'usage ledger failed; requests continue without it'),
    });
  }
  const plainRouterConfig = toRouterConfig(config);
  const metrics = config.metrics === false ? undefined : await createMetrics(knownModels(plainRouterConfig.routes, config.metrics.models));
  let draining = false;
  const readiness = new Readiness();
  readiness.add({ name: 'draining', ready: () => !draining });
  const routerConfig: RouterConfig = {
    ...plainRouterConfig,
    transport: logUpstreamFailures(transport, config.upstreams, logger, metrics),
    hooks: {
      // One line per request with warnings or a failure, from the record: never one per warning.
      onRequestEnd: (record) => {
        ledger?.record({ time: Date.now(), keyId: record.clientKeyId, record });
        logOutcome(logger, record);
        handler.recorded(record);
      },
    },
  };
  const router = (options.createRouter ?? createRouter)(routerConfig);
  const separateMetrics = config.metrics !== false && config.metrics.port !== undefined;
  const handler: GatewayHandler = createGatewayHandler({
    routes: routerConfig.routes,
    observer: metrics,
    metrics: separateMetrics ? undefined : metrics,
    readiness,
    router,
    keys: config.keys,
    logger,
    onLocalRecord: (record, keyId) => ledger?.record({ time: Date.now(), keyId, record }),
    accessLogOnWrite: true,
  });
  const server = await serveNode(handler, {
    port: options.port ?? config.listen.port ?? 8787,
    host: options.host ?? config.listen.host ?? '127.0.0.1',
    maxBodyBytes: config.maxBodyBytes,
    tooLarge: (url) => protocolError(clientProtocolOf('POST', url, NO_HEADERS), 413, `request body larger than ${config.maxBodyBytes} bytes`),
    internalError: (url, requestId) => protocolError(clientProtocolOf('POST', url, NO_HEADERS), 500, internalErrorMessage(requestId)),
    onError: (error, requestId) => logger.error({ requestId, err: describeError(error) }, 'request failed in the server'),
    // The access line records what the client got: a 500 when node refused the answer's head.
    onWritten: (reply, status) => handler.written(reply, status),
    onEnded: (reply, firstByteAt) => handler.ended(reply, firstByteAt),
  });
  const metricsServer = metrics && config.metrics !== false && config.metrics.port !== undefined ? await serveMetrics(metrics, config.metrics.port, config.metrics.host) : undefined;
  logger.info({ url: server.url, upstreams: Object.keys(config.upstreams), ...(metricsServer && { metricsUrl: metricsServer.url }) }, 'listening');
  return {
    url: server.url,
    port: server.port,
    ...(metricsServer && { metricsUrl: metricsServer.url }),
    readiness,
    async close() {
      draining = true;
      const cut = setTimeout(() => server.server.closeAllConnections(), options.drainMs ?? 10_000);
      cut.unref();
      await server.close();
      clearTimeout(cut);
      ledger?.close();
      await metricsServer?.close();
      await closeTransport();
    },
  };
}
