import fc from 'fast-check';
import { propertyRuns } from '@llm/test-utils/property-runs';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json.js';
import {
  OPAQUE_STATE_PREFIX,
  embedOpaqueState,
  extractOpaqueState,
  opaqueStateWarning,
  originMatches,
  packOpaqueState,
  reportForeignPartState,
  unpackOpaqueState,
  type OpaqueState,
} from './opaque-state.js';
import type { LlmWarning } from './warnings.js';

const GEMINI_SIGNATURE: OpaqueState = {
  origin: { protocol: 'gemini', model: 'gemini-3-pro-preview' },
  data: 'CiQBcsjafH8+/wA=',
};

describe('packOpaqueState / unpackOpaqueState', () => {
  it('packs into the documented, id-safe format and back', () => {
    const packed = packOpaqueState(GEMINI_SIGNATURE);
    expect(packed.startsWith(OPAQUE_STATE_PREFIX)).toBe(true);
    expect(packed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(unpackOpaqueState(packed)).toEqual({ state: GEMINI_SIGNATURE });
  });

  it('is exactly the JSON tuple, base64url, plus an FNV-1a checksum', () => {
    const packed = packOpaqueState({ origin: { protocol: 'claude' }, data: 'sig' });
    const json = JSON.stringify(['claude', null, null, 'sig']);
    const payload = btoa(json).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(packed.slice(0, -8)).toBe(`llms1_${payload}`);
    expect(packed.slice(-8)).toMatch(/^[0-9a-f]{8}$/);
  });

  it('keeps the provider and structured data', () => {
    const state: OpaqueState = {
      origin: { protocol: 'openai-responses', provider: 'openai-eu' },
      data: [{ id: 'rs_1', encrypted: 'gAAAA…', summary: ['ünïcode ✓'] }],
    };
    expect(unpackOpaqueState(packOpaqueState(state))).toEqual({ state });
  });

  it('detects corruption anywhere: a changed, dropped or added character', () => {
    const packed = packOpaqueState(GEMINI_SIGNATURE);
    for (let index = OPAQUE_STATE_PREFIX.length; index < packed.length; index++) {
      const swapped = packed.slice(0, index) + (packed[index] === 'A' ? 'B' : 'A') + packed.slice(index + 1);
      expect(unpackOpaqueState(swapped)).toEqual({ problem: 'corrupt' });
    }
    expect(unpackOpaqueState(packed.slice(0, -1))).toEqual({ problem: 'corrupt' });
    expect(unpackOpaqueState(`${packed}0`)).toEqual({ problem: 'corrupt' });
    expect(unpackOpaqueState('llms1_')).toEqual({ problem: 'corrupt' });
  });

  it('rejects a well-formed blob whose tuple is not ours', () => {
    const forge = (value: unknown): string => {
      const payload = btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      let hash = 0x811c9dc5;
      for (let index = 0; index < payload.length; index++) {
        hash ^= payload.charCodeAt(index);
        hash = Math.imul(hash, 0x01000193);
      }
      return `llms1_${payload}${(hash >>> 0).toString(16).padStart(8, '0')}`;
    };
    expect(unpackOpaqueState(forge(['claude', null, null, 'x']))).toEqual({
      state: { origin: { protocol: 'claude' }, data: 'x' },
    });
    expect(unpackOpaqueState(forge(['bedrock', null, null, 'x']))).toEqual({ problem: 'corrupt' });
    expect(unpackOpaqueState(forge(['claude', 3, null, 'x']))).toEqual({ problem: 'corrupt' });
    expect(unpackOpaqueState(forge({ protocol: 'claude' }))).toEqual({ problem: 'corrupt' });
    expect(unpackOpaqueState(forge(['claude', null, null]))).toEqual({ problem: 'corrupt' });
  });

  it('tells foreign strings and future versions apart', () => {
    expect(unpackOpaqueState('EqQBCkgIBhABGAIiQA')).toEqual({ problem: 'not-a-carrier' });
    expect(unpackOpaqueState('llms2_abcdef0123456789')).toEqual({ problem: 'unknown-version' });
  });

  it('round-trips any JSON data and origin', () => {
    const origin = fc.record(
      {
        protocol: fc.constantFrom('openai-chat' as const, 'openai-responses' as const, 'claude' as const, 'gemini' as const),
        model: fc.string({ unit: 'grapheme' }),
        provider: fc.string(),
      },
      { requiredKeys: ['protocol'] },
    );
    fc.assert(
      fc.property(origin, fc.jsonValue(), (originValue, data) => {
        const state = { origin: originValue, data } as OpaqueState;
        const packed = packOpaqueState(state);
        expect(packed).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(unpackOpaqueState(packed)).toEqual({ state: JSON.parse(JSON.stringify(state)) });
      }),
      propertyRuns(300),
    );
  });
});

describe('a carrier nested past MAX_JSON_DEPTH (issue 17)', () => {
  const nested = (levels: number): JsonValue => {
    let data: JsonValue = 'sig';
    for (let level = 0; level < levels; level++) data = [data];
    return data;
  };

  it('is corrupt, so no later walk of its data can overflow the stack', () => {
    // The tuple is one level: data 127 deep makes 128 in all, the most a carrier may hold.
    const fits: OpaqueState = { origin: { protocol: 'claude' }, data: nested(127) };
    expect(unpackOpaqueState(packOpaqueState(fits))).toEqual({ state: fits });
    expect(unpackOpaqueState(packOpaqueState({ origin: { protocol: 'claude' }, data: nested(128) }))).toEqual({ problem: 'corrupt' });
  });
});

describe('embedOpaqueState / extractOpaqueState', () => {
  it('appends the carrier to an id and splits it off again', () => {
    const id = embedOpaqueState('toolu_01AbC', GEMINI_SIGNATURE);
    expect(id.startsWith('toolu_01AbC__llms1_')).toBe(true);
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(extractOpaqueState(id)).toEqual({ host: 'toolu_01AbC', state: GEMINI_SIGNATURE });
  });

  it('leaves values without a carrier whole', () => {
    expect(extractOpaqueState('call_abc__def')).toEqual({ host: 'call_abc__def' });
  });

  it('cuts off and reports a corrupt or unknown-version carrier, so it is never sent on', () => {
    const id = embedOpaqueState('call_1', GEMINI_SIGNATURE);
    expect(extractOpaqueState(`${id.slice(0, -3)}xyz`)).toEqual({ host: 'call_1', problem: 'corrupt' });
    expect(extractOpaqueState('call_1__llms9_whatever')).toEqual({ host: 'call_1', problem: 'unknown-version' });
  });
});

describe('originMatches', () => {
  it('requires the same protocol', () => {
    expect(originMatches({ protocol: 'claude' }, { protocol: 'claude' })).toBe(true);
    expect(originMatches({ protocol: 'claude' }, { protocol: 'gemini' })).toBe(false);
  });
  it('requires the same provider when both name one', () => {
    expect(originMatches({ protocol: 'openai-chat', provider: 'deepseek' }, { protocol: 'openai-chat', provider: 'xai' })).toBe(false);
    expect(originMatches({ protocol: 'openai-chat', provider: 'deepseek' }, { protocol: 'openai-chat' })).toBe(true);
  });
  it('compares models only when asked', () => {
    const a = { protocol: 'gemini' as const, model: 'gemini-3-pro' };
    const b = { protocol: 'gemini' as const, model: 'gemini-2.5-flash' };
    expect(originMatches(a, b)).toBe(true);
    expect(originMatches(a, b, { sameModel: true })).toBe(false);
    expect(originMatches(a, { protocol: 'gemini' }, { sameModel: true })).toBe(true);
  });
});

describe('opaqueStateWarning', () => {
  it('describes foreign state', () => {
    expect(
      opaqueStateWarning('messages[1].content[0]', {
        foreign: { protocol: 'gemini', model: 'gemini-3-pro' },
        target: { protocol: 'claude' },
      }),
    ).toEqual({
      code: 'foreign-state',
      path: 'messages[1].content[0]',
      message: 'provider state issued by gemini (gemini-3-pro) was not replayed to claude',
    });
  });
  it('describes invalid carriers', () => {
    expect(opaqueStateWarning('x', { problem: 'corrupt' })).toEqual({
      code: 'invalid-state',
      path: 'x',
      message: 'corrupt opaque provider state was ignored',
    });
    expect(opaqueStateWarning('x', { problem: 'unknown-version' }).message).toBe('opaque provider state of an unknown carrier version was ignored');
  });
});

describe('reportForeignPartState', () => {
  const target = { protocol: 'claude', model: 'claude-opus-4' } as const;
  function reported(part: Parameters<typeof reportForeignPartState>[2]): LlmWarning[] {
    const warnings: LlmWarning[] = [];
    reportForeignPartState({ warn: (warning) => void warnings.push(warning) }, 'messages[0].content[1]', part, target);
    return warnings;
  }
  it('reports a signature issued by another protocol, in the name of the target', () => {
    expect(reported({ signature: 's', origin: { protocol: 'openai-responses', model: 'gpt-5' } })).toEqual([
      {
        code: 'foreign-state',
        path: 'messages[0].content[1]',
        message: 'provider state issued by openai-responses (gpt-5) was not replayed to claude (claude-opus-4)',
        protocol: 'claude',
      },
    ]);
  });
  it("reads a signature without an origin as Gemini's", () => {
    expect(reported({ signature: 's' })[0]?.message).toBe('provider state issued by gemini was not replayed to claude (claude-opus-4)');
  });
  it("reports nothing without a signature or for the target's own", () => {
    expect(reported({ origin: { protocol: 'gemini' } })).toEqual([]);
    expect(reported({ signature: 's', origin: { protocol: 'claude', model: 'other' } })).toEqual([]);
  });
  it('throws in strict mode like every loss', () => {
    expect(() => reportForeignPartState({ strict: true }, 'p', { signature: 's' }, target)).toThrow('p: provider state issued by gemini');
  });
});
