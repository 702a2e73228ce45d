// main.js: wiring of the page. Document text only ever reaches the DOM through textContent.
import {
  cancelJob, jobResult, listSamples, loadSample, submitFile, submitText, watchJob,
} from './api.js';
import { decide, decisions, mergedText } from './policy.js';
import {
  breakLook, countDecisions, histogram, reviewOrder, surpriseAlpha, tooltipRows,
} from './render.js';

const config = JSON.parse(document.getElementById('config').textContent);
const $ = (id) => document.getElementById(id);
const el = {
  text: $('text'), sample: $('sample'), file: $('file'), score: $('score'), cancel: $('cancel'),
  status: $('status'),
  progress: $('progress'), result: $('result'), cutoff: $('cutoff'), cutoffValue: $('cutoff-value'),
  decider: $('decider'), surprise: $('surprise'), review: $('review'), prev: $('review-prev'),
  next: $('review-next'),
  counts: $('counts'), histogram: $('histogram'), meta: $('meta'), doc: $('doc'), tip: $('tip'),
};

/** Page state: the last scored document, and what the user changed without a new request.
 * policy: decider, cutoff and threshold, starting from the server's defaults (scorer/decide.py). */
const state = {
  doc: null, name: '', breakAt: new Map(), breakCells: new Map(), overrides: {},
  policy: { ...config.policy }, job: null, queue: [], current: -1,
};

function mode() {
  return document.querySelector('input[name="mode"]:checked').value;
}

function setStatus(message, isError = false) {
  el.status.textContent = message;
  el.status.classList.toggle('error', isError);
  el.status.setAttribute('role', isError ? 'alert' : 'status');
}

function showProgress(label, view, started) {
  const { done, total } = view.progress;
  if (view.state === 'queued') {
    el.progress.removeAttribute('value'); // indeterminate
    const ahead = view.queue_position ? `, ${view.queue_position} ahead` : '';
    setStatus(`${label}: queued${ahead}…`);
    return;
  }
  if (!total) return;
  el.progress.max = total;
  el.progress.value = done;
  const secs = (performance.now() - started) / 1000;
  const left = done > 0 ? (secs / done) * (total - done) : null;
  const eta = left === null ? '' : ` · about ${Math.ceil(left)} s left`;
  setStatus(`${label}: ${Math.floor((100 * done) / total)} % (${done.toLocaleString()} of ${total.toLocaleString()} tokens)${eta}`);
}

function clearResult() {
  state.doc = null;
  el.result.hidden = true;
  el.doc.replaceChildren();
}

/** Score as a job: the old result is cleared at once (never shown or downloaded as the new
 * one), a progress bar with the time left, a Cancel button. */
async function runJob(label, submit, name) {
  clearResult();
  el.score.disabled = true;
  el.cancel.hidden = false;
  el.cancel.disabled = false;
  el.progress.hidden = false;
  el.progress.removeAttribute('value');
  setStatus(`${label}…`);
  const started = performance.now();
  try {
    const { url } = await submit();
    state.job = url;
    const final = await watchJob(url, (view) => showProgress(label, view, started));
    if (final.state === 'cancelled') {
      setStatus(final.error === 'cancelled' ? 'Cancelled.' : final.error, final.error !== 'cancelled');
      return;
    }
    if (final.state === 'failed') throw new Error(final.error);
    const doc = await jobResult(url);
    show(doc, name);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    setStatus(`Scored ${doc.cells.length.toLocaleString()} characters, ${doc.tokens.length.toLocaleString()} tokens in ${secs} s.`);
  } catch (err) {
    setStatus(err.message, true);
  } finally {
    state.job = null;
    el.score.disabled = false;
    el.cancel.hidden = true;
    el.progress.hidden = true;
  }
}

function scoreCurrent() {
  const file = el.file.files[0];
  if (file) {
    if (!/\.(txt|pdf)$/i.test(file.name)) {
      setStatus(`${file.name}: only .txt and .pdf files can be scored.`, true);
      return undefined;
    }
    return runJob(`Scoring ${file.name}`, () => submitFile(config.urls, file, mode()), file.name);
  }
  if (!el.text.value.trim()) {
    setStatus('Paste some text, pick a sample or choose a file first.', true);
    return undefined;
  }
  return runJob('Scoring', () => submitText(config.urls, el.text.value, mode()),
    el.sample.value || 'text');
}

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
      const brk = state.breakAt.get(i);
      if (brk) {
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

/** Everything that depends on the cutoff and overrides; no request, no re-render of text. */
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
}

function drawHistogram() {
  const svgNS = 'http://www.w3.org/2000/svg';
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
    const rect = document.createElementNS(svgNS, 'rect');
    rect.setAttribute('x', (k * barW + 1).toFixed(1));
    rect.setAttribute('y', (base - h).toFixed(1));
    rect.setAttribute('width', Math.max(1, barW - 2).toFixed(1));
    rect.setAttribute('height', h.toFixed(1));
    rect.setAttribute('class', bin.joined * 2 > bin.count ? 'bar join' : 'bar keep');
    const title = document.createElementNS(svgNS, 'title');
    title.textContent = `P(newline) 10^${bin.lo.toFixed(1)}–10^${bin.hi.toFixed(1)}: ${bin.count} breaks`;
    rect.append(title);
    children.push(rect);
  });
  if (cutAt !== null && hi > lo) {
    const x = ((cutAt - lo) / (hi - lo)) * width;
    const line = document.createElementNS(svgNS, 'line');
    line.setAttribute('x1', x.toFixed(1));
    line.setAttribute('x2', x.toFixed(1));
    line.setAttribute('y1', '0');
    line.setAttribute('y2', String(base));
    line.setAttribute('class', 'cut');
    children.push(line);
  }
  const svg = (tag, attrs, text) => {
    const node = document.createElementNS(svgNS, tag);
    Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
    if (text) node.textContent = text;
    children.push(node);
  };
  svg('line', { x1: 0, x2: width, y1: base, y2: base, class: 'tick' });
  const step = Math.max(1, Math.ceil((hi - lo) / 8)); // at most ~8 ticks, at powers of ten
  for (let e = Math.ceil(lo / step) * step; e <= hi; e += step) {
    const x = ((e - lo) / (hi - lo)) * width;
    svg('line', { x1: x.toFixed(1), x2: x.toFixed(1), y1: base, y2: base + 4, class: 'tick' });
    svg('text', { x: x.toFixed(1), y: base + 15, class: 'axis', 'text-anchor': 'middle' },
      e === 0 ? '1' : `1e${e}`);
  }
  svg('text', { x: width - 2, y: 11, class: 'axis', 'text-anchor': 'end' },
    state.policy.decider === 'percentile' ? 'P(newline), log scale · left of the dashed line: joined'
      : 'P(newline), log scale · colour: what the hybrid decided in each bar');
  el.histogram.replaceChildren(...children);
}

function showTip(span) {
  const i = Number(span.dataset.i);
  const rows = tooltipRows(state.doc, i, state.breakAt, state.policy, state.overrides);
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

/** The review queue's place: "3 of 58 doubtful" and the current break marked. */
function showReview() {
  const n = state.queue.length;
  const at = state.queue.indexOf(state.current);
  el.review.textContent = n ? `${at >= 0 ? at + 1 : '–'} of ${n} to review` : 'nothing to review';
  el.prev.disabled = el.next.disabled = n === 0;
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

function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function currentMerged() {
  const { doc } = state;
  return mergedText(doc.text, doc.breaks, decisions(doc.breaks, state.policy, state.overrides));
}

// -- events --------------------------------------------------------------------------------
el.score.addEventListener('click', scoreCurrent);
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
  const keys = { n: () => review(1), p: () => review(-1), j: () => setCurrent('join'),
    k: () => setCurrent('keep'), u: () => setCurrent(null) };
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
document.querySelectorAll('input[name="mode"]').forEach((radio) => {
  radio.addEventListener('change', () => { if (state.doc && !el.score.disabled) scoreCurrent(); });
});
el.file.addEventListener('change', () => {
  if (!el.file.files[0]) return;
  el.sample.value = ''; // the pickers show what will be scored
  setStatus(`${el.file.files[0].name} selected: press Score.`);
});
el.text.addEventListener('input', () => { el.file.value = ''; el.sample.value = ''; });
el.sample.addEventListener('change', async () => {
  if (!el.sample.value) return;
  try {
    const sample = await loadSample(config.urls, el.sample.value);
    el.text.value = sample.text;
    el.file.value = '';
    setStatus(`Loaded sample ${sample.name}: press Score.`);
  } catch (err) {
    setStatus(err.message, true);
  }
});
el.cancel.addEventListener('click', () => {
  if (!state.job) return;
  el.cancel.disabled = true;
  cancelJob(state.job).catch((err) => setStatus(err.message, true));
});
$('download-txt').addEventListener('click', () => download(`${state.name}.merged.txt`, 'text/plain;charset=utf-8', currentMerged()));
$('download-json').addEventListener('click', () => {
  const decided = decisions(state.doc.breaks, state.policy, state.overrides);
  const out = { ...state.doc, ...state.policy, overrides: state.overrides,
    breaks: state.doc.breaks.map((b, k) => ({ ...b, decision: decided[k] })) };
  download(`${state.name}.scores.json`, 'application/json', JSON.stringify(out, null, 1));
});
$('copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(currentMerged());
    setStatus('Merged text copied to the clipboard.');
  } catch (err) {
    setStatus(`Copy failed (${err.message}); use Download instead.`, true);
  }
});

async function init() {
  el.cutoff.value = String(state.policy.cutoff);
  el.decider.value = state.policy.decider;
  try {
    const samples = await listSamples(config.urls);
    samples.forEach((s) => {
      const option = document.createElement('option');
      option.value = s.name;
      option.textContent = `${s.name} (${s.chars.toLocaleString()} chars)`;
      el.sample.append(option);
    });
  } catch (err) {
    setStatus(err.message, true);
    return;
  }
  if (config.defaultSample) {
    el.sample.value = config.defaultSample;
    try {
      const sample = await loadSample(config.urls, config.defaultSample);
      el.text.value = sample.text;
      await scoreCurrent();
    } catch (err) {
      setStatus(err.message, true);
    }
  }
}

init();
