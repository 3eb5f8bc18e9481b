// Measures a codec operation against the floor every JSON proxy pays: JSON.parse + JSON.stringify
// of the same bytes. Ratios taken in one run on one machine are comparable; absolute times are not.
import { performance } from 'node:perf_hooks';

/** One measured case. */
export interface BenchCase {
  /** What is measured, e.g. `claude request 50 KB`. */
  name: string;
  /** The wire bytes the baseline parses and stringifies. */
  wire: string;
  /** The operation under test, given the wire text (it must do its own JSON.parse / stringify). */
  run(wire: string): unknown;
  /**
   * The floor, when it is not one parse + stringify of `wire`: a stream's floor is a parse and a
   * stringify of each event, as a bare proxy that looks at events pays.
   */
  baseline?: () => unknown;
}

/** Result of one case. */
export interface BenchResult {
  name: string;
  bytes: number;
  baselineMicros: number;
  subjectMicros: number;
  ratio: number;
}

/**
 * Whether to time by process CPU (user + system, `BENCH_CLOCK=cpu`) instead of wall time. CPU time
 * counts the GC's helper threads, so it reads higher, but it moves less on a shared machine.
 */
const byCpu = process.env.BENCH_CLOCK === 'cpu';

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function timePerOp(fn: () => unknown, minMillis: number): number {
  // Warm up so the JIT has compiled both paths before timing.
  for (let index = 0; index < 20; index++) fn();
  let iterations = 0;
  const start = performance.now();
  const cpuStart = cpuMicros();
  let elapsed = 0;
  do {
    fn();
    iterations++;
    elapsed = performance.now() - start;
  } while (elapsed < minMillis);
  return byCpu ? (cpuMicros() - cpuStart) / iterations : (elapsed * 1000) / iterations;
}

/**
 * Times `benchCase.run` and the JSON baseline alternately (three rounds each, best of each kept,
 * which damps noise from the other core).
 */
export function measure(benchCase: BenchCase, minMillis = 300): BenchResult {
  const baseline = benchCase.baseline ?? ((): unknown => JSON.stringify(JSON.parse(benchCase.wire)));
  let baselineBest = Number.POSITIVE_INFINITY;
  let subjectBest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    baselineBest = Math.min(baselineBest, timePerOp(baseline, minMillis));
    subjectBest = Math.min(
      subjectBest,
      timePerOp(() => benchCase.run(benchCase.wire), minMillis),
    );
  }
  return {
    name: benchCase.name,
    bytes: benchCase.wire.length,
    baselineMicros: baselineBest,
    subjectMicros: subjectBest,
    ratio: subjectBest / baselineBest,
  };
}

/** Prints results as a Markdown table. */
export function printTable(results: readonly BenchResult[]): void {
  console.log('| case | bytes | JSON parse+stringify (us) | codec (us) | ratio |');
  console.log('|---|---:|---:|---:|---:|');
  for (const result of results) {
    console.log(
      `| ${result.name} | ${result.bytes} | ${result.baselineMicros.toFixed(1)} | ${result.subjectMicros.toFixed(1)} | ${result.ratio.toFixed(2)}x |`,
    );
  }
}
