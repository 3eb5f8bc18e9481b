// Bedrock InvokeModel / InvokeModelWithResponseStream as the gateway must call them:
// `/model/{modelId}/invoke` and `/invoke-with-response-stream`, a valid SigV4 signature (checked
// by sigv4-check.ts, not by the library the gateway signs with), Anthropic bodies with
// `anthropic_version: bedrock-2023-05-31` and neither `model` nor `stream`. Streams go out as AWS
// event-stream messages written a few bytes at a time; errors in Bedrock's shape
// (`{"message"}` + `x-amzn-ErrorType`), throttling included.
import { chunkMessage, exceptionMessage } from './eventstream-frames.js';
import { callProtocolMock } from './protocol-mock.js';
import type { MockHeaders } from './token-issuer.js';
import { type SigV4Expectation, sigV4Problem } from './sigv4-check.js';

export interface SeenBedrockCall {
  path: string;
  body: Record<string, unknown>;
  securityToken: string | null;
}

/** Anthropic error types as Bedrock's error names and statuses. */
export const BEDROCK_ERROR: Readonly<Record<string, [string, number]>> = {
  rate_limit_error: ['ThrottlingException', 429],
  overloaded_error: ['ServiceUnavailableException', 503],
  invalid_request_error: ['ValidationException', 400],
  not_found_error: ['ResourceNotFoundException', 404],
  api_error: ['InternalServerException', 500],
};

export function bedrockError(name: string, status: number, message: string): Response {
  return Response.json({ message }, { status, headers: { 'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/` } });
}

/** Bytes in pieces of `size`: every message boundary and most headers land mid-piece. */
export function inPieces(frames: Uint8Array[], size: number): ReadableStream<Uint8Array> {
  const all = Buffer.concat(frames);
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= all.length) return controller.close();
      controller.enqueue(new Uint8Array(all.subarray(at, at + size)));
      at += size;
      // A pause now and then, so pieces also arrive in separate reads.
      if (at % (size * 16) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    },
  });
}

/** The protocol mock's Anthropic SSE as Bedrock event-stream messages. */
async function asEventStream(sse: string): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  for (const block of sse.split('\n\n')) {
    const data = block
      .split('\n')
      .find((line) => line.startsWith('data: '))
      ?.slice(6);
    if (!data) continue;
    const event = JSON.parse(data) as { type: string; error?: { type: string; message: string } };
    if (event.type === 'error') {
      const name = event.error?.type === 'overloaded_error' ? 'serviceUnavailableException' : 'modelStreamErrorException';
      frames.push(exceptionMessage(name, event.error?.message ?? 'error'));
      break;
    }
    frames.push(chunkMessage(data));
  }
  return frames;
}

export function bedrockHandler(signing: SigV4Expectation, seen: SeenBedrockCall[]): (url: URL, headers: MockHeaders, text: string) => Promise<Response> {
  return async (url, headers, text) => {
    const problem = sigV4Problem('POST', url.pathname, url.searchParams, headers, Buffer.from(text), signing);
    if (problem)
      return bedrockError(
        problem === 'unknown access key' ? 'UnrecognizedClientException' : 'InvalidSignatureException',
        403,
        `signature check failed: ${problem}`,
      );
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(url.pathname);
    if (!match) return bedrockError('UnknownOperationException', 404, 'unknown operation');
    const model = decodeURIComponent(match[1] as string);
    const stream = match[2] === 'invoke-with-response-stream';
    const body = JSON.parse(text) as Record<string, unknown>;
    seen.push({ path: url.pathname, body, securityToken: headers.get('x-amz-security-token') });
    if (body.anthropic_version !== 'bedrock-2023-05-31')
      return bedrockError('ValidationException', 400, 'Malformed input request: anthropic_version is required');
    for (const key of ['model', 'stream'])
      if (key in body) return bedrockError('ValidationException', 400, `Malformed input request: extraneous key [${key}] is not permitted`);
    if (headers.get('accept') !== (stream ? 'application/vnd.amazon.eventstream' : 'application/json'))
      return bedrockError('ValidationException', 400, 'accept');
    const { anthropic_version: _version, anthropic_beta: _beta, ...rest } = body;
    const answer = await callProtocolMock('claude', '/v1/messages', { model, ...rest, ...(stream && { stream: true }) });
    if (answer.status !== 200) {
      const error = ((await answer.json()) as { error?: { type?: string; message?: string } }).error;
      const [name, status] = BEDROCK_ERROR[error?.type ?? ''] ?? ['InternalServerException', 500];
      return bedrockError(name, status, error?.message ?? 'error');
    }
    if (!stream) return answer;
    const frames = await asEventStream(await answer.text());
    return new Response(inPieces(frames, 7), {
      headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' },
    });
  };
}
