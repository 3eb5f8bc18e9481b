import * as v from 'valibot';

/** The protocols an upstream may speak. */
const Protocol = v.picklist(['openai-chat', 'openai-responses', 'claude', 'gemini']);

const Url = v.pipe(v.string(), v.url('must be an absolute URL'));

/** Counts and durations: whole numbers from 1 (or from `min`). */
const PositiveInteger = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'));
const NonNegativeInteger = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be at least 0'));

const Port = v.pipe(NonNegativeInteger, v.maxValue(65535, 'must be at most 65535'));


const Upstream = v.strictObject({
  protocol: Protocol,
  baseUrl: Url,
  apiKey: v.optional(v.string()),
  auth: v.optional(v.picklist(['bearer', 'x-api-key', 'x-goog-api-key', 'query-key', 'none'])),
  headers: v.optional(v.record(v.string(), v.string())),
  /** Until the answer's headers (the router's default: 600,000). */
  timeoutMs: v.optional(PositiveInteger),
  /** Longest silence between two chunks of a streamed answer (the router's default: 120,000). */
  streamIdleTimeoutMs: v.optional(PositiveInteger),
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

const Route = v.strictObject({
  match: v.pipe(v.string(), v.minLength(1)),
  upstream: v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.string()), v.minLength(1))]),
  model: v.optional(v.string()),
});

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
  timeoutMs: v.optional(PositiveInteger),
});

/** Upstream names for the model-family routes (o-series and codex, gpt*, claude*, gemini*). */
const ModelFamilies = v.strictObject({
  openaiResponses: v.optional(v.string()),
  openaiChat: v.optional(v.string()),
  claude: v.optional(v.string()),
  gemini: v.optional(v.string()),
});

/** The gateway config file (YAML or JSON), after `${VAR}` expansion. */
export const GatewayConfigSchema = v.strictObject({
  listen: v.optional(v.strictObject({ host: v.optional(v.string()), port: v.optional(Port) }), {}),
  keys: v.optional(v.array(v.pipe(v.string(), v.minLength(1, 'must not be empty'))), []),
  upstreams: v.pipe(v.record(v.string(), Upstream), v.check((record) => Object.keys(record).length > 0, 'at least one upstream is required')),
  routes: v.pipe(v.array(Route), v.minLength(1, 'at least one route is required')),
  /** Routes by model family, tried after `routes`. */
  modelFamilies: v.optional(ModelFamilies),
  fetchMedia: v.optional(FetchMedia),
  countTokens: v.optional(v.picklist(['estimate', 'upstream'])),
  ledger: v.optional(v.union([v.literal(false), v.strictObject({ path: v.string() })]), { path: './gateway-usage.db' }),
  policies: v.optional(Policies, {}),
  strict: v.optional(v.boolean()),
  maxRetries: v.optional(NonNegativeInteger),
  /** Total time per request, retries, fallbacks and the whole stream included (the router's default: 1,800,000). */
  requestDeadlineMs: v.optional(PositiveInteger),
  warningsHeader: v.optional(v.boolean()),
  maxBodyBytes: v.optional(PositiveInteger, 32 * 1024 * 1024),
  log: v.optional(v.strictObject({ level: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])) }), {}),
});

/** A validated gateway config. */
export type GatewayConfig = v.InferOutput<typeof GatewayConfigSchema>;
