/**
 * A command-line whole number: digits only (`Number` would read "" as 0 and take "1e3", "0x50"
 * or " 5"), at most `max`; undefined for anything else. Each flag words its own error.
 */
export function wholeNumberFlag(value: string, max: number): number | undefined {
  if (!/^[0-9]+$/.test(value)) return undefined;
  const number = Number(value);
  return number <= max ? number : undefined;
}
