import type { Transport, UpstreamResponse } from '../router-contract.js';
import { anthropicErrorBody } from './bedrock-errors.js';
import { bodyBytes } from './body-model.js';
import { type CloudAdapter, UnsupportedCloudCall, rewritten, withoutHeaders } from './cloud-adapter.js';
import { converseSse } from './converse-stream-sse.js';
import { eventStreamToSse, loadMessageDecoder } from './eventstream-to-sse.js';
import { OverriddenHeaders, ReplacedAnswer, answerChunks } from './replaced-answer.js';
import type { SignableRequest } from './sigv4-signer.js';

/** The Converse codec's paths: `/model/{modelId}/converse` and `/converse-stream` (the id already percent-encoded). */
const CONVERSE_PATH = /^\/model\/[^/?]+\/(converse|converse-stream)$/;

/** The router's auth headers (the signature replaces them) and its `accept`, set here per call. */
const DROPPED_HEADERS = ['authorization', 'x-api-key', 'accept'];

const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/**
 * Bedrock Converse and ConverseStream: the codec's own URL and body, signed with SigV4; the
 * binary event stream answered is re-framed as the SSE events the Converse codec reads (one per
 * message, named by its `:event-type` or `:exception-type`). Error answers keep their status and
 * `x-amzn-errortype` (the codec maps the name), their message hidden when it is about the
 * gateway's own credentials.
 */
export function converseAdapter(base: string, sign: (request: SignableRequest) => Promise<Record<string, string>>, transport: Transport): CloudAdapter {
  return async (request, path) => {
    const match = CONVERSE_PATH.exec(path);
    if (!match) throw new UnsupportedCloudCall(`Bedrock Converse has no call for ${path}`);
    const stream = match[1] === 'converse-stream';
    const url = `${base}${path}`;
    const unsigned = {
      ...withoutHeaders(request.headers, DROPPED_HEADERS),
      accept: stream ? EVENT_STREAM : 'application/json',
      'content-type': 'application/json',
    };
    const headers = await sign({ url, method: 'POST', headers: unsigned, body: bodyBytes(request.body) });
    const response = await transport(rewritten(request, { url, headers }));
    if (response.status < 200 || response.status > 299) return converseError(response);
    if (!stream) return response;
    const sse = eventStreamToSse(answerChunks(response), await loadMessageDecoder(), converseSse);
    return new ReplacedAnswer(response.status, new OverriddenHeaders(response.headers, { 'content-type': 'text/event-stream', 'content-length': '' }), sse);
  };
}

/** A Converse error answer, its `{message}` kept unless it is about the gateway's AWS credentials. */
async function converseError(response: UpstreamResponse): Promise<UpstreamResponse> {
  const name = response.headers.get('x-amzn-errortype');
  const { message } = anthropicErrorBody(name, response.status, await response.text()).error;
  return ReplacedAnswer.json(response.status, { message }, response.headers);
}
