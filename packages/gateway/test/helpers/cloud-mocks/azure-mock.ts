// Azure OpenAI as the gateway must call it: deployment URLs with the configured `api-version`
// (`/openai/deployments/{deployment}/chat/completions?api-version=...`) or the v1 API
// (`/openai/v1/...`), auth by the `api-key` header or a live Entra ID bearer token. Its answers
// carry Azure's extras: `prompt_filter_results` (a first stream chunk with no choices, no id, no
// model), `content_filter_results` per choice; prompts saying "filter my prompt" are refused with
// Azure's `content_filter` 400, and "filter your answer" ends with `finish_reason: content_filter`.
import type { MockHeaders, TokenIssuer } from './token-issuer.js';
import { callProtocolMock } from './protocol-mock.js';

export interface AzureMockOptions {
  apiVersion: string;
  apiKey: string;
  tokens: TokenIssuer;
}

export interface SeenAzureCall {
  path: string;
  search: string;
  auth: 'api-key' | 'bearer';
}

const SAFE = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
const PROMPT_FILTER_RESULTS = [{ prompt_index: 0, content_filter_results: SAFE }];
const FILTERED = { ...SAFE, violence: { filtered: true, severity: 'high' } };

function azureError(status: number, code: string, message: string, extra: Record<string, unknown> = {}): Response {
  return Response.json({ error: { code, message, ...extra } }, { status });
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? body.input) as { role?: string; content?: unknown }[] | undefined;
  const user = Array.isArray(messages) ? messages.filter((m) => m.role === 'user').at(-1) : undefined;
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

/** A chat answer cut by Azure's output filter, whole or as SSE chunks. */
function filteredAnswer(model: string, stream: boolean): Response {
  const base = { id: 'chatcmpl-filtered', created: 1_700_000_000, model };
  if (!stream) {
    return Response.json({
      ...base,
      object: 'chat.completion',
      prompt_filter_results: PROMPT_FILTER_RESULTS,
      choices: [{ index: 0, finish_reason: 'content_filter', message: { role: 'assistant', content: 'Partial' }, content_filter_results: FILTERED }],
      usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
    });
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  const body = [
    `data: ${JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER_RESULTS })}\n\n`,
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Partial' }, finish_reason: null, content_filter_results: SAFE }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: FILTERED }]),
    'data: [DONE]\n\n',
  ].join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** Azure's extras on a chat answer of the protocol mock. */
async function withAzureExtras(response: Response, stream: boolean): Promise<Response> {
  if (response.status !== 200) return response;
  const text = await response.text();
  if (!stream) {
    const answer = JSON.parse(text) as { choices: Record<string, unknown>[] };
    for (const choice of answer.choices) choice.content_filter_results = SAFE;
    return Response.json({ ...answer, prompt_filter_results: PROMPT_FILTER_RESULTS });
  }
  const first = `data: ${JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: PROMPT_FILTER_RESULTS })}\n\n`;
  return new Response(first + text, { headers: { 'content-type': 'text/event-stream' } });
}

export function azureHandler(options: AzureMockOptions, seen: SeenAzureCall[]): (url: URL, headers: MockHeaders, text: string) => Promise<Response> {
  return async (url, headers, text) => {
    const apiKey = headers.get('api-key');
    const bearer = options.tokens.accepts(headers.get('authorization'));
    if (!(apiKey === options.apiKey || (apiKey === null && bearer))) {
      return azureError(401, '401', 'Access denied due to invalid subscription key or wrong API endpoint.');
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    const stream = body.stream === true;
    let protocolPath: string;
    let model: string;
    const deployment = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(url.pathname);
    if (deployment) {
      if (url.searchParams.get('api-version') !== options.apiVersion) return azureError(404, '404', 'Resource not found');
      model = decodeURIComponent(deployment[1] as string);
      protocolPath = '/chat/completions';
    } else if (url.pathname === '/openai/v1/chat/completions' || url.pathname === '/openai/v1/responses') {
      if (url.searchParams.has('api-version')) return azureError(400, 'BadRequest', 'api-version is not allowed on the v1 API');
      model = String(body.model);
      protocolPath = url.pathname.slice('/openai/v1'.length);
    } else {
      return azureError(404, '404', 'Resource not found');
    }
    seen.push({ path: url.pathname, search: url.search, auth: apiKey === null ? 'bearer' : 'api-key' });
    const prompt = lastUserText(body);
    if (prompt.includes('filter my prompt')) {
      return azureError(400, 'content_filter', "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", {
        param: 'prompt',
        type: null,
        status: 400,
        innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: FILTERED },
      });
    }
    if (protocolPath === '/chat/completions' && prompt.includes('filter your answer')) return filteredAnswer(model, stream);
    const protocol = protocolPath === '/responses' ? 'openai-responses' : 'openai-chat';
    const answer = await callProtocolMock(protocol, `/v1${protocolPath}`, { ...body, model });
    return protocol === 'openai-chat' ? withAzureExtras(answer, stream) : answer;
  };
}
