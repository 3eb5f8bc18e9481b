import { bodyBytes, readModel } from './body-model.js';
import { type CloudAdapter, type CloudFlavor, type ConfiguredUpstream, rewritten, withoutHeaders } from './cloud-adapter.js';
import { entraClientToken } from './entra-token.js';
import { RefreshingToken } from './refreshing-token.js';
import { withoutPromptFilterAnnouncements } from './azure-stream.js';
import { ReplacedAnswer, answerChunks } from './replaced-answer.js';
import type { Transport } from '../router-contract.js';

/** Deployment-scoped calls of the `api-version` API; everything else lives under `/openai/`. */
const DEPLOYMENT_PATHS = new Set(['/chat/completions', '/completions', '/embeddings']);

/**
 * Azure OpenAI. With `apiVersion`: deployment URLs,
 * `{baseUrl}/openai/deployments/{deployment}/chat/completions?api-version=...`, the deployment
 * being the model the route sends (Responses calls: `{baseUrl}/openai/responses?api-version=...`,
 * the deployment in the body's `model`). Without: the v1 API, `{baseUrl}/openai/v1/...`, the model
 * in the body as on OpenAI. Auth: the `api-key` header (the upstream's `apiKey`) or an Entra ID
 * bearer token by client credentials, refreshed before expiry. Azure's answers are the
 * protocol's (its `content_filter` finish reason and error code are OpenAI's words; the extra
 * `*_filter_results` fields are ignored by the codecs) but for the prompt-filter announcement
 * that opens a Chat stream, dropped here (azure-stream.ts).
 */
export const azure: CloudFlavor = {
  endpoint: () => {
    throw new Error('an Azure upstream needs its baseUrl');
  },
  adapter(upstream, transport) {
    const base = `${(upstream.baseUrl as string).replace(/\/+$/, '')}/openai`;
    const auth = authHeader(upstream, transport);
    const { apiVersion } = upstream;
    const adapter: CloudAdapter = async (request, path) => {
      const headers = { ...withoutHeaders(request.headers, ['authorization', 'api-key']), ...(await auth()) };
      const url = apiVersion === undefined ? `${base}/v1${path}` : versionedUrl(base, path, apiVersion, request.body);
      const response = await transport(rewritten(request, { url, headers }));
      const chatStream = path === '/chat/completions' && request.headers?.accept === 'text/event-stream' && response.status === 200;
      return chatStream ? new ReplacedAnswer(response.status, response.headers, withoutPromptFilterAnnouncements(answerChunks(response))) : response;
    };
    return adapter;
  },
};

/** The `api-version` URL of a router path (`/chat/completions`, `/responses`, `/responses/{id}`). */
function versionedUrl(base: string, path: string, apiVersion: string, body: string | Uint8Array | undefined): string {
  const [pathname = '', query] = path.split('?', 2);
  const version = `api-version=${encodeURIComponent(apiVersion)}${query ? `&${query}` : ''}`;
  if (DEPLOYMENT_PATHS.has(pathname)) return `${base}/deployments/${encodeURIComponent(readModel(bodyBytes(body)))}${pathname}?${version}`;
  return `${base}${pathname}?${version}`;
}

/** The auth header: the static `api-key`, or a fresh Entra bearer token. */
function authHeader(upstream: ConfiguredUpstream, transport: Transport): () => Promise<Record<string, string>> {
  const { tenantId, clientId, clientSecret, authorityHost } = upstream;
  if (tenantId && clientId && clientSecret) {
    const token = new RefreshingToken(entraClientToken(transport, { tenantId, clientId, clientSecret, authorityHost }));
    return async () => ({ authorization: `Bearer ${await token.get()}` });
  }
  const key = { 'api-key': upstream.apiKey as string };
  return () => Promise.resolve(key);
}
