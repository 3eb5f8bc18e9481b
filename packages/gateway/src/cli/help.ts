/** The CLI's commands. */
export const COMMANDS = ['serve', 'mock', 'translate', 'usage', 'keys'] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Help text per command (and the main one). */
export const HELP: Record<CommandName | 'main', string> = {
  main: `llm-gateway: let any LLM client reach any upstream protocol

Usage: llm-gateway <command> [options]

Commands:
  serve      --config <file> [--port N] [--host H] [--drain-ms N] [--watch-config] [--workers N|auto]   start the gateway
  serve      --mock [--port N] [--host H]            the gateway in front of four mock upstreams
  mock       --protocol <id> [--port N]              run the deterministic mock upstream
  translate  --from <id> --to <id> [--kind request|response|stream] [--model M] [file]
  usage      [--since 24h|<date>] [--by model|upstream|key|day] [--db <file> | --config <file>] [--json]
  keys       create|list|show|update|revoke --config <file> ...   virtual keys with limits and budgets

Protocols: openai-chat, openai-responses, claude, gemini.
Run llm-gateway <command> --help for details; llm-gateway --version prints the version.`,
  serve: `Usage: llm-gateway serve --config <file> [--port N] [--host H] [--drain-ms N] [--watch-config] [--workers N|auto]
       llm-gateway serve --mock [--port N] [--host H]

Starts the gateway with a YAML or JSON config (\${VAR} expands from the environment).
--mock starts it instead in front of four mock upstreams (one per protocol, routed by model
family), with no keys and no ledger, and prints ready-to-paste settings for curl, the SDKs,
Claude Code, Codex and Gemini CLI on stderr; it runs until stopped.
Prints the address (on stderr) when ready; stdout carries the JSON log lines only.
--port N (0 to 65535; 0: any free port) and --host H override listen.port (default 8787) and
listen.host (default 127.0.0.1).
SIGINT / SIGTERM drain in-flight requests for --drain-ms (config drainMs; default 10000, at most
2147483647), then cut the rest (a stream ends with its protocol's error event) and exit.
SIGHUP reloads the config file (keys, upstreams, routes, policies, log level) without dropping a
request in flight; an invalid file is logged and the running config kept. --watch-config also
reloads when the file changes.
--workers N runs N gateway processes sharing the port (auto: one per core; default 1), each
taking connections in turn; signals go to every one; one that dies is replaced after 1 s. With
several, give them shared stores (store.postgres / store.redis) or a SQLite ledger file: the
in-memory stored answers and conversation state are per process.
Runs WebAssembly (undici's HTTP parser) on V8's baseline tier only: 5-10 MB less resident
after traffic, for about 3% more CPU per request. LLM_GATEWAY_WASM_TIER_UP=1 keeps V8's default tiering.
Upstream proxy: HTTPS_PROXY (https upstreams), HTTP_PROXY (http ones, and https ones without
HTTPS_PROXY), NO_PROXY (hosts reached directly: names, .domain suffixes, host:port, or *);
lower-case forms win. Read once at start; calls are tunnelled with CONNECT. Media downloads
go through the proxy too, refused before it for an internal host literal (the proxy resolves
names: its egress rules must refuse internal addresses).

Limits (config key: default):
  maxBodyBytes: 33554432 (32 MiB)        request bodies beyond get 413
  JSON nesting: 128 levels               deeper request bodies get 400 naming the path
  warnings: 100 kept per request         the rest counted (warningsDropped in the log line)
  x-llm-warnings (warningsHeader: true): 4096 bytes, then "+N more"
  stored Responses: 256 answers, 32 Mi characters; previous_response_id state: 10000
    entries, 64 MiB (oldest evicted first; each answer readable by its own key only),
    at most 1000 stored turns per client key (its oldest go first)
  x-request-id: a client's is kept when it is at most 128 of [A-Za-z0-9._:-], else one is minted
  fetchMedia.maxBytes: 5242880 (5 MiB), fetchMedia.timeoutMs: 10000
  mcp.maxResultBytes: 65536 (64 KiB)     of one MCP tool result; the rest is cut, and it says so
  mcp.maxTurns: 8                        model turns of one request's MCP loop
Timeouts (milliseconds; each, and retry's and circuitBreaker's, at most 2147483647: node's longest
timer, about 24.8 days):
  upstreams.<name>.timeoutMs: 600000            until the upstream's response headers
  upstreams.<name>.streamIdleTimeoutMs: 120000  silence within a stream; ends the client's
                                                stream with its protocol's error event
  requestDeadlineMs: 1800000                    whole request, retries and stream included
  transport body idle backstop: the longest streamIdleTimeoutMs + 5000
  drainMs: 10000 (or --drain-ms)                 shutdown drain before in-flight requests are cut
  mcp.callTimeoutMs: 30000                      one MCP connect, list or call (a call: an error result)
  mcp.timeBudgetMs: 120000                      the whole MCP loop of a request`,
  mock: `Usage: llm-gateway mock --protocol <id> [--port N] [--host H] [--workdir DIR]

Runs the embedded deterministic mock upstream for one protocol. It validates requests like the
real API (400 in its own error shape) and answers from a script keyed on the last user message:
"error 429|500|503|529" -> that status; "read <file>" with a client's file-reading tool declared
(Claude Code's Read) -> a call reading <file> under --workdir (an agent loop); "parallel" -> two tool calls; "tool" or "weather" -> one
tool call; "think" -> reasoning with a signature first; after tool results -> a final answer
quoting them; anything else -> an echo.`,
  translate: `Usage: llm-gateway translate --from <id> --to <id> [--kind request|response|stream] [--model M] [file]

Translates one JSON body (request or response) or an SSE capture (stream) between protocols,
offline, as the gateway does: a request goes from a --from client to a --to upstream; a response
or stream comes from a --from upstream to a --to client. --model names the model of a Gemini
client (its URL carries it) and the upstream's model. Reads stdin when no file is given.
Warnings go to stderr as JSON lines.`,
  usage: `Usage: llm-gateway usage [--since 24h|7d|<date>] [--by model|upstream|key|day] [--db <file> | --config <file>] [--json]

Sums the usage ledger (requests, errors, input / cached / cache-write / reasoning / output tokens,
average latency, cost in USD and the requests of unpriced models) per model, upstream, client key
or UTC day.`,
  keys: `Usage: llm-gateway keys create --config <file> --name <name> [settings] [--json]
       llm-gateway keys list --config <file> [--json]
       llm-gateway keys show <name> --config <file> [--json]
       llm-gateway keys update <name> --config <file> [settings] [--json]
       llm-gateway keys revoke <name> --config <file> [--json]

Manages virtual keys in the store the config names (its virtualKeys.path SQLite file, or
store.postgres), with or without a gateway running; with store.redis each change reaches the
running gateways at once (else, or with Redis down, which it warns of, within
virtualKeys.cacheTtlMs, default 5000 ms). create prints the
secret (sk-gw-...) once: only its hash is kept. revoke keeps the key's row and name.
Settings:
  --budget USD[/day|/week|/month|/total]   spend limit (a bare amount: total); none clears it
  --rpm N, --tpm N                          requests / tokens per minute; none clears
  --models 'claude-*,gpt-*'                 model names or globs a client may send; '*' or '': any
  --expires 30d|12h|2w|90m|2027-01-01|never
  --meta name=value                         repeatable (update: replaces the metadata)
  --disable, --enable
Exit codes: 0 done, 1 refused (no such key, name taken, key revoked), 2 a bad command line.`,
};
