// render.js: pure functions from the scored document and display options to what is shown.
// No DOM here: colours, histogram bins and tooltip rows are plain data, so the slider can redraw
// from cached data and node's test runner can check them. Decisions come from policy.js.
import { byPercentile, decide } from './policy.js';

/**
 * The data contract, mirrored from scorer/contract.py (its docstring is the reference).
 * @typedef {{id: number, text: string, hex: string, logprob: ?number, context: ?number,
 *            top: Array<[string, number]>}} Token
 *   logprob: log P(this token | everything before it); null for the first token without BOS.
 * @typedef {{ch: string, t: number[], logprob: ?number, shared: boolean}} Cell
 *   One whole character; t = [first, last] token covering its bytes ([] if the model never
 *   read it, e.g. a joined-mode break); logprob is the chain-rule sum over those tokens.
 * @typedef {{i: number, token: number, logp: ?number, p: ?number, logp_next: ?number,
 *            percentile: ?number, joiner: string, decision: string, reason: string,
 *            context: string, forced: ?string, layout: ?Object, p_join: ?number,
 *            hybrid: string, evidence: Array<[string, number, number]>}} Break
 *   A candidate newline at character i; joiner replaces it when joined; forced is a decision
 *   the layout imposes (table rows); layout holds the PDF's evidence (null for plain text);
 *   p_join and hybrid are the hybrid decider's P(join) and decision, evidence its features as
 *   [name, value, contribution to the log-odds of joining].
 * @typedef {{text: string, mode: string, model: Object, timings: Object, tokens: Token[],
 *            cells: Cell[], breaks: Break[]}} Doc
 * @typedef {import('./policy.js').Policy} Policy
 */

/** Colour of a break by percentile: 0 (least expected, join) red .. 100 (expected, keep) green. */
export function breakColor(percentile) {
  if (percentile === null || percentile === undefined) return 'hsl(0, 0%, 80%)';
  const hue = Math.round(Math.max(0, Math.min(100, percentile)) * 1.2);
  return `hsl(${hue}, 75%, 55%)`;
}

/** Background alpha of an ordinary character: 0 for expected ones, up to 0.6 for surprising ones. */
export function surpriseAlpha(logprob) {
  if (logprob === null || logprob === undefined) return 0;
  const bits = -logprob / Math.LN2;
  return Math.min(0.6, Math.max(0, (bits - 1) / 20));
}

export function countDecisions(decided) {
  const joined = decided.filter((d) => d === 'join').length;
  return { joined, kept: decided.length - joined };
}

/** Histogram of log10 P(newline) over the breaks, plus where the cutoff falls on that axis. */
export function histogram(breaks, policy, nBins = 30) {
  const scored = breaks.filter((b) => b.logp !== null && b.logp !== undefined);
  if (scored.length === 0) return { bins: [], lo: 0, hi: 0, cutAt: null };
  const values = scored.map((b) => b.logp / Math.LN10);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 1e-9) { lo -= 0.5; hi += 0.5; }
  const width = (hi - lo) / nBins;
  const bins = Array.from({ length: nBins }, (_, k) => ({
    lo: lo + k * width, hi: lo + (k + 1) * width, count: 0, joined: 0,
  }));
  scored.forEach((b, k) => {
    const index = Math.min(nBins - 1, Math.floor((values[k] - lo) / width));
    bins[index].count += 1;
    if (decide(b, policy) === 'join') bins[index].joined += 1;
  });
  if (policy.decider !== 'percentile') return { bins, lo, hi, cutAt: null }; // no single cut on this axis
  const below = scored.map((b) => byPercentile(b.percentile, policy.cutoff) === 'join');
  const joinedVals = values.filter((_, k) => below[k]);
  const keptVals = values.filter((_, k) => !below[k]);
  let cutAt = null;
  if (joinedVals.length && keptVals.length) cutAt = (Math.max(...joinedVals) + Math.min(...keptVals)) / 2;
  else if (joinedVals.length) cutAt = hi;
  else cutAt = lo;
  return { bins, lo, hi, cutAt };
}

export function fmtProb(logprob) {
  if (logprob === null || logprob === undefined) return '—';
  const p = Math.exp(logprob);
  if (p >= 0.01) return p.toFixed(3);
  return p.toExponential(1);
}

const hexBytes = (hex) => (hex.match(/../g) || []).map((h) => h.toUpperCase()).join(' ');

/**
 * Rows for the shared tooltip of cell `index`: [label, value] pairs, plain text only.
 * @param {Doc} doc
 * @param {Map<number, Break>} breakAt  breaks by char offset
 * @param {Policy} policy
 */
export function tooltipRows(doc, index, breakAt, policy, overrides = {}) {
  const cell = doc.cells[index];
  const rows = [];
  const shown = cell.ch === '\n' ? '⏎ (newline)' : cell.ch === ' ' ? '␣ (space)' : cell.ch;
  rows.push(['character', `${shown}  U+${cell.ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`]);
  const brk = breakAt.get(index);
  if (brk) {
    rows.push(['P(newline here)', fmtProb(brk.logp)]);
    rows.push(['percentile', brk.percentile === null ? '—' : `${brk.percentile.toFixed(1)} %`]);
    const d = decide(brk, policy, overrides);
    let who = policy.decider === 'hybrid' ? 'the hybrid' : 'the percentile cutoff';
    if (overrides[brk.i]) who = 'hand';
    else if (brk.forced) who = 'the layout';
    rows.push(['decision', `${d} (by ${who})`]);
    if (brk.p_join !== null && brk.p_join !== undefined) {
      rows.push(['hybrid', `P(join) ${brk.p_join.toFixed(2)} → ${brk.hybrid}`]);
      rows.push(['hybrid evidence', formatEvidence(brk.evidence)]);
    }
    rows.push(['context', brk.context === 'joined' ? 'joined (read without the wraps)' : 'as-is (read as it is)']);
    rows.push(['P(next line start)', fmtProb(brk.logp_next)]);
    if (brk.forced) rows.push(['forced', brk.reason]);
    if (brk.layout) rows.push(['layout', formatLayout(brk.layout)]);
    if (brk.token >= 0 && doc.tokens[brk.token] && doc.tokens[brk.token].top.length) {
      rows.push(['model expected', formatTop(doc.tokens[brk.token].top)]);
    }
    return rows;
  }
  if (cell.t.length === 0) {
    rows.push(['probability', 'not read by the model in this context']);
    return rows;
  }
  const [first, last] = cell.t;
  const split = last > first;
  rows.push(['probability', `${fmtProb(cell.logprob)}${split ? ' (product of its byte tokens)' : ''}${cell.shared ? ' (token shared with neighbours)' : ''}`]);
  for (let t = first; t <= last; t += 1) {
    const tok = doc.tokens[t];
    rows.push([`token #${t}`, `${JSON.stringify(tok.text)}  bytes ${hexBytes(tok.hex)}  p=${fmtProb(tok.logprob)}`]);
  }
  const top = doc.tokens[first].top;
  if (top && top.length) rows.push(['model expected', formatTop(top)]);
  return rows;
}

function formatLayout(f) {
  const parts = [`line ${Math.round(f.fill * 100)} % full`, `next indent ${f.indent_next} em`];
  if (f.page_break) parts.push('page break');
  else if (f.gap !== null) parts.push(`gap ${f.gap} lines`);
  if (f.size_change) parts.push(`font size ${f.size_change > 0 ? '+' : ''}${f.size_change}`);
  if (f.bullet_next) parts.push('next starts with a bullet/number');
  if (f.table) parts.push('table row');
  if (f.code) parts.push('code (monospaced)');
  return parts.join(' · ');
}

/** The features that weigh most, with their pull: + towards joining, − towards keeping. */
export function formatEvidence(evidence, n = 4) {
  return [...evidence].sort((a, b) => Math.abs(b[2]) - Math.abs(a[2])).slice(0, n)
    .map(([name, value, c]) => `${name.replace(/_/g, ' ')} ${Number(value.toFixed(2))} (${c >= 0 ? '+' : '−'}${Math.abs(c).toFixed(1)})`)
    .join(', ');
}

function formatTop(top) {
  return top.map(([text, lp]) => `${JSON.stringify(text)} ${fmtProb(lp)}`).join(', ');
}
