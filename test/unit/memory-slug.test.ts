import { describe, expect, it } from 'vitest';
import { UnsafeNameError } from '../../src/core/errors.js';
import { numberedSlug, slugify, titleSlug } from '../../src/memory/slug.js';
import { resolveInside } from '../../src/files/safe-path.js';

describe('slugify', () => {
  it('lowercases, folds accents and keeps [a-z0-9-] within 64 characters', () => {
    expect(slugify('Auth Rewrite — Q4!')).toBe('auth-rewrite-q4');
    expect(slugify('Ærøskøbing Straße')).toBe('aeroskobing-strasse');
    expect(slugify('x'.repeat(10_000))).toHaveLength(64);
    expect(slugify(`${'a'.repeat(63)}-b`)).toBe('a'.repeat(63));
  });
  it('never returns empty, . or ..', () => {
    for (const name of ['', '.', '..', '🦄', '///', '\u0000']) expect(slugify(name)).toBe('project');
  });
  it('numbers collisions within the length limit', () => {
    expect(numberedSlug('general', 1)).toBe('general');
    expect(numberedSlug('general', 3)).toBe('general-3');
    expect(numberedSlug('x'.repeat(64), 12)).toBe(`${'x'.repeat(61)}-12`);
  });
  it('keeps case for note titles', () => {
    expect(titleSlug('Sarah Chen')).toBe('Sarah-Chen');
    expect(titleSlug('../../etc')).toBe('etc');
    expect(titleSlug('🦄')).toBe('Untitled');
  });
});

describe('resolveInside', () => {
  it('joins safe relative paths', () => {
    expect(resolveInside('/r', 'People/Sarah.md')).toBe('/r/People/Sarah.md');
    expect(resolveInside('/r', './a/./b.md')).toBe('/r/a/b.md');
  });
  it('rejects paths that would escape or are unusable', () => {
    for (const bad of ['../x', 'a/../../x', 'a/..', '/etc/passwd', 'C:/x', 'a\\b', 'a\u0000b', 'a\nb', '', ' ', '.', `${'x'.repeat(300)}.md`, 'y/'.repeat(600)]) {
      expect(() => resolveInside('/r', bad), JSON.stringify(bad.slice(0, 20))).toThrow(UnsafeNameError);
    }
  });
});
