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
 *            hybrid: string, evidence: Array<[string, ?number, number]>,
 *            asked: boolean, logp_window: ?number, unhyphen: boolean}} Break
 *   A candidate newline at character i; joiner replaces it when joined; forced is a decision
 *   the layout imposes (table rows); layout holds the PDF's evidence (null for plain text);
 *   p_join and hybrid are the hybrid decider's P(join) and decision, evidence its features as
 *   [name, value, contribution to the log-odds of joining]; asked: whether the hybrid asked
 *   the model here (elsewhere the layout decides whatever the model says: its value is null,
 *   its contribution 0), logp_window what it read then (P(newline) from the 8 or 32 tokens
 *   before the break alone: stats.reading_window).
 * @typedef {{text: string, sha256: string, mode: string, model: Object, timings: Object, tokens: Token[],
 *            cells: Cell[], breaks: Break[], source: ?{warnings: ?string[]}}} Doc (source: a PDF's
 *   pages, removed lines, and warnings for the pages that could not be read)
 * @typedef {import('./policy.js').Policy} Policy
 */

const GREY = 'hsl(0, 0%, 78%)';

/** How sure the active decider is about a break, signed: above 0 towards joining, 0 or below
 * towards keeping (exactly at the boundary it is 0: the break is kept), from -1 to 1; null
 * where the break has no evidence. */
export function margin(brk, policy) {
  if (policy.decider === 'hybrid') {
    if (brk.p_join === null || brk.p_join === undefined) return null;
    const t = policy.threshold;
    return brk.p_join > t ? (brk.p_join - t) / (1 - t) : (brk.p_join - t) / t;
  }
  if (brk.percentile === null || brk.percentile === undefined) return null;
  const c = policy.cutoff;
  return brk.percentile < c ? (c - brk.percentile) / c : -(brk.percentile - c) / Math.max(100 - c, 1e-9);
}

/** A decision's colour: red for join, green for keep, darker the surer (0..1). */
export function shade(decision, sure) {
  const s = Math.max(0, Math.min(1, sure));
  return decision === 'join' ? `hsl(0, 80%, ${Math.round(72 - 27 * s)}%)`
    : `hsl(135, 55%, ${Math.round(70 - 40 * s)}%)`;
}

/** How a break is drawn: its decision (override, forced keep, decider), who made it ('hand',
 * 'layout', 'decider', or 'none' without evidence), how sure, and the colour: the side is
 * always the decision's, so the colours say what the export will do. */
export function breakLook(brk, policy, overrides = {}) {
  const decision = decide(brk, policy, overrides);
  const by = overrides[brk.i] ? 'hand' : brk.forced ? 'layout' : 'decider';
  const m = margin(brk, policy);
  if (by === 'decider' && m === null) return { decision, by: 'none', sure: 0, color: GREY };
  const sure = by === 'decider' ? Math.abs(m) : 1;
  return { decision, by, sure, color: shade(decision, sure) };
}

/** The review queue: indices of the breaks the deciders leave to judgement, most doubtful
 * first: where the hybrid and the percentile disagree, then the closest to the active
 * decider's boundary; short: REVIEW_SHARE of the breaks (at least REVIEW_MIN where there are).
 * Breaks the layout forces are not in it. */
export const REVIEW_SHARE = 0.1;
export const REVIEW_MIN = 5;

export function reviewOrder(breaks, policy) {
  const other = { ...policy, decider: policy.decider === 'hybrid' ? 'percentile' : 'hybrid' };
  const rows = [];
  breaks.forEach((b, k) => {
    if (b.forced) return;
    const m = margin(b, policy);
    const agree = decide(b, policy) === decide(b, other);
    rows.push({ k, agree, doubt: m === null ? 0 : Math.abs(m) });
  });
  rows.sort((a, b) => (a.agree - b.agree) || (a.doubt - b.doubt) || (a.k - b.k));
  const size = Math.max(Math.min(REVIEW_MIN, rows.length), Math.ceil(breaks.length * REVIEW_SHARE));
  return rows.slice(0, size).map((r) => r.k);
}

/** The next (step 1) or previous (-1) break of `list` (break indices) from break `current`:
 * in the list's own order from one of its members, wrapping round; from any other break, the
 * list's first (last) one, or with `byText` (a list in text order) the nearest one after
 * (before) it. -1 for an empty list. */
export function stepThrough(list, current, step, byText = false) {
  const n = list.length;
  if (!n) return -1;
  const at = list.indexOf(current);
  if (at >= 0) return list[(at + step + n) % n];
  if (byText && current >= 0) {
    const near = step > 0 ? list.find((k) => k > current) : list.findLast((k) => k < current);
    if (near !== undefined) return near;
  }
  return step > 0 ? list[0] : list[n - 1];
}

/** Points between two breaks' P(newline) percentiles; null where either has none. */
function percentileGap(a, b) {
  const known = (x) => x.percentile !== null && x.percentile !== undefined;
  return known(a) && known(b) ? Math.abs(a.percentile - b.percentile) : null;
}

/** How far apart two models' P(newline) percentiles must be, on either side of the cutoff,
 * for their readings of a break to count as different. */
export const EVIDENCE_GAP = 10;

/** Where a second model differs, in text order: {k (index into `breaks`), decided (its break
 * at the same offset is decided otherwise under `policy`), gap (points between the two models'
 * P(newline) percentiles)} for each break decided otherwise, or whose two percentiles lie on
 * either side of the cutoff at least EVIDENCE_GAP points apart: the models' intuitions differ
 * there even where the layout or the hybrid decides alike for both. `otherAt`: the other
 * model's breaks by char offset. Labels play no part: this compares the two models alone. */
export function disagreements(breaks, otherAt, policy) {
  const out = [];
  breaks.forEach((b, k) => {
    const o = otherAt.get(b.i);
    if (!o) return;
    const gap = percentileGap(b, o);
    const decided = decide(o, policy) !== decide(b, policy);
    const read = gap !== null && gap >= EVIDENCE_GAP
      && byPercentile(b.percentile, policy.cutoff) !== byPercentile(o.percentile, policy.cutoff);
    if (decided || read) out.push({ k, decided, gap: gap === null ? 0 : gap });
  });
  return out;
}

/** The surprise (bits) above which a character is shaded: the `share` of the document's
 * characters the model found most surprising, and never below 4 bits (P >= 1/16 is no
 * surprise). */
export function surpriseFloor(cells, share = 0.05) {
  const bits = cells.filter((c) => c.ch !== '\n' && c.logprob !== null && c.logprob !== undefined)
    .map((c) => -c.logprob / Math.LN2).sort((a, b) => b - a);
  if (!bits.length) return 4;
  return Math.max(4, bits[Math.min(bits.length - 1, Math.floor(bits.length * share))]);
}

/** Background alpha of a character: 0 at or below `floorBits` of surprise, from 0.15 above it
 * up to 0.5. */
export function surpriseAlpha(logprob, floorBits = 4) {
  if (logprob === null || logprob === undefined) return 0;
  const bits = -logprob / Math.LN2;
  return bits > floorBits ? Math.min(0.5, 0.15 + (bits - floorBits) / 24) : 0;
}

/** Seconds as m:ss (or h:mm:ss): "0:09", "1:02", "1:02:03". */
export function fmtDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What a reader must know of the document beside its text: its source's warnings (a PDF's
 * pages that could not be read), each a sentence; '' when none. */
export function warningsLine(doc) {
  const warnings = (doc.source && doc.source.warnings) || [];
  return warnings.map((w) => `Warning: ${w}.`).join(' ');
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
 * @param {?{name: string, at: Map<number, Break>}} other  a second model's breaks by offset
 */
/** Tooltip rows of a grapheme cluster (code points i .. i + n - 1 shown as one cell): the
 * cluster, its code points, its probability (the product of theirs) and every token. */
export function clusterRows(doc, i, n) {
  const part = doc.cells.slice(i, i + n);
  const points = part.map((c) => `U+${c.ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  const rows = [['character', `${part.map((c) => c.ch).join('')}  ${n} code points: ${points.join(' ')}`]];
  const known = part.every((c) => c.logprob !== null && c.logprob !== undefined);
  rows.push(['probability', known ? `${fmtProb(part.reduce((s, c) => s + c.logprob, 0))} (product of its code points')` : 'not read by the model in this context']);
  const read = part.filter((c) => c.t.length);
  if (!read.length) return rows;
  const first = Math.min(...read.map((c) => c.t[0]));
  const last = Math.max(...read.map((c) => c.t[1]));
  for (let t = first; t <= last; t += 1) {
    const tok = doc.tokens[t];
    if (tok) rows.push([`token #${t}`, `${JSON.stringify(tok.text)}  bytes ${hexBytes(tok.hex)}  p=${fmtProb(tok.logprob)}`]);
  }
  return rows;
}

export function tooltipRows(doc, index, breakAt, policy, overrides = {}, labels = overrides,
  other = null) {
  const cell = doc.cells[index];
  const rows = [];
  const shown = cell.ch === '\n' ? '⏎ (newline)' : cell.ch === ' ' ? '␣ (space)' : cell.ch;
  rows.push(['character', `${shown}  U+${cell.ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`]);
  const brk = breakAt.get(index);
  if (brk) {
    rows.push(['in short', inShort(brk, decide(brk, policy, overrides), policy, overrides)]);
    rows.push(['details', 'the numbers behind it']);
    rows.push(['P(newline here)', fmtProb(brk.logp)]);
    rows.push(['percentile', brk.percentile === null ? '—' : `${brk.percentile.toFixed(1)} %`]);
    const d = decide(brk, policy, overrides);
    const own = decide(brk, policy);
    let who = policy.decider === 'hybrid' ? 'the hybrid' : 'the percentile cutoff';
    if (overrides[brk.i]) who = 'your label';
    else if (brk.forced) who = 'the layout';
    rows.push(['decision', `${d} (by ${who})`]);
    if (labels[brk.i]) {
      const verdict = labels[brk.i] === own ? 'the decider agrees' : `the decider says ${own}: a mistake`;
      rows.push(['your label', `${labels[brk.i]} (${verdict})`]);
    }
    if (brk.p_join !== null && brk.p_join !== undefined) {
      rows.push(['hybrid', `P(join) ${brk.p_join.toFixed(2)} → ${brk.hybrid}`]);
      rows.push(['hybrid evidence', formatEvidence(brk.evidence)]);
      if (brk.asked === false) rows.push(['model', 'not asked: no P(newline) in its usual range could change this decision']);
    }
    const theirs = other && other.at.get(brk.i);
    if (theirs) {
      const agree = decide(theirs, policy) === decide(brk, policy) ? 'the same' : 'otherwise';
      const points = percentileGap(theirs, brk);
      const gap = points === null ? '' : `, ${points.toFixed(0)} points from this model's`;
      rows.push([other.name, `P(newline) ${fmtProb(theirs.logp)}, percentile ${theirs.percentile === null ? '—' : `${theirs.percentile.toFixed(1)} %`}${gap} → ${decide(theirs, policy)} (decides ${agree})`]);
    }
    rows.push(['context', brk.context === 'joined' ? 'joined (read without the wraps)' : 'as-is (read as it is)']);
    rows.push(['P(the next line\'s first word)', fmtProb(brk.logp_next)]);
    if (brk.forced) rows.push(['forced', brk.reason]);
    if (brk.unhyphen) rows.push(['hyphen', 'the model reads one word here: the hyphen goes when the lines are joined']);
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
  if (f.hanging) parts.push('next hangs from the line\'s marker or tag');
  if (f.bullet_next) parts.push('next starts with a bullet/number');
  if (f.bigger) parts.push('the line is set bigger than the body text');
  if (f.cell) parts.push('a wrap inside one table cell');
  else if (f.table) parts.push('table row');
  if (f.code) parts.push('code (monospaced)');
  if (f.figure) parts.push('text drawn on a figure');
  return parts.join(' · ');
}

const pct = (v) => `${Math.round(v * 100)} %`;
const FEATURE_WORDS = {
  fill: (v) => `the line is ${pct(v)} full`,
  short: (v) => (v ? 'the line is short' : 'the line is not short'),
  sentence_end: (v) => (v ? 'the line ends a sentence' : 'the line does not end a sentence'),
  clause_end: (v) => (v ? 'the line ends with a comma' : 'no comma at the line end'),
  next_lower: (v) => (v ? 'the next line starts lower-case' : 'the next line does not start lower-case'),
  next_item: (v) => (v ? 'the next line starts a list item' : 'the next line is no list item'),
  room: (v) => (v >= 0.01 ? `the next line's first word would have fit on this line, with ${pct(v)} of a line to spare`
    : v > 0 ? 'the next line\'s first word would only just have fit on this line' : 'the next line\'s first word would not have fit on this line'),
  fits: (v) => (v > 0 ? `on the page, the next line's first word would have fit on this line, with ${pct(v)} of a line to spare`
    : 'on the page, the next line\'s first word would not have fit on this line'),
  gap: (v) => (v > 0 ? `${v.toFixed(1)} lines more space than usual before the next line` : 'the usual space before the next line'),
  indent: (v) => (v ? `the next line is indented ${v.toFixed(1)} em from its block` : 'the next line is not indented'),
  indent_full: (v) => (v ? `a full line before an indent of ${v.toFixed(1)} em` : 'no indent after a full line'),
  page_break: (v) => (v ? 'the next line is on the next page' : 'the same page'),
  logp_newline: (v) => `the model gave a newline here P = ${fmtProb(v)}`,
  logp_window: (v) => `the model, reading the few tokens before, gave a newline here P = ${fmtProb(v)}`,
  newline_pct: (v) => `P(newline) at percentile ${Math.round(v * 100)}`,
  logp_next: (v) => `the next line's start has P = ${fmtProb(v)}`,
};

/** The features that weigh most, in words, with their pull: towards joining or keeping. */
export function formatEvidence(evidence, n = 4) {
  return evidence.filter(([, value]) => value !== null)
    .sort((a, b) => Math.abs(b[2]) - Math.abs(a[2])).slice(0, n)
    .map(([name, value, c]) => {
      const words = FEATURE_WORDS[name] ? FEATURE_WORDS[name](value) : `${name.replace(/_/g, ' ')} ${Number(value.toFixed(2))}`;
      return `${words} (towards ${c >= 0 ? 'joining' : 'keeping'}, weight ${Math.abs(c).toFixed(1)})`;
    })
    .join('; ');
}

/** A break in plain words, for anyone: what happens to it and the two reasons that weigh most
 * (no numbers: the rows below the "details" line hold them). */
export function inShort(brk, decision, policy, overrides = {}) {
  const what = decision === 'join' ? 'Joined: the line runs on into the next one'
    : 'Kept: a new paragraph (or line) starts here';
  if (overrides[brk.i]) return `${what}, as you labelled it.`;
  if (brk.forced) return `${what}: the layout decides (${brk.reason || 'a heading, list item, table row or code'}).`;
  if (policy.decider === 'hybrid' && brk.evidence && brk.evidence.length) {
    const top = brk.evidence.filter(([, value]) => value !== null)
      .sort((a, b) => Math.abs(b[2]) - Math.abs(a[2])).slice(0, 2)
      .map(([name, value]) => (FEATURE_WORDS[name] ? FEATURE_WORDS[name](value) : name.replace(/_/g, ' ')));
    const sure = Math.abs(brk.p_join - 0.5) > 0.4 ? 'clearly' : Math.abs(brk.p_join - 0.5) > 0.2 ? 'fairly surely' : 'narrowly';
    return `${what} (${sure}), mostly because ${top.join(' and ')}.${modelAlone(brk, decision, policy)}`;
  }
  if (brk.percentile === null || brk.percentile === undefined) return `${what}: the model gave no evidence here.`;
  const rank = Math.round(brk.percentile);
  return decision === 'join'
    ? `${what}: the model expected a line break here less than at ${100 - rank} % of this document's breaks.`
    : `${what}: the model expected a line break here more than at ${rank} % of this document's breaks.`;
}

/** The model's own reading of a break the hybrid decided, in plain words: what its P(newline)
 * percentile alone would do at the cutoff, and whether the hybrid weighed it. */
function modelAlone(brk, decision, policy) {
  if (brk.percentile === null || brk.percentile === undefined) return '';
  const rank = Math.round(brk.percentile);
  const alone = byPercentile(brk.percentile, policy.cutoff);
  const how = alone === 'join' ? `less than at ${100 - rank} %` : `more than at ${rank} %`;
  const weighed = brk.asked === false
    ? `; the hybrid did not ask it: no reading of it could ${alone === decision ? 'change' : 'overturn'} what the rest says`
    : '';
  return ` The model alone would ${alone} it: it expected a line break here ${how} of this document's breaks${weighed}.`;
}

function formatTop(top) {
  return top.map(([text, lp]) => `${JSON.stringify(text)} ${fmtProb(lp)}`).join(', ');
}
