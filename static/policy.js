// policy.js: the decision policy of scorer/decide.py, for the page, and merging. The one home of
// these rules in JS; tests/fixtures/decisions.json holds the cases both languages must pass.
// The numbers (decider, cutoff, threshold) come from the server (decide.defaults()), never from here.

/** @typedef {{decider: string, cutoff: number, threshold: number}} Policy */

/** The percentile rule alone: 'join' when P(newline) ranks below the cutoff; no evidence keeps. */
export function byPercentile(percentile, cutoff) {
  if (percentile === null || percentile === undefined) return 'keep';
  return percentile < cutoff ? 'join' : 'keep';
}

/** The hybrid rule alone: 'join' when P(join) is above the threshold; no evidence keeps. */
export function byHybrid(pJoin, threshold) {
  if (pJoin === null || pJoin === undefined) return 'keep';
  return pJoin > threshold ? 'join' : 'keep';
}

/** 'join' or 'keep' for one break: a hand override (by char offset) wins, then a keep the
 * layout forces, then the policy's decider. */
export function decide(brk, policy, overrides = {}) {
  if (overrides[brk.i]) return overrides[brk.i];
  if (brk.forced) return brk.forced;
  if (policy.decider === 'hybrid') return byHybrid(brk.p_join, policy.threshold);
  return byPercentile(brk.percentile, policy.cutoff);
}

export function decisions(breaks, policy, overrides = {}) {
  return breaks.map((b) => decide(b, policy, overrides));
}

/** The merged text: each joined break replaced by its joiner, and the hyphen before it gone
 * where the break says `unhyphen` (the model found one word split by the layout); nothing else
 * changes. Offsets count code points, as on the server. */
export function mergedText(text, breaks, decided) {
  const chars = Array.from(text);
  const replace = new Map();
  breaks.forEach((b, k) => {
    if (decided[k] !== 'join') return;
    replace.set(b.i, b.joiner);
    if (b.unhyphen) replace.set(b.i - 1, '');
  });
  return chars.map((ch, i) => (replace.has(i) ? replace.get(i) : ch)).join('');
}
