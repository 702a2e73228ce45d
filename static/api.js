// api.js: talking to the server. Every failure becomes an Error whose message is safe to show.

async function request(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    throw new Error(`cannot reach the server (${err.message})`);
  }
  let body = null;
  try {
    body = await response.json();
  } catch (err) {
    // not JSON: fall through to the status check
  }
  if (!response.ok) {
    throw new Error((body && body.error) || `the server answered ${response.status}`);
  }
  return body;
}

const jsonPost = (url, payload) => request(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(payload),
});

function form(file, mode) {
  const body = new FormData();
  body.append('file', file);
  body.append('mode', mode);
  return body;
}

/** Start scoring a text or a file as a job; resolves to {id, url}. */
export function submitText(urls, text, mode) {
  return jsonPost(urls.jobs, { text, mode });
}

export function submitFile(urls, file, mode) {
  return request(urls.jobs, { method: 'POST', body: form(file, mode) });
}

const ENDED = ['done', 'failed', 'cancelled'];

/** Follow a job until it ends: its server-sent events, or polling when the event stream breaks
 * (a proxy may cut it); onChange(view) on every change. Resolves to the last view. */
export function watchJob(url, onChange) {
  return new Promise((resolve, reject) => {
    const events = new EventSource(`${url}/events`);
    const seen = (view) => {
      onChange(view);
      if (ENDED.includes(view.state)) {
        events.close();
        resolve(view);
        return true;
      }
      return false;
    };
    events.onmessage = (message) => { seen(JSON.parse(message.data)); };
    events.onerror = async () => {
      events.close();
      try {
        for (;;) { // eslint-disable-line no-constant-condition
          if (seen(await request(url))) return; // eslint-disable-line no-await-in-loop
          await new Promise((wake) => { setTimeout(wake, 500); }); // eslint-disable-line no-await-in-loop
        }
      } catch (err) {
        reject(err);
      }
    };
  });
}

export function cancelJob(url) {
  return request(url, { method: 'DELETE' });
}

/** Score a finished job's document with the server's second model; resolves to {id, url}. */
export function compareJob(url) {
  return request(`${url}/compare`, { method: 'POST' });
}

/** Fit the decider to the labels ({offset: 'join'/'keep'}) on a finished job's document;
 * resolves to {id, url (the document decided by the fitted weights), weights, summary}. */
export function learnJob(url, labels) {
  return jsonPost(`${url}/learn`, { labels });
}

export function jobResult(url) {
  return request(`${url}/result`);
}

/** A finished job's document merged by the server in a format (text, markdown, jsonl), as
 * the policy and the hand decisions say; resolves to {merged, format, joined, kept, breaks}. */
export function mergeJob(url, format, policy, overrides) {
  return jsonPost(`${url}/merge`, {
    format, decide: policy.decider, cutoff: policy.cutoff, overrides,
  });
}

export function listSamples(urls) {
  return request(urls.samples);
}

export function loadSample(urls, name) {
  return request(`${urls.samples}/${encodeURIComponent(name)}`);
}

/** Labels for the scored text: {text, labels: JSON Lines} or {text, truth}; resolves to
 * {labels: {offset: decision}, others}. */
export function loadLabels(urls, payload) {
  return jsonPost(urls.labels, payload);
}

/** The HTML report's shell (scripts and styles inline; the data slot marked). */
export async function reportShell(urls) {
  let response;
  try {
    response = await fetch(urls.report);
  } catch (err) {
    throw new Error(`cannot reach the server (${err.message})`);
  }
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
  return response.text();
}
