import * as v from 'valibot';
import { PricesSchema } from '../pricing/price-schema.js';
import { ClientKeySchema } from './client-keys.js';

/** The protocols an upstream may speak (`bedrock-converse` with `flavor: bedrock`: the cloud check says so). */
const Protocol = v.picklist(['openai-chat', 'openai-responses', 'claude', 'gemini', 'bedrock-converse']);

const Url = v.pipe(v.string(), v.url('must be an absolute URL'));

/** Counts: whole numbers from 1 (or from 0); durations are {@link Milliseconds}. */
const PositiveInteger = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'));
const NonNegativeInteger = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be at least 0'));

/**
 * The longest duration of any `*Ms` setting or flag: node's longest timer (about 24.8 days). A
 * longer one fires at once, so a timeout past it would end every request the moment it starts.
 */
export const MAX_TIMER_MS = 2_147_483_647;
/** At most {@link MAX_TIMER_MS}: the bound every duration shares. */
const AtMostMaxTimer = v.maxValue<number, number, string>(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} (node's longest timer, about 24.8 days)`);
/** A duration in milliseconds: a whole number from 1 to {@link MAX_TIMER_MS}. */
const Milliseconds = v.pipe(PositiveInteger, AtMostMaxTimer);
/** A drain time: 0 (cut at once) to {@link MAX_TIMER_MS}; the config's `drainMs`, and `startGateway`'s option. */
export const DrainMs = v.pipe(NonNegativeInteger, AtMostMaxTimer);
const Port = v.pipe(NonNegativeInteger, v.maxValue(65535, 'must be at most 65535'));

const NonEmpty = v.pipe(v.string(), v.minLength(1, 'must not be empty'));
const CloudName = v.pipe(v.string(), v.regex(/^[a-z0-9-]+$/, 'must be a name such as us-east5, us-east-1 or global'));

const Upstream = v.strictObject({
  protocol: Protocol,
  /** Required, except for `flavor: vertex` and `bedrock`, whose endpoint follows from `location` / `region`. */
  baseUrl: v.optional(Url),
  /**
   * The cloud whose URL forms, auth and framing the upstream needs (src/clouds; the README's
   * "Cloud upstreams"). The fields below belong to one flavor each.
   */
  flavor: v.optional(v.picklist(['azure', 'vertex', 'bedrock'])),
  /** Vertex: the Google Cloud project and location (`us-east5`, `global`...). */
  project: v.optional(NonEmpty),
  location: v.optional(CloudName),
  /** Vertex: a service-account key file (JSON); or a static OAuth2 `accessToken`; neither: Application Default Credentials. */
  keyFile: v.optional(NonEmpty),
  accessToken: v.optional(NonEmpty),
  /** Azure: the `api-version` of deployment URLs; without it the v1 API (`/openai/v1/...`) is used. */
  apiVersion: v.optional(NonEmpty),
  /** Azure: Entra ID client credentials, instead of `apiKey` (`authorityHost` default https://login.microsoftonline.com). */
  tenantId: v.optional(NonEmpty),
  clientId: v.optional(NonEmpty),
  clientSecret: v.optional(NonEmpty),
  authorityHost: v.optional(Url),
  /** Bedrock: the AWS region (default `AWS_REGION`, then `AWS_DEFAULT_REGION`). */
  region: v.optional(CloudName),
  /** Bedrock: an AWS key (default `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`). */
  accessKeyId: v.optional(NonEmpty),
  secretAccessKey: v.optional(NonEmpty),
  /** Empty: none (so `${AWS_SESSION_TOKEN:-}` works for long-term and temporary keys alike). */
  sessionToken: v.optional(v.string()),
  /**
   * Bedrock: credentials from the AWS SDK's default chain (SSO and assumed-role profiles,
   * `credential_process`, EKS web identity, ECS and EC2 instance roles), refreshed before they
   * expire, instead of a static key.
   */
  awsCredentialChain: v.optional(v.boolean()),
  apiKey: v.optional(v.string()),
  /** Several keys used in turn, one per call (in place of `apiKey`). */
  apiKeys: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), v.minLength(1, 'name at least one key'))),
  auth: v.optional(v.picklist(['bearer', 'x-api-key', 'x-goog-api-key', 'query-key', 'none'])),
  headers: v.optional(v.record(v.string(), v.string())),
  /** Until the answer's headers (the router's default: 600,000). */
  timeoutMs: v.optional(Milliseconds),
  /** Longest silence between two chunks of a streamed answer (the router's default: 120,000). */
  streamIdleTimeoutMs: v.optional(Milliseconds),
  /** Send every tool and response schema in OpenAI strict form (default: only when a client sent a strict tool). */
  strictTools: v.optional(v.boolean()),
  capabilities: v.optional(
    v.strictObject({
      images: v.optional(v.boolean()),
      tools: v.optional(v.boolean()),
      streaming: v.optional(v.boolean()),
      reasoning: v.optional(v.boolean()),
      citations: v.optional(v.boolean()),
    }),
  ),
});

const UpstreamName = v.pipe(v.string(), v.minLength(1));
/** One upstream of a route: a name, or the name with the model it gets and its weight. */
const RouteTarget = v.union([
  UpstreamName,
  v.strictObject({
    name: UpstreamName,
    model: v.optional(v.pipe(v.string(), v.minLength(1))),
    weight: v.optional(v.pipe(v.number(), v.minValue(0, 'must be at least 0'), v.finite())),
  }),
]);

const Route = v.strictObject({
  match: v.pipe(v.string(), v.minLength(1)),
  upstream: v.union([RouteTarget, v.pipe(v.array(RouteTarget), v.minLength(1))]),
  model: v.optional(v.string()),
  /** Balance the upstreams per request (the router README's "Routing"); `weighted` when any has a weight. */
  strategy: v.optional(v.picklist(['weighted', 'round-robin', 'least-busy', 'lowest-latency'])),
  /** A model name (it must match a route) taken when the request is too long for an upstream's context window. */
  contextFallback: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** A model name (it must match a route) taken when an upstream refuses the request by its content policy. */
  contentPolicyFallback: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Gateway-configured MCP servers (names of `mcp.servers`) whose tools the gateway runs for this route's requests. */
  mcpServers: v.optional(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty')))),
  /** `run: gateway`: the gateway runs the request's own MCP tools even on an upstream that hosts MCP (its network, allowlist and log). */
  mcp: v.optional(v.strictObject({ run: v.literal('gateway') })),
});

/** Backoff of retries before the first byte (the router's defaults: 500 and 30,000). */
const Retry = v.strictObject({
  baseDelayMs: v.optional(Milliseconds),
  maxDelayMs: v.optional(Milliseconds),
});

/** Cool-down of failing upstreams (the router's defaults: 5 failures in 60,000 ms, 30,000 ms); `false`: off. */
const CircuitBreaker = v.union([
  v.literal(false),
  v.strictObject({ failures: v.optional(PositiveInteger), windowMs: v.optional(Milliseconds), cooldownMs: v.optional(Milliseconds) }),
]);

/** The router's opt-in policies (its README documents each). */
const Policies = v.strictObject({
  lenientContent: v.optional(v.boolean()),
  stripSystemReminders: v.optional(v.boolean()),
  joinSystemText: v.optional(v.union([v.boolean(), v.string()])),
  toolChoiceNoneAfterToolResults: v.optional(v.boolean()),
  dedupeHistoryReplay: v.optional(v.union([v.boolean(), v.literal('answered')])),
  dropTextBesideToolResults: v.optional(v.boolean()),
  loopGuard: v.optional(v.union([v.boolean(), v.literal('up-front')])),
  readOnlyTools: v.optional(
    v.union([
      v.literal(false),
      v.strictObject({ allow: v.array(v.string()), readWords: v.optional(v.array(v.string())), writeWords: v.optional(v.array(v.string())) }),
    ]),
  ),
  contextStrategy: v.optional(v.picklist(['minimal', 'full', 'tool', 'adaptive'])),
  estimateStreamUsage: v.optional(v.boolean()),
});

/** Opt-in download of media URLs a target cannot take by URL (the router's `fetchMedia`). */
const FetchMedia = v.strictObject({
  allow: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1, 'name at least one URL prefix or host')),
  maxBytes: v.optional(PositiveInteger),
  timeoutMs: v.optional(Milliseconds),
});

/** An MCP server's name: the label its calls carry (Responses `server_label`), so letters, digits, `_` and `-`. */
const McpServerName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'));

/**
 * A gateway-configured MCP server: remote (`url`, `headers`), or local and started by the gateway
 * (`command`, `args`, `env`). One object with a check rather than a union, so that a server with
 * fields of both kinds is reported as such.
 */
const McpServer = v.pipe(
  v.strictObject({
    url: v.optional(v.pipe(Url, v.regex(/^https?:\/\//i, 'must be an http(s) URL'))),
    headers: v.optional(v.record(v.string(), v.string())),
    command: v.optional(NonEmpty),
    args: v.optional(v.array(v.string())),
    env: v.optional(v.record(v.string(), v.string())),
  }),
  v.check(
    (server) =>
      server.url !== undefined
        ? server.command === undefined && server.args === undefined && server.env === undefined
        : server.command !== undefined && server.headers === undefined,
    'give url (and headers) for a remote server, or command (and args, env) for a local one',
  ),
);

/**
 * MCP servers the gateway runs tools of, for upstreams that cannot (the README's "MCP"):
 * configured `servers` (attached to routes by `mcpServers`), client-supplied servers allowed by
 * `allowClientServers` (none by default), and the loop's limits.
 */
const Mcp = v.strictObject({
  servers: v.optional(v.record(McpServerName, McpServer)),
  allowClientServers: v.optional(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty')))),
  /** Model turns per request at most (the router's default: 8). */
  maxTurns: v.optional(PositiveInteger),
  /** Total time of a request's MCP loop (the router's default: 120,000). */
  timeBudgetMs: v.optional(Milliseconds),
  /** One MCP operation: connect, list or call (default 30,000). */
  callTimeoutMs: v.optional(Milliseconds),
  /** UTF-8 bytes of one tool result the model gets (default 65,536); the rest is cut, and the result says so. */
  maxResultBytes: v.optional(PositiveInteger),
});

/** Upstream names for the model-family routes (o-series and codex, gpt*, claude*, gemini*). */
const ModelFamilies = v.strictObject({
  openaiResponses: v.optional(v.string()),
  openaiChat: v.optional(v.string()),
  claude: v.optional(v.string()),
  gemini: v.optional(v.string()),
});

/** The usage ledger: a SQLite file (relative paths resolve against the config file's folder), or off. */
export const LedgerSchema = v.optional(v.union([v.literal(false), v.strictObject({ path: v.pipe(v.string(), v.minLength(1, 'must not be empty')) })]), {
  path: './gateway-usage.db',
});

/**
 * Shared stores, for several gateways serving as one (see the README, "Run several instances"):
 * `postgres` (a URL) takes the usage ledger and stored Responses answers, `redis` (a URL) the
 * continuation state. `spool`: the file for ledger rows still unwritten at shutdown while the
 * database is down (default `./gateway-ledger-spool.jsonl` beside the config).
 */
export const StoreSchema = v.optional(
  v.strictObject({
    postgres: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
    redis: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL'))),
    spool: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  }),
);

/**
 * Virtual keys (src/keys): their SQLite file (relative paths resolve against the config file's
 * folder; ignored with `store.postgres`, which keeps them) and how long a gateway trusts what it
 * read of one (`cacheTtlMs`: the bound on how late it sees a change made elsewhere, without Redis).
 */
export const VirtualKeysSchema = v.optional(
  v.strictObject({
    path: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), './gateway-keys.db'),
    cacheTtlMs: v.optional(v.pipe(PositiveInteger, v.maxValue(300_000, 'must be at most 300000 (5 minutes)')), 5_000),
  }),
  {},
);

/**
 * The store of the per-key limits (rpm, tpm, budgets): `onStoreDown` says what a request gets
 * while it cannot be reached: `open` (default) is served without limits, `closed` answers 503.
 */
export const LimitsSchema = v.optional(v.strictObject({ onStoreDown: v.optional(v.picklist(['open', 'closed'])) }));

/** The gateway config file (YAML or JSON), after `${VAR}` expansion. */
export const GatewayConfigSchema = v.strictObject({
  listen: v.optional(v.strictObject({ host: v.optional(v.string()), port: v.optional(Port) }), {}),
  /** Client keys accepted; none = open (refused off loopback unless `allowOpen`). */
  keys: v.optional(v.array(ClientKeySchema), []),
  /** Serve with no client keys on a non-loopback address (an open relay spends the upstream keys). */
  allowOpen: v.optional(v.boolean()),
  /** The key of the admin API (`/admin/...`) and the dashboard (`/ui`); none: both answer 404. Never a client key. */
  adminKey: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters (it guards every key and the spend report)'))),
  upstreams: v.pipe(
    v.record(v.string(), Upstream),
    v.check((record) => Object.keys(record).length > 0, 'at least one upstream is required'),
  ),
  routes: v.pipe(v.array(Route), v.minLength(1, 'at least one route is required')),
  /** More model ids for the model lists, after the routes' own (each must match a route). */
  models: v.optional(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty')))),
  /** Routes by model family, tried after `routes`. */
  modelFamilies: v.optional(ModelFamilies),
  fetchMedia: v.optional(FetchMedia),
  mcp: v.optional(Mcp),
  countTokens: v.optional(v.picklist(['estimate', 'upstream'])),
  ledger: LedgerSchema,
  store: StoreSchema,
  /** Prices (USD per million tokens) by model id or glob, over the shipped table (the README's "Prices and cost"). */
  prices: PricesSchema,
  /** Let a key with a budget use a model without a price (its requests then count $0 against the budget); default false. */
  allowUnpricedWithBudget: v.optional(v.boolean()),
  virtualKeys: VirtualKeysSchema,
  policies: v.optional(Policies, {}),
  strict: v.optional(v.boolean()),
  maxRetries: v.optional(NonNegativeInteger),
  retry: v.optional(Retry),
  circuitBreaker: v.optional(CircuitBreaker),
  /** Per-key limits' store behaviour (see LimitsSchema). */
  limits: LimitsSchema,
  /** Total time per request, retries, fallbacks and the whole stream included (the router's default: 1,800,000). */
  requestDeadlineMs: v.optional(Milliseconds),
  warningsHeader: v.optional(v.boolean()),
  maxBodyBytes: v.optional(PositiveInteger, 32 * 1024 * 1024),
  /** OpenTelemetry traces exported over OTLP/HTTP (none by default: the SDK is then never loaded). */
  tracing: v.optional(
    v.strictObject({
      endpoint: Url,
      headers: v.optional(v.record(v.string(), v.string())),
      serviceName: v.optional(v.string()),
      /** The share of traces started here that are recorded (default 1); a client's traceparent decides for its own. */
      sampleRatio: v.optional(v.pipe(v.number(), v.minValue(0, 'must be at least 0'), v.maxValue(1, 'must be at most 1'))),
      /** The export's encoding (OTLP's names; default http/protobuf). */
      protocol: v.optional(v.picklist(['http/protobuf', 'http/json'])),
    }),
  ),
  /** Milliseconds a shutdown lets in-flight requests finish before cutting them (the gateway's default: 10,000; at most {@link MAX_TIMER_MS}). */
  drainMs: v.optional(DrainMs),
  log: v.optional(v.strictObject({ level: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])) }), {}),
  /**
   * Prometheus metrics at `GET /metrics`: on the gateway's port (default), or on `port` (and
   * `host`, default 127.0.0.1) only; `models` adds names to the model label's known set. `false`: none.
   */
  metrics: v.optional(
    v.union([v.literal(false), v.strictObject({ port: v.optional(Port), host: v.optional(v.string()), models: v.optional(v.array(v.string())) })]),
    {},
  ),
});

/** A validated gateway config. */
export type GatewayConfig = v.InferOutput<typeof GatewayConfigSchema>;
