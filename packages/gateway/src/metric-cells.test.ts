import * as prom from 'prom-client';
import { describe, expect, it } from 'vitest';
import { cellCounter, cellHistogram, observeIn } from './metric-cells.js';

// The cells must expose exactly what prom-client's own metrics expose after the same updates.

const BUCKETS = [0.05, 0.1, 0.25, 1];
const OBSERVED: [string, string, number][] = [
  ['openai-chat', 'a', 0.01],
  ['claude', 'b', 0.1],
  ['openai-chat', 'a', 0.3],
  ['openai-chat', 'a', 7],
  ['claude', 'b', 0.05],
];

describe('metric cells', () => {
  it("a cell histogram's text and JSON equal prom-client's histogram after the same observations", async () => {
    const theirs = new prom.Registry();
    const ours = new prom.Registry();
    const config = { name: 'h_seconds', help: 'A histogram.', labelNames: ['protocol', 'upstream'] };
    const plain = new prom.Histogram({ ...config, buckets: BUCKETS, registers: [theirs] });
    const { cells } = cellHistogram(prom, { ...config, buckets: BUCKETS, registers: [ours] });
    for (const [protocol, upstream, value] of OBSERVED) {
      plain.observe({ protocol, upstream }, value);
      observeIn(cells.get(protocol, upstream), BUCKETS, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await ours.metrics()).toContain('h_seconds_bucket{le="0.1",protocol="claude",upstream="b"} 2\n');
  });

  it("a cell counter's text equals prom-client's counter, a series added 0 included, and adds only what came since the last scrape", async () => {
    const theirs = new prom.Registry();
    const ours = new prom.Registry();
    const config = { name: 'c_total', help: 'A counter.', labelNames: ['upstream', 'status'] };
    const plain = new prom.Counter({ ...config, registers: [theirs] });
    const { cells } = cellCounter(prom, { ...config, registers: [ours] });
    const add = (upstream: string, status: number, n: number) => {
      plain.inc({ upstream, status: String(status) }, n);
      cells.get(upstream, status).pending += n;
    };
    add('a', 200, 1);
    add('b', 503, 0);
    add('a', 200, 2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    add('a', 429, 1);
    add('a', 200, 1);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text.split('\n').filter((line) => line.startsWith('c_total{'))).toEqual([
      'c_total{upstream="a",status="200"} 4',
      'c_total{upstream="b",status="503"} 0',
      'c_total{upstream="a",status="429"} 1',
    ]);
    // A scrape with nothing new changes nothing.
    expect(await ours.metrics()).toBe(text);
  });
});
