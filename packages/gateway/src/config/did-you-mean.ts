/**
 * Edit distance between two words (insertions, deletions, substitutions and swaps of neighbours
 * each count 1), compared without case: `apikey` is one edit from `apiKey` for a reader, none for
 * this function, so case slips always find their key.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  // Rows i-2, i-1 and i of the distance table (the swap needs the row two back).
  let before = new Array<number>(y.length + 1).fill(0);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[y.length]!;
}

/**
 * The known key a misspelt `key` most likely meant: the closest within one edit per four letters
 * (at least one, at most three), so `warningHeader` finds `warningsHeader` and `port` never
 * "means" `log`. Undefined when none is that close.
 */
export function didYouMean(key: string, known: readonly string[]): string | undefined {
  const allowed = Math.min(3, Math.max(1, Math.floor(key.length / 4)));
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of known) {
    const distance = editDistance(key, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
