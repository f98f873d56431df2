// Starts the built sesame-emulator and sesamed on temporary paths, as the Python client's
// harness does. The binaries come from $SESAME_BIN_DIR, else the repository's .build/debug.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync, openSync, closeSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sesame, DaemonUnavailable } from '../../index.mjs';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
export const PROJECT = 'demo-project';

export function binDir() {
  const directory = process.env.SESAME_BIN_DIR || join(REPO, '.build', 'debug');
  for (const name of ['sesamed', 'sesame-emulator']) {
    try {
      accessSync(join(directory, name), constants.X_OK);
    } catch {
      throw new Error(`${join(directory, name)} is missing: build it (swift build --product ${name}) or set SESAME_BIN_DIR`);
    }
  }
  return directory;
}

/** Polls a readiness condition (a process starting up), bounded; not for ordering events. */
export async function waitUntil(what, condition, ms = 30000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await condition()) return;
    } catch (error) {
      if (!(error instanceof DaemonUnavailable) && error.code !== 'ENOENT') throw error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export class Emulator {
  static async start() {
    const emulator = new Emulator();
    await emulator.ready;
    return emulator;
  }

  constructor() {
    this.directory = mkdtempSync('/tmp/nodeemu-');
    this.process = spawn(join(binDir(), 'sesame-emulator'), ['--auth-port', '0', '--database-port', '0', '--project', PROJECT],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    this.ports = {};
    let output = '';
    this.ready = new Promise((resolve, reject) => {
      this.process.stdout.on('data', (chunk) => {
        output += chunk;
        for (const match of output.matchAll(/(auth|database) listening on http:\/\/[^:]+:(\d+)/g)) this.ports[match[1]] = Number(match[2]);
        if (this.ports.auth && this.ports.database) resolve();
      });
      this.process.once('exit', (code) => reject(new Error(`sesame-emulator exited (${code}) before it listened`)));
    });
  }

  get authHost() { return `127.0.0.1:${this.ports.auth}`; }
  get databaseHost() { return `127.0.0.1:${this.ports.database}`; }

  async request(method, path, body) {
    const response = await fetch(`http://${this.authHost}${path}`, {
      method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }

  async createAccount(email, password) {
    const body = await this.request('POST', '/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test',
      { email, password, returnSecureToken: true });
    return body.localId;
  }

  faults(settings) {
    return settings === undefined ? this.request('GET', '/sesame/v1/faults') : this.request('POST', '/sesame/v1/faults', settings);
  }

  async stop() {
    this.process.kill('SIGTERM');
    if (this.process.exitCode === null && this.process.signalCode === null) await once(this.process, 'exit');
    rmSync(this.directory, { recursive: true, force: true });
  }
}

/** sesamed against an Emulator, with its socket, keyring and config in a short temp dir. */
export class Daemon {
  static async start(emulator, settings = {}) {
    const daemon = new Daemon(emulator, settings);
    await daemon.waitForStatus('anonymous');
    return daemon;
  }

  constructor(emulator, settings) {
    this.directory = mkdtempSync('/tmp/noded-');
    chmodSync(this.directory, 0o755);
    this.socketPath = join(this.directory, 's.sock');
    const sections = {
      firebase: { api_key: '"node-key"', project_id: `"${PROJECT}"`, auth_emulator_host: `"${emulator.authHost}"`,
        database_emulator_host: `"${emulator.databaseHost}"` },
      socket: { path: `"${this.socketPath}"` },
    };
    for (const [section, keys] of Object.entries(settings)) sections[section] = { ...sections[section], ...keys };
    const toml = Object.entries(sections).map(([name, keys]) =>
      `[${name}]\n` + Object.entries(keys).map(([key, value]) => `${key} = ${value}\n`).join('')).join('');
    writeFileSync(join(this.directory, 'sesamed.toml'), toml);
    this.generation = 0;
    this.launch();
  }

  launch() {
    const log = openSync(join(this.directory, `sesamed.${this.generation}.err`), 'w');
    this.process = spawn(join(binDir(), 'sesamed'), ['--config', join(this.directory, 'sesamed.toml'),
      '--state-dir', join(this.directory, 'state'), '--log-level', 'debug'], { stdio: ['ignore', 'ignore', log] });
    closeSync(log);
  }

  log() {
    let text = '';
    for (let n = 0; n <= this.generation; n += 1) text += readFileSync(join(this.directory, `sesamed.${n}.err`), 'utf8');
    return text;
  }

  client(options = {}) {
    return new Sesame({ socket: this.socketPath, ...options });
  }

  async waitForStatus(status) {
    const probe = this.client({ timeout: 2000 });
    try {
      await waitUntil(`sesamed reports ${status}`, async () => {
        if (this.process.exitCode !== null) throw new Error(`sesamed exited: ${this.log().slice(-3000)}`);
        return (await probe.state()).status === status;
      });
    } finally {
      probe.close();
    }
  }

  async kill() {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGKILL');
      await once(this.process, 'exit');
    }
  }

  async restart() {
    await this.kill();
    this.generation += 1;
    this.launch();
    await this.waitForStatus('anonymous');
  }

  async stop() {
    await this.kill();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

export function uniqueEmail(prefix = 'node') {
  return `${prefix}-${Math.random().toString(16).slice(2, 12)}@example.com`;
}

/** Collects what a callback receives; `wait` resolves once a condition on it holds. */
export class Recorder {
  constructor() {
    this.values = [];
    this.waiters = [];
    this.push = (value) => {
      this.values.push(value);
      for (const waiter of [...this.waiters]) waiter();
    };
  }

  wait(what, predicate, ms = 30000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(this.values)) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve([...this.values]);
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.values.map((v) => [v.sequence, v.reason]))}`));
      }, ms);
      this.waiters.push(check);
      check();
    });
  }
}
