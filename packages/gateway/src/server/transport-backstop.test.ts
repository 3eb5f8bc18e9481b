import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load.js';
import { transportBodyIdleTimeoutMs } from './transport-backstop.js';

describe('transportBodyIdleTimeoutMs', () => {
  it('waits 5 s beyond the longest stream idle timeout of any upstream (the router default 120 s for one unset)', () => {
    const config = (upstreams: string) => parseConfig(`upstreams: { ${upstreams} }\nroutes: [{ match: "*", upstream: a }]`, {});
    expect(transportBodyIdleTimeoutMs(config('a: { protocol: claude, baseUrl: "http://x" }'))).toBe(125_000);
    expect(
      transportBodyIdleTimeoutMs(
        config('a: { protocol: claude, baseUrl: "http://x", streamIdleTimeoutMs: 300000 }, b: { protocol: gemini, baseUrl: "http://y" }'),
      ),
    ).toBe(305_000);
    expect(transportBodyIdleTimeoutMs(config('a: { protocol: claude, baseUrl: "http://x", streamIdleTimeoutMs: 1000 }'))).toBe(6_000);
  });
});
