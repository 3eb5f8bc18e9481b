import { textOf, toolArgumentsObject, type LlmMediaSource, type LlmMessage, type LlmRequest, type LlmResponse, type LlmUsage } from '@llm/core';

/** What a request means, independent of wire form: what the compared cells must agree on. */
export interface RequestMeaning {
  system: string;
  /** Turns with consecutive same-role turns merged (alternating targets merge them on the wire). */
  turns: Array<{ role: string; text: string; media: string[]; calls: string[]; results: string[] }>;
  tools: string[];
  maxOutputTokens?: number;
  stop?: string[];
  format?: string;
  /** Token logprobs asked for: the number of alternatives, or 0 for none. */
  logprobs?: number;
}

/** What a response means. */
export interface ResponseMeaning {
  text: string;
  reasoning: string;
  refusal: string;
  /** `name(args)` with parsed, key-sorted arguments. */
  calls: string[];
  /** The web pages the text cites (`url title`), when it cites any. */
  citations?: string[];
  /** Hosted MCP calls and their results (`server.tool(args)`, `-> output` / `-> error: output`), when the answer has them. */
  mcp?: string[];
  /** Token logprobs (`token logprob [alternatives]`), when the answer has them. */
  logprobs?: string[];
  finish?: string;
  usage?: Pick<LlmUsage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'reasoningTokens'>;
}

/** What an error means to a client. */
export interface ErrorMeaning {
  kind: string;
  status: number;
  retryAfterMs?: number;
}

export function requestMeaning(request: LlmRequest): RequestMeaning {
  const names = new Map<string, string>();
  for (const message of request.messages) {
    if (message.role === 'assistant') for (const part of message.content) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  const turns: RequestMeaning['turns'] = [];
  for (const message of request.messages) {
    if (message.role === 'system') continue;
    const role = message.role === 'tool' ? 'user' : message.role;
    const turn = { role, text: '', media: [] as string[], calls: [] as string[], results: [] as string[] };
    collect(message, turn, names);
    const previous = turns[turns.length - 1];
    if (previous && previous.role === role) {
      previous.text += turn.text;
      previous.media.push(...turn.media);
      previous.calls.push(...turn.calls);
      previous.results.push(...turn.results);
    } else turns.push(turn);
  }
  const meaning: RequestMeaning = {
    system: request.messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content.map((part) => part.text).join(''))
      .join('\n'),
    turns,
    tools: (request.tools ?? []).map((tool) => tool.name),
  };
  if (request.maxOutputTokens !== undefined) meaning.maxOutputTokens = request.maxOutputTokens;
  if (request.stop) meaning.stop = request.stop;
  if (request.responseFormat && request.responseFormat.type !== 'text') meaning.format = request.responseFormat.type;
  if (request.logprobs) meaning.logprobs = request.logprobs.top ?? 0;
  return meaning;
}

function collect(message: LlmMessage, turn: RequestMeaning['turns'][number], names: Map<string, string>): void {
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        turn.text += part.text;
        break;
      case 'image':
      case 'file':
      case 'audio':
        turn.media.push(`${part.type}:${mediaTypeOf(part.source)}`);
        break;
      case 'tool-call':
        turn.calls.push(callText(part.name, part.arguments));
        break;
      case 'tool-result': {
        const output =
          typeof part.content === 'string' ? part.content : part.content.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('');
        turn.results.push(`${names.get(part.toolCallId) ?? '?'}${part.isError ? ' error' : ''}: ${output}`);
        break;
      }
      default:
        break;
    }
  }
}

export function responseMeaning(response: LlmResponse): ResponseMeaning {
  const choice = response.choices[0];
  const meaning: ResponseMeaning = { text: '', reasoning: '', refusal: '', calls: [] };
  for (const part of choice?.content ?? []) {
    if (part.type === 'text') {
      meaning.text += part.text;
      for (const citation of part.citations ?? []) if (citation.url !== undefined) (meaning.citations ??= []).push(`${citation.url} ${citation.title ?? ''}`);
    } else if (part.type === 'reasoning') meaning.reasoning += part.text;
    else if (part.type === 'refusal') meaning.refusal += part.text;
    else if (part.type === 'tool-call') meaning.calls.push(callText(part.name, part.arguments));
    else if (part.type === 'mcp-call') (meaning.mcp ??= []).push(callText(`${part.server}.${part.name}`, part.arguments));
    else if (part.type === 'mcp-result') (meaning.mcp ??= []).push(`-> ${part.isError ? 'error: ' : ''}${textOf(part.content)}`);
  }
  if (choice?.logprobs?.length)
    meaning.logprobs = choice.logprobs.map(
      (token) => `${token.token} ${token.logprob} [${(token.top ?? []).map((top) => `${top.token} ${top.logprob}`).join(', ')}]`,
    );
  if (choice?.finishReason) meaning.finish = choice.finishReason;
  if (response.usage) {
    const { inputTokens, outputTokens, cacheReadTokens, reasoningTokens } = response.usage;
    meaning.usage = { inputTokens, outputTokens };
    if (cacheReadTokens) meaning.usage.cacheReadTokens = cacheReadTokens;
    if (reasoningTokens) meaning.usage.reasoningTokens = reasoningTokens;
  }
  return meaning;
}

function callText(name: string, args: Parameters<typeof toolArgumentsObject>[0]): string {
  return `${name}(${stable(toolArgumentsObject(args) ?? args)})`;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The media type of a source; a `data:` URL says it in its header. */
function mediaTypeOf(source: LlmMediaSource): string {
  if (source.kind === 'url' && source.mediaType === undefined) return /^data:([^;,]+)/.exec(source.url)?.[1] ?? '';
  return source.mediaType ?? '';
}
