import type { LlmStreamEvent, LlmWarning } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { createDecodeState, decodeStep, openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { describe, expect, it } from 'vitest';
import { answer, streamed, streamedSse } from './translated-answers.js';
import { CITED_ANSWER, CITED_SENTENCE, NEWS_URL, chatSearchAnswer, chatSearchStream, responsesSearchAnswer } from './openai-citation-fixtures.js';
import { CITED_TITLE as TITLE, CITED_URL as URL, claudeSearchAnswer, geminiSearchAnswer } from './web-search-fixtures.js';

const cites = (events: Record<string, unknown>[]) => events.filter((event) => /citation|grounding/.test(JSON.stringify(event)));
/** The choices of the Chat chunks that cite. */
const annotationChunks = (events: Record<string, unknown>[]) => cites(events).map((event) => event.choices);

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

  it('reaches Chat stream clients as the same annotations, in a delta.annotations chunk', async () => {
    const { events, warnings } = await streamed(openaiChat, claude, claudeSearchAnswer);
    expect(annotationChunks(events)).toEqual([
      [
        {
          index: 0,
          delta: { annotations: [{ type: 'url_citation', url_citation: { end_index: 26, start_index: 0, title: TITLE, url: URL } }] },
          finish_reason: null,
        },
      ],
    ]);
    expect(warnings).toEqual(['defaulted@max_tokens', 'dropped-part@blocks[0]', 'dropped-part@blocks[1]']);
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

  it('reaches Chat clients as url_citation annotations, streaming (delta.annotations) and not', async () => {
    const annotations = both.map(({ url, title }) => ({ type: 'url_citation', url_citation: { end_index: 23, start_index: 0, title, url } }));
    const { body, warnings } = answer(openaiChat, gemini, geminiSearchAnswer);
    expect((body.choices as Array<{ message: unknown }>)[0]!.message).toEqual({
      role: 'assistant',
      content: 'L’édition sort en 2027. More soon.',
      refusal: null,
      annotations,
    });
    expect(warnings).toEqual([]);
    const stream = await streamed(openaiChat, gemini, geminiSearchAnswer);
    expect(annotationChunks(stream.events)).toEqual([[{ index: 0, delta: { annotations }, finish_reason: null }]]);
    expect(stream.warnings).toEqual([]);
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

// The two OpenAI answers cite the same two pages over the same text: "L’édition sort en 2027." is
// UTF-16 units 0-23 and UTF-8 bytes 0-26, "More soon." units 24-34 and bytes 27-37.
const pages = [
  { url: URL, title: TITLE, start: 0, end: 23, bytes: [0, 26], text: CITED_SENTENCE },
  { url: NEWS_URL, title: 'News', start: 24, end: 34, bytes: [27, 37], text: 'More soon.' },
];
// Claude citations have no range and no cited text or index to give: each one is reported lossy.
const claudeCitation = ({ url, title }: { url: string; title: string }) => ({
  type: 'web_search_result_location',
  cited_text: '',
  url,
  title,
  encrypted_index: '',
});
const claudeDeltas = pages.map((page) => ({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: claudeCitation(page) } }));
const chatAnnotations = pages.map(({ url, title, start, end }) => ({ type: 'url_citation', url_citation: { end_index: end, start_index: start, title, url } }));
const responsesAnnotations = pages.map(({ url, title, start, end }) => ({ type: 'url_citation', start_index: start, end_index: end, title, url }));
const grounding = (partIndex?: number) => ({
  groundingChunks: pages.map(({ url, title }) => ({ web: { uri: url, title } })),
  groundingSupports: pages.map(({ bytes: [startIndex, endIndex], text }, chunk) => ({
    segment: { ...(partIndex === undefined ? {} : { partIndex }), startIndex, endIndex, text },
    groundingChunkIndices: [chunk],
  })),
});

describe('web search citations from a Responses upstream (output_text annotations)', () => {
  // The web_search_call item has no form but its own protocol's: reported wherever it goes.
  it('reach Claude clients as web_search_result_location citations, streaming and not', async () => {
    const { body, warnings } = answer(claude, openaiResponses, responsesSearchAnswer);
    expect(body.content).toEqual([{ type: 'text', text: CITED_ANSWER, citations: pages.map(claudeCitation) }]);
    expect(warnings).toEqual([
      'dropped-part@choices[0].content[0]',
      'lossy-conversion@choices[0].content[1].citations[0]',
      'lossy-conversion@choices[0].content[1].citations[1]',
    ]);
    const stream = await streamed(claude, openaiResponses, responsesSearchAnswer);
    expect(cites(stream.events)).toEqual(claudeDeltas);
    expect(stream.warnings).toEqual(['dropped-part@blocks[0]', 'lossy-conversion@blocks[1].citations', 'lossy-conversion@blocks[1].citations']);
  });

  it('reach Chat clients as message annotations with the same ranges, streaming (delta.annotations) and not', async () => {
    const { body, warnings } = answer(openaiChat, openaiResponses, responsesSearchAnswer);
    expect(body.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: CITED_ANSWER, refusal: null, annotations: chatAnnotations },
        finish_reason: 'stop',
        logprobs: null,
      },
    ]);
    expect(warnings).toEqual(['dropped-part@choices[0].content[0]']);
    const stream = await streamed(openaiChat, openaiResponses, responsesSearchAnswer);
    expect(annotationChunks(stream.events)).toEqual([[{ index: 0, delta: { annotations: chatAnnotations }, finish_reason: null }]]);
    expect(stream.warnings).toEqual(['dropped-part@blocks[0]']);
  });

  it('reach Gemini clients as groundingMetadata with byte segments, streaming and not', async () => {
    const { body, warnings } = answer(gemini, openaiResponses, responsesSearchAnswer);
    expect(body.candidates).toEqual([
      { groundingMetadata: grounding(0), content: { parts: [{ text: CITED_ANSWER }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ]);
    expect(warnings).toEqual(['dropped-part@choices[0].content[0]']);
    const stream = await streamed(gemini, openaiResponses, responsesSearchAnswer);
    expect(cites(stream.events).map((event) => event.candidates)).toEqual([[{ finishReason: 'STOP', index: 0, groundingMetadata: grounding() }]]);
    expect(stream.warnings).toEqual(['dropped-part@blocks[0]']);
  });

  it('Responses clients get the answer back exactly, search call included', async () => {
    expect(answer(openaiResponses, openaiResponses, responsesSearchAnswer)).toEqual({ body: responsesSearchAnswer, warnings: [] });
  });
});

describe('web search citations from a Chat upstream (message annotations)', () => {
  it('reach Claude clients as web_search_result_location citations, streaming and not', async () => {
    const { body, warnings } = answer(claude, openaiChat, chatSearchAnswer);
    expect(body.content).toEqual([{ type: 'text', text: CITED_ANSWER, citations: pages.map(claudeCitation) }]);
    expect(warnings).toEqual(['lossy-conversion@choices[0].content[0].citations[0]', 'lossy-conversion@choices[0].content[0].citations[1]']);
    const stream = await streamedSse(claude, openaiChat, new Response(chatSearchStream).body!);
    expect(cites(stream.events)).toEqual(claudeDeltas);
    expect(stream.warnings).toEqual(['lossy-conversion@blocks[0].citations', 'lossy-conversion@blocks[0].citations']);
  });

  it('reach Responses clients as output_text annotations, streamed as annotation.added', async () => {
    const { body, warnings } = answer(openaiResponses, openaiChat, chatSearchAnswer);
    expect(body.output).toEqual([
      {
        type: 'message',
        id: 'msg_chatcmpl_search_0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: CITED_ANSWER, annotations: responsesAnnotations }],
      },
    ]);
    expect(warnings).toEqual([]);
    const stream = await streamedSse(openaiResponses, openaiChat, new Response(chatSearchStream).body!);
    expect(stream.events.filter((event) => event.type === 'response.output_text.annotation.added')).toEqual(
      responsesAnnotations.map((annotation, at) => ({
        type: 'response.output_text.annotation.added',
        item_id: 'msg_chatcmpl_search_0',
        output_index: 0,
        content_index: 0,
        annotation_index: at,
        annotation,
        sequence_number: 6 + at,
      })),
    );
    const done = stream.events.find((event) => event.type === 'response.content_part.done');
    expect(done?.part).toEqual({ type: 'output_text', annotations: responsesAnnotations, text: CITED_ANSWER });
    expect(stream.warnings).toEqual([]);
  });

  it('reach Gemini clients as groundingMetadata with byte segments, streaming and not', async () => {
    const { body, warnings } = answer(gemini, openaiChat, chatSearchAnswer);
    expect(body.candidates).toEqual([
      { groundingMetadata: grounding(0), content: { parts: [{ text: CITED_ANSWER }], role: 'model' }, finishReason: 'STOP', index: 0 },
    ]);
    expect(warnings).toEqual([]);
    const stream = await streamedSse(gemini, openaiChat, new Response(chatSearchStream).body!);
    expect(cites(stream.events).map((event) => event.candidates)).toEqual([[{ finishReason: 'STOP', index: 0, groundingMetadata: grounding() }]]);
    expect(stream.warnings).toEqual([]);
  });

  it('the Chat stream decoder reads delta.annotations as citations of the open text block; another annotation type is reported', () => {
    const warnings: LlmWarning[] = [];
    const state = createDecodeState({ warn: (warning) => warnings.push(warning) });
    const events: LlmStreamEvent[] = [];
    const other = { type: 'file_citation', file_citation: { file_id: 'file_1' } };
    const chunk = (delta: unknown, finish: string | null = null) => ({
      data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta, finish_reason: finish }] }),
    });
    for (const sse of [chunk({ content: CITED_ANSWER }), chunk({ annotations: [other, ...chatAnnotations] }), chunk({}, 'stop'), { data: '[DONE]' }])
      decodeStep(state, sse, { enqueue: (event) => void events.push(event) });
    expect(events).toEqual([
      { type: 'start', id: 'c' },
      { type: 'block-start', index: 0, block: { kind: 'text' } },
      { type: 'text-delta', index: 0, text: CITED_ANSWER },
      ...pages.map(({ url, title, start, end }) => ({ type: 'citation', index: 0, citation: { kind: 'url', url, title, startIndex: start, endIndex: end } })),
      { type: 'block-end', index: 0 },
      { type: 'finish', reason: 'stop', rawReason: 'stop' },
    ]);
    expect(warnings).toEqual([
      {
        code: 'dropped-field',
        path: 'choices[0].delta.annotations[0]',
        message: 'only url_citation annotations have a canonical form in a stream',
        protocol: 'openai-chat',
      },
    ]);
  });
});
