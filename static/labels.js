// labels.js: an analyst's labels on the page ({offset: 'join'/'keep'}: what the analyst says,
// kept apart from what the decider does): saved as JSON Lines in the format
// scorer/labelfile.py reads back, merged with loaded ones, compared with the decider (its
// mistakes), and scored: how well the decider does on them (accuracy, macro-F1) and macro-F1
// against the cutoff. The formula is scorer/evaluate/metrics.py's; tests/fixtures/metrics.json holds the
// cases both languages must pass.
import { decide } from './policy.js';

const CONTEXT = 40; // characters either side of a break in a label's context

/** The labels file: one JSON object a line, {doc, offset, context, label}, by offset. */
export function labelLines(doc, labels) {
  const chars = Array.from(doc.text);
  return Object.keys(labels).map(Number).sort((a, b) => a - b).map((i) => JSON.stringify({
    doc: doc.sha256,
    offset: i,
    context: `${chars.slice(Math.max(0, i - CONTEXT), i).join('')}⏎${chars.slice(i + 1, i + 1 + CONTEXT).join('')}`,
    label: labels[i],
  })).map((line) => `${line}\n`).join('');
}

const f1 = (tp, fp, fn) => (tp ? (2 * tp) / (2 * tp + fp + fn) : 0);

/** Accuracy, F1 of keep and of join, macro-F1 from the confusion counts (n = 0: accuracy null). */
export function fromCounts(c) {
  const n = c.wrap_joined + c.wrap_kept + c.break_kept + c.break_joined;
  const fKeep = f1(c.break_kept, c.wrap_kept, c.break_joined);
  const fJoin = f1(c.wrap_joined, c.break_joined, c.wrap_kept);
  return {
    n, accuracy: n ? (c.wrap_joined + c.break_kept) / n : null,
    f1_keep: fKeep, f1_join: fJoin, macro_f1: (fKeep + fJoin) / 2, ...c,
  };
}

/** The decider's decisions (forced keeps included, hand decisions aside) against the labels
 * ({offset: 'join'/'keep'}): a label 'join' says the break is a wrap. */
export function scoreLabels(breaks, policy, labels) {
  const c = { wrap_joined: 0, wrap_kept: 0, break_kept: 0, break_joined: 0 };
  breaks.forEach((b) => {
    const label = labels[b.i];
    if (!label) return;
    const d = decide(b, policy);
    c[`${label === 'join' ? 'wrap' : 'break'}_${d === 'join' ? 'joined' : 'kept'}`] += 1;
  });
  return fromCounts(c);
}

/** Macro-F1 of the percentile decider at every whole cutoff 0..100: [[cutoff, macroF1], ...]. */
export function f1Curve(breaks, policy, labels) {
  const out = [];
  for (let cutoff = 0; cutoff <= 100; cutoff += 1) {
    out.push([cutoff, scoreLabels(breaks, { ...policy, decider: 'percentile', cutoff }, labels).macro_f1]);
  }
  return out;
}

/** How many labels of each kind; `measurable` when both kinds are there (with one kind only,
 * macro-F1 says nothing: the absent kind's F1 is 0 whatever the decider does). */
export function labelCounts(labels) {
  const values = Object.values(labels);
  const join = values.filter((d) => d === 'join').length;
  return { n: values.length, join, keep: values.length - join, measurable: join > 0 && join < values.length };
}

/** Indices of the breaks whose label says otherwise than the decider (forced keeps included,
 * labels aside): the decider's mistakes, in text order. */
export function mistakes(breaks, policy, labels) {
  const out = [];
  breaks.forEach((b, k) => {
    if (labels[b.i] && labels[b.i] !== decide(b, policy)) out.push(k);
  });
  return out;
}

/** Loaded labels merged into the existing ones (a loaded label wins): the merged labels and
 * what happened: how many were new, the same, changed. */
export function mergeLabels(existing, loaded) {
  const labels = { ...existing };
  let added = 0;
  let same = 0;
  let changed = 0;
  Object.entries(loaded).forEach(([i, d]) => {
    if (!(i in existing)) added += 1;
    else if (existing[i] === d) same += 1;
    else changed += 1;
    labels[i] = d;
  });
  return { labels, added, same, changed };
}
