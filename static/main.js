// main.js: wiring of the page: input, scoring jobs, downloads, labels. The scored document
// itself is shown by view.js (shared with the HTML report).
import {
  cancelJob, compareJob, jobResult, learnJob, listSamples, loadLabels, loadSample, mergeJob, reportShell,
  submitFile, submitText, watchJob,
} from './api.js';
import { download } from './dom.js';
import { fillShell } from './embed.js';
import { labelLines } from './labels.js';
import { fmtDuration, warningsLine } from './render.js';
import { mountView } from './view.js';

const config = JSON.parse(document.getElementById('config').textContent);
const $ = (id) => document.getElementById(id);
const el = {
  text: $('text'), sample: $('sample'), file: $('file'), score: $('score'), cancel: $('cancel'),
  status: $('status'), progress: $('progress'), labelsFile: $('labels-file'), compare: $('compare'),
};
const view = mountView({ policy: config.policy });
/** The job being scored (its URL), if any. */
const state = { job: null, shown: null, weights: null }; // job: the one running; shown: the one
// on screen; weights: the ones fitted to the labels (Learn from my labels)

function mode() {
  return document.querySelector('input[name="mode"]:checked').value;
}

function setStatus(message, isError = false) {
  el.status.textContent = message;
  el.status.classList.toggle('error', isError);
  el.status.setAttribute('role', isError ? 'alert' : 'status');
}

const STAGES = {
  'waiting for a PDF reader': ['waiting for a PDF reader', ''],
  reading: ['reading the PDF', ''],
  prefill: ['reading the text', 'tokens'],
  asking: ['asking the model where the layout is unsure', 'breaks'],
  hyphens: ['reading line-end hyphens', 'hyphens'],
};

/** The job's stage, how far it is and the time left, from the rate since the stage began (so
 * waiting in the queue or reading the PDF does not inflate the estimate). */
function showProgress(label, job, clock) {
  const { stage, done, total } = job.progress;
  if (job.state === 'queued' && !stage) {
    el.progress.removeAttribute('value'); // indeterminate
    const ahead = job.queue_position ? `, ${job.queue_position} ahead` : '';
    setStatus(`${label}: queued${ahead}…`);
    return;
  }
  const [what, unit] = STAGES[stage] || ['working', ''];
  const now = performance.now();
  if (clock.stage !== stage) Object.assign(clock, { stage, t0: now, d0: done });
  if (!total || done >= total) { // a stage done is not the job done: never "100 %" meanwhile
    el.progress.removeAttribute('value');
    setStatus(`${label}: ${what}${total ? ' done, going on' : ''}…`);
    return;
  }
  el.progress.max = total;
  el.progress.value = done;
  const secs = (now - clock.t0) / 1000;
  const rate = secs >= 1 && done > clock.d0 ? (done - clock.d0) / secs : null;
  const eta = rate ? ` · about ${fmtDuration((total - done) / rate)} left` : '';
  setStatus(`${label}: ${what}, ${Math.floor((100 * done) / total)} % (${done.toLocaleString()} of ${total.toLocaleString()} ${unit})${eta}`);
}

/** Follow a submitted job with the progress bar, the time left and a Cancel button; its
 * document once done (null when cancelled; an error when it failed). */
async function followJob(label, submit) {
  el.score.disabled = true;
  el.compare.disabled = true;
  el.cancel.hidden = false;
  el.cancel.disabled = false;
  el.progress.hidden = false;
  el.progress.removeAttribute('value');
  setStatus(`${label}…`);
  try {
    const { url } = await submit();
    state.job = url;
    const clock = {};
    const final = await watchJob(url, (job) => showProgress(label, job, clock));
    if (final.state === 'cancelled') {
      setStatus(final.error === 'cancelled' ? 'Cancelled.' : final.error, final.error !== 'cancelled');
      return null;
    }
    if (final.state === 'failed') throw new Error(final.error);
    el.progress.removeAttribute('value');
    setStatus(`${label}: receiving the result…`);
    return { url, doc: await jobResult(url) };
  } finally {
    state.job = null;
    el.score.disabled = false;
    el.compare.disabled = false;
    el.cancel.hidden = true;
    el.progress.hidden = true;
  }
}

/** Score as a job: the old result is cleared at once (never shown or downloaded as the new
 * one), then the new one shown; a cancelled or failed job brings the old one back, with its
 * labels. */
async function runJob(label, submit, name) {
  const before = view.state.doc && {
    doc: view.state.doc, name: view.state.name, labels: view.state.labels, url: state.shown,
    follow: view.state.follow, compare: !el.compare.hidden, weights: !$('download-weights').hidden,
  };
  const restore = () => {
    if (!before) return;
    view.show(before.doc, before.name);
    view.addLabels(before.labels);
    view.setFollow(before.follow);
    state.shown = before.url;
    el.compare.hidden = !before.compare;
    $('download-weights').hidden = !before.weights;
  };
  view.clear();
  state.shown = null;
  el.compare.hidden = true;
  $('download-weights').hidden = true; // fitted to the document before
  const started = performance.now();
  try {
    const got = await followJob(label, submit);
    if (!got) {
      restore();
      return;
    }
    view.show(got.doc, name);
    state.shown = got.url; // the Markdown and JSON Lines downloads are written by the server
    el.compare.hidden = !config.compare;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const warnings = warningsLine(got.doc); // a PDF's pages that could not be read
    setStatus(`Scored ${got.doc.cells.length.toLocaleString()} characters, ${got.doc.tokens.length.toLocaleString()} tokens in ${secs} s. ${warnings}`.trim(),
      warnings !== '');
  } catch (err) {
    restore();
    setStatus(err.message, true);
  }
}

/** The document on screen scored by the server's second model, shown beside it: its breaks
 * only (what the comparison needs; the report embeds them too). */
async function compareModels() {
  const shown = state.shown;
  try {
    const got = await followJob(`Scoring with ${config.compare}`, () => compareJob(shown));
    if (!got || state.shown !== shown) return;
    const { model, mode, breaks } = got.doc;
    view.compare({ name: model.file, doc: { model, mode, breaks } });
    setStatus(`Scored with ${model.file} too: the breaks where the two models differ have a purple frame; the count is beside the review queue (d / D walk them, hover shows both models).`);
  } catch (err) {
    setStatus(`Comparing failed: ${err.message}`, true);
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

// -- events --------------------------------------------------------------------------------
el.score.addEventListener('click', scoreCurrent);
el.compare.textContent = `Compare with ${config.compare}`;
el.compare.addEventListener('click', compareModels);
document.querySelectorAll('input[name="mode"]').forEach((radio) => {
  radio.addEventListener('change', () => { if (view.state.doc && !el.score.disabled) scoreCurrent(); });
});
el.file.addEventListener('change', () => {
  if (!el.file.files[0]) return;
  el.sample.value = ''; // the pickers show what will be scored, the text box too
  el.text.value = '';
  el.text.placeholder = `${el.file.files[0].name} will be scored: press Score (or type here to score text instead)`;
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
const name = () => view.state.name;
/** A download's name: the document's, then what decided it (hybrid, or the cutoff; and
 * "labelled" when the labels are applied), then what it is. */
function settingsName(what) {
  const { policy, follow, labels } = view.state;
  const by = policy.decider === 'hybrid' ? 'hybrid' : `cutoff-${policy.cutoff}`;
  const labelled = follow === 'labels' && Object.keys(labels).length ? '-labelled' : '';
  return `${name()}.${by}${labelled}.${what}`;
}
$('download-txt').addEventListener('click', () => download(settingsName('merged.txt'), 'text/plain;charset=utf-8', view.merged()));
$('download-json').addEventListener('click', () => download(settingsName('scores.json'), 'application/json', view.scoresJson()));
[['download-md', 'markdown', 'md', 'text/markdown;charset=utf-8'],
  ['download-jsonl', 'jsonl', 'paragraphs.jsonl', 'application/x-ndjson']].forEach(([id, format, ext, type]) => {
  $(id).addEventListener('click', async () => {
    try {
      const { policy, overrides } = view.state;
      const got = await mergeJob(state.shown, format, policy, overrides);
      download(settingsName(ext), type, got.merged);
    } catch (err) {
      setStatus(`${err.message} (score the document again to download it)`, true);
    }
  });
});
$('copy').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(view.merged());
    setStatus('Merged text copied to the clipboard.');
  } catch (err) {
    setStatus(`Copy failed (${err.message}); use Download instead.`, true);
  }
});
$('save-labels').addEventListener('click', () => {
  const { doc, labels } = view.state;
  const n = Object.keys(labels).length;
  if (!n) {
    setStatus('No labels yet: click a break (or walk the review with n / p), then j or k.', true);
    return;
  }
  download(`${name()}.labels.jsonl`, 'application/x-ndjson', labelLines(doc, labels));
  setStatus(`Saved ${n} label${n === 1 ? '' : 's'} as ${name()}.labels.jsonl.`);
});
el.labelsFile.addEventListener('change', async () => {
  const file = el.labelsFile.files[0];
  if (!file || !view.state.doc) return;
  el.labelsFile.value = ''; // the same file may be loaded again
  try {
    const content = await file.text();
    const truth = !/\.jsonl?$/i.test(file.name);
    const got = await loadLabels(config.urls, truth ? { text: view.state.doc.text, truth: content }
      : { text: view.state.doc.text, labels: content });
    const { added, same, changed } = view.addLabels(got.labels);
    const n = Object.keys(got.labels).length;
    const others = got.others ? `; ${got.others} for other documents ignored` : '';
    const merged = same || changed ? ` (${added} new, ${same} the same, ${changed} changed: the file's label wins)` : '';
    setStatus(`${file.name}: ${n} label${n === 1 ? '' : 's'} ${truth ? 'from the truth text' : 'loaded'}${merged}${others}.`);
  } catch (err) {
    setStatus(`${file.name}: ${err.message}`, true);
  }
});
/** Fit the decider to the labels so far (the server cross-validates and keeps the fit only
 * when it does better), then show the document as the fitted weights decide it, the labels
 * kept; the weights can be downloaded for merge / batch / serve --weights. */
$('learn').addEventListener('click', async () => {
  const { labels } = view.state;
  const shown = state.shown;
  if (!shown) {
    setStatus('Score a document first.', true);
    return;
  }
  $('learn').disabled = true;
  setStatus('Learning from your labels: the model reads every break, then the decider is fitted and cross-validated…');
  try {
    const got = await learnJob(shown, labels);
    const doc = await jobResult(got.url);
    if (state.shown !== shown) return;
    const { name: shownName, follow: exportsFollow } = view.state;
    view.show(doc, shownName);
    view.addLabels(labels);
    view.setFollow(exportsFollow);
    state.shown = got.url;
    state.weights = got.weights;
    $('download-weights').hidden = false;
    setStatus(got.summary);
  } catch (err) {
    setStatus(`Learning failed: ${err.message}`, true);
  } finally {
    $('learn').disabled = false;
  }
});
$('download-weights').addEventListener('click', () => {
  download(`${name()}.weights.json`, 'application/json', JSON.stringify(state.weights, null, 1));
});
$('download-report').addEventListener('click', async () => {
  try {
    const shell = await reportShell(config.urls);
    const { doc, policy, labels, follow: exportsFollow, other } = view.state;
    const compare = other && { name: other.name, doc: other.doc };
    const data = JSON.stringify({ doc, policy, overrides: labels, follow: exportsFollow, name: name(), compare });
    download(settingsName('report.html'), 'text/html;charset=utf-8', fillShell(shell, config.reportMarker, data));
  } catch (err) {
    setStatus(`Report failed: ${err.message}`, true);
  }
});

async function init() {
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
