import type { Codec } from '@llm/core';
import { claude } from '@llm/claude';
import { gemini } from '@llm/gemini';
import { openaiChat } from '@llm/openai-chat';
import { openaiResponses } from '@llm/openai-responses';
import { bridge } from '@llm/router';
import { describe, expect, it } from 'vitest';

function translator(client: Codec, upstream: Codec, body: unknown) {
  const warnings: string[] = [];
  const via = bridge({ client, upstream, warn: (warning) => warnings.push(`${warning.code}@${warning.path}`) });
  const request = via.request(body, client === gemini ? { model: 'm', stream: false } : {});
  return { via, body: request.body as Record<string, unknown>, warnings };
}

const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';
const chatRequest = {
  model: 'm',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Transcribe.' },
        { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
      ],
    },
  ],
  logprobs: true,
  top_logprobs: 2,
};
const geminiRequest = {
  contents: [{ role: 'user', parts: [{ text: 'Transcribe.' }, { inlineData: { mimeType: 'audio/mp3', data: WAV } }] }],
  generationConfig: { responseLogprobs: true, logprobs: 2 },
};
const responsesRequest = { model: 'm', input: 'Hi', include: ['reasoning.encrypted_content', 'message.output_text.logprobs'], top_logprobs: 2 };

describe('audio input across protocols', () => {
  it('Chat input_audio -> Gemini inlineData audio, Responses input_audio; Claude has no audio input (reported)', () => {
    const toGemini = translator(openaiChat, gemini, chatRequest);
    expect(toGemini.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Transcribe.' }, { inlineData: { mimeType: 'audio/wav', data: WAV } }] }]);
    expect(toGemini.warnings).toEqual([]);
    const toResponses = translator(openaiChat, openaiResponses, chatRequest);
    expect(toResponses.body.input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Transcribe.' },
          { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
        ],
      },
    ]);
    expect(toResponses.warnings).toEqual([]);
    const toClaude = translator(openaiChat, claude, chatRequest);
    expect(toClaude.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Transcribe.' }] }]);
    expect(toClaude.warnings).toEqual(['defaulted@max_tokens', 'dropped-part@messages[0].content[1]', 'dropped-field@logprobs']);
  });

  it('Gemini inlineData audio -> Chat input_audio with the format its media type names', () => {
    const { body, warnings } = translator(gemini, openaiChat, geminiRequest);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Transcribe.' },
          { type: 'input_audio', input_audio: { data: WAV, format: 'mp3' } },
        ],
      },
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('logprobs across protocols', () => {
  it('requests: Chat logprobs/top_logprobs <-> Responses include + top_logprobs <-> Gemini responseLogprobs/logprobs', () => {
    const chatToResponses = translator(openaiChat, openaiResponses, chatRequest);
    expect([chatToResponses.body.include, chatToResponses.body.top_logprobs]).toEqual([['message.output_text.logprobs'], 2]);
    expect(translator(openaiChat, gemini, chatRequest).body.generationConfig).toEqual({ responseLogprobs: true, logprobs: 2 });
    const responsesToChat = translator(openaiResponses, openaiChat, responsesRequest);
    expect([responsesToChat.body.logprobs, responsesToChat.body.top_logprobs]).toEqual([true, 2]);
    // The other include entry has no Chat form.
    expect(responsesToChat.warnings).toEqual(['dropped-field@include']);
    expect(translator(openaiResponses, gemini, responsesRequest).body.generationConfig).toEqual({ responseLogprobs: true, logprobs: 2 });
    const geminiToResponses = translator(gemini, openaiResponses, geminiRequest);
    expect([geminiToResponses.body.include, geminiToResponses.body.top_logprobs]).toEqual([['message.output_text.logprobs'], 2]);
    // A Responses round trip keeps include exactly, order included.
    expect(openaiResponses.request.encode(openaiResponses.request.decode(responsesRequest))).toEqual(responsesRequest);
  });

  const tokens = [
    {
      token: 'Hi',
      logprob: -0.01,
      bytes: [72, 105],
      top: [
        { token: 'Hi', logprob: -0.01, bytes: [72, 105] },
        { token: 'Hello', logprob: -4.6, bytes: [72, 101, 108, 108, 111] },
      ],
    },
    {
      token: ' there',
      logprob: -0.2,
      bytes: [32, 116, 104, 101, 114, 101],
      top: [
        { token: ' there', logprob: -0.2, bytes: [32, 116, 104, 101, 114, 101] },
        { token: '!', logprob: -1.7, bytes: [33] },
      ],
    },
  ];
  const chatLogprobs = tokens.map(({ top, ...token }) => ({ ...token, top_logprobs: top }));
  const responsesLogprobs = chatLogprobs;
  const geminiLogprobs = {
    topCandidates: tokens.map(({ top }) => ({ candidates: top.map(({ token, logprob }) => ({ token, logProbability: logprob })) })),
    chosenCandidates: tokens.map(({ token, logprob }) => ({ token, logProbability: logprob })),
  };
  const chatAnswer = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hi there', refusal: null },
        finish_reason: 'stop',
        logprobs: { content: chatLogprobs, refusal: null },
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
  const responsesAnswer = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'gpt-4o',
    output: [
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi there', annotations: [], logprobs: responsesLogprobs }],
      },
    ],
    usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
  };
  const geminiAnswer = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hi there' }] }, finishReason: 'STOP', index: 0, logprobsResult: geminiLogprobs }],
    usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'r1',
  };
  const requestFor = new Map<Codec, unknown>([
    [openaiChat, chatRequest],
    [openaiResponses, responsesRequest],
    [gemini, geminiRequest],
  ]);
  const answerOf = (client: Codec, upstream: Codec, answer: unknown) => {
    const { via } = translator(client, upstream, requestFor.get(client));
    return via.response(structuredClone(answer)) as Record<string, unknown>;
  };
  const firstOutputText = (body: Record<string, unknown>) => (body.output as Array<{ content: Array<Record<string, unknown>> }>)[0]!.content[0]!;

  it('answers: Chat logprobs -> Responses output_text.logprobs and Gemini logprobsResult', () => {
    expect(firstOutputText(answerOf(openaiResponses, openaiChat, chatAnswer)).logprobs).toEqual(responsesLogprobs);
    expect((answerOf(gemini, openaiChat, chatAnswer).candidates as Array<Record<string, unknown>>)[0]!.logprobsResult).toEqual(geminiLogprobs);
  });

  it('answers: Responses output_text.logprobs -> Chat and Gemini', () => {
    expect((answerOf(openaiChat, openaiResponses, responsesAnswer).choices as Array<Record<string, unknown>>)[0]!.logprobs).toEqual({
      content: chatLogprobs,
      refusal: null,
    });
    expect((answerOf(gemini, openaiResponses, responsesAnswer).candidates as Array<Record<string, unknown>>)[0]!.logprobsResult).toEqual(geminiLogprobs);
    // Same protocol: the part's logprobs are written once, as they came.
    expect(openaiResponses.response.encode(openaiResponses.response.decode(responsesAnswer))).toEqual(responsesAnswer);
  });

  it('answers: Gemini logprobsResult -> Chat and Responses (Gemini has no token bytes)', () => {
    const unbytes = chatLogprobs.map(({ bytes: _b, top_logprobs, ...token }) => ({
      ...token,
      bytes: null,
      top_logprobs: top_logprobs.map(({ bytes: _t, ...top }) => ({ ...top, bytes: null })),
    }));
    expect((answerOf(openaiChat, gemini, geminiAnswer).choices as Array<Record<string, unknown>>)[0]!.logprobs).toEqual({ content: unbytes, refusal: null });
    const emptyBytes = chatLogprobs.map(({ bytes: _b, top_logprobs, ...token }) => ({
      ...token,
      bytes: [],
      top_logprobs: top_logprobs.map(({ bytes: _t, ...top }) => ({ ...top, bytes: [] })),
    }));
    expect(firstOutputText(answerOf(openaiResponses, gemini, geminiAnswer)).logprobs).toEqual(emptyBytes);
  });
});
