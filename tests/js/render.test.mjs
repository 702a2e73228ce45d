// Pure page logic (static/render.js) under node's test runner; run by tests/test_js.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  breakColor, countDecisions, fmtProb, formatEvidence, histogram, surpriseAlpha, tooltipRows,
} from '../../static/render.js';

// decisions and merging: tests/js/policy.test.mjs, on the cases shared with the engine
const pct = (cutoff) => ({ decider: 'percentile', cutoff, threshold: 0.5 });
const hyb = { decider: 'hybrid', cutoff: 34, threshold: 0.5 };

const brk = (i, percentile, joiner = ' ', logp = -1) => ({
  i, percentile, joiner, logp, p: Math.exp(logp), token: -1, logp_next: null, context: 'joined',
});

test('colour runs from red (join) to green (keep); unknown is grey', () => {
  assert.equal(breakColor(0), 'hsl(0, 75%, 55%)');
  assert.equal(breakColor(100), 'hsl(120, 75%, 55%)');
  assert.equal(breakColor(null), 'hsl(0, 0%, 80%)');
  assert.ok(surpriseAlpha(Math.log(0.9)) === 0 && surpriseAlpha(Math.log(1e-6)) > 0.5);
});

test('counts of decisions', () => {
  assert.deepEqual(countDecisions(['join', 'keep', 'join']), { joined: 2, kept: 1 });
});

test('the histogram under the hybrid counts its joins and draws no cutoff', () => {
  const breaks = [
    { ...brk(1, 10), p_join: 0.2 },
    { ...brk(3, 90), p_join: 0.9 },
    { ...brk(5, 90), p_join: 0.9, forced: 'keep' },
  ];
  const { cutAt, bins } = histogram(breaks, hyb, 10);
  assert.equal(cutAt, null);
  assert.equal(bins.reduce((s, b) => s + b.joined, 0), 1);
});

test('evidence lists the heaviest features first, signed towards joining', () => {
  const evidence = [['fill', 0.98, 1.25], ['sentence_end', 1, -2.5], ['gap', 0, 0.01]];
  assert.equal(formatEvidence(evidence, 2), 'sentence end 1 (−2.5), fill 0.98 (+1.3)');
});

test('histogram counts every scored break and places the cutoff between the groups', () => {
  const breaks = [brk(1, 12.5, ' ', -9), brk(2, 37.5, ' ', -6), brk(3, 62.5, ' ', -2),
    brk(4, 87.5, ' ', -0.1)];
  const h = histogram(breaks, pct(50), 10);
  assert.equal(h.bins.reduce((a, b) => a + b.count, 0), 4);
  assert.ok(h.cutAt > -6 / Math.LN10 && h.cutAt < -2 / Math.LN10);
  assert.deepEqual(histogram([], pct(34)).bins, []);
});

test('tooltip lists every byte token of a split character, as text', () => {
  const doc = {
    cells: [{ ch: '股', t: [0, 2], logprob: Math.log(0.125), shared: false },
      { ch: '\n', t: [], logprob: null, shared: false }],
    tokens: [
      { id: 1, text: '<0xE8>', hex: 'e8', logprob: Math.log(0.5), top: [['<img>', Math.log(0.4)]] },
      { id: 2, text: '<0xB2>', hex: 'b2', logprob: Math.log(0.5), top: [] },
      { id: 3, text: '<0xA1>', hex: 'a1', logprob: Math.log(0.5), top: [] }],
    breaks: [brk(1, 20)],
  };
  const rows = tooltipRows(doc, 0, new Map(), pct(34));
  const tokenRows = rows.filter(([k]) => k.startsWith('token #'));
  assert.equal(tokenRows.length, 3);
  assert.match(tokenRows[0][1], /bytes E8 .*p=0\.500/);
  assert.match(rows[1][1], /0\.125 \(product of its byte tokens\)/);
  const breakRows = tooltipRows(doc, 1, new Map([[1, doc.breaks[0]]]), pct(34));
  assert.deepEqual(breakRows.find(([k]) => k === 'decision'), ['decision', 'join (by the percentile cutoff)']);
  const hybridBreak = { ...brk(1, 20), p_join: 0.1, hybrid: 'keep', evidence: [['fill', 0.5, -1.5]] };
  const hybridRows = tooltipRows(doc, 1, new Map([[1, hybridBreak]]), hyb);
  assert.deepEqual(hybridRows.find(([k]) => k === 'decision'), ['decision', 'keep (by the hybrid)']);
  assert.deepEqual(hybridRows.find(([k]) => k === 'hybrid'), ['hybrid', 'P(join) 0.10 → keep']);
  assert.deepEqual(hybridRows.find(([k]) => k === 'hybrid evidence'), ['hybrid evidence', 'fill 0.5 (−1.5)']);
  const forcedRows = tooltipRows(doc, 1, new Map([[1, { ...hybridBreak, forced: 'keep' }]]), hyb);
  assert.deepEqual(forcedRows.find(([k]) => k === 'decision'), ['decision', 'keep (by the layout)']);
  const handRows = tooltipRows(doc, 1, new Map([[1, hybridBreak]]), hyb, { 1: 'join' });
  assert.deepEqual(handRows.find(([k]) => k === 'decision'), ['decision', 'join (by hand)']);
  assert.equal(fmtProb(null), '—');
});
