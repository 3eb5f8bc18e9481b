// Reads an SSE body as its frames, strictly: each frame is an optional `event:` line and one
// `data:` line (JSON parsed; `[DONE]` kept as text), and the body ends with a blank line, so a
// comment, a stray line or a frame cut short fails the test instead of being skipped.
import { expect } from 'vitest';

export interface SseFrame {
  event?: string;
  data: unknown;
}

/** The frames of an SSE body (see the module comment for what it refuses). */
export function sseFrames(text: string): SseFrame[] {
  expect(text.endsWith('\n\n'), `the body ends with a blank line: ${JSON.stringify(text.slice(-80))}`).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines[0]?.startsWith('event: ') ? lines.shift()!.slice('event: '.length) : undefined;
      expect(lines.length === 1 && lines[0]!.startsWith('data: '), `one data line in ${JSON.stringify(frame)}`).toBe(true);
      const data = lines[0]!.slice('data: '.length);
      const parsed: unknown = data === '[DONE]' ? data : JSON.parse(data);
      return event === undefined ? { data: parsed } : { event, data: parsed };
    });
}

/** An SSE body written as `sseFrames` reads it (for scripting upstream streams). */
export function sseText(frames: readonly SseFrame[]): string {
  return frames
    .map(
      (frame) =>
        `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`,
    )
    .join('');
}
