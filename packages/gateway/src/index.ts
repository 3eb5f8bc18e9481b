// @llm/gateway: the llm-gateway server and CLI around @llm/router's handler.

export { ConfigError, expandEnv } from './config/expand-env.js';
export type { MissingVariable } from './config/expand-env.js';
export { loadConfigFile, parseConfig, toRouterConfig } from './config/load.js';
export type { ConfigLocation } from './config/load.js';
export { ledgerPathOf } from './config/ledger-path.js';
export { unnamedKeyLabel } from './config/client-keys.js';
export type { ClientKey } from './config/client-keys.js';
export { GatewayConfigSchema } from './config/schema.js';
export type { GatewayConfig } from './config/schema.js';

export { CUT_GRACE_MS, DEFAULT_DRAIN_MS, startGateway } from './server/start.js';
export type { CreateRouter, Gateway, StartGatewayOptions } from './server/start.js';
export { Readiness } from './server/readiness.js';
export type { ReadinessCheck } from './server/readiness.js';
export type { AccessEntry } from './access-log.js';
export type { GatewayMetrics, GatewayObserver } from './metrics.js';
export type { GatewayTracing, RequestTrace, TracingConfig } from './tracing.js';
export { serveNode } from './server/node-adapter.js';
export type { NodeHandler, NodeServer, ServeNodeOptions } from './server/node-adapter.js';
export { IncomingCall } from './server/incoming-call.js';
export { HeaderMapReader } from './header-map-reader.js';
export type { HeaderMap } from './header-map-reader.js';
export { createGatewayHandler, keyIdOf } from './server/gateway-handler.js';
export type { GatewayHandler } from './server/gateway-handler.js';
export type { GatewayHandlerOptions } from './server/gateway-handler.js';
export { DEFAULT_MAX_STORED_RESPONSE_CHARS, DEFAULT_MAX_STORED_RESPONSES, ResponseStore } from './server/response-store.js';

export { createUndiciTransport } from './transport.js';
export type { PooledTransport, UndiciTransportOptions } from './transport.js';
export { upstreamProxyFromEnv } from './upstream-proxy.js';
export type { UpstreamProxySettings } from './upstream-proxy.js';
export { createLogger, REDACTED_PATHS } from './logger.js';

export { openLedger } from './ledger/ledger.js';
export type { Ledger, LedgerOptions, LedgerRow } from './ledger/ledger.js';
export { NoSqliteError, availableSqliteDrivers } from './ledger/sqlite.js';
export type { SqliteDriver } from './ledger/sqlite.js';
export { formatUsage, parseSince, usageReport } from './ledger/report.js';

export {
  KeyEnforcement,
  KeyInputError,
  KeyOperationError,
  KeyRegistry,
  KeyResolver,
  NOT_CACHED,
  hashSecret,
  keyView,
  newSecret,
  openGatewayKeys,
  openKeyRegistry,
  openKeyStore,
} from './keys/index.js';
export type { KeyChanges, KeyStore, KeyView, NewKey, VirtualKey } from './keys/index.js';
export { openLimiter, RESERVATION_TTL_MS } from './limits/index.js';
export type { Admission, AdmissionTicket, BudgetPeriod, KeyLimits, Limiter, LimiterOptions, OnStoreDown } from './limits/index.js';
export type { UsageGrouping, UsageLine } from './ledger/report.js';

export { createPriceBook, PRICE_TABLE, PRICE_TABLE_DATE, PRICE_TABLE_SOURCES, priceIdsOf, usageCost } from './pricing/index.js';
export type { ModelPrice, PriceBook, RequestCost, TokenRates } from './pricing/index.js';
export type { UsageSeries } from './ledger/report.js';
export { USAGE_GROUPINGS } from './ledger/usage-query.js';

export { createMcpHost, DEFAULT_MCP_CALL_TIMEOUT_MS, DEFAULT_MCP_MAX_RESULT_BYTES } from './mcp/host.js';
export type { GatewayMcpHost, McpHostConfig, McpHostOptions, McpServerConfig } from './mcp/host.js';
export { DEFAULT_RECENT_REQUESTS, RecentRequests } from './admin/recent-requests.js';
export type { RecentRequest, RecentUsage } from './admin/recent-requests.js';
export { UI_CSP } from './ui/ui-routes.js';

export { startMockUpstream } from './mock/server.js';
export type { MockUpstream, MockUpstreamOptions } from './mock/server.js';
export { createMockHandler, mockBaseUrl } from './mock/handler.js';

export { codecOf, translate } from './translate.js';
export type { TranslateKind, TranslateOptions } from './translate.js';

export { runCli } from './cli/run.js';
export type { CliIo } from './cli/run.js';
