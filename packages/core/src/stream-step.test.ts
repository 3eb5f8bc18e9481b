import { collect, streamOf, utf8 } from '@llm/test-utils';
import { describe, expect, it } from 'vitest';
import { sseDecoder } from './sse/decode.js';
import { sseEncoder } from './sse/encode.js';
import type { SseEvent } from './sse/types.js';
import { pipeSteps, stepStream, textStepStream, type StepOutput, type StreamStep } from './stream-step.js';

/** Emits each chunk twice, then `end:<n>` on flush (n = chunks seen). */
function twice(tag: string): StreamStep<string, string> {
  let seen = 0;
  return {
    transform(chunk, out) {
      seen += 1;
      out.enqueue(`${tag}${chunk}`);
      out.enqueue(`${tag}${chunk}`);
    },
    flush: (out) => out.enqueue(`${tag}end:${seen}`),
  };
}

function run<I, O>(step: StreamStep<I, O>, chunks: I[]): O[] {
  const got: O[] = [];
  const out: StepOutput<O> = { enqueue: (chunk) => got.push(chunk) };
  for (const chunk of chunks) step.transform(chunk, out);
  step.flush?.(out);
  return got;
}

describe('stream steps', () => {
  it('pipeSteps feeds the first step straight into the second, flushing the first through the second before the second flushes', () => {
    expect(run(pipeSteps(twice('a'), twice('b')), ['1', '2'])).toEqual([
      'ba1',
      'ba1',
      'ba1',
      'ba1',
      'ba2',
      'ba2',
      'ba2',
      'ba2',
      'baend:2',
      'baend:2',
      'bend:5',
    ]);
  });

  it('stepStream runs a step as a TransformStream, flush included', async () => {
    expect(await collect(streamOf(['x', 'y']).pipeThrough(stepStream(twice(''))))).toEqual(['x', 'x', 'y', 'y', 'end:2']);
  });

  it('textStepStream writes one byte chunk per input chunk (all its text joined), none for an input that gave nothing', async () => {
    const skipEmpty: StreamStep<string, string> = { transform: (chunk, out) => void (chunk !== '' && out.enqueue(chunk)) };
    const chunks = await collect(streamOf(['ab', '', 'c']).pipeThrough(textStepStream(pipeSteps(skipEmpty, twice('-')))));
    expect(chunks.map((chunk) => new TextDecoder().decode(chunk))).toEqual(['-ab-ab', '-c-c', '-end:2']);
  });

  it('a step that throws errors the stream with its error', async () => {
    const boom: StreamStep<string, string> = {
      transform() {
        throw new Error('bad chunk');
      },
    };
    await expect(collect(streamOf(['x']).pipeThrough(stepStream(boom)))).rejects.toThrow('bad chunk');
  });

  it('sseDecoder + sseEncoder round trip events split across chunks, UTF-8 characters included', () => {
    const bytes = utf8('event: a\ndata: héllo 👋\n\ndata: {"n":1}\ndata: {"n":2}\n\n');
    const chunks = [bytes.slice(0, 17), bytes.slice(17, 19), bytes.slice(19)];
    const events = run(sseDecoder(), chunks);
    expect(events).toEqual<SseEvent[]>([
      { event: 'a', id: undefined, data: 'héllo 👋' },
      { event: undefined, id: undefined, data: '{"n":1}\n{"n":2}' },
    ]);
    expect(run(sseEncoder, events).join('')).toBe('event: a\ndata: héllo 👋\n\ndata: {"n":1}\ndata: {"n":2}\n\n');
  });

  it('sseDecoder throws once one event outgrows maxEventSize', () => {
    const step = sseDecoder({ maxEventSize: 16 });
    expect(() => run(step, [utf8(`data: ${'x'.repeat(40)}`)])).toThrow(/max buffer size/);
  });
});
