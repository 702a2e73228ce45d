// The page's policy (static/policy.js) on the shared cases of tests/fixtures/decisions.json,
// the same file scorer/decide.py is tested on (tests/test_decide.py).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { decisions, mergedText } from '../../static/policy.js';

const golden = JSON.parse(readFileSync(new URL('../fixtures/decisions.json', import.meta.url), 'utf-8'));

for (const c of golden.cases) {
  test(c.name, () => {
    const { text, breaks } = golden.texts[c.text];
    // as the page does: the threshold from the server's defaults, decider and cutoff as chosen
    const policy = { ...golden.defaults, decider: c.decider, cutoff: c.cutoff };
    const got = decisions(breaks, policy, c.overrides);
    assert.deepEqual(got, c.decisions);
    assert.equal(mergedText(text, breaks, got), c.merged);
  });
}
