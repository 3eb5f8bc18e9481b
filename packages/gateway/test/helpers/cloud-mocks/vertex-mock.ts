// Vertex AI as the gateway must call it: `/v1/projects/{project}/locations/{location}/publishers/
// {google|anthropic}/models/{model}:{method}`, a live OAuth2 bearer token, Gemini bodies as they
// are, Claude bodies with `anthropic_version: vertex-2023-10-16` and no `model`. Errors in
// Google's shape, as Vertex's own front end answers them.
import type { MockHeaders, TokenIssuer } from './token-issuer.js';
import { callProtocolMock } from './protocol-mock.js';

const PATH = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/;

export interface VertexMockOptions {
  project: string;
  location: string;
  /** Tokens accepted: issued by the mock token endpoint, or this static one. */
  tokens: TokenIssuer;
  staticToken?: string;
}

export interface SeenVertexCall {
  path: string;
  search: string;
  body: Record<string, unknown>;
}

export function googleError(code: number, status: string, message: string): Response {
  return Response.json({ error: { code, message, status } }, { status: code });
}

export function vertexHandler(options: VertexMockOptions, seen: SeenVertexCall[]): (url: URL, headers: MockHeaders, text: string) => Promise<Response> {
  return async (url, headers, text) => {
    const authorization = headers.get('authorization');
    if (!(options.tokens.accepts(authorization) || (options.staticToken && authorization === `Bearer ${options.staticToken}`))) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    }
    if (headers.has('x-goog-api-key') || headers.has('x-api-key')) return googleError(400, 'INVALID_ARGUMENT', 'API keys are not supported by this API.');
    const match = PATH.exec(url.pathname);
    if (!match) return googleError(404, 'NOT_FOUND', `no Vertex route ${url.pathname}`);
    const [, project, location, publisher, model, method] = match as unknown as [string, string, string, string, string, string];
    if (project !== options.project || location !== options.location) return googleError(403, 'PERMISSION_DENIED', `project ${project} location ${location}`);
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ path: url.pathname, search: url.search, body });
    if (publisher === 'google') {
      if (!['generateContent', 'streamGenerateContent', 'countTokens'].includes(method)) return googleError(400, 'INVALID_ARGUMENT', `method ${method}`);
      return callProtocolMock('gemini', `/v1beta/models/${model}:${method}${url.search}`, body);
    }
    if (model === 'count-tokens' && method === 'rawPredict') return callProtocolMock('claude', '/v1/messages/count_tokens', body);
    if (body.anthropic_version !== 'vertex-2023-10-16') return googleError(400, 'INVALID_ARGUMENT', 'anthropic_version: vertex-2023-10-16 is required');
    if ('model' in body) return googleError(400, 'INVALID_ARGUMENT', 'model: Extra inputs are not permitted');
    if (method !== 'rawPredict' && method !== 'streamRawPredict') return googleError(400, 'INVALID_ARGUMENT', `method ${method}`);
    if ((method === 'streamRawPredict') !== (body.stream === true)) return googleError(400, 'INVALID_ARGUMENT', 'streamRawPredict needs stream: true');
    const { anthropic_version: _version, ...rest } = body;
    return callProtocolMock('claude', '/v1/messages', { model, ...rest });
  };
}
