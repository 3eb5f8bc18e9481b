// Self time per function from a V8 `.cpuprofile` (what `node --cpu-prof` writes), for load/profile.mjs.

/** Samples of a thread waiting for work: left out of the shares ('(program)', native work, stays in). */
const IDLE = new Set(['(idle)']);

/**
 * Each function's share of the busy samples taken `skipMs` or more after the profile started,
 * functions keyed by name, file and line (one row for all of a function's nodes), largest first.
 */
export function selfTimeByFunction(profile, skipMs) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map();
  let elapsedUs = 0;
  let samples = 0;
  profile.samples.forEach((id, i) => {
    elapsedUs += profile.timeDeltas[i];
    if (elapsedUs < skipMs * 1000) return;
    const { callFrame } = nodes.get(id);
    if (IDLE.has(callFrame.functionName)) return;
    const file = callFrame.url.replace(/^.*\/(node_modules|packages)\//, '$1/');
    const key = `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber + 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    samples++;
  });
  const top = [...counts].map(([name, count]) => ({ name, share: count / samples })).sort((a, b) => b.share - a.share);
  return { samples, top };
}
