// Pure page logic (static/render.js) under node's test runner; run by tests/test_js.py.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  breakLook, countDecisions, fmtProb, formatEvidence, histogram, inShort, margin, reviewOrder, shade,
  stepThrough, surpriseAlpha, surpriseFloor, fmtDuration, tooltipRows, disagreements, EVIDENCE_GAP,
  warningsLine,
} from '../../static/render.js';

// decisions and merging: tests/js/policy.test.mjs, on the cases shared with the engine
const pct = (cutoff) => ({ decider: 'percentile', cutoff, threshold: 0.5 });
const hyb = { decider: 'hybrid', cutoff: 34, threshold: 0.5 };

const brk = (i, percentile, joiner = ' ', logp = -1) => ({
  i, percentile, joiner, logp, p: Math.exp(logp), token: -1, logp_next: null, context: 'joined',
});

test('the colour takes the decision\'s side, exactly at the boundary too', () => {
  const red = (look) => look.color.startsWith('hsl(0,');
  const b = { ...brk(1, 40), p_join: 0.5 };
  assert.ok(red(breakLook(b, pct(40.001))) && breakLook(b, pct(40.001)).decision === 'join');
  assert.ok(!red(breakLook(b, pct(40))) && breakLook(b, pct(40)).decision === 'keep');
  assert.ok(!red(breakLook(b, hyb)));  // P(join) 0.5 is not above the threshold: kept
  assert.ok(red(breakLook({ ...b, p_join: 0.5001 }, hyb)));
  // the shade says how sure: far from the boundary is darker
  assert.ok(margin(brk(1, 5), pct(50)) > margin(brk(1, 45), pct(50)));
  assert.ok(margin(brk(1, 50), pct(50)) === 0); // at the boundary: kept, with no certainty
  assert.notEqual(shade('join', 1), shade('join', 0.1));
  // hand and layout win the colour too, and say so
  assert.deepEqual([breakLook(b, pct(90), { 1: 'keep' }).decision, breakLook(b, pct(90), { 1: 'keep' }).by], ['keep', 'hand']);
  assert.equal(breakLook({ ...b, forced: 'keep' }, pct(90)).by, 'layout');
  assert.equal(breakLook(brk(1, null), pct(90)).by, 'none');
  assert.ok(surpriseAlpha(Math.log(0.1)) === 0 && surpriseAlpha(Math.log(1e-6)) > 0.3);
});

test('the review queue: disagreements first, then the closest to the boundary, no forced keeps', () => {
  const breaks = [
    { ...brk(1, 10), p_join: 0.95 }, // both join, sure
    { ...brk(2, 30), p_join: 0.55 }, // both join, near both boundaries
    { ...brk(3, 80), p_join: 0.9 }, // the deciders disagree
    { ...brk(4, 33), p_join: 0.1, forced: 'keep' }, // forced: not reviewed
  ];
  assert.deepEqual(reviewOrder(breaks, pct(34)), [2, 1, 0]);
  assert.deepEqual(reviewOrder(breaks, hyb), [2, 1, 0]);
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

test('evidence lists the heaviest features first, in words, with their pull', () => {
  const evidence = [['fill', 0.98, 1.25], ['sentence_end', 1, -2.5], ['gap', 0, 0.01]];
  assert.equal(formatEvidence(evidence, 2),
    'the line ends a sentence (towards keeping, weight 2.5); the line is 98 % full (towards joining, weight 1.3)');
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
  assert.deepEqual(hybridRows.find(([k]) => k === 'hybrid evidence'), ['hybrid evidence', 'the line is 50 % full (towards keeping, weight 1.5)']);
  assert.equal(hybridRows.find(([k]) => k === 'model'), undefined);
  // the cascade: where the model was not asked its evidence is null, and the tooltip says so
  const sure = { ...hybridBreak, asked: false, evidence: [['logp_newline', null, 0], ['fill', 0.5, -1.5]] };
  const sureRows = tooltipRows(doc, 1, new Map([[1, sure]]), hyb);
  assert.deepEqual(sureRows.find(([k]) => k === 'hybrid evidence'), ['hybrid evidence', 'the line is 50 % full (towards keeping, weight 1.5)']);
  assert.match(sureRows.find(([k]) => k === 'model')[1], /^not asked/);
  const forcedRows = tooltipRows(doc, 1, new Map([[1, { ...hybridBreak, forced: 'keep' }]]), hyb);
  assert.deepEqual(forcedRows.find(([k]) => k === 'decision'), ['decision', 'keep (by the layout)']);
  const handRows = tooltipRows(doc, 1, new Map([[1, hybridBreak]]), hyb, { 1: 'join' });
  assert.deepEqual(handRows.find(([k]) => k === 'decision'), ['decision', 'join (by your label)']);
  assert.deepEqual(handRows.find(([k]) => k === 'your label'), ['your label', 'join (the decider says keep: a mistake)']);
  // exports following the decider alone: the decision is the hybrid's, the label still shown
  const aloneRows = tooltipRows(doc, 1, new Map([[1, hybridBreak]]), hyb, {}, { 1: 'keep' });
  assert.deepEqual(aloneRows.find(([k]) => k === 'decision'), ['decision', 'keep (by the hybrid)']);
  assert.deepEqual(aloneRows.find(([k]) => k === 'your label'), ['your label', 'keep (the decider agrees)']);
  assert.equal(fmtProb(null), '—');
});

test('surprise shades only the most surprising characters of the document', () => {
  const cells = Array.from({ length: 100 }, (_, k) => ({ ch: 'a', logprob: -k * 0.1 * Math.LN2 }));
  const floor = surpriseFloor(cells, 0.05); // bits 0 .. 9.9: the top 5 % start at 9.5 bits
  assert.ok(floor >= 9.4 && floor <= 9.6, String(floor));
  const shaded = cells.filter((c) => surpriseAlpha(c.logprob, floor) > 0).length;
  assert.ok(shaded <= 5 && shaded >= 4, String(shaded));
  assert.equal(surpriseFloor([{ ch: 'a', logprob: -0.1 }]), 4); // never below 4 bits
});

test('durations read as minutes and seconds', () => {
  assert.equal(fmtDuration(9.4), '0:09');
  assert.equal(fmtDuration(62), '1:02');
  assert.equal(fmtDuration(1862), '31:02');
  assert.equal(fmtDuration(3723), '1:02:03');
  assert.equal(fmtDuration(-3), '0:00');
});

test('stepping through a list: its own order from a member, the nearest in text from elsewhere', () => {
  const queue = [7, 2, 9];
  assert.equal(stepThrough(queue, 2, 1), 9);
  assert.equal(stepThrough(queue, 9, 1), 7); // wraps round
  assert.equal(stepThrough(queue, 7, -1), 9);
  assert.equal(stepThrough(queue, 5, 1), 7); // not a member: the queue starts over
  assert.equal(stepThrough(queue, -1, -1), 9);
  const mistakes = [3, 8, 12];
  assert.equal(stepThrough(mistakes, 5, 1, true), 8);
  assert.equal(stepThrough(mistakes, 5, -1, true), 3);
  assert.equal(stepThrough(mistakes, 13, 1, true), 3); // past the last: wraps to the first
  assert.equal(stepThrough(mistakes, 1, -1, true), 12);
  assert.equal(stepThrough(mistakes, -1, 1, true), 3);
  assert.equal(stepThrough([], 4, 1, true), -1);
});

test('two models: where the second decides otherwise or reads P(newline) across the cutoff, and its tooltip row', () => {
  const ours = [brk(3, 10), brk(8, 60), brk(12, 20), { ...brk(20, 90), forced: 'keep' }, brk(25, 30)];
  const theirs = new Map([[3, brk(3, 15)], [8, brk(8, 20)], [12, brk(12, 70)],
    [20, { ...brk(20, 5), forced: 'keep' }], // the layout keeps it for both: the readings differ
    [25, brk(25, 38)]]); // across the cutoff, 8 points apart: decided otherwise, read alike
  const diff = disagreements(ours, theirs, pct(34));
  assert.deepEqual(diff.map((d) => d.k), [1, 2, 3, 4]);
  assert.deepEqual(diff.map((d) => d.decided), [true, true, false, true]);
  assert.deepEqual(diff.map((d) => d.gap), [40, 50, 85, 8]);
  // the hybrid decides alike (the same P(join) for both), the readings still differ
  const hybrid = { ...pct(34), decider: 'hybrid', threshold: 0.5 };
  const sure = (b) => ({ ...b, p_join: 0.9 });
  const both = disagreements(ours.map(sure), new Map([...theirs].map(([i, b]) => [i, sure(b)])), hybrid);
  assert.deepEqual(both.map((d) => [d.k, d.decided]), [[1, false], [2, false], [3, false]]); // not 4
  assert.deepEqual(disagreements(ours, theirs, pct(95)), []); // every reading on the join side
  assert.equal(EVIDENCE_GAP, 10);
  assert.deepEqual(disagreements(ours, new Map(), pct(34)), []); // nothing to compare with
  const cells = Array.from({ length: 26 }, () => ({ ch: '\n', t: [], logprob: null, shared: false }));
  const doc = { cells, tokens: [], breaks: ours };
  const other = { name: 'SmolLM2.gguf', at: theirs };
  const rows = tooltipRows(doc, 8, new Map(ours.map((b) => [b.i, b])), pct(34), {}, {}, other);
  assert.deepEqual(rows.find(([k]) => k === 'SmolLM2.gguf'),
    ['SmolLM2.gguf', "P(newline) 0.368, percentile 20.0 %, 40 points from this model's → join (decides otherwise)"]);
  const same = tooltipRows(doc, 3, new Map(ours.map((b) => [b.i, b])), pct(34), {}, {}, other);
  assert.match(same.find(([k]) => k === 'SmolLM2.gguf')[1], /→ join \(decides the same\)$/);
});

test('the review queue is short: a tenth of the breaks (at least five), the disagreements first', () => {
  const many = Array.from({ length: 80 }, (_, k) => ({ ...brk(2 * k, k), p_join: k < 34 || k === 70 ? 0.9 : 0.1 }));
  const queue = reviewOrder(many, pct(34));
  assert.equal(queue.length, 8);
  assert.equal(queue[0], 70); // the hybrid joins, the percentile keeps: most in doubt
  assert.equal(queue[1], 34); // then the nearest the cutoff (at it)
  assert.equal(reviewOrder(many.slice(0, 20), pct(34)).length, 5);
});

test('a break in plain words first: what happens and why, no numbers; the room never says 0 %', () => {
  const b = { ...brk(7, 97.5), p_join: 0.98, evidence: [['fill', 0.98, 1.3], ['sentence_end', 0, 0.4], ['room', 0.003, 0.9]] };
  const words = inShort(b, 'join', hyb);
  assert.ok(words.startsWith('Joined: the line runs on') && words.includes('clearly'), words);
  assert.ok(words.includes('the line is 98 % full') && !/[+−]\d/.test(words), words);
  // the model's own reading, even where the hybrid decides against it without asking it
  assert.ok(words.includes('The model alone would keep it: it expected a line break here more than at 98 % of this document'), words);
  assert.ok(inShort({ ...b, asked: false }, 'join', hyb).includes('the hybrid did not ask it: no reading of it could overturn'));
  assert.ok(inShort({ ...b, percentile: 10, asked: false }, 'join', hyb).includes('would join it: it expected a line break here less than at 90 %'));
  assert.equal(formatEvidence([['room', 0.003, 0.9]]), 'the next line\'s first word would only just have fit on this line (towards joining, weight 0.9)');
  assert.ok(!formatEvidence([['room', 0.004, 0.9]]).includes('0 %'));
  assert.ok(inShort(b, 'keep', pct(34)).includes('more than at 98 % of this document'));
  assert.ok(inShort({ ...b, forced: 'keep', reason: 'the line is a heading' }, 'keep', hyb).includes('the layout decides (the line is a heading)'));
  const rows = tooltipRows({ cells: [{ ch: '\n', t: [] }], tokens: [] }, 0, new Map([[0, { ...b, i: 0 }]]), hyb);
  assert.deepEqual(rows.slice(1, 3).map(([k]) => k), ['in short', 'details']); // words before numbers
});

test("a document's warnings read as sentences, none as nothing", () => {
  assert.equal(warningsLine({ source: { warnings: ['page 2 of 2 could not be read (x)'] } }),
    'Warning: page 2 of 2 could not be read (x).');
  assert.equal(warningsLine({ source: { warnings: ['a', 'b'] } }), 'Warning: a. Warning: b.');
  assert.equal(warningsLine({ source: { type: 'text' } }), '');
  assert.equal(warningsLine({}), '');
});

