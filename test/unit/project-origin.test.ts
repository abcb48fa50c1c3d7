import { describe, expect, it } from 'vitest';
import { projectOrigin } from '../../src/core/project-origin.js';

describe('projectOrigin', () => {
  it('names a known project by its first key, so a turn from another front door lands in the same project', () => {
    expect(projectOrigin({ name: 'Garden', slug: 'garden', keys: ['discord:1:2', 'terminal:garden'] }, 'web')).toEqual({ name: 'Garden', key: 'discord:1:2' });
  });

  it('falls back to <door>:<slug> when project.md names no key', () => {
    expect(projectOrigin({ name: 'Garden', slug: 'garden', keys: [] }, 'web').key).toBe('web:garden');
    expect(projectOrigin({ name: 'Garden', slug: 'garden', keys: [] }, 'terminal').key).toBe('terminal:garden');
  });
});
