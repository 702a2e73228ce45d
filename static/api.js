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

export function scoreText(urls, text, mode) {
  return jsonPost(urls.score, { text, mode });
}

export function scoreFile(urls, file, mode) {
  const form = new FormData();
  form.append('file', file);
  form.append('mode', mode);
  return request(urls.score, { method: 'POST', body: form });
}

export function listSamples(urls) {
  return request(urls.samples);
}

export function loadSample(urls, name) {
  return request(`${urls.samples}/${encodeURIComponent(name)}`);
}
