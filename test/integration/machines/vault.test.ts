/** The vault on disk: age-encrypted per person, 0600 files in a 0700 folder, handles resolved only for their owner. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgeVault } from '../../../src/machines/age-vault.js';
import { findMachineSecrets, loginHint, moveSecretsToVault } from '../../../src/core/machines/message-secrets.js';
import { removeSecrets } from '../../../src/core/privacy/secrets.js';
import { tempDirs } from '../../support/temp-dir.js';

const temp = tempDirs('charlie-vault-');
// a canary that looks like nothing else in the tree
const PASSWORD = 'Tr0ub4dor-canary-7731';

describe('AgeVault', () => {
  it('keeps a credential encrypted, per person, in files only Charlie can read', async () => {
    const dir = join(temp(), 'vault');
    const vault = new AgeVault(dir);
    const handle = await vault.put('ann', 'ssh/admin@nas', { password: PASSWORD });
    expect(handle).toBe('vault:ssh/admin@nas');
    expect(await vault.resolve('ann', handle)).toEqual({ password: PASSWORD });
    // another person's turn: the same handle is nothing
    expect(await vault.resolve('bob', handle)).toBeNull();
    expect(await vault.list('bob')).toEqual([]);
    expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
    for (const f of readdirSync(dir)) {
      expect((statSync(join(dir, f)).mode & 0o777).toString(8), f).toBe('600');
      expect(readFileSync(join(dir, f)).includes(PASSWORD), f).toBe(false);
      expect(f.includes('ann'), 'no user id in a file name').toBe(false);
    }
    // a second instance (a restart) opens it with the same key file
    expect(await new AgeVault(dir).resolve('ann', handle)).toEqual({ password: PASSWORD });
  });

  it('merges into an entry, lists kinds without secrets, and removes', async () => {
    const vault = new AgeVault(join(temp(), 'vault'));
    await vault.put('ann', 'ssh/admin@nas', { privateKey: 'KEY' });
    await vault.put('ann', 'ssh/admin@nas', { passphrase: 'PHRASE' });
    const listed = await vault.list('ann');
    expect(listed.map((e) => [e.handle, e.kinds.sort()])).toEqual([['vault:ssh/admin@nas', ['passphrase', 'privateKey']]]);
    expect(JSON.stringify(listed)).not.toContain('PHRASE');
    expect(await vault.remove('bob', 'vault:ssh/admin@nas')).toBe(false);
    expect(await vault.remove('ann', 'vault:ssh/admin@nas')).toBe(true);
    expect(await vault.resolve('ann', 'vault:ssh/admin@nas')).toBeNull();
  });

  it('serialises concurrent changes of one person (none lost)', async () => {
    const vault = new AgeVault(join(temp(), 'vault'));
    await Promise.all(Array.from({ length: 8 }, (_, i) => vault.put('ann', `ssh/u${i}@h`, { password: `p${i}xyz` })));
    expect((await vault.list('ann')).length).toBe(8);
  });
});

describe('secrets typed in a message about a machine', () => {
  const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0\n-----END OPENSSH PRIVATE KEY-----';

  it('moves a password into the vault and leaves the handle in the text (which removeSecrets keeps)', async () => {
    const vault = new AgeVault(join(temp(), 'vault'));
    const moved = await moveSecretsToVault(`the NAS is at 192.168.1.20, user admin, password is ${PASSWORD}.`, 'ann', vault);
    expect(moved?.text).toBe('the NAS is at 192.168.1.20, user admin, password is vault:ssh/admin@192.168.1.20.');
    expect(removeSecrets(moved?.text ?? '').text).toBe(moved?.text);
    expect(await vault.resolve('ann', moved?.handle ?? '')).toEqual({ password: PASSWORD });
  });

  it('moves a key block and its passphrase into one entry', async () => {
    const vault = new AgeVault(join(temp(), 'vault'));
    const moved = await moveSecretsToVault(`ssh key for pi@raspberrypi.local:\n${KEY}\npassphrase: horse-staple-9`, 'ann', vault);
    expect(moved?.handle).toBe('vault:ssh/pi@raspberrypi.local');
    expect(moved?.text).not.toContain('BEGIN');
    expect(moved?.text).not.toContain('horse-staple-9');
    expect(await vault.resolve('ann', moved?.handle ?? '')).toEqual({ privateKey: KEY, passphrase: 'horse-staple-9' });
  });

  it('leaves a message alone when it is not about a machine, or says no password', () => {
    expect(findMachineSecrets('my password is hunter22 for the bank')).toBeNull();
    expect(findMachineSecrets('ssh to the NAS: the password is wrong?')).toBeNull();
    expect(findMachineSecrets('the server password is not set')).toBeNull();
  });

  it.each([
    ['ssh admin@nas.local', { user: 'admin', host: 'nas.local' }],
    ['the NAS, user admin', { user: 'admin', host: 'nas' }],
    ['server 10.0.0.5 username root', { user: 'root', host: '10.0.0.5' }],
  ])('reads the login of %j', (text, hint) => {
    expect(loginHint(text)).toEqual(hint);
  });
});
