import type { Codec } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';
import { CITED_TITLE as TITLE, CITED_URL as URL, claudeSearchAnswer, geminiSearchAnswer } from './web-search-fixtures.js';

const requests = new Map<Codec, unknown>([
  [claude, { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'q' }] }],
  [openaiChat, { model: 'm', messages: [{ role: 'user', content: 'q' }] }],
  [openaiResponses, { model: 'm', input: 'q' }],
  [gemini, { contents: [{ role: 'user', parts: [{ text: 'q' }] }] }],
]);

function via(client: Codec, upstream: Codec, stream: boolean) {
  const warnings: string[] = [];
  const translator = bridge({ client, upstream, warn: (warning) => warnings.push(`${warning.code}@${warning.path}`) });
  const body = requests.get(client)!;
  translator.request(stream && client !== gemini ? { ...(body as object), stream: true } : body, client === gemini ? { model: 'm', stream } : {});
  return { translator, warnings };
}

/** The client answer to a JSON upstream answer, and the warnings. */
function answer(client: Codec, upstream: Codec, upstreamAnswer: unknown): { body: Record<string, unknown>; warnings: string[] } {
  const { translator, warnings } = via(client, upstream, false);
  return { body: translator.response(structuredClone(upstreamAnswer)) as Record<string, unknown>, warnings };
}

/** The client's SSE data payloads (parsed) for the upstream streaming the same answer, and the warnings. */
async function streamed(client: Codec, upstream: Codec, upstreamAnswer: unknown): Promise<{ events: Record<string, unknown>[]; warnings: string[] }> {
  const upstreamSse = bridge({ client: upstream, upstream }).responseToStream(structuredClone(upstreamAnswer));
  const { translator, warnings } = via(client, upstream, true);
  const text = await new Response(translator.stream(upstreamSse)).text();
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return { events, warnings };
}

const cites = (events: Record<string, unknown>[]) => events.filter((event) => /citation|grounding/.test(JSON.stringify(event)));

describe('web search citations from a Claude upstream', () => {
  // The Claude citation belongs to its text block: clients with ranges get the whole block.
  const annotation = { type: 'url_citation', start_index: 0, end_index: 26, title: TITLE, url: URL };
  const serverBlocksDropped = ['defaulted@max_tokens', 'dropped-part@choices[0].content[0]', 'dropped-part@choices[0].content[1]'];

  it('reaches Chat clients as url_citation annotations over the message content', () => {
    const { body, warnings } = answer(openaiChat, claude, claudeSearchAnswer);
    expect(body.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'The edition ships in 2027. More soon.',
          refusal: null,
          annotations: [{ type: 'url_citation', url_citation: { end_index: 26, start_index: 0, title: TITLE, url: URL } }],
        },
        finish_reason: 'stop',
        logprobs: null,
      },
    ]);
    expect(warnings).toEqual(serverBlocksDropped);
  });

  it('reaches Responses clients as output_text annotations, streamed as annotation.added', async () => {
    const { body, warnings } = answer(openaiResponses, claude, claudeSearchAnswer);
    expect(body.output).toEqual([
      {
        type: 'message',
        id: 'msg_msg_search_2',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'The edition ships in 2027.', annotations: [annotation] },
          { type: 'output_text', text: ' More soon.', annotations: [] },
        ],
      },
    ]);
    expect(warnings).toEqual(serverBlocksDropped);
    const { events } = await streamed(openaiResponses, claude, claudeSearchAnswer);
    const added = events.filter((event) => event.type === 'response.output_text.annotation.added');
    expect(added).toEqual([
      {
        type: 'response.output_text.annotation.added',
        item_id: 'msg_msg_search_2',
        output_index: 0,
        content_index: 0,
        annotation_index: 0,
        annotation,
        sequence_number: 5,
      },
    ]);
    const done = events.find((event) => event.type === 'response.content_part.done');
    expect(done?.part).toEqual({ type: 'output_text', annotations: [annotation], text: 'The edition ships in 2027.' });
  });

  it('reaches Gemini clients as groundingMetadata (byte segments of the cited part), streaming and not', async () => {
    const grounding = (partIndex?: number) => ({
      groundingChunks: [{ web: { uri: URL, title: TITLE } }],
      groundingSupports: [
        {
          segment: { ...(partIndex === undefined ? {} : { partIndex }), startIndex: 0, endIndex: 26, text: 'The edition ships in 2027.' },
          groundingChunkIndices: [0],
        },
      ],
    });
    const { body, warnings } = answer(gemini, claude, claudeSearchAnswer);
    expect(body.candidates).toEqual([
      {
        groundingMetadata: grounding(0),
        content: { parts: [{ text: 'The edition ships in 2027.' }, { text: ' More soon.' }], role: 'model' },
        finishReason: 'STOP',
        index: 0,
      },
    ]);
    expect(warnings).toEqual(serverBlocksDropped);
    const stream = await streamed(gemini, claude, claudeSearchAnswer);
    expect(cites(stream.events).map((event) => event.candidates)).toEqual([[{ finishReason: 'STOP', index: 0, groundingMetadata: grounding() }]]);
    expect(stream.warnings).toEqual(['defaulted@max_tokens', 'dropped-part@blocks[0]', 'dropped-part@blocks[1]']);
  });

  it('Chat streams have no annotation field: each streamed citation is reported', async () => {
    const { events, warnings } = await streamed(openaiChat, claude, claudeSearchAnswer);
    expect(cites(events)).toEqual([]);
    expect(warnings).toEqual(['defaulted@max_tokens', 'dropped-part@blocks[0]', 'dropped-part@blocks[1]', 'dropped-field@blocks[2]']);
  });
});

describe('web search citations from a Gemini upstream (grounding)', () => {
  // "L’édition sort en 2027." is 26 UTF-8 bytes and 23 UTF-16 units.
  const both = [
    { url: URL, title: TITLE },
    { url: 'https://example.test/news', title: 'News' },
  ];

  it('reaches Claude clients as web_search_result_location citations on the text block, streaming and not', async () => {
    const citation = ({ url, title }: { url: string; title: string }) => ({
      type: 'web_search_result_location',
      cited_text: '',
      url,
      title,
      encrypted_index: '',
    });
    const { body, warnings } = answer(claude, gemini, geminiSearchAnswer);
    expect(body.content).toEqual([{ type: 'text', text: 'L’édition sort en 2027. More soon.', citations: both.map(citation) }]);
    expect(warnings).toEqual(['lossy-conversion@choices[0].content[0].citations[0]', 'lossy-conversion@choices[0].content[0].citations[1]']);
    const stream = await streamed(claude, gemini, geminiSearchAnswer);
    expect(cites(stream.events)).toEqual(
      both.map((entry) => ({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: citation(entry) } })),
    );
    expect(stream.warnings).toEqual(['lossy-conversion@blocks[0].citations', 'lossy-conversion@blocks[0].citations']);
  });

  it('reaches Responses clients as annotations with UTF-16 ranges, streaming and not', async () => {
    const annotations = both.map(({ url, title }) => ({ type: 'url_citation', start_index: 0, end_index: 23, title, url }));
    const { body, warnings } = answer(openaiResponses, gemini, geminiSearchAnswer);
    expect(body.output).toEqual([
      {
        type: 'message',
        id: 'msg_search_0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'L’édition sort en 2027. More soon.', annotations }],
      },
    ]);
    expect(warnings).toEqual([]);
    const stream = await streamed(openaiResponses, gemini, geminiSearchAnswer);
    expect(stream.events.filter((event) => event.type === 'response.output_text.annotation.added').map((event) => event.annotation)).toEqual(annotations);
    expect(stream.warnings).toEqual([]);
  });

  it('reaches Chat clients as url_citation annotations; Chat streams report them', async () => {
    const { body, warnings } = answer(openaiChat, gemini, geminiSearchAnswer);
    expect((body.choices as Array<{ message: unknown }>)[0]!.message).toEqual({
      role: 'assistant',
      content: 'L’édition sort en 2027. More soon.',
      refusal: null,
      annotations: both.map(({ url, title }) => ({ type: 'url_citation', url_citation: { end_index: 23, start_index: 0, title, url } })),
    });
    expect(warnings).toEqual([]);
    const stream = await streamed(openaiChat, gemini, geminiSearchAnswer);
    expect(cites(stream.events)).toEqual([]);
    expect(stream.warnings).toEqual(['dropped-field@blocks[0]', 'dropped-field@blocks[0]']);
  });

  it('Gemini clients get the grounding back exactly; the decoded answer carries it as citations', async () => {
    const { body } = answer(gemini, gemini, geminiSearchAnswer);
    expect(body).toEqual(geminiSearchAnswer);
    const decoded = gemini.response.decode(structuredClone(geminiSearchAnswer));
    expect(gemini.response.encode(decoded)).toEqual(geminiSearchAnswer);
    expect(decoded.choices[0]!.content).toEqual([
      {
        type: 'text',
        text: 'L’édition sort en 2027. More soon.',
        citations: both.map(({ url, title }) => ({ kind: 'url', url, title, startIndex: 0, endIndex: 23 })),
      },
    ]);
  });
});
