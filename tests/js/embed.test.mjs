// The report's embedding (static/embed.js) on the cases scorer/report.py is tested on
// (tests/fixtures/embedding.json, tests/test_labels.py).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { embedJson, fillShell } from '../../static/embed.js';

const shared = JSON.parse(readFileSync(new URL('../fixtures/embedding.json', import.meta.url), 'utf-8'));

for (const c of shared.cases) {
  test(`embedding: ${c.name}`, () => {
    assert.equal(fillShell(c.shell, shared.marker, c.json), c.filled);
    assert.ok(!embedJson(c.json).includes('<'));
    assert.deepEqual(JSON.parse(embedJson(c.json)), JSON.parse(c.json));
  });
}
