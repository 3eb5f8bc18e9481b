// fast-check parameters shared by the property tests of core and the codecs. A subpath of its
// own (`@llm/test-utils/property-runs`): it needs no Node API, so edge-runtime tests import it too.

/** The seed every property test runs with by default. */
export const PROPERTY_SEED = 20261123;

/**
 * Parameters for `fc.assert`: a fixed seed and `numRuns` sized so each property runs in well
 * under a second alone, so a loaded two-core CI machine cannot push it past its timeout and the
 * outcome never depends on load or luck. A wider sweep is opt-in (`pnpm test:properties` in each
 * package): `LLM_PROPERTY_RUNS=<factor>` multiplies every `numRuns` and draws a fresh seed per
 * run (fast-check prints the seed of a failure); `LLM_PROPERTY_SEED=<seed>` replays one.
 */
export function propertyRuns(numRuns: number): { seed?: number; numRuns: number } {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const factor = Math.max(1, Number(env?.LLM_PROPERTY_RUNS ?? 1) || 1);
  const pinned = env?.LLM_PROPERTY_SEED;
  const runs = Math.round(numRuns * factor);
  if (pinned !== undefined) return { seed: Number(pinned), numRuns: runs };
  return factor > 1 ? { numRuns: runs } : { seed: PROPERTY_SEED, numRuns: runs };
}
