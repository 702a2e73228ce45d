// view.js: one scored document on screen, for the page (main.js) and the HTML report
// (report.js): the cells, break colours, histogram, tooltip, review queue, hand decisions and
// the scores of the decider on them. No requests: everything redraws from the document held.
// A view is {el, state, onChange}; the functions below each do one thing to it, and
// mountView wires them to the elements of templates/_view.html.
import { buildCells, placeTip } from './cells.js';
import { drawHistogram, drawScores } from './charts.js';
import { decide, decisions, mergedText } from './policy.js';
import { breakLook, countDecisions, reviewOrder, tooltipRows } from './render.js';

/** Render a freshly scored document: one span per character, built once. */
function show(v, doc, name) {
  const { state, el } = v;
  state.doc = doc;
  state.name = (name || 'text').replace(/\.(txt|pdf)$/i, '');
  state.overrides = {};
  state.breakAt = new Map(doc.breaks.map((b) => [b.i, b]));
  const { fragment, breakCells } = buildCells(doc, state.breakAt);
  state.breakCells = breakCells;
  el.doc.replaceChildren(fragment);
  const t = doc.timings || {};
  el.meta.textContent = `${doc.model.file} · context ${doc.mode} · ${doc.breaks.length} candidate breaks · prefill ${t.prefill_s ?? '?'} s`;
  el.result.hidden = false;
  state.current = -1;
  redraw(v);
}

/** Everything that depends on the policy and the hand decisions; no re-render of the text. */
function redraw(v) {
  const { state, el } = v;
  const { doc } = state;
  if (!doc) return;
  el.cutoffValue.textContent = String(state.policy.cutoff);
  el.cutoff.disabled = state.policy.decider !== 'percentile';
  doc.breaks.forEach((b) => {
    const span = state.breakCells.get(b.i);
    const look = breakLook(b, state.policy, state.overrides);
    span.style.backgroundColor = look.color;
    span.dataset.decision = look.decision;
    span.classList.toggle('join', look.decision === 'join');
    span.classList.toggle('override', look.by === 'hand');
    span.classList.toggle('forced', look.by === 'layout');
  });
  const { joined, kept } = countDecisions(decisions(doc.breaks, state.policy, state.overrides));
  el.counts.textContent = doc.breaks.length ? `${joined} join · ${kept} keep`
    : 'no line break to decide: the text is one line, or its lines are apart by blank lines';
  el.counts.dataset.joined = joined;
  el.histogram.hidden = doc.breaks.length === 0;
  state.queue = reviewOrder(doc.breaks, state.policy);
  showReview(v);
  if (doc.breaks.length) drawHistogram(el.histogram, doc.breaks, state.policy);
  el.scores.hidden = Object.keys(state.overrides).length === 0;
  if (!el.scores.hidden) drawScores(el.scoresText, el.curve, doc.breaks, state.policy, state.overrides);
  v.onChange();
}

function showTip(v, span) {
  const { state } = v;
  placeTip(v.el.tip, tooltipRows(state.doc, Number(span.dataset.i), state.breakAt, state.policy,
    state.overrides), span);
}

/** The review queue's place: "3 of 58 to review" and the current break marked. */
function showReview(v) {
  const { state, el } = v;
  const n = state.queue.length;
  const at = state.queue.indexOf(state.current);
  el.review.textContent = n ? `${at >= 0 ? at + 1 : '–'} of ${n} to review` : 'nothing to review';
  el.prev.disabled = n === 0;
  el.next.disabled = n === 0;
  state.breakCells.forEach((span) => span.classList.remove('current'));
  const brk = state.doc.breaks[state.current];
  if (brk) state.breakCells.get(brk.i).classList.add('current');
}

/** Go to the next (step 1) or previous (-1) most doubtful break, focus it, show its tip. */
function review(v, step) {
  const { state } = v;
  const n = state.queue.length;
  if (!n) return;
  const at = state.queue.indexOf(state.current);
  const next = at < 0 ? (step > 0 ? 0 : n - 1) : (at + step + n) % n;
  state.current = state.queue[next];
  showReview(v);
  const span = state.breakCells.get(state.doc.breaks[state.current].i);
  span.focus();
  span.scrollIntoView({ block: 'center' });
  showTip(v, span);
}

/** Set the current break by hand (join / keep), or undo what the hand set. */
function setCurrent(v, decision) {
  const { state } = v;
  const brk = state.doc && state.doc.breaks[state.current];
  if (!brk) return;
  if (decision) state.overrides[brk.i] = decision;
  else delete state.overrides[brk.i];
  const keep = state.current;
  redraw(v);
  state.current = keep;
  showReview(v);
  showTip(v, state.breakCells.get(brk.i));
}

function toggleBreak(v, span) {
  const { state } = v;
  const i = Number(span.dataset.i);
  const brk = state.breakAt.get(i);
  if (!brk) return;
  if (state.overrides[i]) delete state.overrides[i];
  else state.overrides[i] = decide(brk, state.policy) === 'join' ? 'keep' : 'join';
  redraw(v);
  showTip(v, span);
}

/** Keys inside the text: n / p walk the review queue, j / k / u set the current break,
 * Enter or Space flips a break, the arrows move between cells. */
function onKey(v, e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = {
    n: () => review(v, 1), p: () => review(v, -1), j: () => setCurrent(v, 'join'),
    k: () => setCurrent(v, 'keep'), u: () => setCurrent(v, null),
  };
  if (keys[e.key]) {
    keys[e.key]();
    e.preventDefault();
    return;
  }
  const { doc } = v.el;
  const span = e.target.dataset.i ? e.target : doc.querySelector('span[data-i]');
  if (!span) return;
  if (e.key === 'Enter' || e.key === ' ') {
    if (span.classList.contains('break')) { toggleBreak(v, span); e.preventDefault(); }
    return;
  }
  const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
  if (!step) return;
  const next = doc.querySelector(`span[data-i="${Number(span.dataset.i) + step}"]`);
  if (next) { next.focus(); e.preventDefault(); }
}

function wire(v) {
  const { el, state } = v;
  el.cutoff.addEventListener('input', () => { state.policy.cutoff = Number(el.cutoff.value); redraw(v); });
  el.decider.addEventListener('change', () => { state.policy.decider = el.decider.value; redraw(v); });
  el.surprise.addEventListener('change', () => { el.doc.classList.toggle('no-surprise', !el.surprise.checked); });
  el.prev.addEventListener('click', () => review(v, -1));
  el.next.addEventListener('click', () => review(v, 1));
  el.doc.addEventListener('mouseover', (e) => { if (e.target.dataset.i) showTip(v, e.target); });
  el.doc.addEventListener('focusin', (e) => { if (e.target.dataset.i) showTip(v, e.target); });
  el.doc.addEventListener('mouseleave', () => { el.tip.hidden = true; });
  el.doc.addEventListener('focusout', () => { el.tip.hidden = true; });
  el.doc.addEventListener('click', (e) => { if (e.target.classList.contains('break')) toggleBreak(v, e.target); });
  el.doc.addEventListener('keydown', (e) => onKey(v, e));
  el.cutoff.value = String(state.policy.cutoff);
  el.decider.value = state.policy.decider;
}

/**
 * Wire the view to the elements of templates/_view.html.
 * @param {{policy: Object, onChange?: Function}} options  policy: the server's defaults
 *   (scorer/decide.py); onChange: called after every redraw (decisions may have changed)
 */
export function mountView({ policy, onChange = () => {} }) {
  const $ = (id) => document.getElementById(id);
  const el = {
    result: $('result'), cutoff: $('cutoff'), cutoffValue: $('cutoff-value'), decider: $('decider'),
    surprise: $('surprise'), review: $('review'), prev: $('review-prev'), next: $('review-next'),
    counts: $('counts'), histogram: $('histogram'), meta: $('meta'), doc: $('doc'), tip: $('tip'),
    scores: $('scores'), scoresText: $('scores-text'), curve: $('f1curve'),
  };
  /** doc: the scored document; overrides: the hand decisions by char offset (the labels);
   * policy: decider, cutoff and threshold; queue/current: the review queue and its place. */
  const state = {
    doc: null, name: '', breakAt: new Map(), breakCells: new Map(), overrides: {},
    policy: { ...policy }, queue: [], current: -1,
  };
  const v = { el, state, onChange };
  wire(v);
  const decided = () => decisions(state.doc.breaks, state.policy, state.overrides);
  return {
    state,
    show: (doc, name) => show(v, doc, name),
    clear() {
      state.doc = null;
      el.result.hidden = true;
      el.doc.replaceChildren();
    },
    /** Replace the hand decisions with loaded labels ({offset: 'join'/'keep'}). */
    setLabels(labels) {
      state.overrides = { ...labels };
      redraw(v);
    },
    decided,
    merged: () => mergedText(state.doc.text, state.doc.breaks, decided()),
    /** The scored document as shown: policy, hand decisions and every break's decision. */
    scoresJson() {
      const d = decided();
      return JSON.stringify({
        ...state.doc, ...state.policy, overrides: state.overrides,
        breaks: state.doc.breaks.map((b, k) => ({ ...b, decision: d[k] })),
      }, null, 1);
    },
  };
}
