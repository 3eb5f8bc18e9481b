import { LlmError, describeError } from '@llm/core';
import { type ReplyHandler, createRouter } from '@llm/router';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import * as v from 'valibot';
import { DrainMs, MAX_TIMER_MS, type GatewayConfig } from '../config/schema.js';
import { toRouterConfig } from '../config/load.js';
import { logDiagnostics } from '../diagnostics-log.js';
import { createLogger } from '../logger.js';
import { logOutcome } from '../outcome-log.js';
import { createMetrics, knownModels } from '../metrics.js';
import { logUpstreamFailures } from '../upstream-failure-log.js';
import { serveMetrics } from './metrics-server.js';
import { Readiness } from './readiness.js';
import type { RouterConfig, Transport } from '../router-contract.js';
import { createAdminHandler } from '../admin/admin-handler.js';
import { ADMIN_ROUTES } from '../admin/routes.js';
import { RecentRequests } from '../admin/recent-requests.js';
import { createPriceBook, type PriceBook } from '../pricing/index.js';
import { openStores } from '../store/stores.js';
import type { KeyLimiter, KeyPrices } from '../keys/key-enforcement.js';
import { keyLocationOfConfig } from '../keys/key-location.js';
import { openGatewayKeys } from '../keys/open-keys.js';
import { type Limiter, limiterStoreOf, openLimiter } from '../limits/index.js';
import { type GatewayTracing, createTracing } from '../tracing.js';
import { exportFailureLog } from '../otlp/export-failure-log.js';
import { createUndiciTransport } from '../transport.js';
import { ConfiguredMcpHost, routerMcpConfig } from '../mcp/configured-host.js';
import { cloudTransport, withFlavors } from '../clouds/cloud-upstreams.js';
import { clientProtocolOf } from './client-protocol.js';
import { type GatewayHandler, createGatewayHandler } from './gateway-handler.js';
import { serveNode } from './node-adapter.js';
import { internalErrorMessage } from './internal-error.js';
import { refuseOpenRelay } from './open-relay.js';
import { CircuitHealth } from './circuit-health.js';
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
  /** Spans go here instead of `config.tracing`'s endpoint, tracing on (tests: the SDK's in-memory exporter). */
  spanExporter?: SpanExporter;
  /** Milliseconds `close()` waits for in-flight requests before cutting them; overrides `config.drainMs` (default {@link DEFAULT_DRAIN_MS}). */
  drainMs?: number;
  /** Counts virtual keys' rpm, tpm and spend instead of the limiter the config names (tests). */
  keyLimiter?: KeyLimiter;
  /** Prices a budgeted key's admission reserves at instead of the config's price book (tests). */
  prices?: KeyPrices;
}

/** A running gateway. */
export interface Gateway {
  url: string;
  port: number;
  /** Where `GET /metrics` is served when `metrics.port` is set (else on {@link url}). */
  metricsUrl?: string;
  /** The checks of `GET /health/ready`: add one for a store the gateway depends on. */
  readiness: Readiness;
  /**
   * Serves later requests under the config `load` gives: client keys, upstreams, routes,
   * policies, log level. Requests in flight finish under the config they started with. `listen`,
   * `ledger`, `store`, `metrics`, `maxBodyBytes` and `drainMs` take a restart (the `config reloaded` line
   * names those that changed). When `load` throws (an invalid file), the error is logged
   * (`config reload failed`) and the running config kept. False when it was kept.
   */
  reload(load: () => GatewayConfig): boolean;
  /**
   * Stops accepting and drains: in-flight requests get `drainMs` to finish, then are cut (streams
   * end with their protocol's error event); then flushes the ledger and closes upstream pools.
   * Logs `draining`, `cut` (if any) and `closed`, each with its count of `requests`.
   */
  close(): Promise<void>;
}

/** The headers the server's own answers (413, 500) pick a protocol by: none, the path decides. */
const NO_HEADERS = { get: () => null };

/** How long `close()` lets in-flight requests finish before cutting them, by default. */
export const DEFAULT_DRAIN_MS = 10_000;
/** How long a cut request has to write its error event before its connection is closed. */
export const CUT_GRACE_MS = 1_000;

/** The config keys a reload cannot apply: they shape the server, not the requests. */
const RESTART_KEYS = ['listen', 'ledger', 'store', 'virtualKeys', 'metrics', 'tracing', 'maxBodyBytes', 'drainMs', 'circuitBreaker'] as const;

/** Starts the gateway server for a validated config. */
export async function startGateway(config: GatewayConfig, options: StartGatewayOptions = {}): Promise<Gateway> {
  // The config's drainMs was checked when it was read; the option comes from code, checked here alike.
  if (options.drainMs !== undefined && !v.is(DrainMs, options.drainMs))
    throw new RangeError(`drainMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}, got ${options.drainMs}`);
  const host = options.host ?? config.listen.host ?? '127.0.0.1';
  // With no keys in the file, the key store is read first: a virtual key closes the gateway too.
  if (config.keys.length > 0) refuseOpenRelay(host, config.keys.length, config.allowOpen);
  const logger = options.logger ?? createLogger(config.log.level);
  const backstopMs = transportBodyIdleTimeoutMs(config);
  let draining = false;
  // The running config's key names: asked on every admission, made again only when a reload replaces the config.
  let keyNames: { of: GatewayConfig; names: ReadonlySet<string> } | undefined;
  const configKeyNames = (): ReadonlySet<string> => {
    if (keyNames?.of !== running) keyNames = { of: running, names: new Set(running.keys.map((key) => key.name)) };
    return keyNames.names;
  };
  const readiness = new Readiness();
  readiness.add({ name: 'draining', ready: () => !draining });
  // Before anything else opens: a shared store that cannot be reached stops the start.
  const stores = await openStores(config, logger, readiness);
  const { ledger } = stores;
  // Counters of the keys' limits: Redis, else a file beside the ledger, else memory (limiterStoreOf).
  const limiter = options.keyLimiter
    ? undefined
    : await openLimiter({ ...limiterStoreOf(config), logger, readiness }).catch(async (error: unknown) => {
        await stores.close();
        throw error;
      });
  const keys = await openGatewayKeys({
    location: keyLocationOfConfig(config),
    cacheTtlMs: config.virtualKeys.cacheTtlMs,
    configKeyNames,
    limiter: options.keyLimiter ?? (limiter as Limiter),
    // Set by `routing(config)` below, before the first request.
    prices: () => options.prices ?? (prices as PriceBook),
    settings: () => ({ allowUnpricedWithBudget: running.allowUnpricedWithBudget }),
    logger,
  }).catch(async (error: unknown) => {
    await limiter?.close();
    await stores.close();
    throw error;
  });
  /** Lets go of the key store, the limits counters and the stores, in that order. */
  const closeStores = async (): Promise<void> => {
    await keys.close();
    await limiter?.close();
    await stores.close();
  };
  if (config.keys.length === 0) {
    try {
      refuseOpenRelay(host, keys.resolver.required() ? 1 : 0, config.allowOpen);
    } catch (error) {
      await closeStores();
      throw error;
    }
  }
  const { transport, close: closeTransport } = createUndiciTransport({ bodyIdleTimeoutMs: backstopMs });
  // The config the circuits are reported for: the running one (set again by each reload).
  let routed = config;
  // The running config's prices (set by each reload), for the requests the gateway answers itself.
  let prices: PriceBook | undefined;
  const circuits = new CircuitHealth(stores.routing, () => ({
    upstreams: routed.upstreams,
    routes: toRouterConfig(routed).routes,
    breaking: routed.circuitBreaker !== false,
  }));
  readiness.add({ name: 'upstreams', ready: () => circuits.ready() });
  readiness.addDetail('circuits', () => circuits.notClosed());
  const metrics =
    config.metrics === false ? undefined : await createMetrics(knownModels(toRouterConfig(config).routes, config.metrics.models), () => circuits.states());
  const tracingConfig = config.tracing ?? (options.spanExporter && { endpoint: 'http://unused.invalid' });
  const tracing = tracingConfig ? await createTracing(tracingConfig, options.spanExporter, exportFailureLog(logger)) : undefined;
  // One store of conversation state for every router a reload builds: `previous_response_id`
  // turns outlive a reload.
  const stateStore = stores.state;

  // The MCP host of the running config's `mcp` section (none without one): kept across reloads
  // that leave the section unchanged, so configured stdio servers keep running.
  const mcpHosts = new ConfiguredMcpHost(logger);
  const recentRequests = new RecentRequests();

  const traced = (base: Transport, upstreams: Parameters<GatewayTracing['transport']>[1]): Transport => (tracing ? tracing.transport(base, upstreams) : base);
  /** The router and routes of a config: what a reload replaces. */
  const routing = (next: GatewayConfig) => {
    routed = next;
    // Requests in flight at a reload are costed at the prices they started under, as they are routed.
    const book = createPriceBook(next);
    prices = book;
    const base = toRouterConfig(next);
    const mcpHost = mcpHosts.for(next.mcp);
    const routerConfig: RouterConfig = {
      ...base,
      ...(next.mcp && mcpHost && { mcp: routerMcpConfig(next.mcp, mcpHost) }),
      routingState: stores.routing,
      // Cloud upstreams (src/clouds) innermost: logs and spans see each attempt once, under its upstream.
      transport: traced(
        logUpstreamFailures(cloudTransport(transport, next.upstreams), base.upstreams, logger, metrics),
        withFlavors(base.upstreams, next.upstreams),
      ),
      stateStore,
      // Per-request diagnostics (route decision, tool-call previews) cost a decode: debug only.
      diagnostics: logger.isLevelEnabled('debug'),
      hooks: {
        admit: (info) => keys.enforcement.admit(info),
        // One line per request with warnings or a failure, from the record: never one per warning.
        onRequestEnd: (record) => {
          const cost = book.costOf(record);
          keys.enforcement.settle(record, cost);
          ledger?.record({ time: Date.now(), keyId: record.clientKeyId, record, cost });
          logOutcome(logger, record);
          logDiagnostics(logger, record);
          handler.recorded(record);
          recentRequests.add(record, cost);
        },
      },
    };
    return { router: (options.createRouter ?? createRouter)(routerConfig), routes: routerConfig.routes, keys: next.keys };
  };

  const separateMetrics = config.metrics !== false && config.metrics.port !== undefined;
  let running = config;
  const admin = createAdminHandler(ADMIN_ROUTES, { config: () => running, stores, logger, recentRequests, keys: keys.registry });
  const handler: GatewayHandler = createGatewayHandler({
    ...routing(config),
    observer: metrics,
    metrics: separateMetrics ? undefined : metrics,
    tracing,
    readiness,
    logger,
    responses: stores.answers,
    onLocalRecord: (record, keyId) => ledger?.record({ time: Date.now(), keyId, record, cost: prices?.costOf(record) }),
    accessLogOnWrite: true,
    admin,
    virtualKeys: keys.resolver,
  });
  const serving = serveNode(handler, {
    port: options.port ?? config.listen.port ?? 8787,
    host,
    maxBodyBytes: config.maxBodyBytes,
    tooLarge: (url) => protocolError(clientProtocolOf('POST', url, NO_HEADERS), 413, `request body larger than ${config.maxBodyBytes} bytes`),
    internalError: (url, requestId) => protocolError(clientProtocolOf('POST', url, NO_HEADERS), 500, internalErrorMessage(requestId)),
    onError: (error, requestId) => logger.error({ requestId, err: describeError(error) }, 'request failed in the server'),
    // The access line records what the client got: a 500 when node refused the answer's head.
    onWritten: (reply, status) => handler.written(reply, status),
    onEnded: (reply, firstByteAt) => handler.ended(reply, firstByteAt),
  });
  // A port in use: let go of the stores and upstream pools before saying so.
  const server = await serving.catch(async (error: unknown) => {
    await closeStores();
    await closeTransport();
    throw error;
  });
  const metricsServer =
    metrics && config.metrics !== false && config.metrics.port !== undefined
      ? await serveMetrics(metrics, config.metrics.port, config.metrics.host)
      : undefined;
  logger.info({ url: server.url, upstreams: Object.keys(config.upstreams), ...(metricsServer && { metricsUrl: metricsServer.url }) }, 'listening');
  const drainMs = options.drainMs ?? config.drainMs ?? DEFAULT_DRAIN_MS;
  let closing: Promise<void> | undefined;

  const drainAndClose = async (): Promise<void> => {
    draining = true;
    logger.info({ requests: server.inFlight(), drainMs }, 'draining');
    let grace: ReturnType<typeof setTimeout> | undefined;
    const cut = setTimeout(() => {
      // Cut as the request deadline does (a `timeout`: the kind the router ends a stream with as
      // it is): each stream ends with its protocol's error event, each request still waiting for
      // its upstream gets an error answer. One that still hangs after the grace loses its connection.
      const requests = server.cutInFlight(new LlmError({ kind: 'timeout', message: `the gateway is shutting down: its drain time of ${drainMs} ms passed` }));
      logger.warn({ requests }, 'cut');
      grace = setTimeout(() => server.server.closeAllConnections(), CUT_GRACE_MS);
      grace.unref();
    }, drainMs);
    cut.unref();
    await server.close();
    clearTimeout(cut);
    clearTimeout(grace);
    await closeStores();
    await metricsServer?.close();
    // A collector that refuses the last export must not turn a clean stop into a crash.
    await tracing?.shutdown().catch((error: unknown) => {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'tracing: the last spans could not be exported');
    });
    await mcpHosts.close();
    await closeTransport();
    logger.info('closed');
  };

  return {
    url: server.url,
    port: server.port,
    ...(metricsServer && { metricsUrl: metricsServer.url }),
    readiness,
    reload(load) {
      let next: GatewayConfig;
      try {
        next = load();
      } catch (error) {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'config reload failed; the running config is kept');
        return false;
      }
      const needRestart: string[] = RESTART_KEYS.filter((key) => JSON.stringify(next[key]) !== JSON.stringify(running[key]));
      // The upstream pool's body timeout is a backstop behind the longest stream idle timeout.
      if (transportBodyIdleTimeoutMs(next) > backstopMs) needRestart.push('upstreams.*.streamIdleTimeoutMs');
      // The level first: the new router's diagnostics follow it.
      if (next.log.level !== running.log.level && next.log.level !== undefined) logger.level = next.log.level;
      const applied = routing(next);
      handler.update(applied);
      // Model labels follow the routes; `metrics.models` itself takes a restart, as `metrics` does.
      if (metrics && config.metrics !== false) metrics.knowModels(knownModels(applied.routes, config.metrics.models));
      running = next;
      logger.info({ upstreams: Object.keys(next.upstreams), routes: next.routes.length, ...(needRestart.length > 0 && { needRestart }) }, 'config reloaded');
      return true;
    },
    close() {
      closing ??= drainAndClose();
      return closing;
    },
  };
}
