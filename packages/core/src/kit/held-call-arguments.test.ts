import { describe, expect, it } from 'vitest';
import type { CallArgumentsLoss } from '../content.js';
import { HeldCallArguments } from './held-call-arguments.js';

/** The texts `push` gives for `chunks`, then the losses `end` reports. */
function run(chunks: readonly string[]): { sent: Array<string | undefined>; losses: CallArgumentsLoss[] } {
  const args = new HeldCallArguments();
  const sent = chunks.map((chunk) => args.push(chunk));
  const losses: CallArgumentsLoss[] = [];
  args.end((loss) => losses.push(loss));
  return { sent, losses };
}

describe('HeldCallArguments', () => {
  it('holds blank text until it opens an object, then passes every chunk as it comes (empty ones too)', () => {
    expect(run([' ', '\n{"a"', ':1', '', '}'])).toEqual({ sent: [undefined, ' \n{"a"', ':1', '', '}'], losses: [] });
  });

  it('reports text that is not a JSON object once, at the end, and sends none of it', () => {
    expect(run(['[1', ']'])).toEqual({ sent: [undefined, undefined], losses: ['not-an-object'] });
    expect(run(['"s"'])).toEqual({ sent: [undefined], losses: ['not-an-object'] });
    expect(run(['not json'])).toEqual({ sent: [undefined], losses: ['not-an-object'] });
  });

  it('reports nothing for blank text or no text (the call takes `{}`)', () => {
    expect(run(['', '  '])).toEqual({ sent: [undefined, undefined], losses: [] });
    expect(run([])).toEqual({ sent: [], losses: [] });
  });

  it('reports nothing for invalid JSON that opened an object (it streamed as it came)', () => {
    expect(run(['{"a":'])).toEqual({ sent: ['{"a":'], losses: [] });
  });
});
