// The shared tracker table (tests/fixtures/stream-tracker.json), run against StreamTracker: the
// same rows the Python client's tracker tests run, so the clients cannot drift.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { StreamTracker } = require('../lib/tracker.cjs');
const fixture = JSON.parse(readFileSync(new URL('../../../tests/fixtures/stream-tracker.json', import.meta.url), 'utf8'));

const full = (partial) => (partial === null ? null : { ...fixture.base, ...partial });

function observed(state, fields) {
  const values = {
    sequence: state.sequence, reason: state.reason, status: state.status, uid: state.user ? state.user.uid : null,
    connectivity: state.connectivity, tokenExpiresAt: state.token ? state.token.expiresAt : null,
    rateLimitOperation: state.rateLimit ? state.rateLimit.operation : null,
  };
  return Object.fromEntries(Object.keys(fields).map((key) => [key, values[key]]));
}

function run(tracker, step) {
  switch (step.op) {
    case 'connect':
      tracker.connected(step.instance);
      return { states: [], resync: false };
    case 'snapshot':
      return tracker.snapshot(full(step.state));
    case 'notification': {
      const params = { ...step.params };
      if (params.state && typeof params.state === 'object') params.state = full(params.state);
      return tracker.notification(step.method, params);
    }
    case 'resynced':
      return tracker.resynced(full(step.state));
    default:
      throw new Error(`unknown op ${step.op}`);
  }
}

for (const testCase of fixture.cases) {
  test(`tracker table: ${testCase.name}`, () => {
    const tracker = new StreamTracker();
    testCase.steps.forEach((step, index) => {
      const { states, resync } = run(tracker, step);
      const wanted = step.expect ?? [];
      assert.deepEqual(states.map((state, i) => observed(state, wanted[i] ?? {})), wanted,
        `step ${index} (${step.op}) gave ${JSON.stringify(states.map((s) => [s.sequence, s.reason]))}`);
      assert.equal(resync, step.resync ?? false, `step ${index} (${step.op}): resync`);
    });
  });
}

test('the table covers every rule', () => {
  const names = fixture.cases.map((c) => c.name).join(' ');
  for (const rule of ['snapshot comes first', 'gap', 'new instance', 'no duplicates']) assert.ok(names.includes(rule), rule);
});
