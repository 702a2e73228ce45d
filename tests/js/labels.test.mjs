// Labels on the page (static/labels.js): the metrics on the cases shared with
// scorer/evaluate/metrics.py (tests/fixtures/metrics.json), scoring and the F1 curve, the
// JSON Lines format (tests/test_labels.py reads what labelLines writes with scorer/labelfile.py).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  f1Curve, fromCounts, labelCounts, labelLines, mergeLabels, mistakes, scoreLabels,
} from '../../static/labels.js';

const shared = JSON.parse(readFileSync(new URL('../fixtures/metrics.json', import.meta.url), 'utf-8'));

for (const c of shared.cases) {
  test(`metrics: ${c.name}`, () => {
    const got = fromCounts(c.counts);
    for (const [key, want] of Object.entries(c.expect)) {
      if (want === null) assert.equal(got[key], null, key);
      else assert.ok(Math.abs(got[key] - want) < 1e-9, `${key}: ${got[key]} != ${want}`);
    }
  });
}

const policy = { decider: 'percentile', cutoff: 50, threshold: 0.5 };
const breaks = [
  { i: 3, percentile: 10, p_join: 0.9, forced: null },
  { i: 8, percentile: 30, p_join: 0.2, forced: null },
  { i: 12, percentile: 70, p_join: 0.6, forced: null },
  { i: 20, percentile: 90, p_join: 0.9, forced: 'keep' },
];

test('the decider is scored on the labelled breaks only, hand decisions aside', () => {
  const labels = { 3: 'join', 8: 'keep', 20: 'keep' };
  const got = scoreLabels(breaks, policy, labels);
  // percentile at 50: 3 joined (right), 8 joined (wrong), 20 kept by the layout (right)
  assert.deepEqual([got.n, got.wrap_joined, got.break_joined, got.break_kept], [3, 1, 1, 1]);
  const hybrid = scoreLabels(breaks, { ...policy, decider: 'hybrid' }, labels);
  assert.equal(hybrid.accuracy, 1); // 0.9 join, 0.2 keep, forced keep
});

test('the curve has one point per whole cutoff and peaks where the labels are separated', () => {
  const labels = { 3: 'join', 8: 'join', 12: 'keep' };
  const curve = f1Curve(breaks, policy, labels);
  assert.equal(curve.length, 101);
  assert.deepEqual(curve[0], [0, 0.25]); // all kept: F1(keep) 2/4, F1(join) 0
  const best = Math.max(...curve.map(([, f]) => f));
  assert.equal(best, 1);
  assert.equal(curve[50][1], 1); // 10 and 30 join, 70 keeps
  assert.ok(curve[20][1] < 1); // 30 is kept at 20: one wrap wrong
});

test('a label line names the document, the break, its context and the label', () => {
  const doc = { text: 'ab\ncd\n中文', sha256: 'f'.repeat(64) };
  const lines = labelLines(doc, { 5: 'keep', 2: 'join' }).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.offset, l.label]), [[2, 'join'], [5, 'keep']]);
  assert.equal(lines[0].doc, doc.sha256);
  assert.equal(lines[0].context, 'ab⏎cd\n中文');
  assert.equal(lines[1].context, 'ab\ncd⏎中文');
});

test('labels are measurable only with both kinds', () => {
  assert.deepEqual(labelCounts({}), { n: 0, join: 0, keep: 0, measurable: false });
  assert.deepEqual(labelCounts({ 3: 'join', 8: 'join' }), { n: 2, join: 2, keep: 0, measurable: false });
  assert.equal(labelCounts({ 3: 'join', 8: 'keep' }).measurable, true);
});

test('the mistakes are the labels the decider contradicts, forced keeps included', () => {
  // percentile at 50: 3 and 8 joined, 12 kept, 20 forced keep
  assert.deepEqual(mistakes(breaks, policy, { 3: 'join', 8: 'keep', 12: 'join', 20: 'join' }), [1, 2, 3]);
  assert.deepEqual(mistakes(breaks, policy, { 3: 'join', 20: 'keep' }), []);
  assert.deepEqual(mistakes(breaks, { ...policy, decider: 'hybrid' }, { 8: 'keep' }), []);
});

test('loaded labels merge into the present ones and say what they did', () => {
  const got = mergeLabels({ 3: 'join', 8: 'keep' }, { 8: 'join', 3: 'join', 12: 'keep' });
  assert.deepEqual(got, { labels: { 3: 'join', 8: 'join', 12: 'keep' }, added: 1, same: 1, changed: 1 });
});
