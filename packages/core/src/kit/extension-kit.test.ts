import { describe, expect, it } from 'vitest';
import type { WithExtensions } from '../extensions.js';
import { extensionKit } from './extension-kit.js';

const ext = extensionKit('gemini');

describe('extensionKit', () => {
  it('keeps unmodelled fields and explicit nulls, except nulls the encoder writes anyway', () => {
    const known = new Set(['model', 'content', 'stop']);
    expect(ext.rest({ model: 'm', content: null, stop: null, seed: 3 }, known, new Set(['content']))).toEqual({ stop: null, seed: 3 });
    expect(ext.rest({ model: 'm' }, known)).toBeUndefined();
  });

  it('merges into its own bag only, and writes back wire fields but never bookkeeping marks', () => {
    const target: WithExtensions = { extensions: { claude: { x: 1 } } };
    expect(ext.keep(target, undefined)).toBe(target);
    expect(target.extensions).toEqual({ claude: { x: 1 } });
    ext.keep(target, { seed: 3 });
    ext.mark(target, 'joined', true);
    ext.keep(target, { topK: 4 });
    expect(target.extensions).toEqual({ claude: { x: 1 }, gemini: { seed: 3, $joined: true, topK: 4 } });
    expect(ext.marker(target, 'joined')).toBe(true);
    expect(ext.marker(undefined, 'joined')).toBeUndefined();
    expect(ext.bag(target)).toEqual({ seed: 3, $joined: true, topK: 4 });
    const out: Record<string, unknown> = { model: 'm' };
    expect(ext.writeRest(out, target)).toBe(target.extensions?.gemini);
    expect(out).toEqual({ model: 'm', seed: 3, topK: 4 });
    expect(ext.writeRest(out, {})).toBeUndefined();
  });
});
