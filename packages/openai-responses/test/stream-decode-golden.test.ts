import { accumulateEvents, collectSse, LlmError, type LlmStreamEvent, type SseEvent } from '@llm/core';
import { readCassette, readChunkPayloads, runTransform, streamOf, utf8 } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { openaiResponses } from '../src/index.js';

// Golden tests: realistic Responses SSE sequences (event and field names as in the openai SDK
// types and the live captures) and the exact canonical events `stream.decode()` makes of them.

const P = 'openai-responses';
const MODEL = 'gpt-5.1-2025-11-13';
const CREATED = 1765552659;
const origin = { protocol: P, model: MODEL };

type Wire = Record<string, unknown>;

/** The SSE events of one stream: named like their `type`, `sequence_number` from 0 as the API counts. */
function sse(payloads: Wire[]): SseEvent[] {
  return payloads.map((payload, index) => ({ event: payload.type as string, data: JSON.stringify({ ...payload, sequence_number: index }) }));
}

function decode(events: SseEvent[]): Promise<LlmStreamEvent[]> {
  return runTransform(openaiResponses.stream.decode(), events);
}

/** The payloads of a vercel-ai chunk log, one array per stream (the logs concatenate steps). */
function chunkStreams(path: string): SseEvent[][] {
  const streams: SseEvent[][] = [];
  for (const data of readChunkPayloads(P, path)) {
    if (data.includes('"type":"response.created"')) streams.push([]);
    streams[streams.length - 1]?.push({ data });
  }
  return streams;
}

/**
 * Runs of text or reasoning deltas of one block merged into one event, so a long real stream
 * reads as its text; tests count the original deltas separately.
 */
function squash(events: LlmStreamEvent[]): LlmStreamEvent[] {
  const out: LlmStreamEvent[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if ((event.type === 'text-delta' || event.type === 'reasoning-delta') && last?.type === event.type && last.index === event.index) {
      out[out.length - 1] = { ...event, text: (last as typeof event).text + event.text };
    } else out.push(event);
  }
  return out;
}

function count(events: LlmStreamEvent[], type: LlmStreamEvent['type']): number {
  return events.filter((event) => event.type === type).length;
}

/** The `response` snapshot of lifecycle events (what the API sends, trimmed of request echo). */
function snapshot(id: string, status: string, more: Wire = {}): Wire {
  return {
    id,
    object: 'response',
    created_at: CREATED,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    model: MODEL,
    output: [],
    usage: null,
    ...more,
  };
}

function lifecycle(type: string, response: Wire): Wire {
  return { type, response };
}

/** The opening `response.created` + `response.in_progress` pair. */
function opening(id: string): Wire[] {
  return [lifecycle('response.created', snapshot(id, 'in_progress')), lifecycle('response.in_progress', snapshot(id, 'in_progress'))];
}

/** Events of the output item `id` at `outputIndex`. */
function at(outputIndex: number, id: string) {
  return {
    added: (item: Wire): Wire => ({ type: 'response.output_item.added', output_index: outputIndex, item: { id, ...item } }),
    done: (item: Wire): Wire => ({ type: 'response.output_item.done', output_index: outputIndex, item: { id, ...item } }),
    /** Any event addressed by `item_id` + `output_index`: deltas, parts, tool progress. */
    on: (type: string, fields: Wire = {}): Wire => ({ type, item_id: id, output_index: outputIndex, ...fields }),
  };
}

function outputText(text: string, annotations: Wire[] = []): Wire {
  return { type: 'output_text', annotations, logprobs: [], text };
}

const IN_PROGRESS_MESSAGE = { type: 'message', status: 'in_progress', content: [], role: 'assistant' };

function message(status: string, content: Wire[]): Wire {
  return { type: 'message', status, content, role: 'assistant' };
}

/** The events of one streamed `output_text` part: added, the deltas, done. */
function streamedText(item: ReturnType<typeof at>, contentIndex: number, deltas: string[], annotations: Wire[] = []): Wire[] {
  const text = deltas.join('');
  return [
    item.on('response.content_part.added', { content_index: contentIndex, part: outputText('') }),
    ...deltas.map((delta) => item.on('response.output_text.delta', { content_index: contentIndex, delta, logprobs: [] })),
    item.on('response.output_text.done', { content_index: contentIndex, text, logprobs: [] }),
    item.on('response.content_part.done', { content_index: contentIndex, part: outputText(text, annotations) }),
  ];
}

const USAGE_WIRE = {
  input_tokens: 31,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 160,
  output_tokens_details: { reasoning_tokens: 128 },
  total_tokens: 191,
};
const USAGE = { inputTokens: 31, outputTokens: 160, totalTokens: 191, cacheReadTokens: 0, reasoningTokens: 128 };

/** block-end extensions of an `output_text` part that came first in its message item. */
function firstTextEnd(itemId: string, status: string, annotations: Wire[] = []): Wire {
  return { [P]: { annotations, logprobs: [], $type: 'output_text', $item: { id: itemId, type: 'message', status } } };
}

describe('stream.decode golden: reasoning', () => {
  it('summary parts: deltas in order, a blank line between parts, the done item’s encrypted_content as the signature', async () => {
    const rs = at(0, 'rs_1');
    const msg = at(1, 'msg_1');
    const summary = [
      { type: 'summary_text', text: '**Checking units**\n\nBoth lengths are in metres.' },
      { type: 'summary_text', text: '**Answering**\n\nAdd them.' },
    ];
    const summaryPart = (index: number, deltas: string[]): Wire[] => [
      rs.on('response.reasoning_summary_part.added', { summary_index: index, part: { type: 'summary_text', text: '' } }),
      ...deltas.map((delta) => rs.on('response.reasoning_summary_text.delta', { summary_index: index, delta, obfuscation: 'pad' })),
      rs.on('response.reasoning_summary_text.done', { summary_index: index, text: summary[index]!.text }),
      rs.on('response.reasoning_summary_part.done', { summary_index: index, part: summary[index] }),
    ];
    const reasoningDone = { type: 'reasoning', encrypted_content: 'ENC_done', summary };
    const text = 'Total: 7 m.';
    const events = await decode(
      sse([
        ...opening('resp_1'),
        // The API sends a first encrypted_content on `added` and the final one on `done`.
        rs.added({ type: 'reasoning', encrypted_content: 'ENC_added', summary: [] }),
        ...summaryPart(0, ['**Checking units**\n\n', 'Both lengths', ' are in metres.']),
        ...summaryPart(1, ['**Answering**', '\n\nAdd them.']),
        rs.done(reasoningDone),
        msg.added(IN_PROGRESS_MESSAGE),
        ...streamedText(msg, 0, ['Total: ', '7 m.']),
        msg.done(message('completed', [outputText(text)])),
        lifecycle(
          'response.completed',
          snapshot('resp_1', 'completed', {
            output: [
              { id: 'rs_1', ...reasoningDone },
              { id: 'msg_1', ...message('completed', [outputText(text)]) },
            ],
            usage: USAGE_WIRE,
          }),
        ),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_1', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'summary', id: 'rs_1', origin } },
      { type: 'reasoning-delta', index: 0, text: '**Checking units**\n\n' },
      { type: 'reasoning-delta', index: 0, text: 'Both lengths' },
      { type: 'reasoning-delta', index: 0, text: ' are in metres.' },
      { type: 'reasoning-delta', index: 0, text: '\n\n' },
      { type: 'reasoning-delta', index: 0, text: '**Answering**' },
      { type: 'reasoning-delta', index: 0, text: '\n\nAdd them.' },
      { type: 'reasoning-signature', index: 0, signature: 'ENC_done', origin },
      { type: 'block-end', index: 0, extensions: { [P]: { $summary: summary } } },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Total: ' },
      { type: 'text-delta', index: 1, text: '7 m.' },
      { type: 'block-end', index: 1, extensions: firstTextEnd('msg_1', 'completed') },
      { type: 'finish', reason: 'stop', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('full reasoning text (reasoning_text.delta in a reasoning_text content part) with encrypted_content', async () => {
    const rs = at(0, 'rs_2');
    const msg = at(1, 'msg_2');
    const thought = 'The user wants 6*7. That is 42.';
    const content = [{ type: 'reasoning_text', text: thought }];
    const events = await decode(
      sse([
        ...opening('resp_2'),
        rs.added({ type: 'reasoning', summary: [] }),
        rs.on('response.content_part.added', { content_index: 0, part: { type: 'reasoning_text', text: '' } }),
        rs.on('response.reasoning_text.delta', { content_index: 0, delta: 'The user wants 6*7.' }),
        rs.on('response.reasoning_text.delta', { content_index: 0, delta: ' That is 42.' }),
        rs.on('response.reasoning_text.done', { content_index: 0, text: thought }),
        rs.on('response.content_part.done', { content_index: 0, part: content[0] }),
        rs.done({ type: 'reasoning', summary: [], content, encrypted_content: 'ENC_full' }),
        msg.added(IN_PROGRESS_MESSAGE),
        ...streamedText(msg, 0, ['42']),
        msg.done(message('completed', [outputText('42')])),
        lifecycle('response.completed', snapshot('resp_2', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_2', model: MODEL, created: CREATED },
      // Announced once its first content shows the form: raw reasoning text is 'full'.
      { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'full', id: 'rs_2', origin } },
      { type: 'reasoning-delta', index: 0, text: 'The user wants 6*7.' },
      { type: 'reasoning-delta', index: 0, text: ' That is 42.' },
      { type: 'reasoning-signature', index: 0, signature: 'ENC_full', origin },
      { type: 'block-end', index: 0, extensions: { [P]: { $content: content, $summary: [] } } },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: '42' },
      { type: 'block-end', index: 1, extensions: firstTextEnd('msg_2', 'completed') },
      { type: 'finish', reason: 'stop', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('real capture (OpenRouter gpt-oss-20b): reasoning_text streamed, its item done after the message; [DONE] after the terminal event is ignored', async () => {
    const [interaction] = readCassette(P, 'pydantic-ai/test_openai_responses_raw_cot_stream_openrouter.yaml');
    const events = await decode(await collectSse(streamOf([utf8(interaction!.response.text!)])));
    const thought = 'The user asks: "What is 2+2?" They expect a straightforward answer: 4. Just answer 4.';
    const model = 'openai/gpt-oss-20b';
    expect(count(events, 'reasoning-delta')).toBe(26);
    expect(squash(events)).toEqual([
      { type: 'start', id: 'gen-1764265411-Fu1iEX7h5MRWiL79lb94', model, created: 1764265411 },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'full', id: 'rs_tmp_2kbe7x16sax', origin: { protocol: P, model } } },
      { type: 'reasoning-delta', index: 0, text: thought },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: '4' },
      {
        type: 'block-end',
        index: 1,
        extensions: { [P]: { annotations: [], $type: 'output_text', $item: { type: 'message', status: 'completed', id: 'msg_tmp_8cjof4f6zpw' } } },
      },
      { type: 'block-end', index: 0, extensions: { [P]: { $content: [{ type: 'reasoning_text', text: thought }], $summary: [] } } },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'completed',
        usage: {
          inputTokens: 78,
          outputTokens: 37,
          totalTokens: 115,
          cacheReadTokens: 0,
          reasoningTokens: 22,
          // OpenRouter adds cost fields, so the wire object is kept whole.
          raw: {
            protocol: P,
            usage: {
              input_tokens: 78,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 37,
              output_tokens_details: { reasoning_tokens: 22 },
              total_tokens: 115,
              cost: 0.0000113,
              is_byok: false,
              cost_details: { upstream_inference_cost: null, upstream_inference_input_cost: 0.0000039, upstream_inference_output_cost: 0.0000074 },
            },
          },
        },
      },
    ]);
  });

  // response.decode of the same item says 'full': the stream must agree, or a Responses ->
  // Responses stream would re-encode raw reasoning text as a summary.
  it('stream and non-stream decodes agree on the format of a reasoning_text item', async () => {
    const [interaction] = readCassette(P, 'pydantic-ai/test_openai_responses_raw_cot_stream_openrouter.yaml');
    const sseEvents = await collectSse(streamOf([utf8(interaction!.response.text!)]));
    const streamed = accumulateEvents(await decode(sseEvents));
    const completed = JSON.parse(sseEvents.find((event) => event.data.includes('"type":"response.completed"'))!.data) as { response: unknown };
    const whole = openaiResponses.response.decode(completed.response);
    const format = (response: typeof streamed) => response.choices[0]!.content.find((part) => part.type === 'reasoning')?.format;
    expect(format(whole)).toBe('full');
    expect(format(streamed)).toBe('full');
  });
});

describe('stream.decode golden: refusal', () => {
  it('a refusal part: refusal.delta fills a refusal block, the finish reason is refusal', async () => {
    const msg = at(0, 'msg_r');
    const refusal = 'I’m sorry, but I can’t help with that.';
    const events = await decode(
      sse([
        ...opening('resp_r'),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: { type: 'refusal', refusal: '' } }),
        msg.on('response.refusal.delta', { content_index: 0, delta: 'I’m sorry, ' }),
        msg.on('response.refusal.delta', { content_index: 0, delta: 'but I can’t help with that.' }),
        msg.on('response.refusal.done', { content_index: 0, refusal }),
        msg.on('response.content_part.done', { content_index: 0, part: { type: 'refusal', refusal } }),
        msg.done(message('completed', [{ type: 'refusal', refusal }])),
        lifecycle('response.completed', snapshot('resp_r', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_r', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'refusal' } },
      { type: 'text-delta', index: 0, text: 'I’m sorry, ' },
      { type: 'text-delta', index: 0, text: 'but I can’t help with that.' },
      { type: 'block-end', index: 0, extensions: { [P]: { $item: { id: 'msg_r', type: 'message', status: 'completed' } } } },
      { type: 'finish', reason: 'refusal', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('text then a refusal in one message: the second part ends at its content_part.done, the first waits for the item', async () => {
    const msg = at(0, 'msg_tr');
    const refusal = 'I can’t share the rest.';
    const events = await decode(
      sse([
        ...opening('resp_tr'),
        msg.added(IN_PROGRESS_MESSAGE),
        ...streamedText(msg, 0, ['Here is ', 'part one.']),
        msg.on('response.content_part.added', { content_index: 1, part: { type: 'refusal', refusal: '' } }),
        msg.on('response.refusal.delta', { content_index: 1, delta: refusal }),
        msg.on('response.refusal.done', { content_index: 1, refusal }),
        msg.on('response.content_part.done', { content_index: 1, part: { type: 'refusal', refusal } }),
        msg.done(message('completed', [outputText('Here is part one.'), { type: 'refusal', refusal }])),
        lifecycle('response.completed', snapshot('resp_tr', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_tr', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Here is ' },
      { type: 'text-delta', index: 0, text: 'part one.' },
      { type: 'block-start', index: 1, block: { kind: 'refusal' } },
      { type: 'text-delta', index: 1, text: refusal },
      { type: 'block-end', index: 1, extensions: { [P]: {} } },
      { type: 'block-end', index: 0, extensions: firstTextEnd('msg_tr', 'completed') },
      { type: 'finish', reason: 'refusal', rawReason: 'completed', usage: USAGE },
    ]);
  });
});

describe('stream.decode golden: annotations and built-in tools', () => {
  it('web search: progress events skipped, the call arrives whole from output_item.done, a url_citation becomes a citation', async () => {
    const rs = at(0, 'rs_ws');
    const ws = at(1, 'ws_1');
    const msg = at(2, 'msg_ws');
    const searchDone = {
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'tech news today', sources: [{ type: 'url', url: 'https://techcrunch.com/2025/12/05/a/' }] },
    };
    const citation = {
      type: 'url_citation',
      end_index: 31,
      start_index: 13,
      title: 'A story | TechCrunch',
      url: 'https://techcrunch.com/2025/12/05/a/?utm_source=openai',
    };
    const text = 'Top story: A ([techcrunch.com](https://techcrunch.com/2025/12/05/a/?utm_source=openai)).';
    const events = await decode(
      sse([
        ...opening('resp_ws'),
        rs.added({ type: 'reasoning', summary: [] }),
        rs.done({ type: 'reasoning', summary: [] }),
        ws.added({ type: 'web_search_call', status: 'in_progress' }),
        ws.on('response.web_search_call.in_progress'),
        ws.on('response.web_search_call.searching'),
        { type: 'keepalive' },
        ws.on('response.web_search_call.completed'),
        ws.done(searchDone),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: outputText('') }),
        msg.on('response.output_text.delta', { content_index: 0, delta: 'Top story: A (', logprobs: [] }),
        msg.on('response.output_text.annotation.added', { content_index: 0, annotation_index: 0, annotation: citation }),
        msg.on('response.output_text.delta', {
          content_index: 0,
          delta: '[techcrunch.com](https://techcrunch.com/2025/12/05/a/?utm_source=openai)).',
          logprobs: [],
        }),
        msg.on('response.output_text.done', { content_index: 0, text, logprobs: [] }),
        msg.on('response.content_part.done', { content_index: 0, part: outputText(text, [citation]) }),
        msg.done(message('completed', [outputText(text, [citation])])),
        lifecycle('response.completed', snapshot('resp_ws', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_ws', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'summary', id: 'rs_ws', origin } },
      { type: 'block-end', index: 0, extensions: { [P]: {} } },
      { type: 'block-start', index: 1, block: { kind: 'part', part: { type: 'provider', protocol: P, value: { id: 'ws_1', ...searchDone } } } },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'text' } },
      { type: 'text-delta', index: 2, text: 'Top story: A (' },
      { type: 'text-delta', index: 2, text: '[techcrunch.com](https://techcrunch.com/2025/12/05/a/?utm_source=openai)).' },
      // Citations come from the finished part, after the text, not at annotation.added.
      { type: 'citation', index: 2, citation: { kind: 'url', url: citation.url, title: citation.title, startIndex: 13, endIndex: 31 } },
      { type: 'block-end', index: 2, extensions: firstTextEnd('msg_ws', 'completed', [citation]) },
      { type: 'finish', reason: 'stop', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('code interpreter: code deltas and progress skipped, the call arrives whole; a container_file_citation becomes a file citation', async () => {
    const ci = at(0, 'ci_1');
    const msg = at(1, 'msg_ci');
    const code = 'import random\nsum(random.randint(1, 6) for _ in range(10))\n';
    const callDone = { type: 'code_interpreter_call', status: 'completed', code, container_id: 'cntr_1', outputs: [{ type: 'logs', logs: '37' }] };
    const citation = { type: 'container_file_citation', container_id: 'cntr_1', end_index: 28, file_id: 'cfile_1', filename: 'rolls.csv', start_index: 11 };
    const text = 'Sum is 37. [rolls.csv](sandbox:/mnt/data/rolls.csv)';
    const events = await decode(
      sse([
        ...opening('resp_ci'),
        ci.added({ type: 'code_interpreter_call', status: 'in_progress', code: '', container_id: 'cntr_1', outputs: [] }),
        ci.on('response.code_interpreter_call.in_progress'),
        ci.on('response.code_interpreter_call_code.delta', { delta: 'import random\n' }),
        ci.on('response.code_interpreter_call_code.delta', { delta: 'sum(random.randint(1, 6) for _ in range(10))\n' }),
        ci.on('response.code_interpreter_call_code.done', { code }),
        ci.on('response.code_interpreter_call.interpreting'),
        ci.on('response.code_interpreter_call.completed'),
        ci.done(callDone),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: outputText('') }),
        msg.on('response.output_text.delta', { content_index: 0, delta: text, logprobs: [] }),
        msg.on('response.output_text.annotation.added', { content_index: 0, annotation_index: 0, annotation: citation }),
        msg.on('response.output_text.done', { content_index: 0, text, logprobs: [] }),
        msg.on('response.content_part.done', { content_index: 0, part: outputText(text, [citation]) }),
        msg.done(message('completed', [outputText(text, [citation])])),
        lifecycle('response.completed', snapshot('resp_ci', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_ci', model: MODEL, created: CREATED },
      // The finished item is the code of a run and its result (the container rides in the code's bag).
      {
        type: 'block-start',
        index: 0,
        block: {
          kind: 'part',
          part: { type: 'code-execution', id: 'ci_1', language: 'python', code, origin: { protocol: P }, extensions: { [P]: { $containerId: 'cntr_1' } } },
        },
      },
      { type: 'block-end', index: 0 },
      {
        type: 'block-start',
        index: 1,
        block: { kind: 'part', part: { type: 'code-execution-result', callId: 'ci_1', outcome: 'ok', output: '37', origin: { protocol: P } } },
      },
      { type: 'block-end', index: 1 },
      { type: 'block-start', index: 2, block: { kind: 'text' } },
      { type: 'text-delta', index: 2, text },
      // `filename` is not carried into the citation (kept only in the annotations extension).
      { type: 'citation', index: 2, citation: { kind: 'file', fileId: 'cfile_1', startIndex: 11, endIndex: 28 } },
      { type: 'block-end', index: 2, extensions: firstTextEnd('msg_ci', 'completed', [citation]) },
      { type: 'finish', reason: 'stop', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('real capture (file search, gpt-5-mini): file_search_call progress skipped, two file_citation annotations become citations', async () => {
    const [stream] = chunkStreams('vercel-ai/openai-file-search-tool.1.chunks.txt');
    const events = await decode(stream!);
    const annotation = (index: number) => ({ type: 'file_citation', file_id: 'file-Ebzhf8H4DPGPr9pUhr7n7v', filename: 'ai.pdf', index });
    const model = 'gpt-5-mini-2025-08-07';
    const reasoning = (index: number, id: string): LlmStreamEvent[] => [
      { type: 'block-start', index, block: { kind: 'reasoning', format: 'summary', id, origin: { protocol: P, model } } },
      { type: 'block-end', index, extensions: { [P]: {} } },
    ];
    expect(count(events, 'text-delta')).toBe(75);
    expect(squash(events)).toEqual([
      { type: 'start', id: 'resp_0459517ad68504ad0068cabfba22b88192836339640e9a765a', model, created: 1758117818 },
      ...reasoning(0, 'rs_0459517ad68504ad0068cabfba951881929654a05214361b35'),
      {
        type: 'block-start',
        index: 1,
        block: {
          kind: 'part',
          part: {
            type: 'provider',
            protocol: P,
            value: {
              id: 'fs_0459517ad68504ad0068cabfbd76888192a5dc4475fadabf8a',
              type: 'file_search_call',
              status: 'completed',
              queries: [
                'What is an embedding model according to this document?',
                'What is an embedding model defined as in the document?',
                'definition of embedding model',
              ],
              results: null,
            },
          },
        },
      },
      { type: 'block-end', index: 1 },
      ...reasoning(2, 'rs_0459517ad68504ad0068cabfbf337881929cf5266be7a008a9'),
      { type: 'block-start', index: 3, block: { kind: 'text' } },
      {
        type: 'text-delta',
        index: 3,
        text:
          'According to the document, an embedding model converts complex data (e.g., words or images) into a dense vector — a list of numbers — called an embedding . ' +
          'Unlike generative models, embedding models do not generate new text or data; instead they produce vector representations that capture semantic and syntactic relationships and can be used as input for other models or NLP tasks .',
      },
      // file_citation has neither a character range nor a title the citation could take.
      { type: 'citation', index: 3, citation: { kind: 'file', fileId: 'file-Ebzhf8H4DPGPr9pUhr7n7v' } },
      { type: 'citation', index: 3, citation: { kind: 'file', fileId: 'file-Ebzhf8H4DPGPr9pUhr7n7v' } },
      {
        type: 'block-end',
        index: 3,
        extensions: firstTextEnd('msg_0459517ad68504ad0068cabfc6b5c48192a15ac773668537f1', 'completed', [annotation(154), annotation(382)]),
      },
      {
        type: 'finish',
        reason: 'stop',
        rawReason: 'completed',
        usage: { inputTokens: 3737, outputTokens: 621, totalTokens: 4358, cacheReadTokens: 2304, reasoningTokens: 512 },
      },
    ]);
  });
});

describe('stream.decode golden: terminal events', () => {
  it('response.incomplete for max_output_tokens: finish reason length, raw value kept, items done as incomplete', async () => {
    const rs = at(0, 'rs_inc');
    const msg = at(1, 'msg_inc');
    const summary = [{ type: 'summary_text', text: 'Long list.' }];
    const cut = 'Here are the first primes: 2, 3, 5,';
    const usage = {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 64,
      output_tokens_details: { reasoning_tokens: 48 },
      total_tokens: 76,
    };
    const events = await decode(
      sse([
        ...opening('resp_inc'),
        rs.added({ type: 'reasoning', encrypted_content: 'ENC_a', summary: [] }),
        rs.on('response.reasoning_summary_part.added', { summary_index: 0, part: { type: 'summary_text', text: '' } }),
        rs.on('response.reasoning_summary_text.delta', { summary_index: 0, delta: 'Long list.' }),
        rs.on('response.reasoning_summary_text.done', { summary_index: 0, text: 'Long list.' }),
        rs.on('response.reasoning_summary_part.done', { summary_index: 0, part: summary[0] }),
        rs.done({ type: 'reasoning', encrypted_content: 'ENC_b', summary }),
        msg.added(IN_PROGRESS_MESSAGE),
        ...streamedText(msg, 0, ['Here are the first primes:', ' 2, 3, 5,']),
        msg.done(message('incomplete', [outputText(cut)])),
        lifecycle(
          'response.incomplete',
          snapshot('resp_inc', 'incomplete', { incomplete_details: { reason: 'max_output_tokens' }, max_output_tokens: 64, usage }),
        ),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_inc', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'reasoning', format: 'summary', id: 'rs_inc', origin } },
      { type: 'reasoning-delta', index: 0, text: 'Long list.' },
      { type: 'reasoning-signature', index: 0, signature: 'ENC_b', origin },
      { type: 'block-end', index: 0, extensions: { [P]: {} } },
      { type: 'block-start', index: 1, block: { kind: 'text' } },
      { type: 'text-delta', index: 1, text: 'Here are the first primes:' },
      { type: 'text-delta', index: 1, text: ' 2, 3, 5,' },
      { type: 'block-end', index: 1, extensions: firstTextEnd('msg_inc', 'incomplete') },
      {
        type: 'finish',
        reason: 'length',
        rawReason: 'incomplete:max_output_tokens',
        usage: { inputTokens: 12, outputTokens: 64, totalTokens: 76, cacheReadTokens: 0, reasoningTokens: 48 },
      },
    ]);
  });

  it('response.incomplete (content_filter) with items still open: their blocks end before finish', async () => {
    const msg = at(0, 'msg_cf');
    const call = at(1, 'fc_cf');
    const events = await decode(
      sse([
        ...opening('resp_cf'),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: outputText('') }),
        msg.on('response.output_text.delta', { content_index: 0, delta: 'Step one', logprobs: [] }),
        call.added({ type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_cf', name: 'lookup' }),
        call.on('response.function_call_arguments.delta', { delta: '{"q":' }),
        lifecycle('response.incomplete', snapshot('resp_cf', 'incomplete', { incomplete_details: { reason: 'content_filter' }, usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_cf', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Step one' },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_cf', name: 'lookup' } },
      { type: 'tool-args-delta', index: 1, json: '{"q":' },
      { type: 'block-end', index: 0 },
      { type: 'block-end', index: 1 },
      { type: 'finish', reason: 'content_filter', rawReason: 'incomplete:content_filter', usage: USAGE },
    ]);
  });

  it('real capture (insufficient quota): the error event ends the stream, the response.failed after it adds nothing', async () => {
    const [stream] = chunkStreams('vercel-ai/openai-error.1.chunks.txt');
    const events = await decode(stream!);
    const error = {
      type: 'error',
      sequence_number: 2,
      error: {
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        message:
          'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
        param: null,
      },
    };
    expect(events).toEqual([
      { type: 'start', id: 'resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424', model: 'gpt-5-nano-2025-08-07', created: 1763474589 },
      { type: 'error', error: new LlmError({ kind: 'quota', message: error.error.message, code: 'insufficient_quota', protocol: P, raw: error }) },
    ]);
  });

  it('flat error event (SDK shape) followed by response.failed, mid-message: error ends the stream with open blocks', async () => {
    const msg = at(0, 'msg_err');
    const failed = snapshot('resp_err', 'failed', { error: { code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5.1.' } });
    const events = await decode(
      sse([
        ...opening('resp_err'),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: outputText('') }),
        msg.on('response.output_text.delta', { content_index: 0, delta: 'Partial', logprobs: [] }),
        { type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5.1.', param: null },
        lifecycle('response.failed', failed),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_err', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Partial' },
      {
        type: 'error',
        error: new LlmError({
          kind: 'rate_limit',
          message: 'Rate limit reached for gpt-5.1.',
          code: 'rate_limit_exceeded',
          protocol: P,
          raw: { type: 'error', code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5.1.', param: null, sequence_number: 5 },
        }),
      },
    ]);
  });

  it('response.failed alone: open blocks end, then its response.error ends the stream as an error event', async () => {
    const msg = at(0, 'msg_f');
    const events = await decode(
      sse([
        ...opening('resp_f'),
        msg.added(IN_PROGRESS_MESSAGE),
        msg.on('response.content_part.added', { content_index: 0, part: outputText('') }),
        msg.on('response.output_text.delta', { content_index: 0, delta: 'Partial', logprobs: [] }),
        lifecycle('response.failed', snapshot('resp_f', 'failed', { error: { code: 'server_error', message: 'The model produced invalid content.' } })),
      ]),
    );
    expect(events.slice(0, 4)).toEqual([
      { type: 'start', id: 'resp_f', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: 'Partial' },
      { type: 'block-end', index: 0 },
    ]);
    expect(events).toHaveLength(5);
    const last = events[4] as Extract<LlmStreamEvent, { type: 'error' }>;
    expect(last.type).toBe('error');
    expect(last.error).toMatchObject({ kind: 'upstream', code: 'server_error', message: 'The model produced invalid content.', protocol: P });
  });

  it('response.failed without an error object finishes with reason error', async () => {
    const events = await decode(sse([...opening('resp_f3'), lifecycle('response.failed', snapshot('resp_f3', 'failed', {}))]));
    expect(events).toEqual([
      { type: 'start', id: 'resp_f3', model: MODEL, created: CREATED },
      { type: 'finish', reason: 'error', rawReason: 'failed' },
    ]);
  });

  // response.failed carries `response.error` {code, message}; with no `error` event before it
  // (the API does send it alone), that error ends the stream.
  it('response.failed alone: response.error becomes an error event', async () => {
    const events = await decode(
      sse([
        ...opening('resp_f2'),
        lifecycle('response.failed', snapshot('resp_f2', 'failed', { error: { code: 'server_error', message: 'The model produced invalid content.' } })),
      ]),
    );
    expect(events.at(-1)).toEqual({ type: 'error', error: expect.objectContaining({ code: 'server_error', message: 'The model produced invalid content.' }) });
  });
});

describe('stream.decode golden: function calls', () => {
  it('parallel function calls with arguments split over several deltas: fragments passed through as they come', async () => {
    const first = at(0, 'fc_1');
    const second = at(1, 'fc_2');
    const call = (callId: string, name: string, status: string, args: string): Wire => ({
      type: 'function_call',
      status,
      arguments: args,
      call_id: callId,
      name,
    });
    const argsFirst = '{"city":"Zürich","unit":"c"}';
    const argsSecond = '{"tz":"Europe/Zurich"}';
    const events = await decode(
      sse([
        ...opening('resp_fc'),
        first.added(call('call_a', 'get_weather', 'in_progress', '')),
        first.on('response.function_call_arguments.delta', { delta: '{"', obfuscation: 'p' }),
        first.on('response.function_call_arguments.delta', { delta: 'city":"Zü', obfuscation: 'p' }),
        first.on('response.function_call_arguments.delta', { delta: 'rich","unit":', obfuscation: 'p' }),
        first.on('response.function_call_arguments.delta', { delta: '"c"}', obfuscation: 'p' }),
        first.on('response.function_call_arguments.done', { arguments: argsFirst, name: 'get_weather' }),
        first.done(call('call_a', 'get_weather', 'completed', argsFirst)),
        second.added(call('call_b', 'get_time', 'in_progress', '')),
        second.on('response.function_call_arguments.delta', { delta: '{"tz":' }),
        second.on('response.function_call_arguments.delta', { delta: '"Europe/Zurich"}' }),
        second.on('response.function_call_arguments.done', { arguments: argsSecond, name: 'get_time' }),
        second.done(call('call_b', 'get_time', 'completed', argsSecond)),
        lifecycle('response.completed', snapshot('resp_fc', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_fc', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_a', name: 'get_weather' } },
      { type: 'tool-args-delta', index: 0, json: '{"' },
      { type: 'tool-args-delta', index: 0, json: 'city":"Zü' },
      { type: 'tool-args-delta', index: 0, json: 'rich","unit":' },
      { type: 'tool-args-delta', index: 0, json: '"c"}' },
      { type: 'block-end', index: 0, extensions: { [P]: { id: 'fc_1', status: 'completed' } } },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_b', name: 'get_time' } },
      { type: 'tool-args-delta', index: 1, json: '{"tz":' },
      { type: 'tool-args-delta', index: 1, json: '"Europe/Zurich"}' },
      { type: 'block-end', index: 1, extensions: { [P]: { id: 'fc_2', status: 'completed' } } },
      { type: 'finish', reason: 'tool_calls', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('arguments only on output_item.done (no deltas): sent once as one fragment', async () => {
    const call = at(0, 'fc_3');
    const args = '{"id":7}';
    const events = await decode(
      sse([
        ...opening('resp_fc3'),
        call.added({ type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_c', name: 'fetch' }),
        call.on('response.function_call_arguments.done', { arguments: args, name: 'fetch' }),
        call.done({ type: 'function_call', status: 'completed', arguments: args, call_id: 'call_c', name: 'fetch' }),
        lifecycle('response.completed', snapshot('resp_fc3', 'completed', { usage: USAGE_WIRE })),
      ]),
    );
    expect(events).toEqual([
      { type: 'start', id: 'resp_fc3', model: MODEL, created: CREATED },
      { type: 'block-start', index: 0, block: { kind: 'tool_call', id: 'call_c', name: 'fetch' } },
      { type: 'tool-args-delta', index: 0, json: args },
      { type: 'block-end', index: 0, extensions: { [P]: { id: 'fc_3', status: 'completed' } } },
      { type: 'finish', reason: 'tool_calls', rawReason: 'completed', usage: USAGE },
    ]);
  });

  it('real capture (gpt-5.1-codex-max): summary reasoning with encrypted_content, then a call whose arguments come in 13 deltas', async () => {
    const [stream] = chunkStreams('vercel-ai/openai-reasoning-encrypted-content.1.chunks.txt');
    const events = await decode(stream!);
    const model = 'gpt-5.1-codex-max';
    const reasoningDone = JSON.parse(stream!.find((event) => event.data.includes('"type":"response.output_item.done"'))!.data) as {
      item: { encrypted_content: string };
    };
    const fragments = ['{"', 'a', '":', '12', ',"', 'b', '":', '7', ',"', 'op', '":"', 'add', '"}'];
    expect(count(events, 'reasoning-delta')).toBe(32);
    expect(squash(events)).toEqual([
      { type: 'start', id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691', model, created: 1765552659 },
      {
        type: 'block-start',
        index: 0,
        block: { kind: 'reasoning', format: 'summary', id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9', origin: { protocol: P, model } },
      },
      {
        type: 'reasoning-delta',
        index: 0,
        text: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
      },
      { type: 'reasoning-signature', index: 0, signature: reasoningDone.item.encrypted_content, origin: { protocol: P, model } },
      { type: 'block-end', index: 0, extensions: { [P]: {} } },
      { type: 'block-start', index: 1, block: { kind: 'tool_call', id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn', name: 'calculator' } },
      ...fragments.map((json) => ({ type: 'tool-args-delta', index: 1, json })),
      { type: 'block-end', index: 1, extensions: { [P]: { id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f', status: 'completed' } } },
      {
        type: 'finish',
        reason: 'tool_calls',
        rawReason: 'completed',
        usage: { inputTokens: 134, outputTokens: 28, totalTokens: 162, cacheReadTokens: 0, reasoningTokens: 0 },
      },
    ]);
    expect(reasoningDone.item.encrypted_content).toMatch(/^gAAAAABpPDIVOKrs/);
  });
});
