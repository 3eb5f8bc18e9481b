import { describe, expect, it } from 'vitest';
import { anthropicSamplingFixes } from './anthropic-sampling.js';

const fixes = (settings: Parameters<typeof anthropicSamplingFixes>[0]) => anthropicSamplingFixes(settings).map(({ field, value }) => [field, value]);

describe('anthropicSamplingFixes', () => {
  it('has none for settings inside Claude bounds', () => {
    expect(fixes({ temperature: 0.7, thinking: false, toolForced: false })).toEqual([]);
    expect(fixes({ topP: 0.5, topK: 5, thinking: false, toolForced: true })).toEqual([]);
    expect(fixes({ temperature: 1, thinking: true, toolForced: false })).toEqual([]);
    expect(fixes({ topP: 0.95, thinking: true, toolForced: false })).toEqual([]);
  });
  it('caps the temperature at 1 and keeps temperature over top_p', () => {
    expect(fixes({ temperature: 2, thinking: false, toolForced: false })).toEqual([['temperature', 1]]);
    expect(fixes({ temperature: 0.2, topP: 0.9, thinking: false, toolForced: false })).toEqual([['topP', undefined]]);
  });
  it('beside thinking leaves out other temperatures, top_k and a low top_p; with a forced tool, thinking', () => {
    expect(fixes({ temperature: 0, topP: 0.5, topK: 3, thinking: true, toolForced: false })).toEqual([
      ['temperature', undefined],
      ['topK', undefined],
      ['topP', undefined],
    ]);
    expect(fixes({ temperature: 1, topP: 0.99, thinking: true, toolForced: false })).toEqual([['topP', undefined]]);
    expect(fixes({ temperature: 0, thinking: true, toolForced: true })).toEqual([['thinking', undefined]]);
  });
});
