import { LlmError, type Codec, type HttpRequestMatch } from '@llm/core';
import type { RouterConfig } from './config.js';
import { countTokens } from './count-tokens.js';
import { exactRouteNames, modelList } from './endpoints.js';
import { noEndpointReply, unreadablePath } from './no-endpoint.js';
import { type ReplyHandler, type RouterReply, type RouterRequest, toResponse } from './reply.js';
import { routerRuntime } from './router-runtime.js';
import { generate } from './upstream-attempts.js';

/** A WHATWG fetch handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * A fetch handler serving the four protocols' endpoints (generate, count-tokens, model list) and
 * calling the routed upstream. See the README for the request lifecycle.
 */
export function createHandler(config: RouterConfig): FetchHandler {
  const handle = createRouter(config);
  return async (request) => toResponse(await handle(request));
}

/**
 * The router itself: {@link createHandler} without the WHATWG wrapping. It takes any
 * {@link RouterRequest} (a `Request` is one) and answers a plain {@link RouterReply}, so a server
 * can skip building a `Request` and a `Response` per call. A dispatcher: the client codec that
 * serves the call, then the operation's step (model list, count tokens, generate).
 */
export function createRouter(config: RouterConfig): ReplyHandler {
  const runtime = routerRuntime(config);
  const { codecs, calls } = runtime;
  const clientCodecs = Object.values(codecs).filter((codec): codec is Codec => codec !== undefined);

  return async (request) => {
    const url = request.parsedUrl ?? new URL(request.url);
    const found = matchClient(clientCodecs, request, url);
    if (!found) return noEndpointReply(codecs, request.method, url.pathname);
    const call = calls.start(request, found.codec);
    try {
      if (!found.match) throw unreadablePath(found.failure);
      switch (found.match.operation) {
        case 'list-models':
          calls.finish(call, { status: 200 });
          return calls.respond(call, JSON.stringify(modelList(found.codec, config.models ?? exactRouteNames(config.routes))), 200, {
            'content-type': 'application/json',
          });
        case 'count-tokens':
          return await countTokens(runtime, call, found.match, request);
        case 'retrieve-response':
          // The router keeps no answers (the gateway serves the ones it stored before calling it):
          // the same 404 for an id never seen, expired, or another key's, so none is revealed.
          throw new LlmError({ kind: 'not_found', message: `response ${found.match.id ?? ''} not found`, path: 'response_id' });
        case 'generate':
          return await generate(runtime, call, found.match, request);
        default: {
          const unreachable: never = found.match.operation;
          return unreachable;
        }
      }
    } catch (error) {
      return calls.respondError(call, error);
    }
  };
}

/**
 * The codec serving the call, and its match; or the codec that failed to read the call's path
 * (`failure`, answered as a 400 in its protocol); or undefined when no codec serves it. Codecs
 * are asked in registry order, except that one whose `traits.clientHeader` the call carries goes
 * first and one whose header it lacks goes last (Claude and OpenAI share the model-list path).
 */
function matchClient(codecs: readonly Codec[], request: RouterRequest, url: URL): ClientMatch | undefined {
  // Three passes instead of a sorted copy: no array per call.
  for (const wanted of MATCH_PASSES) {
    for (const codec of codecs) {
      if (carriesClientHeader(codec, request) !== wanted) continue;
      try {
        const match = codec.http.matchRequest(request.method, url);
        if (match) return { codec, match };
      } catch (failure) {
        return { codec, failure };
      }
    }
  }
  return undefined;
}

/** Codecs whose client header the call carries, then codecs with none, then those whose header it lacks. */
const MATCH_PASSES = [true, undefined, false] as const;

/** Whether the call carries the codec's `traits.clientHeader`; undefined when the codec has none. */
function carriesClientHeader(codec: Codec, request: RouterRequest): boolean | undefined {
  const header = codec.traits.clientHeader;
  return header === undefined ? undefined : request.headers.get(header) !== null;
}

type ClientMatch = { codec: Codec; match: HttpRequestMatch; failure?: undefined } | { codec: Codec; match?: undefined; failure: unknown };
