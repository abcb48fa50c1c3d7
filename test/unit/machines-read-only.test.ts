/** The read-only allow-list: every command on it runs alone; every way to write around it asks first. */
import { describe, expect, it } from 'vitest';
import { isReadOnly, READ_ONLY_COMMANDS } from '../../src/core/machines/read-only.js';
import { credentialElsewhere } from '../../src/core/machines/desk.js';
import { learnedFacts, loginFact, machineTitle, parseMachinePage, revokedFact } from '../../src/core/machines/machine-page.js';

/** A read-only use of each command on the list (its first allowed subcommand, when it has some). */
const EXAMPLES: Record<string, string> = { date: 'date +%F', hostname: 'hostname -I', smartctl: 'smartctl -H /dev/sda' };
const uses = Object.entries(READ_ONLY_COMMANDS).map(([name, rule]) => EXAMPLES[name] ?? (rule.sub ? `${name} ${rule.sub[0] ?? ''}` : rule.maxArgs === 0 ? name : `${name} /srv`));

describe('isReadOnly', () => {
  it.each(uses)('%s runs on its own', (command) => {
    expect(isReadOnly(command)).toBe(true);
  });

  it.each(
    uses.flatMap((u) => [
      `${u} > /etc/passwd`,
      `${u}; rm -rf /`,
      `${u} && reboot`,
      `${u} | tee /etc/x`,
      `sudo ${u}`,
      `${u} $(rm -rf /)`,
      `${u} \`reboot\``,
      `${u} || reboot`,
      `${u}\nreboot`,
      `${u} &`,
    ]),
  )('%j asks first', (command) => {
    expect(isReadOnly(command)).toBe(false);
  });

  it.each([
    'rm -rf /srv',
    'systemctl restart nginx',
    'docker rm web',
    'docker run -it x',
    'find / -delete',
    'find / -exec rm {} +',
    'sort -o /etc/x y',
    'ip addr add 1.2.3.4 dev eth0',
    'date -s 2020-01-01',
    'hostname evil',
    'mount /dev/sda1 /mnt',
    'journalctl --vacuum-size=1M',
    'apt install x',
    'smartctl -t long /dev/sda',
    'zpool destroy tank',
    'shutdown now',
    'reboot',
    '',
  ])('%j asks first', (command) => {
    expect(isReadOnly(command)).toBe(false);
  });

  it('pipes between read-only commands run on their own', () => {
    expect(isReadOnly('df -h | grep /srv')).toBe(true);
    expect(isReadOnly("docker ps | grep 'home assistant'")).toBe(true);
  });
});

describe('the machine page', () => {
  const login = { user: 'admin', host: 'nas.local', port: 22, handle: 'vault:ssh/admin@nas.local' };

  it('reads back the logins it wrote, and drops revoked ones', () => {
    const body = `## Facts\n- ${loginFact(login)} [said:: 2026-12-01] ^r-1\n- Host key: ssh-ed25519 SHA256:${'A'.repeat(43)}. ^r-2\n`;
    const info = parseMachinePage('NAS', 'Machines/NAS.md', body);
    expect(info.logins).toEqual([login]);
    expect(info.hostKey).toEqual({ algorithm: 'ssh-ed25519', fingerprint: `SHA256:${'A'.repeat(43)}` });
    expect(parseMachinePage('NAS', 'Machines/NAS.md', `${body}- ${revokedFact(login, '2026-12-05')}\n`).logins).toEqual([]);
  });

  it('ignores a login line that is not a host and user Charlie may connect to (memory text is untrusted)', () => {
    expect(parseMachinePage('X', 'Machines/X.md', '- SSH login: a;b@evil$(x):22, credential vault:ssh/x.').logins).toEqual([]);
    expect(parseMachinePage('X', 'Machines/X.md', '- SSH login: root@host:99999.').logins).toEqual([]);
  });

  it('learns OS and disks from uname, os-release and df', () => {
    const facts = learnedFacts({
      uname: 'Linux 6.1.0 x86_64\n',
      osRelease: 'NAME=Debian\nPRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n',
      df: 'Filesystem Size Used Avail Use% Mounted on\n/dev/sda1 50G 20G 30G 40% /\ntmpfs 1G 0 1G 0% /run\n',
    });
    expect(facts).toEqual(['OS: Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64.', 'Disks: / 50G (40% used).']);
  });

  it.each([
    ['the NAS', 'NAS'],
    ['nas', 'NAS'],
    ['Pi', 'Pi'],
    ['my vps', 'VPS'],
    ['homeserver', 'Homeserver'],
  ])('titles %j as %j', (name, title) => {
    expect(machineTitle(name)).toBe(title);
  });
});

describe('where a handle may be sent', () => {
  const nas = { name: 'NAS', path: 'Machines/NAS.md', revoked: [], logins: [{ user: 'admin', host: '10.0.0.5', port: 22, handle: 'vault:ssh/admin@10.0.0.5' }] };

  it('to the login it was given for, or the one the page records with it', () => {
    expect(credentialElsewhere({ user: 'admin', host: '10.0.0.5', port: 22, handle: 'vault:ssh/admin@10.0.0.5' }, 'NAS', null)).toBeNull();
    expect(credentialElsewhere({ user: 'pi', host: '10.0.0.9', port: 22, handle: 'vault:ssh/pi@pi' }, 'Pi', null)).toBeNull();
    expect(credentialElsewhere({ user: 'admin', host: '10.0.0.5', port: 22, handle: 'vault:ssh/admin@10.0.0.5' }, 'NAS', nas)).toBeNull();
  });

  it('anywhere else only with a yes', () => {
    expect(credentialElsewhere({ user: 'admin', host: 'evil.example', port: 22, handle: 'vault:ssh/admin@10.0.0.5' }, 'NAS', nas)).toContain('was given for admin@10.0.0.5:22');
    expect(credentialElsewhere({ user: 'admin', host: 'evil.example', port: 22, handle: 'vault:ssh/admin@nas' }, 'Backup', null)).toContain('was given for ssh/admin@nas');
    expect(credentialElsewhere({ user: 'root', host: '10.0.0.5', port: 22, handle: 'vault:ssh/admin@10.0.0.5' }, 'NAS', null)).not.toBeNull();
  });
});
