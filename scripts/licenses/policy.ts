/**
 * Which dependency licenses Charlie (AGPL-3.0-or-later) may ship with, decided from the lock file.
 *
 * spdx-satisfies evaluates the SPDX expressions (`MIT OR CC0-1.0`, `Apache-2.0 AND LGPL-3.0-or-later`);
 * what it cannot know is the policy itself and the packages whose metadata is not an SPDX id,
 * which is what this file holds.
 */
import satisfies from 'spdx-satisfies';

/**
 * Licenses a dependency of an AGPL-3.0-or-later program may carry: permissive ones, the weak
 * copylefts whose terms the AGPL can meet (MPL-2.0 §3.3, LGPL-3.0), and the GPL-3.0 / AGPL-3.0
 * family (AGPL-3.0 §13 allows combining with GPL-3.0). Not here, on purpose: GPL-2.0-only and
 * LGPL-2.1-only-style "version 2 only" terms, non-commercial (CC BY-NC) and source-available
 * licences (SSPL, BUSL, Elastic), and anything unknown.
 */
export const ALLOWED_LICENSES: readonly string[] = [
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC-BY-4.0',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT-0',
  'Python-2.0',
  // PSF-2.0: the Python Software Foundation License 2.0 (argparse, under markdown-it), permissive and GPL-compatible like Python-2.0.
  'PSF-2.0',
  'Unlicense',
  'WTFPL',
  'Zlib',
  'MPL-2.0',
  'LGPL-2.1-or-later',
  'LGPL-3.0-or-later',
  'GPL-3.0-or-later',
  'AGPL-3.0-only',
  'AGPL-3.0-or-later',
];

/**
 * Allowed in addition for development-only packages (`"dev": true` in the lock file): they run
 * on the developer's machine (type-checking, tests, this license check) and are never part of
 * Charlie as it runs. CC-BY-3.0 covers the SPDX identifier lists (spdx-exceptions,
 * spdx-ranges): data with an attribution requirement, met by THIRD_PARTY_NOTICES.
 */
export const DEV_ONLY_ALLOWED_LICENSES: readonly string[] = ['CC-BY-3.0'];

/**
 * Packages whose lock-file entry has no usable SPDX `license`, each read by hand. Keyed by
 * name@version, so a new version is looked at again.
 */
export const REVIEWED_PACKAGES: Readonly<Record<string, { license: string; reason: string }>> = {
  'ssh2@1.17.0': {
    license: 'MIT',
    reason: 'the SSH client of the machine tools (src/machines). Declares MIT in the old `licenses: [{ type }]` array, which npm does not copy into the lock file; its LICENSE file is the MIT text.',
  },
  'cpu-features@0.0.10': {
    license: 'MIT',
    reason: "optional, via ssh2 (picks ciphers by the CPU's features). Declares MIT in the old `licenses: [{ type }]` array; its LICENSE file is the MIT text.",
  },
  'buildcheck@0.0.7': {
    license: 'MIT',
    reason: 'optional, via cpu-features (ssh2), used only when it builds. Declares MIT in the old `licenses: [{ type }]` array; its LICENSE file is the MIT text.',
  },
  'json-bignum@0.0.3': {
    license: 'MIT',
    reason: 'needed by apache-arrow (LanceDB). Declares MIT in the old `licenses: [{ type }]` array, which npm does not copy into the lock file; its LICENSE file is the MIT text.',
  },
  'base-64@0.1.0': {
    license: 'MIT',
    reason: 'optional, via digest-fetch (LanceDB). Declares MIT in the old `licenses: [{ type }]` array; it ships LICENSE-MIT.txt.',
  },
  'flatbuffers@1.12.0': {
    license: 'Apache-2.0',
    reason: 'optional, via onnxruntime-web. Says "SEE LICENSE IN LICENSE.txt"; that file is Apache License 2.0 (Google FlatBuffers).',
  },
  'memorystream@0.3.1': {
    license: 'MIT',
    reason: 'dev only, via npm-run-all2 (lint runs its checks side by side). Declares MIT in the old `licenses: [{ type }]` array; its LICENSE file is the MIT text.',
  },
  '@modelcontextprotocol/server-everything@2026.8.31': {
    license: 'MIT',
    reason:
      'dev only: the MCP tests start it from node_modules. Says "SEE LICENSE IN LICENSE" but ships no license file; its README says "This MCP server is licensed under the MIT License". (2026.1.14 declares MIT but has no tool annotations, which the tests need.)',
  },
  '@modelcontextprotocol/server-filesystem@2026.8.31': {
    license: 'MIT',
    reason: 'dev only: the MCP tests start it from node_modules. Says "SEE LICENSE IN LICENSE" but ships no license file; its README says "This MCP server is licensed under the MIT License".',
  },
  'xml-escape@1.1.0': {
    license: 'MIT',
    reason: 'via edge-tts-universal. Writes "MIT License" instead of the SPDX id MIT; its LICENSE file is the MIT text.',
  },
};

/** One package as the lock file records it. */
export interface LockedPackage {
  /** Path in the lock file, e.g. `node_modules/a/node_modules/b`. */
  path: string;
  name: string;
  version: string;
  license: string | undefined;
  dev: boolean;
  optional: boolean;
}

export interface LicenseProblem {
  package: string;
  path: string;
  license: string;
  why: string;
}

interface LockFile {
  packages?: Record<string, { name?: string; version?: string; license?: unknown; dev?: boolean; optional?: boolean; devOptional?: boolean; link?: boolean }>;
}

/** The installed packages listed in a parsed package-lock.json (v2/v3), without the root project and links. */
export function lockedPackages(lock: unknown): LockedPackage[] {
  const entries = (lock as LockFile).packages ?? {};
  return Object.entries(entries)
    .filter(([path, entry]) => path !== '' && entry.link !== true)
    .map(([path, entry]) => ({
      path,
      name: entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version ?? '',
      license: typeof entry.license === 'string' && entry.license.trim() !== '' ? entry.license : undefined,
      dev: entry.dev === true,
      // devOptional: a dev dependency and, in production, an optional one.
      optional: entry.optional === true || entry.devOptional === true,
    }));
}

/** The license a package is taken to have: its SPDX expression, or the reviewed one. */
export function effectiveLicense(pkg: Pick<LockedPackage, 'name' | 'version' | 'license'>): string | undefined {
  return REVIEWED_PACKAGES[`${pkg.name}@${pkg.version}`]?.license ?? pkg.license;
}

function verdict(license: string | undefined, allowed: readonly string[]): string | undefined {
  if (license === undefined) return 'no license declared (unknown)';
  try {
    return satisfies(license, [...allowed]) ? undefined : 'not on the allowed list';
  } catch {
    return 'not an SPDX expression (unknown)';
  }
}

/**
 * Every package (production and development: both are installed by `npm ci`) whose license is
 * unknown or not allowed. Empty means the tree is fine.
 */
export function licenseProblems(packages: readonly LockedPackage[], allowed: readonly string[] = ALLOWED_LICENSES, devOnlyAllowed: readonly string[] = DEV_ONLY_ALLOWED_LICENSES): LicenseProblem[] {
  return packages.flatMap((pkg) => {
    const license = effectiveLicense(pkg);
    const why = verdict(license, pkg.dev ? [...allowed, ...devOnlyAllowed] : allowed);
    return why === undefined ? [] : [{ package: `${pkg.name}@${pkg.version}`, path: pkg.path, license: license ?? '(none)', why }];
  });
}

/** Reviewed entries that no longer match any locked package: stale reviews must go. */
export function staleReviews(packages: readonly LockedPackage[]): string[] {
  const present = new Set(packages.map((p) => `${p.name}@${p.version}`));
  return Object.keys(REVIEWED_PACKAGES).filter((key) => !present.has(key));
}
