import type { UpstreamResponse } from '../router-contract.js';
import { awsCredentialChain, awsCredentials, awsRegion } from './aws-credentials.js';
import { anthropicErrorBody } from './bedrock-errors.js';
import { bodyBytes, dropMember, swapModel } from './body-model.js';
import { type CloudAdapter, type CloudFlavor, UnsupportedCloudCall, rewritten, withoutHeaders } from './cloud-adapter.js';
import { anthropicSse, eventStreamToSse, loadMessageDecoder } from './eventstream-to-sse.js';
import { OverriddenHeaders, ReplacedAnswer, answerChunks } from './replaced-answer.js';
import { converseAdapter } from './bedrock-converse.js';
import { sigV4Signer } from './sigv4-signer.js';

/** The `anthropic_version` Bedrock's Claude models take in the body, in place of `model`. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** SigV4's service name of the Bedrock runtime API. */
const SIGNING_SERVICE = 'bedrock';

/** The router's Anthropic headers: the version goes in the body, betas in `anthropic_beta`, auth in the signature. */
const DROPPED_HEADERS = ['authorization', 'x-api-key', 'anthropic-version', 'anthropic-beta', 'accept'];

const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/**
 * AWS Bedrock, Claude through InvokeModel (`/model/{modelId}/invoke`) and
 * InvokeModelWithResponseStream (`/invoke-with-response-stream`): the Anthropic Messages body
 * with `anthropic_version` (and `anthropic_beta`, from the header) instead of `model` and `stream`, signed with
 * SigV4; the binary event stream answered is re-framed as Anthropic SSE and error answers rewritten
 * as Anthropic error bodies, so the Claude codec reads Bedrock as it reads Anthropic. An upstream
 * of `protocol: bedrock-converse` calls Converse instead (./bedrock-converse.ts), signed the same.
 */
export const bedrock: CloudFlavor = {
  endpoint: (upstream, env) => `https://bedrock-runtime.${awsRegion(upstream, env)}.amazonaws.com`,
  adapter(upstream, transport, env) {
    const region = awsRegion(upstream, env) as string;
    const credentials = upstream.awsCredentialChain ? awsCredentialChain() : awsCredentials(upstream, env);
    if (!credentials) throw new Error('a Bedrock upstream needs AWS credentials');
    const sign = sigV4Signer(SIGNING_SERVICE, region, credentials);
    const base = (upstream.baseUrl ?? bedrock.endpoint(upstream, env)).replace(/\/+$/, '');
    if (upstream.protocol === 'bedrock-converse') return converseAdapter(base, sign, transport);
    const adapter: CloudAdapter = async (request, path) => {
      if (path !== '/v1/messages') throw new UnsupportedCloudCall(`Bedrock InvokeModel has no Claude call for ${path}`);
      const stream = request.headers?.accept === 'text/event-stream';
      const betas = request.headers?.['anthropic-beta'];
      const fields = {
        anthropic_version: BEDROCK_ANTHROPIC_VERSION,
        ...(betas && {
          anthropic_beta: betas
            .split(',')
            .map((beta) => beta.trim())
            .filter(Boolean),
        }),
      };
      const swapped = swapModel(bodyBytes(request.body), fields);
      const model = swapped.model;
      // InvokeModel refuses a `stream` field: the URL says it (as Anthropic's own Bedrock SDK does).
      const body = dropMember(swapped.body, 'stream');
      const url = `${base}/model/${encodeURIComponent(model)}/${stream ? 'invoke-with-response-stream' : 'invoke'}`;
      const unsigned = {
        ...withoutHeaders(request.headers, DROPPED_HEADERS),
        accept: stream ? EVENT_STREAM : 'application/json',
        'content-type': 'application/json',
      };
      const headers = await sign({ url, method: 'POST', headers: unsigned, body });
      const response = await transport(rewritten(request, { url, headers, body }));
      if (response.status < 200 || response.status > 299) return anthropicError(response);
      if (!stream) return response;
      const sse = eventStreamToSse(answerChunks(response), await loadMessageDecoder(), anthropicSse);
      return new ReplacedAnswer(response.status, new OverriddenHeaders(response.headers, { 'content-type': 'text/event-stream', 'content-length': '' }), sse);
    };
    return adapter;
  },
};

/** A Bedrock error answer as Anthropic's: same status, the error name mapped to Anthropic's type. */
async function anthropicError(response: UpstreamResponse): Promise<UpstreamResponse> {
  const text = await response.text();
  return ReplacedAnswer.json(response.status, anthropicErrorBody(response.headers.get('x-amzn-errortype'), response.status, text), response.headers);
}
