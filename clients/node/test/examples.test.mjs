// The README's quick start and examples/supabase.mjs, run as programs against the real daemon
// (supabase-js is replaced by a stand-in that calls the accessToken option concurrently, as
// supabase-js may).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { Emulator, Daemon } from './support/harness.mjs';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
let emulator;
let daemon;
let app;
before(async () => {
  emulator = await Emulator.start();
  daemon = await Daemon.start(emulator);
  app = mkdtempSync('/tmp/nodeapp-');
  mkdirSync(join(app, 'node_modules', '@supabase', 'supabase-js'), { recursive: true });
  symlinkSync(PACKAGE, join(app, 'node_modules', 'sesame-client'));
  writeFileSync(join(app, 'node_modules', '@supabase', 'supabase-js', 'package.json'),
    JSON.stringify({ name: '@supabase/supabase-js', type: 'module', exports: './index.js' }));
  writeFileSync(join(app, 'node_modules', '@supabase', 'supabase-js', 'index.js'), `
export function createClient(url, key, options) {
  return { from: (table) => ({ select: async () => {
    const tokens = await Promise.all(Array.from({ length: 50 }, () => options.accessToken()));
    return { data: { url, key, table, calls: tokens.length, distinct: new Set(tokens).size,
      jwt: tokens.every((t) => t.split('.').length === 3) }, error: null };
  } }) };
}
`);
});
after(async () => {
  rmSync(app, { recursive: true, force: true });
  await daemon.stop();
  await emulator.stop();
});

// A child's console.log colours what it inspects when the runner has a terminal (node --test
// passes FORCE_COLOR on to children then): a line is compared without its colour codes, so the
// verdict is the same in a terminal and in CI.
function run(file, lines, env = {}) {
  const child = spawn(process.execPath, [file], { cwd: app, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, SESAME_SOCKET: daemon.socketPath, SUPABASE_URL: 'http://127.0.0.1:1', SUPABASE_ANON_KEY: 'anon',
      ...env } });
  const reader = createInterface({ input: child.stdout });
  const got = [];
  const done = new Promise((resolve) => {
    reader.on('line', (line) => {
      got.push(stripVTControlCharacters(line));
      if (got.length === lines) resolve(got);
    });
    child.once('exit', () => resolve(got));
  });
  return { child, done };
}

test('the README quick start prints a token and the current state', async () => {
  const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
  const section = readme.split('## Using Sesame from Node')[1];
  const code = /```js\n([\s\S]*?)```/.exec(section)[1];
  assert.ok(code.split('\n').filter((line) => line.trim()).length <= 5);
  writeFileSync(join(app, 'quick.mjs'), `${code}console.log('token', token.uid);\n`);
  const { child, done } = run(join(app, 'quick.mjs'), 2);
  try {
    const uid = (await daemon.client().state()).user.uid;
    assert.deepEqual((await done).sort(), [`anonymous ${uid} snapshot`, `token ${uid}`].sort());
    assert.equal(child.exitCode, null, 'a listener keeps the program running');
  } finally {
    child.kill();
  }
});

async function checkSupabaseExample(env) {
  copyFileSync(join(PACKAGE, 'examples', 'supabase.mjs'), join(app, 'supabase.mjs'));
  const { child, done } = run(join(app, 'supabase.mjs'), 10, env);
  const [code] = await once(child, 'exit');
  const output = (await done).join('\n');
  assert.equal(code, 0, output);
  assert.match(output, /calls: 50/);
  assert.match(output, /distinct: 1/);
  assert.match(output, /jwt: true/);
}

test('examples/supabase.mjs: the accessToken option gets the ID token, also when called concurrently', async () => {
  await checkSupabaseExample({});
});

test('examples/supabase.mjs: the same verdict when its output is coloured, as under a terminal', async () => {
  await checkSupabaseExample({ FORCE_COLOR: '1' });
});
