import type { Transport } from '../router-contract.js';
import { bodyBytes, swapModel } from './body-model.js';
import { type CloudAdapter, type CloudFlavor, type ConfiguredUpstream, UnsupportedCloudCall, rewritten, withoutHeaders } from './cloud-adapter.js';
import { applicationDefaultToken } from './google-adc.js';
import { readServiceAccountKey, serviceAccountToken } from './google-service-account.js';
import { RefreshingToken } from './refreshing-token.js';

/** The `anthropic_version` Vertex's Claude models take in the body, in place of `model`. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/** Headers of the protocols' own auth and versioning, replaced by Vertex's bearer token and body field. */
const DROPPED_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'anthropic-version'];

const GEMINI_PATH = /^\/v1beta\/models\/(.+)$/;

/**
 * Vertex AI: Gemini at `.../publishers/google/models/{model}:generateContent` (and
 * `:streamGenerateContent?alt=sse`, `:countTokens`), Claude at
 * `.../publishers/anthropic/models/{model}:rawPredict` / `:streamRawPredict` with
 * `anthropic_version` in the body instead of `model` (token counting at
 * `.../anthropic/models/count-tokens:rawPredict`, `model` kept); a regional endpoint
 * (`{location}-aiplatform.googleapis.com`) or the global one (`aiplatform.googleapis.com`).
 * Auth: an OAuth2 bearer token from a service-account key file, Application Default Credentials,
 * or a static token.
 */
export const vertex: CloudFlavor = {
  endpoint: (upstream) => (upstream.location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${upstream.location}-aiplatform.googleapis.com`),
  adapter(upstream, transport) {
    const root = `${(upstream.baseUrl ?? vertex.endpoint(upstream, {})).replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(upstream.project as string)}/locations/${upstream.location}/publishers`;
    const token = accessToken(upstream, transport);
    const adapter: CloudAdapter = async (request, path) => {
      const headers = { ...withoutHeaders(request.headers, DROPPED_HEADERS), authorization: `Bearer ${await token()}` };
      if (upstream.protocol === 'gemini') {
        const match = GEMINI_PATH.exec(path);
        if (!match) throw new UnsupportedCloudCall(`Vertex has no Gemini call for ${path}`);
        return transport(rewritten(request, { url: `${root}/google/models/${match[1]}`, headers }));
      }
      // Token counting keeps `model` in the body; its URL names a fixed model, `count-tokens`.
      if (path === '/v1/messages/count_tokens') return transport(rewritten(request, { url: `${root}/anthropic/models/count-tokens:rawPredict`, headers }));
      if (path !== '/v1/messages') throw new UnsupportedCloudCall(`Vertex has no Claude call for ${path}`);
      const { model, body } = swapModel(bodyBytes(request.body), { anthropic_version: VERTEX_ANTHROPIC_VERSION });
      const method = request.headers?.accept === 'text/event-stream' ? 'streamRawPredict' : 'rawPredict';
      return transport(rewritten(request, { url: `${root}/anthropic/models/${modelSegment(model)}:${method}`, headers, body }));
    };
    return adapter;
  },
};

/** The bearer token source an upstream's credentials name. */
function accessToken(upstream: ConfiguredUpstream, transport: Transport): () => Promise<string> {
  const { accessToken, keyFile } = upstream;
  if (accessToken !== undefined) return () => Promise.resolve(accessToken);
  if (keyFile !== undefined) {
    // The config check read it too: a missing or broken file fails the (re)load, not a request.
    const cached = new RefreshingToken(serviceAccountToken(transport, readServiceAccountKey(keyFile)));
    return () => cached.get();
  }
  return applicationDefaultToken();
}

/** A model id as a path segment: encoded, but for the `@` of versioned ids (`claude-sonnet-4-5@20250929`), as Anthropic's Vertex SDK sends it. */
function modelSegment(model: string): string {
  return encodeURIComponent(model).replaceAll('%40', '@');
}
