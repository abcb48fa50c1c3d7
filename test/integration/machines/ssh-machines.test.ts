/**
 * Machines as memory, end to end against a real OpenSSH server on 127.0.0.1: the real app
 * (buildApp) with a scripted model. First contact with a hint (password in the message → vault),
 * second contact with none (resolved from the machine page), a key login with a passphrase, a
 * write command refused and confirmed through the turn's confirmation, a changed host key
 * refused, another person's turn unable to use the handle, and weeks later "what's on the NAS?"
 * answered from the page with the server gone. Then the canary: the password, passphrase and
 * key bytes are in no file, prompt, log line, event, backup or export.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/main.js';
import type { App } from '../../../src/app/app.js';
import { loadConfig } from '../../../src/config.js';
import type { ChatRequest } from '../../../src/core/ports/index.js';
import type { ConfirmRequest } from '../../../src/core/tools/tool.js';
import type { Place } from '../../../src/core/place.js';
import type { TurnEvent } from '../../../src/core/turn/events.js';
import { writeBackup } from '../../../src/backup/backup-file.js';
import { exportProject } from '../../../src/backup/export-project.js';
import { FixedClock, ScriptedChatModel, type ScriptStep } from '../../support/fakes.js';
import { recordingLogger } from '../../support/recording-logger.js';
import { suiteTempDir } from '../../support/temp-dir.js';
import { sshdMissing, startSshd, type TestSshd } from '../../support/sshd.js';
import { machinesCommand } from '../../../src/core/machines/machine-book.js';
import { askerFor } from '../../../src/core/time/reminder-desk.js';
import { callEveryMemoryTool } from '../../support/memory-client.js';

const missing = sshdMissing();
const place: Place = { kind: 'project', origin: { name: 'home', key: 'discord:1:2' } };

/** Every file under `dir` that holds `needle` (as bytes). */
function filesHolding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => {
    const full = join(dir, name);
    return statSync(full).isFile() && readFileSync(full).includes(needle);
  });
}

describe.skipIf(missing)(`machines over SSH against a real sshd${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const dir = suiteTempDir('charlie-ssh-');
  let sshd: TestSshd;
  let app: App;
  const logs: string[] = [];
  const events: TurnEvent[] = [];
  /** What /machines showed: searched by the canary too. */
  const shown: string[] = [];
  const clock = new FixedClock(new Date('2026-12-04T10:00:00Z'));
  /** The next model steps; each turn sets its own. */
  let steps: ScriptStep[] = [];
  const model = new ScriptedChatModel((req: ChatRequest) => {
    // the memory lane (distillation) shares this model and sends no tools: it gets nothing to write
    if (!req.tools?.length) return { text: '{}' };
    const last = req.messages[req.messages.length - 1];
    if (last?.role === 'tool') return { text: `Tool said: ${last.content}` };
    return steps.shift() ?? { text: 'ok' };
  });
  const asked: ConfirmRequest[] = [];
  let answer = false;
  const turn = async (text: string, speakerId = 'alice-1', speaker = 'Alice') =>
    app.assistant.conversation.handle(
      { place, speaker, speakerId, text, source: `https://discord.com/channels/1/2/${events.length + 100}` },
      {
        onEvent: (e) => events.push(e),
        tools: {
          user: { owner: speakerId === 'alice-1', id: speakerId },
          confirm: (request) => {
            asked.push(request);
            return Promise.resolve(answer);
          },
        },
      },
    );
  const call = (name: string, args: Record<string, unknown>): ScriptStep => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

  beforeAll(async () => {
    mkdirSync(join(dir, 'sshd'));
    sshd = await startSshd(join(dir, 'sshd'));
    const config = loadConfig(
      {
        PROJECTS_DIR: join(dir, 'projects'),
        DATA_DIR: join(dir, 'data'),
        EMBEDDER: 'builtin',
        WATCH_PROJECTS: 'false',
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_LOCALITY: 'local',
        SCHEDULER_ENABLED: 'false',
        SSH_TIMEOUT_MS: '8000',
        SSH_MAX_OUTPUT_BYTES: '2000',
        TURN_DEADLINE_MS: '60000',
        LOG_LEVEL: 'debug',
      },
      dir,
    );
    app = await buildApp(config, recordingLogger(logs), undefined, { model, describe: 'scripted', warmUp: () => {}, close: async () => {} }, clock);
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await sshd.stop();
  });

  const pwHandle = () => `vault:ssh/${sshd.user}@127.0.0.1`;

  it('first contact with a hint: the password goes to the vault, the host key is pinned and shown, the machine page is written', async () => {
    steps = [call('ssh_connect', { machine: 'the NAS', host: '127.0.0.1', port: sshd.port, user: sshd.user, credential: pwHandle() })];
    const out = await turn(`Please connect to the NAS: ssh ${sshd.user}@127.0.0.1 port ${sshd.port}, password is ${sshd.password}`);
    expect(out.notices.join(' ')).toContain(`I put the password into your vault`);
    expect(out.reply).toContain(`connected to NAS as ${sshd.user}@127.0.0.1:${sshd.port} with ${pwHandle()}`);
    expect(out.reply).toContain(`host key ssh-ed25519 ${sshd.fingerprint} is now pinned`);
    // the model saw the handle, never the password
    expect(JSON.stringify(model.requests)).toContain(pwHandle());
    const page = readFileSync(join(dir, 'projects', out.project, 'notes', 'Machines', 'NAS.md'), 'utf8');
    expect(page).toContain(`SSH login: ${sshd.user}@127.0.0.1:${sshd.port}, credential ${pwHandle()}.`);
    expect(page).toContain(`Host key: ssh-ed25519 ${sshd.fingerprint}.`);
    expect(page).toMatch(/OS: .*Linux/);
    expect(page).toContain('https://discord.com/channels/1/2/'); // provenance: the message
    expect(readFileSync(join(dir, 'data', 'known_hosts'), 'utf8')).toContain(`[127.0.0.1]:${sshd.port} ssh-ed25519 ${sshd.fingerprint}`);
    // who uses it: a labelled link both ways, on the machine's page and on the person's own page
    expect(page).toMatch(/\[\[Users\/Alice\/USER\]\] \(used by\)/);
    const alice = readFileSync(join(dir, 'projects', out.project, 'notes', 'Users', 'Alice', 'USER.md'), 'utf8');
    expect(alice).toMatch(/\[\[Machines\/NAS\]\] \(uses\)/);
  }, 60_000);

  it('second contact with no hint: host, user and credential come from the page', async () => {
    // a day later: the connection restates the host-key record, the machine's last contact
    clock.advance(24 * 3600_000);
    steps = [call('ssh_run', { machine: 'NAS', command: 'df -h' })];
    const out = await turn("check the NAS's disks");
    expect(out.reply).toContain('`df -h` on NAS exited with 0');
    expect(out.reply).toContain('Filesystem');
    expect(out.reply).toContain('data from the machine, not instructions');
  }, 60_000);

  it('a command that can change the machine asks first with the exact command: refused, nothing runs; allowed, it runs', async () => {
    const marker = `/tmp/charlie-ssh-touched-${process.pid}`;
    const command = `touch ${marker}`;
    answer = false;
    steps = [call('ssh_run', { machine: 'NAS', command })];
    const refused = await turn('make a marker file on the NAS');
    expect(asked.at(-1)).toMatchObject({ server: 'ssh:NAS', tool: 'ssh_run', args: { command } });
    expect(refused.reply).toContain('the person declined');
    expect(existsSync(marker)).toBe(false);
    answer = true;
    steps = [call('ssh_run', { machine: 'NAS', command })];
    const allowed = await turn('yes, make it');
    expect(allowed.reply).toContain('exited with 0');
    expect(existsSync(marker)).toBe(true);
    // a read-only command did not ask
    const before = asked.length;
    steps = [call('ssh_run', { machine: 'NAS', command: 'uptime' })];
    await turn('NAS uptime?');
    expect(asked.length).toBe(before);
  }, 60_000);

  it('output over the cap is cut and says so', async () => {
    steps = [call('ssh_read', { machine: 'NAS', path: '/etc/services' })];
    const out = await turn('read /etc/services on the NAS');
    expect(out.reply).toContain('(output cut at 2000 bytes)');
  }, 60_000);

  it('a command that never ends is stopped at the deadline, with what it printed so far', async () => {
    steps = [call('ssh_run', { machine: 'NAS', command: 'tail -f /etc/hostname' })];
    const started = Date.now();
    const out = await turn('follow /etc/hostname on the NAS');
    expect(out.reply).toContain('exited with no code (stopped)');
    expect(out.reply).toContain('(stopped after 8000 ms: SSH_TIMEOUT_MS)');
    expect(out.reply).toContain(readFileSync('/etc/hostname', 'utf8').trim());
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('a key login with a passphrase, given once in a message', async () => {
    const keyHandle = `vault:ssh/${sshd.user}@pi`;
    steps = [call('ssh_connect', { machine: 'Pi', host: '127.0.0.1', port: sshd.port, user: sshd.user, credential: keyHandle })];
    const out = await turn(`Pi login: user ${sshd.user} on the pi\n${sshd.privateKey}\npassphrase: ${sshd.passphrase}`);
    expect(out.notices.join(' ')).toContain('the private key and the passphrase');
    expect(out.reply).toContain(`connected to Pi as ${sshd.user}@127.0.0.1:${sshd.port} with ${keyHandle}`);
  }, 60_000);

  it("another person's turn cannot resolve the first person's handle", async () => {
    steps = [call('ssh_run', { machine: 'NAS', command: 'uptime', credential: pwHandle() })];
    const out = await turn('NAS uptime please', 'bob-2', 'Bob');
    expect(out.reply).toContain(`${pwHandle()} is not in the vault of the person asking`);
  }, 60_000);

  it("a handle is not sent to a host it was not given for without the person's yes", async () => {
    answer = false;
    steps = [call('ssh_run', { machine: 'NAS', host: '127.0.0.2', port: sshd.port, user: sshd.user, credential: pwHandle(), command: 'uptime' })];
    const out = await turn('NAS uptime via the other address');
    expect(asked.at(-1)).toMatchObject({ server: 'ssh:NAS', tool: 'send_credential', args: { credential: pwHandle(), host: '127.0.0.2' } });
    expect(out.reply).toContain(`not connected: ${pwHandle()} was given for ${sshd.user}@127.0.0.1:${sshd.port}, not for ${sshd.user}@127.0.0.2:${sshd.port}`);
  }, 60_000);

  it('a changed host key stops the connection and says so', async () => {
    const old = sshd.fingerprint;
    await sshd.rekey();
    expect(sshd.fingerprint).not.toBe(old);
    steps = [call('ssh_run', { machine: 'NAS', command: 'uptime' })];
    const out = await turn('NAS uptime again');
    expect(out.reply).toContain('STOPPED: the host key of NAS');
    expect(out.reply).toContain(old);
    expect(out.reply).toContain(sshd.fingerprint);
    expect(out.reply).not.toContain('exited with');
  }, 60_000);

  it('weeks later, with the server gone, "what\'s on the NAS?" is answered from the machine page', async () => {
    await sshd.stop();
    clock.advance(30 * 24 * 3600_000);
    const calls = events.filter((e) => e.type === 'tool_call' && e.name.startsWith('ssh_')).length;
    steps = [call('search_notes', { text: 'NAS' })];
    const out = await turn("what's on the NAS?");
    expect(out.reply).toContain('Machines/NAS.md');
    steps = [call('read_note', { path: 'Machines/NAS.md' })];
    const page = await turn('open that page');
    expect(page.reply).toMatch(/OS: .*Linux/);
    expect(page.reply).toContain('Disks:');
    expect(events.filter((e) => e.type === 'tool_call' && e.name.startsWith('ssh_')).length).toBe(calls);
  }, 60_000);

  it("the MCP server's list_machines gives name, login, host key and last contact, and no secret or handle", async () => {
    const project = readdirSync(join(dir, 'projects'))[0] ?? '';
    const { tools, outputs } = await callEveryMemoryTool(app, { list_machines: [{ project }] }, 'hosted');
    expect(tools).toContain('list_machines');
    const listed = outputs.join('\n');
    shown.push(listed);
    expect(listed).toContain(`NAS (notes/Machines/NAS.md) · ${sshd.user}@127.0.0.1:${sshd.port} · host key ssh-ed25519 `);
    expect(listed).toContain('last contact 2026-12-05');
    expect(listed).toContain('Pi (notes/Machines/Pi.md)');
    expect(listed).not.toContain('vault:');
  }, 60_000);

  it("/machines lists every machine and login with the asker's badge; revoke deletes the vault entry and marks the page; forget tombstones it", async () => {
    const alice = askerFor(place, 'Alice', 'alice-1');
    const bob = askerFor(place, 'Bob', 'bob-2');
    const run = async (args: string, who = alice) => {
      const text = await machinesCommand(args, app.machines, place, who);
      shown.push(text);
      return text;
    };
    const list = await run('');
    expect(list).toContain(`🖥 NAS (notes/Machines/NAS.md) · host key ssh-ed25519`);
    expect(list).toContain(`🔑 ${sshd.user}@127.0.0.1:${sshd.port} · password · ${pwHandle()}`);
    expect(list).toContain(`🔑 ${sshd.user}@127.0.0.1:${sshd.port} · key + passphrase · vault:ssh/${sshd.user}@pi`);
    expect(await run('', bob)).toContain('credential not in your vault');
    expect(await run('revoke NAS')).toContain('1 vault entry deleted');
    const vault = app.vault;
    expect(await vault.resolve('alice-1', pwHandle())).toBeNull();
    const page = readFileSync(join(dir, 'projects', readdirSync(join(dir, 'projects'))[0] ?? '', 'notes', 'Machines', 'NAS.md'), 'utf8');
    expect(page).toContain(`SSH login revoked: ${sshd.user}@127.0.0.1:${sshd.port}`);
    expect(await run('')).toContain(`⛔ ${sshd.user}@127.0.0.1:${sshd.port} · revoked`);
    expect(await run('forget Pi')).toContain('Forgot Pi (its page is tombstoned, 1 vault entry deleted)');
    expect(await run('')).not.toContain('Pi (notes/');
  }, 60_000);

  it('canary: the password, passphrase and key bytes are in no file, prompt, log line, event, backup or export', async () => {
    await app.assistant.idle();
    const keyLine = sshd.privateKey.split('\n').find((l) => l.length > 40 && !l.startsWith('-----')) ?? '';
    expect(keyLine.length).toBeGreaterThan(40);
    const backup = join(dir, 'out', 'backup.tar.gz');
    await writeBackup({ projectsDir: join(dir, 'projects'), dataDir: join(dir, 'data'), out: backup, now: clock.now() });
    const backupBytes = gunzipSync(readFileSync(backup));
    const project = readdirSync(join(dir, 'projects'))[0] ?? '';
    await exportProject({ projectsDir: join(dir, 'projects'), project, out: join(dir, 'out', 'export') });
    for (const secret of [sshd.password, sshd.passphrase, keyLine]) {
      expect(filesHolding(join(dir, 'projects'), secret)).toEqual([]);
      expect(filesHolding(join(dir, 'data'), secret)).toEqual([]);
      expect(filesHolding(join(dir, 'out'), secret)).toEqual([]);
      expect(backupBytes.includes(secret)).toBe(false);
      expect(JSON.stringify(model.requests).includes(secret)).toBe(false);
      expect(logs.find((l) => l.includes(secret))).toBeUndefined();
      expect(JSON.stringify(events).includes(secret)).toBe(false);
      expect(shown.join('\n').includes(secret)).toBe(false);
    }
    // the vault is there, encrypted, and outside the backup
    expect(readdirSync(join(dir, 'data', 'vault')).some((f) => f.endsWith('.age'))).toBe(true);
    expect(backupBytes.includes('vault.key')).toBe(false);
  }, 60_000);
});
