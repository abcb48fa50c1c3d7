import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { effectiveLicense, licenseProblems, lockedPackages, REVIEWED_PACKAGES, staleReviews, type LockedPackage } from '../../scripts/licenses/policy.js';

const lock: unknown = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const locked = lockedPackages(lock);

function pkg(name: string, license: string | undefined, dev = false): LockedPackage {
  return { path: `node_modules/${name}`, name, version: '1.0.0', license, dev, optional: false };
}

describe('dependency licenses (package-lock.json)', () => {
  it('every locked package has an allowed license, and every hand review still matches a package', () => {
    expect(locked.length).toBeGreaterThan(100);
    expect(licenseProblems(locked)).toEqual([]);
    expect(staleReviews(locked)).toEqual([]);
  });

  it('fails on a dependency under an AGPL-incompatible, unknown or non-SPDX license', () => {
    const injected = [
      pkg('mongo-like', 'SSPL-1.0'),
      pkg('old-gpl', 'GPL-2.0-only'),
      pkg('no-license', undefined),
      pkg('free-text', 'Custom: see the website'),
      pkg('both-needed', 'Apache-2.0 AND CC-BY-NC-4.0'),
      pkg('either-one', 'MIT OR SSPL-1.0'),
      pkg('spdx-data', 'CC-BY-3.0', true),
      pkg('spdx-data-shipped', 'CC-BY-3.0'),
    ];
    const problems = licenseProblems([...locked, ...injected]);
    expect(problems.map((p) => [p.package, p.why])).toEqual([
      ['mongo-like@1.0.0', 'not on the allowed list'],
      ['old-gpl@1.0.0', 'not on the allowed list'],
      ['no-license@1.0.0', 'no license declared (unknown)'],
      ['free-text@1.0.0', 'not an SPDX expression (unknown)'],
      ['both-needed@1.0.0', 'not on the allowed list'],
      ['spdx-data-shipped@1.0.0', 'not on the allowed list'],
    ]);
  });

  it('a package added to the lock file the way `npm i` writes it is caught', () => {
    const raw = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, unknown> };
    raw.packages['node_modules/some-server-lib'] = { version: '2.0.0', license: 'BUSL-1.1' };
    raw.packages['node_modules/some-server-lib/node_modules/helper'] = { version: '0.1.0' };
    const problems = licenseProblems(lockedPackages(raw));
    expect(problems.map((p) => `${p.package} ${p.license}`)).toEqual(['some-server-lib@2.0.0 BUSL-1.1', 'helper@0.1.0 (none)']);
  });

  it('each hand-reviewed package, where installed, really carries the license the review names', () => {
    const checked = Object.entries(REVIEWED_PACKAGES).flatMap(([key, review]) => {
      const entry = locked.find((p) => `${p.name}@${p.version}` === key);
      if (entry === undefined || !existsSync(join(entry.path, 'package.json'))) return [];
      const manifest = JSON.parse(readFileSync(join(entry.path, 'package.json'), 'utf8')) as {
        license?: unknown;
        licenses?: { type?: string }[];
      };
      const declared = [String(manifest.license ?? ''), ...(manifest.licenses ?? []).map((l) => l.type ?? '')].join(' ');
      const files = ['LICENSE', 'LICENSE.txt', 'LICENSE-MIT.txt', 'LICENSE.md'].map((f) => join(entry.path, f)).filter((f) => existsSync(f));
      const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
      const phrase = review.license === 'MIT' ? /Permission is hereby granted, free of charge/ : /Apache License[\s\S]*Version 2\.0/;
      // a package that ships no license file at all may state its license in its README
      const readme = files.length === 0 && existsSync(join(entry.path, 'README.md')) ? readFileSync(join(entry.path, 'README.md'), 'utf8') : '';
      const stated = new RegExp(`licensed under the ${review.license === 'MIT' ? 'MIT' : 'Apache'} License`).test(readme);
      return [{ key, ok: declared.includes(review.license) || phrase.test(text) || stated }];
    });
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('THIRD_PARTY_NOTICES', () => {
  const notices = readFileSync('THIRD_PARTY_NOTICES', 'utf8');
  const sections = [...notices.matchAll(/^={78}\n\nPackage: (\S+)\nLicense: (.*)$/gm)].map((m) => ({ key: m[1] ?? '', license: m[2] ?? '' }));
  const production = locked.filter((p) => !p.dev);
  const byKey = new Map(production.map((p) => [`${p.name}@${p.version}`, p]));

  it('lists only production packages of the lock file, with the license the check judged', () => {
    expect(sections.length).toBeGreaterThan(100);
    const mismatches = sections.filter((s) => {
      const p = byKey.get(s.key);
      return p === undefined || effectiveLicense(p) !== s.license;
    });
    expect(mismatches).toEqual([]);
  });

  it('lists every production package that is installed on every platform (regenerate with `npm run licenses`)', () => {
    const listed = new Set(sections.map((s) => s.key));
    const missing = production.filter((p) => !p.optional && !listed.has(`${p.name}@${p.version}`)).map((p) => p.path);
    expect(missing).toEqual([]);
  });

  it('names the version in package.json', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(notices.split('\n')[0]).toBe(`Third-party software notices for Charlie ${version}`);
  });
});
