import type { ProjectConfig, ProjectOrigin } from './ports/index.js';

/**
 * The origin of a project Charlie already keeps, for a front door that names it by slug (the
 * web app, the MCP server, a follow-up): the project's first key, so the turn lands in the same
 * project, or `<door>:<slug>` when its project.md names no key.
 */
export function projectOrigin(config: Pick<ProjectConfig, 'name' | 'slug' | 'keys'>, door: 'web' | 'terminal'): ProjectOrigin {
  return { name: config.name, key: config.keys[0] ?? `${door}:${config.slug}` };
}
