// view.js: one scored document on screen, for the page (main.js) and the HTML report
// (report.js): the cells, break colours, histogram, tooltip, review queue, labels and the
// scores of the decider on them. No requests: everything redraws from the document held.
//
// Two things are kept apart: the analyst's labels (what they say a break is) and the
// decisions (what the policy does, and what the colours and exports show). The exports follow
// the decider with the labels applied, or the decider alone (state.follow). One break is the
// current one: the one clicked, focused, or reached by the review queue or the mistakes; keys
// j / k label it join / keep, u removes its label. A second model's breaks (compare) mark
// where it differs: decides otherwise, or ranks P(newline) across the cutoff (d / D walk
// them); they join the tooltip.
// A view is {el, state, onChange}; the functions below each do one thing to it, and
// mountView wires them to the elements of templates/_view.html.
import { buildCells, placeTip } from './cells.js';
import { drawHistogram, drawScores } from './charts.js';
import { labelCounts, mergeLabels, mistakes } from './labels.js';
import { decisions, mergedText } from './policy.js';
import {
  breakLook, clusterRows, countDecisions, disagreements, reviewOrder, stepThrough, surpriseFloor,
  tooltipRows,
} from './render.js';

/** The hand decisions the exports apply: the labels, or none when they follow the decider. */
function overrides(state) {
  return state.follow === 'labels' ? state.labels : {};
}

/** Render a freshly scored document: one span per character, built once. */
function show(v, doc, name) {
  const { state, el } = v;
  state.doc = doc;
  state.name = (name || 'text').replace(/\.(txt|pdf)$/i, '');
  state.labels = {};
  state.breakAt = new Map(doc.breaks.map((b) => [b.i, b]));
  state.surpriseBits = surpriseFloor(doc.cells);
  const { fragment, breakCells } = buildCells(doc, state.breakAt, state.surpriseBits);
  state.breakCells = breakCells;
  el.doc.replaceChildren(fragment);
  if (el.surpriseNote) el.surpriseNote.textContent = `here: less than a 1 in ${Math.round(2 ** state.surpriseBits).toLocaleString()} chance, ${state.surpriseBits.toFixed(1)} bits`;
  const t = doc.timings || {};
  const secs = (x) => (typeof x === 'number' ? `${x.toFixed(1)} s` : '?');
  el.meta.textContent = `${doc.model.file} · context ${doc.mode} · ${doc.breaks.length} candidate breaks · prefill ${secs(t.prefill_s)}${t.hyphens_s ? ` · hyphens ${secs(t.hyphens_s)}` : ''}`;
  el.weightsNote.textContent = weightsNote(doc.weights);
  el.doc.dir = textDirection(doc.text); // set once: dir=auto re-resolves on every change
  el.result.hidden = false;
  state.current = -1;
  [el.labelJoin, el.labelKeep, el.labelClear].forEach((button) => { button.disabled = true; });
  state.reviewing = false;
  state.reviewK = -1;
  compare(v, null);
}

const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;

/** The text's own direction, as dir=auto finds it: that of its first letter. */
export function textDirection(text) {
  const first = /\p{L}/u.exec(text || '');
  return first && RTL.test(first[0]) ? 'rtl' : 'ltr';
}

/** Which weights decide (the JSON's `weights`): the shipped ones, or ones fitted to labels
 * with their cross-validated figures. */
export function weightsNote(weights) {
  if (!weights || weights.name === 'shipped') return 'The hybrid decides with its shipped weights.';
  const sets = Object.values((weights.trained && weights.trained.sets) || {});
  const figures = sets.map((r) => `${r.join} join and ${r.keep} keep labels; cross-validated macro-F1 ${Number(r.macro_f1_before).toFixed(3)} before, ${Number(r.macro_f1_fitted).toFixed(3)} fitted: ${r.kept === 'fitted' ? 'the fitted weights decide' : 'not better, so the weights before decide'}`);
  return `The hybrid decides with the weights "${weights.name}"${figures.length ? ` (${figures.join('; ')})` : ''}.`;
}

/** Show a second model's decisions beside this one's (`other`: {name, doc} with the same
 * text; null: none). */
function compare(v, other) {
  const { state, el } = v;
  state.other = other && { name: other.name, doc: other.doc, at: new Map(other.doc.breaks.map((b) => [b.i, b])) };
  el.compareNav.hidden = !other;
  el.compareLegend.hidden = !other;
  redraw(v);
}

/** Everything that depends on the policy and the labels; no re-render of the text. */
function redraw(v) {
  const { state, el } = v;
  const { doc } = state;
  if (!doc) return;
  state.overrides = overrides(state);
  el.cutoffValue.textContent = String(state.policy.cutoff);
  state.mistakes = mistakes(doc.breaks, state.policy, state.labels);
  const differ = state.other ? disagreements(doc.breaks, state.other.at, state.policy) : [];
  state.disagree = differ.map((d) => d.k);
  state.decidedOtherwise = differ.filter((d) => d.decided).length;
  const wrong = new Set(state.mistakes);
  const otherwise = new Set(state.disagree);
  doc.breaks.forEach((b, k) => {
    const span = state.breakCells.get(b.i);
    const look = breakLook(b, state.policy, state.overrides);
    span.style.backgroundColor = look.color;
    span.dataset.decision = look.decision;
    if (state.labels[b.i]) span.dataset.label = state.labels[b.i];
    else delete span.dataset.label;
    span.classList.toggle('join', look.decision === 'join');
    span.classList.toggle('override', Boolean(state.labels[b.i]));
    span.classList.toggle('mistake', wrong.has(k));
    span.classList.toggle('disagree', otherwise.has(k));
    span.classList.toggle('forced', look.by === 'layout');
  });
  const { joined, kept } = countDecisions(decisions(doc.breaks, state.policy, state.overrides));
  el.counts.textContent = doc.breaks.length ? `${joined} join · ${kept} keep`
    : 'no line break to decide: the text is one line, or its lines are apart by blank lines';
  el.counts.dataset.joined = joined;
  el.histogram.hidden = doc.breaks.length === 0;
  state.queue = reviewOrder(doc.breaks, state.policy);
  showPlace(v);
  if (doc.breaks.length) drawHistogram(el.histogram, doc.breaks, state.policy);
  showScores(v);
  v.onChange();
}

/** The scores panel keeps its place (no jump when the first label comes): without labels it
 * says how to make some, with one kind only that there is nothing to measure yet. */
function showScores(v) {
  const { state, el } = v;
  const c = labelCounts(state.labels);
  el.scores.classList.toggle('empty', !c.measurable);
  if (c.measurable) {
    drawScores(el.scoresText, el.curve, state.doc.breaks, state.policy, state.labels);
    return;
  }
  delete el.scoresText.dataset.macroF1;
  delete el.scoresText.dataset.accuracy;
  el.curve.replaceChildren();
  el.scoresText.textContent = c.n === 0
    ? 'No labels yet: click a break (or walk the review with n / p), then j = it should be joined, k = kept. Labels measure the decider here.'
    : `Too few labels of one kind to measure: ${c.join} join, ${c.keep} keep. Label at least one break of each kind.`;
}

function showTip(v, span) {
  const { state } = v;
  const i = Number(span.dataset.i);
  placeTip(v.el.tip, span.dataset.n ? clusterRows(state.doc, i, Number(span.dataset.n))
    : tooltipRows(state.doc, i, state.breakAt, state.policy, state.overrides, state.labels,
      state.other), span);
}

/** Where the current break is: in the review queue ("3 of 58 to review"), among the mistakes
 * ("2 of 5 mistakes"), and marked in the text. */
function showPlace(v) {
  const { state, el } = v;
  const n = state.queue.length;
  const at = state.queue.indexOf(state.reviewK); // your place: only n / p move it
  el.review.textContent = !n ? 'nothing to review'
    : at >= 0 ? `${at + 1} of ${n} to review` : `${n} to review`;
  el.prev.disabled = n === 0;
  el.next.disabled = n === 0;
  const m = state.mistakes.length;
  const mAt = state.mistakes.indexOf(state.current);
  el.mistakes.textContent = Object.keys(state.labels).length === 0 ? 'no labels'
    : !m ? 'no mistakes' : `${mAt >= 0 ? `${mAt + 1} of ` : ''}${m} mistake${m === 1 ? '' : 's'}`;
  el.mistakes.dataset.count = m;
  el.mistakePrev.disabled = m === 0;
  el.mistakeNext.disabled = m === 0;
  if (state.other) {
    const d = state.disagree.length;
    const dAt = state.disagree.indexOf(state.current);
    const place = dAt >= 0 ? `${dAt + 1} of ` : '';
    el.disagree.textContent = d
      ? `${state.other.name} differs at ${place}${d} break${d === 1 ? '' : 's'} (${state.decidedOtherwise} decided otherwise)`
      : `${state.other.name} reads and decides every break alike`;
    el.disagree.dataset.count = d;
    el.disagreePrev.disabled = d === 0;
    el.disagreeNext.disabled = d === 0;
  }
  state.breakCells.forEach((span) => span.classList.remove('current'));
  const brk = state.doc.breaks[state.current];
  if (brk) state.breakCells.get(brk.i).classList.add('current');
}

/** Make break k the current one; `go`: also focus it, bring it into view and show its tip
 * (the keyboard's way: the resting mouse no longer moves the tip until it moves itself). */
function select(v, k, go) {
  const { state, el } = v;
  state.current = k;
  [el.labelJoin, el.labelKeep, el.labelClear].forEach((button) => { button.disabled = false; });
  showPlace(v);
  const span = state.breakCells.get(state.doc.breaks[k].i);
  if (go) {
    v.pointerMoved = false;
    span.focus({ preventScroll: true });
    span.scrollIntoView({ block: 'center' });
  }
  showTip(v, span);
}

/** Step through a list of break indices (the review queue, the mistakes) from the current one. */
function walk(v, list, step, reviewing) {
  const { state } = v;
  const byText = list === state.mistakes || list === state.disagree;
  const next = stepThrough(list, reviewing ? state.reviewK : state.current, step, byText);
  if (next < 0) return;
  state.reviewing = reviewing;
  if (reviewing) state.reviewK = next;
  select(v, next, true);
}

/** Label the current break join / keep, or remove its label (null). */
function label(v, decision) {
  const { state } = v;
  const brk = state.doc && state.doc.breaks[state.current];
  if (!brk) return;
  if (decision) state.labels[brk.i] = decision;
  else delete state.labels[brk.i];
  const span = state.breakCells.get(brk.i);
  const before = span.getBoundingClientRect().top;
  redraw(v);
  window.scrollBy(0, span.getBoundingClientRect().top - before); // the break stays where it was
  showTip(v, span);
}

function breakIndex(v, span) {
  const brk = span && v.state.breakAt.get(Number(span.dataset.i));
  return brk ? v.state.doc.breaks.indexOf(brk) : -1;
}

/** Keys inside the text: n / p walk the review queue, m / M the mistakes, d / D the breaks a
 * second model decides otherwise, j / k / u label the
 * current break, the arrows move between cells (a break reached becomes the current one). */
function onKey(v, e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = {
    n: () => walk(v, v.state.queue, 1, true), p: () => walk(v, v.state.queue, -1, true),
    m: () => walk(v, v.state.mistakes, 1, false), M: () => walk(v, v.state.mistakes, -1, false),
    d: () => walk(v, v.state.disagree, 1, false), D: () => walk(v, v.state.disagree, -1, false),
    j: () => label(v, 'join'), k: () => label(v, 'keep'), u: () => label(v, null),
  };
  if (keys[e.key]) {
    keys[e.key]();
    e.preventDefault();
    return;
  }
  const { doc } = v.el;
  const span = e.target.dataset.i ? e.target : doc.querySelector('span[data-i]');
  if (!span) return;
  const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
  if (!step) return;
  let next = step > 0 ? span.nextElementSibling : span.previousElementSibling;
  while (next && !next.dataset.i) next = step > 0 ? next.nextElementSibling : next.previousElementSibling;
  if (next) { v.pointerMoved = false; next.focus(); e.preventDefault(); }
}

/** The slider always moves the decisions: under the hybrid (which has no cutoff) it switches
 * to the percentile cutoff, and with labels applied to every break it shows the decider alone
 * (the labels stay); the note next to it says what it switched. */
function moveCutoff(v, cutoff) {
  const { state, el } = v;
  state.policy.cutoff = cutoff;
  const said = [];
  if (state.policy.decider !== 'percentile') {
    state.policy.decider = 'percentile';
    el.decider.value = 'percentile';
    said.push('now deciding by the percentile cutoff (the hybrid has none: pick it again in Decide by)');
  }
  if (state.follow === 'labels' && Object.keys(state.labels).length) {
    state.follow = 'decider';
    el.follow.value = 'decider';
    said.push('showing the decider alone (your labels stay: Exports follow brings them back)');
  }
  if (said.length) el.sliderNote.textContent = `Cutoff moved: ${said.join('; ')}.`;
  redraw(v);
}

function wire(v) {
  const { el, state } = v;
  el.cutoff.addEventListener('input', () => moveCutoff(v, Number(el.cutoff.value)));
  el.decider.addEventListener('change', () => { state.policy.decider = el.decider.value; el.sliderNote.textContent = ''; redraw(v); });
  el.follow.addEventListener('change', () => { state.follow = el.follow.value; el.sliderNote.textContent = ''; redraw(v); });
  [[el.labelJoin, 'join'], [el.labelKeep, 'keep'], [el.labelClear, null]].forEach(([button, d]) => {
    button.addEventListener('click', () => { if (state.current >= 0) label(v, d); });
  });
  el.surprise.addEventListener('change', () => { el.doc.classList.toggle('no-surprise', !el.surprise.checked); });
  el.prev.addEventListener('click', () => walk(v, state.queue, -1, true));
  el.next.addEventListener('click', () => walk(v, state.queue, 1, true));
  el.mistakePrev.addEventListener('click', () => walk(v, state.mistakes, -1, false));
  el.mistakeNext.addEventListener('click', () => walk(v, state.mistakes, 1, false));
  el.disagreePrev.addEventListener('click', () => walk(v, state.disagree, -1, false));
  el.disagreeNext.addEventListener('click', () => walk(v, state.disagree, 1, false));
  el.doc.addEventListener('pointermove', (e) => {
    if (e.clientX !== v.pointer.x || e.clientY !== v.pointer.y) v.pointerMoved = true;
    v.pointer = { x: e.clientX, y: e.clientY };
  });
  el.doc.addEventListener('mouseover', (e) => { if (e.target.dataset.i && v.pointerMoved) showTip(v, e.target); });
  el.doc.addEventListener('focusin', (e) => {
    const k = breakIndex(v, e.target);
    if (k >= 0) select(v, k, false);
    else if (e.target.dataset.i) showTip(v, e.target);
  });
  el.doc.addEventListener('mouseleave', () => { if (v.pointerMoved) el.tip.hidden = true; });
  el.doc.addEventListener('focusout', () => { el.tip.hidden = true; });
  el.doc.addEventListener('click', (e) => {
    const k = breakIndex(v, e.target);
    if (k >= 0) { e.target.focus({ preventScroll: true }); select(v, k, false); }
  });
  el.doc.addEventListener('keydown', (e) => onKey(v, e));
  el.cutoff.value = String(state.policy.cutoff);
  el.decider.value = state.policy.decider;
  if (el.toolbar && window.ResizeObserver) { // what the sticky toolbar covers, scrolling keeps clear
    new ResizeObserver(() => document.documentElement.style.setProperty('--toolbar-height',
      `${el.toolbar.offsetHeight + 8}px`)).observe(el.toolbar);
  }
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
    surprise: $('surprise'), surpriseNote: $('surprise-note'), review: $('review'), prev: $('review-prev'),
    next: $('review-next'), mistakes: $('mistakes'), mistakePrev: $('mistake-prev'), mistakeNext: $('mistake-next'),
    follow: $('follow'), counts: $('counts'), histogram: $('histogram'), meta: $('meta'), doc: $('doc'),
    tip: $('tip'), toolbar: $('toolbar'), scores: $('scores'), scoresText: $('scores-text'), curve: $('f1curve'),
    weightsNote: $('weights-note'), sliderNote: $('slider-note'),
    labelJoin: $('label-join'), labelKeep: $('label-keep'), labelClear: $('label-clear'),
    compareNav: $('compare-nav'), compareLegend: $('legend-disagree'), disagree: $('disagree'),
    disagreePrev: $('disagree-prev'), disagreeNext: $('disagree-next'),
  };
  /** doc: the scored document; labels: the analyst's, by char offset; overrides: what the
   * exports apply (the labels, or none); policy: decider, cutoff and threshold; queue: the
   * review queue; mistakes: breaks whose label the decider contradicts; current: the break
   * the keys act on (an index into doc.breaks, -1: none); other: a second model's document
   * ({name, doc, at}) or null; disagree: the breaks where it differs (render.disagreements),
   * decidedOtherwise: how many of them it decides otherwise. */
  const state = {
    doc: null, name: '', breakAt: new Map(), breakCells: new Map(), labels: {}, overrides: {},
    follow: el.follow.value, policy: { ...policy }, queue: [], mistakes: [], current: -1,
    reviewing: false, reviewK: -1, surpriseBits: 4, other: null, disagree: [], decidedOtherwise: 0,
  };
  const v = { el, state, onChange, pointer: { x: -1, y: -1 }, pointerMoved: true };
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
    /** Merge loaded labels ({offset: 'join'/'keep'}) into the present ones (the loaded win);
     * says how many were new, the same, changed. */
    addLabels(loaded) {
      const merged = mergeLabels(state.labels, loaded);
      state.labels = merged.labels;
      redraw(v);
      return merged;
    },
    /** What the exports follow: 'labels' (the decider with the labels applied) or 'decider'. */
    setFollow(follow) {
      state.follow = follow;
      el.follow.value = follow;
      redraw(v);
    },
    /** A second model's document of the same text ({name, doc}; null: none), shown beside. */
    compare: (other) => compare(v, other),
    decided,
    merged: () => mergedText(state.doc.text, state.doc.breaks, decided()),
    /** The scored document as shown: policy, labels, what the exports applied, every break's
     * decision. */
    scoresJson() {
      const d = decided();
      return JSON.stringify({
        ...state.doc, ...state.policy, labels: state.labels, overrides: state.overrides,
        breaks: state.doc.breaks.map((b, k) => ({ ...b, decision: d[k] })),
      }, null, 1);
    },
  };
}
