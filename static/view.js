// view.js: one scored document on screen, for the page (main.js) and the HTML report
// (report.js): the cells, break colours, histogram, tooltip, review queue, hand decisions and
// the scores of the decider on them. No requests: everything redraws from the document held.
// Document text only ever reaches the DOM through textContent.
import { decide, decisions, mergedText } from './policy.js';
import { f1Curve, scoreLabels } from './labels.js';
import {
  breakLook, countDecisions, histogram, reviewOrder, surpriseAlpha, tooltipRows,
} from './render.js';

const SVG = 'http://www.w3.org/2000/svg';

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
  if (text) node.textContent = text;
  return node;
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

  /** Render a freshly scored document: one span per character, built once. */
  function show(doc, name) {
    state.doc = doc;
    state.name = (name || 'text').replace(/\.(txt|pdf)$/i, '');
    state.overrides = {};
    state.breakAt = new Map(doc.breaks.map((b) => [b.i, b]));
    state.breakCells = new Map();
    const fragment = document.createDocumentFragment();
    doc.cells.forEach((cell, i) => {
      const span = document.createElement('span');
      span.dataset.i = i;
      span.tabIndex = -1; // the text is one Tab stop; keys move inside it
      if (cell.ch === '\n') {
        span.className = 'nl';
        span.textContent = '⏎';
        if (state.breakAt.get(i)) {
          span.classList.add('break');
          state.breakCells.set(i, span);
        }
        fragment.append(span, document.createElement('br'));
        return;
      }
      span.textContent = cell.ch;
      const alpha = surpriseAlpha(cell.logprob);
      if (alpha > 0) {
        span.classList.add('surprise');
        span.style.setProperty('--surprise', alpha.toFixed(2));
      }
      if (cell.t.length && cell.t[1] > cell.t[0]) span.classList.add('split');
      fragment.append(span);
    });
    el.doc.replaceChildren(fragment);
    const t = doc.timings || {};
    el.meta.textContent = `${doc.model.file} · context ${doc.mode} · ${doc.breaks.length} candidate breaks · prefill ${t.prefill_s ?? '?'} s`;
    el.result.hidden = false;
    state.current = -1;
    redraw();
  }

  function clear() {
    state.doc = null;
    el.result.hidden = true;
    el.doc.replaceChildren();
  }

  /** Everything that depends on the policy and the hand decisions; no re-render of the text. */
  function redraw() {
    const { doc } = state;
    if (!doc) return;
    el.cutoffValue.textContent = String(state.policy.cutoff);
    el.cutoff.disabled = state.policy.decider !== 'percentile';
    const decided = decisions(doc.breaks, state.policy, state.overrides);
    doc.breaks.forEach((b) => {
      const span = state.breakCells.get(b.i);
      const look = breakLook(b, state.policy, state.overrides);
      span.style.backgroundColor = look.color;
      span.dataset.decision = look.decision;
      span.classList.toggle('join', look.decision === 'join');
      span.classList.toggle('override', look.by === 'hand');
      span.classList.toggle('forced', look.by === 'layout');
    });
    const { joined, kept } = countDecisions(decided);
    el.counts.textContent = doc.breaks.length ? `${joined} join · ${kept} keep`
      : 'no line break to decide: the text is one line, or its lines are apart by blank lines';
    el.counts.dataset.joined = joined;
    el.histogram.hidden = doc.breaks.length === 0;
    state.queue = reviewOrder(doc.breaks, state.policy);
    showReview();
    if (doc.breaks.length) drawHistogram();
    drawScores();
    onChange();
  }

  function drawHistogram() {
    const { bins, lo, hi, cutAt } = histogram(state.doc.breaks, state.policy, 30);
    const width = Math.max(300, el.histogram.clientWidth || 600); // 1 unit = 1 px: text unstretched
    const height = 100;
    const base = height - 20; // bars above, the axis below
    el.histogram.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const children = [];
    const peak = Math.max(1, ...bins.map((b) => b.count));
    const barW = bins.length ? width / bins.length : width;
    bins.forEach((bin, k) => {
      const h = ((base - 4) * bin.count) / peak;
      const rect = svgNode('rect', {
        x: (k * barW + 1).toFixed(1), y: (base - h).toFixed(1), width: Math.max(1, barW - 2).toFixed(1),
        height: h.toFixed(1), class: bin.joined * 2 > bin.count ? 'bar join' : 'bar keep',
      });
      rect.append(svgNode('title', {}, `P(newline) 10^${bin.lo.toFixed(1)}–10^${bin.hi.toFixed(1)}: ${bin.count} breaks`));
      children.push(rect);
    });
    if (cutAt !== null && hi > lo) {
      const x = (((cutAt - lo) / (hi - lo)) * width).toFixed(1);
      children.push(svgNode('line', { x1: x, x2: x, y1: 0, y2: base, class: 'cut' }));
    }
    children.push(svgNode('line', { x1: 0, x2: width, y1: base, y2: base, class: 'tick' }));
    const step = Math.max(1, Math.ceil((hi - lo) / 8)); // at most ~8 ticks, at powers of ten
    for (let e = Math.ceil(lo / step) * step; e <= hi; e += step) {
      const x = (((e - lo) / (hi - lo)) * width).toFixed(1);
      children.push(svgNode('line', { x1: x, x2: x, y1: base, y2: base + 4, class: 'tick' }));
      children.push(svgNode('text', { x, y: base + 15, class: 'axis', 'text-anchor': 'middle' },
        e === 0 ? '1' : `1e${e}`));
    }
    children.push(svgNode('text', { x: width - 2, y: 11, class: 'axis', 'text-anchor': 'end' },
      state.policy.decider === 'percentile' ? 'P(newline), log scale · left of the dashed line: joined'
        : 'P(newline), log scale · colour: what the hybrid decided in each bar'));
    el.histogram.replaceChildren(...children);
  }

  /** With hand decisions (labels) present: how the decider does on them, and macro-F1 of the
   * percentile decider against the cutoff, the hybrid's level dashed. */
  function drawScores() {
    const labels = state.overrides;
    const n = Object.keys(labels).length;
    el.scores.hidden = n === 0;
    if (n === 0) return;
    const now = scoreLabels(state.doc.breaks, state.policy, labels);
    const hybrid = scoreLabels(state.doc.breaks, { ...state.policy, decider: 'hybrid' }, labels);
    const curve = f1Curve(state.doc.breaks, state.policy, labels);
    const best = curve.reduce((a, b) => (b[1] > a[1] ? b : a));
    const who = state.policy.decider === 'hybrid' ? 'the hybrid' : `the percentile at ${state.policy.cutoff} %`;
    const joins = Object.values(labels).filter((d) => d === 'join').length;
    el.scoresText.textContent = `On your ${n} label${n === 1 ? '' : 's'} (the hand decisions: ${joins} join, ${n - joins} keep), ${who} alone gets accuracy ${now.accuracy.toFixed(3)}, macro-F1 ${now.macro_f1.toFixed(3)}. Best cutoff ${best[0]} % (macro-F1 ${best[1].toFixed(3)}); the hybrid ${hybrid.macro_f1.toFixed(3)}.`;
    el.scoresText.dataset.macroF1 = now.macro_f1.toFixed(6);
    el.scoresText.dataset.accuracy = now.accuracy.toFixed(6);
    const width = Math.max(300, el.curve.clientWidth || 600);
    const height = 120;
    const pad = 24;
    const x = (c) => pad + ((width - 2 * pad) * c) / 100;
    const y = (f) => height - pad - (height - 2 * pad) * f;
    el.curve.setAttribute('viewBox', `0 0 ${width} ${height}`);
    const children = [
      svgNode('line', { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: 'tick' }),
      svgNode('line', { x1: pad, x2: pad, y1: y(0), y2: y(1), class: 'tick' }),
      svgNode('line', { x1: pad, x2: width - pad, y1: y(hybrid.macro_f1), y2: y(hybrid.macro_f1), class: 'hybrid' }),
      svgNode('polyline', { points: curve.map(([c, f]) => `${x(c).toFixed(1)},${y(f).toFixed(1)}`).join(' '), class: 'f1' }),
      svgNode('text', { x: pad - 4, y: y(1) + 4, class: 'axis', 'text-anchor': 'end' }, '1'),
      svgNode('text', { x: pad - 4, y: y(0) + 4, class: 'axis', 'text-anchor': 'end' }, '0'),
      svgNode('text', { x: width - pad, y: height - 6, class: 'axis', 'text-anchor': 'end' }, 'cutoff 100 %'),
      svgNode('text', { x: pad, y: height - 6, class: 'axis' }, '0 %'),
      svgNode('text', { x: width - pad, y: 12, class: 'axis', 'text-anchor': 'end' }, 'macro-F1 of the percentile against the cutoff · dashed: the hybrid'),
    ];
    if (state.policy.decider === 'percentile') {
      const cx = x(state.policy.cutoff).toFixed(1);
      children.push(svgNode('line', { x1: cx, x2: cx, y1: y(0), y2: y(1), class: 'cut' }));
    }
    el.curve.replaceChildren(...children);
  }

  function showTip(span) {
    const rows = tooltipRows(state.doc, Number(span.dataset.i), state.breakAt, state.policy, state.overrides);
    const fragment = document.createDocumentFragment();
    rows.forEach(([label, value]) => {
      const row = document.createElement('div');
      const key = document.createElement('b');
      key.textContent = `${label}: `;
      const val = document.createElement('span');
      val.textContent = value;
      row.append(key, val);
      fragment.append(row);
    });
    el.tip.replaceChildren(fragment);
    el.tip.hidden = false;
    // inside the viewport: below the cell if it fits, else above it; never off the right edge
    const box = span.getBoundingClientRect();
    const view = document.documentElement;
    const left = Math.min(box.left, view.clientWidth - el.tip.offsetWidth - 8);
    const below = box.bottom + 6 + el.tip.offsetHeight <= view.clientHeight;
    const top = below ? box.bottom + 6 : Math.max(4, box.top - 6 - el.tip.offsetHeight);
    el.tip.style.left = `${window.scrollX + Math.max(4, left)}px`;
    el.tip.style.top = `${window.scrollY + top}px`;
  }

  /** The review queue's place: "3 of 58 to review" and the current break marked. */
  function showReview() {
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
  function review(step) {
    const n = state.queue.length;
    if (!n) return;
    const at = state.queue.indexOf(state.current);
    const next = at < 0 ? (step > 0 ? 0 : n - 1) : (at + step + n) % n;
    state.current = state.queue[next];
    showReview();
    const span = state.breakCells.get(state.doc.breaks[state.current].i);
    span.focus();
    span.scrollIntoView({ block: 'center' });
    showTip(span);
  }

  /** Set the current break by hand (join / keep), or undo what the hand set. */
  function setCurrent(decision) {
    const brk = state.doc && state.doc.breaks[state.current];
    if (!brk) return;
    if (decision) state.overrides[brk.i] = decision;
    else delete state.overrides[brk.i];
    const keep = state.current;
    redraw();
    state.current = keep;
    showReview();
    showTip(state.breakCells.get(brk.i));
  }

  function toggleBreak(span) {
    const i = Number(span.dataset.i);
    const brk = state.breakAt.get(i);
    if (!brk) return;
    if (state.overrides[i]) delete state.overrides[i];
    else state.overrides[i] = decide(brk, state.policy) === 'join' ? 'keep' : 'join';
    redraw();
    showTip(span);
  }

  el.cutoff.addEventListener('input', () => { state.policy.cutoff = Number(el.cutoff.value); redraw(); });
  el.decider.addEventListener('change', () => { state.policy.decider = el.decider.value; redraw(); });
  el.surprise.addEventListener('change', () => { el.doc.classList.toggle('no-surprise', !el.surprise.checked); });
  el.prev.addEventListener('click', () => review(-1));
  el.next.addEventListener('click', () => review(1));
  el.doc.addEventListener('mouseover', (e) => { if (e.target.dataset.i) showTip(e.target); });
  el.doc.addEventListener('focusin', (e) => { if (e.target.dataset.i) showTip(e.target); });
  el.doc.addEventListener('mouseleave', () => { el.tip.hidden = true; });
  el.doc.addEventListener('focusout', () => { el.tip.hidden = true; });
  el.doc.addEventListener('click', (e) => { if (e.target.classList.contains('break')) toggleBreak(e.target); });
  el.doc.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      n: () => review(1), p: () => review(-1), j: () => setCurrent('join'),
      k: () => setCurrent('keep'), u: () => setCurrent(null),
    };
    if (keys[e.key]) {
      keys[e.key]();
      e.preventDefault();
      return;
    }
    const span = e.target.dataset.i ? e.target : el.doc.querySelector('span[data-i]');
    if (!span) return;
    if (e.key === 'Enter' || e.key === ' ') {
      if (span.classList.contains('break')) { toggleBreak(span); e.preventDefault(); }
      return;
    }
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    const next = el.doc.querySelector(`span[data-i="${Number(span.dataset.i) + step}"]`);
    if (next) { next.focus(); e.preventDefault(); }
  });
  el.cutoff.value = String(state.policy.cutoff);
  el.decider.value = state.policy.decider;

  return {
    state,
    show,
    clear,
    /** Replace the hand decisions with loaded labels ({offset: 'join'/'keep'}). */
    setLabels(labels) {
      state.overrides = { ...labels };
      redraw();
    },
    decided: () => decisions(state.doc.breaks, state.policy, state.overrides),
    merged: () => mergedText(state.doc.text, state.doc.breaks,
      decisions(state.doc.breaks, state.policy, state.overrides)),
    /** The scored document as shown: policy, hand decisions and every break's decision. */
    scoresJson() {
      const decided = decisions(state.doc.breaks, state.policy, state.overrides);
      return JSON.stringify({
        ...state.doc, ...state.policy, overrides: state.overrides,
        breaks: state.doc.breaks.map((b, k) => ({ ...b, decision: decided[k] })),
      }, null, 1);
    },
  };
}
