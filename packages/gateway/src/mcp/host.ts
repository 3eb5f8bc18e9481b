import { type CancelSignal, type JsonObject, LlmError, type LlmMcpTool, type LlmMcpToolDescription, describeError } from '@llm/core';
import type { Logger } from 'pino';
import { InternalAddressRefused } from '../internal-address-lookup.js';
import { allowEntryNamesHost, clientServerRefusal } from './client-server-check.js';
import type { McpCallContext, McpHost, McpToolOutput } from '@llm/router';
import { McpFetch, type McpFetchOptions } from './mcp-fetch.js';
import { PooledServer } from './pooled-server.js';
import { MAX_CLIENT_MCP_ANSWER_BYTES, sizeLimitedFetch } from './size-limited-fetch.js';
import { type McpCallResult, resultTextParts } from './result-text.js';
import { type McpClient, type StdioServerTarget, connectHttp, connectStdio } from './sdk-client.js';

/** Longest wait for one MCP operation (connect, list, call), by default. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 30_000;
/** Most UTF-8 bytes of one tool result given to the model, by default; the rest is cut, and the result says so. */
export const DEFAULT_MCP_MAX_RESULT_BYTES = 64 * 1024;
/** Pages of `tools/list` read from one server at most (a server that pages forever is cut off). */
const MAX_LIST_PAGES = 20;

/** A gateway-configured MCP server: remote (`url`, `headers`) or local (`command`, `args`, `env`). */
export type McpServerConfig = { url: string; headers?: Record<string, string> } | StdioServerTarget;

/** The gateway config's `mcp` section, as the host reads it. */
export interface McpHostConfig {
  servers?: Record<string, McpServerConfig>;
  /** URL prefixes / hosts client-supplied servers may have (the media-fetch allowlist's rules); none: refused. */
  allowClientServers?: string[];
  callTimeoutMs?: number;
  maxResultBytes?: number;
}

/** How the host's HTTP connections resolve names (for tests) and find the proxy ({@link McpFetchOptions}). */
export type McpHostOptions = McpFetchOptions;

/** The gateway's MCP host: {@link McpHost} plus `close()`, which ends the configured servers. */
export interface GatewayMcpHost extends McpHost {
  close(): Promise<void>;
}

/** An AbortSignal for the SDK, from the request's cancel signal. */
function abortSignalOf(signal: CancelSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  if (signal instanceof AbortSignal) return signal;
  const linked = signal as CancelSignal & { toAbortSignal?: () => AbortSignal };
  if (linked.toAbortSignal) return linked.toAbortSignal();
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/** True when `error`, or an error it was caused by, is `type`. */
function causedBy(error: unknown, type: abstract new (...args: never[]) => Error): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const cause: unknown = current.cause;
    if (current instanceof type) return true;
    current = cause;
  }
  return false;
}

/** The JSON-RPC code of an MCP error (`McpError.code`), when it is one. */
function rpcCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return error instanceof Error && error.name === 'McpError' && typeof code === 'number' ? code : undefined;
}

const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;

/**
 * The MCP host behind the router's MCP loop (RouterConfig.mcp), on the official SDK: gateway-
 * configured servers are connected once and shared (stdio servers started once, started again
 * when they exit, ended by `close()`); client-supplied servers must pass the allowlist and get
 * a connection of their own per operation, so nothing of one client's server (its session, its
 * token) is shared with another request. Every call is logged: server, tool, source, ms, isError
 * (arguments at debug level only).
 */
export function createMcpHost(config: McpHostConfig, logger: Logger, options: McpHostOptions = {}): GatewayMcpHost {
  const timeoutMs = config.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
  const maxResultBytes = config.maxResultBytes ?? DEFAULT_MCP_MAX_RESULT_BYTES;
  const allow = config.allowClientServers ?? [];
  const fetches = new McpFetch(options);
  const pooled = new Map<string, PooledServer>();
  for (const [name, server] of Object.entries(config.servers ?? {})) {
    const limits = { timeoutMs };
    const open =
      'url' in server
        ? async () => connectHttp({ url: server.url, headers: server.headers ?? {}, fetch: await fetches.for(false) }, limits)
        : () => connectStdio(name, server, limits, logger);
    pooled.set(name, new PooledServer(open));
  }

  /** Runs `use` on a connection to `server`: the pooled one of a configured server, else one of its own. */
  async function withClient<T>(server: LlmMcpTool, context: McpCallContext, use: (client: McpClient, signal?: AbortSignal) => Promise<T>): Promise<T> {
    const requestSignal = abortSignalOf(context.signal);
    if (context.source === 'gateway') {
      const pool = pooled.get(server.name);
      if (!pool) throw new LlmError({ kind: 'server', message: `MCP server "${server.name}" is not configured on this gateway` });
      const client = await pool.client();
      try {
        return await use(client, requestSignal);
      } catch (error) {
        // A timeout or a server's error answer leaves the connection usable; anything else may not.
        const code = rpcCode(error);
        if (code === undefined || code === CONNECTION_CLOSED) pool.discard(client);
        throw error;
      }
    }
    const refusal = clientServerRefusal(server.name, server.url, allow);
    if (refusal) throw refusal;
    const url = server.url as string;
    const headers: Record<string, string> = { ...server.headers };
    if (server.authorization) headers.authorization = `Bearer ${server.authorization}`;
    // An answer past the size limit ends the operation at once (an event stream's error would
    // otherwise only reach the SDK's error handler, and the call would wait for its timeout).
    const overflow = new AbortController();
    const base = (await fetches.for(!allowEntryNamesHost(url, allow))) ?? globalThis.fetch;
    const fetch = sizeLimitedFetch(base, MAX_CLIENT_MCP_ANSWER_BYTES, (error) => overflow.abort(error));
    const signal = requestSignal ? AbortSignal.any([requestSignal, overflow.signal]) : overflow.signal;
    let client: McpClient | undefined;
    try {
      client = await connectHttp({ url, headers, fetch, noRedirects: true }, { timeoutMs, signal });
      return await use(client, signal);
    } catch (error) {
      // The SDK reports any abort as a timeout: the overflow is told as what it is.
      throw overflow.signal.aborted ? overflow.signal.reason : error;
    } finally {
      await client?.close().catch(() => undefined);
    }
  }

  /** A failure of an operation as the client may see it: refusals as they are, the rest told plainly (details to the log). */
  function clientSafe(error: unknown, server: LlmMcpTool, what: string, signal: CancelSignal | undefined): LlmError {
    if (signal?.aborted) return new LlmError({ kind: 'cancelled', message: 'the request was cancelled', cause: error });
    if (LlmError.isInstance(error)) return error;
    if (causedBy(error, InternalAddressRefused))
      return new LlmError({
        kind: 'permission',
        message: `MCP server "${server.name}": its host resolves to an internal address, which no allow entry names`,
        cause: error,
      });
    if (rpcCode(error) === REQUEST_TIMEOUT)
      return new LlmError({ kind: 'timeout', message: `MCP server "${server.name}" did not ${what} within ${timeoutMs} ms`, cause: error });
    return new LlmError({ kind: 'upstream', message: `MCP server "${server.name}" could not ${what}`, cause: error });
  }

  async function listTools(server: LlmMcpTool, context: McpCallContext): Promise<LlmMcpToolDescription[]> {
    const started = performance.now();
    try {
      const listed = await withClient(server, context, async (client, signal) => {
        const tools: LlmMcpToolDescription[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const answer = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: timeoutMs, signal });
          for (const tool of answer.tools) {
            const description: LlmMcpToolDescription = { name: tool.name, inputSchema: tool.inputSchema as LlmMcpToolDescription['inputSchema'] };
            if (tool.description !== undefined) description.description = tool.description;
            if (tool.annotations !== undefined) description.annotations = tool.annotations;
            tools.push(description);
          }
          cursor = answer.nextCursor;
          if (cursor === undefined) break;
        }
        return tools;
      });
      const tools = server.allowedTools ? listed.filter((tool) => server.allowedTools?.includes(tool.name)) : listed;
      logger.info({ mcpServer: server.name, source: context.source, tools: tools.length, ms: Math.round(performance.now() - started) }, 'mcp tools listed');
      return tools;
    } catch (error) {
      const safe = clientSafe(error, server, 'list its tools', context.signal);
      logger.warn(
        { mcpServer: server.name, source: context.source, ms: Math.round(performance.now() - started), err: describeError(error) },
        'mcp tools list failed',
      );
      throw safe;
    }
  }

  async function callTool(server: LlmMcpTool, tool: string, args: JsonObject, context: McpCallContext): Promise<McpToolOutput> {
    const started = performance.now();
    let result: McpToolOutput;
    let failure: unknown;
    if (server.allowedTools && !server.allowedTools.includes(tool)) {
      result = { isError: true, content: `tool "${tool}" is not an allowed tool of MCP server "${server.name}"` };
    } else {
      try {
        const answer = (await withClient(server, context, (client, signal) =>
          client.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal }),
        )) as McpCallResult;
        const parts = resultTextParts(answer, maxResultBytes);
        // One text is given as a string, as most tools answer: every protocol's tool result takes that form.
        result = { isError: answer.isError === true, content: parts.length === 1 ? (parts[0]?.text ?? '') : parts };
      } catch (error) {
        const safe = clientSafe(error, server, `answer the call of "${tool}"`, context.signal);
        // A refusal or a cancelled request ends the request; a server that failed is the model's to hear.
        if (safe.kind === 'permission' || safe.kind === 'invalid_request' || safe.kind === 'cancelled' || safe.kind === 'server') {
          logger.warn({ mcpServer: server.name, tool, source: context.source, err: describeError(error) }, 'mcp call refused');
          throw safe;
        }
        failure = error;
        const code = rpcCode(error);
        const text =
          code !== undefined && code !== REQUEST_TIMEOUT && code !== CONNECTION_CLOSED
            ? `${safe.message}: ${error instanceof Error ? error.message.slice(0, 500) : ''}`
            : safe.message;
        result = { isError: true, content: text };
      }
    }
    const ms = Math.round(performance.now() - started);
    logger.info(
      { mcpServer: server.name, tool, source: context.source, ms, isError: result.isError, ...(failure ? { err: describeError(failure) } : {}) },
      'mcp call',
    );
    logger.debug({ mcpServer: server.name, tool, arguments: args }, 'mcp call arguments');
    return result;
  }

  return {
    listTools,
    callTool,
    close: async () => {
      await Promise.all([...pooled.values()].map((pool) => pool.close()));
      await fetches.close();
    },
  };
}
