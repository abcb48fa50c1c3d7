/**
 * The commitments behind follow-ups, read from every project's entity pages (the graph's
 * records), and the answers written back through the graph: `asked` noted on the record, an
 * episode written by the graph's write (the path promoted facts take), a dropped one held.
 * A follow-up is asked in the project's Discord channel, or in its terminal project.
 */
import type { Place } from '../core/place.js';
import { projectOrigin } from '../core/project-origin.js';
import type { KnowledgeGraph, ProjectConfig } from '../core/ports/index.js';
import { doneWrite, type Commitment, type CommitmentBook } from '../core/time/follow-ups.js';

type Graph = Pick<KnowledgeGraph, 'records' | 'markRecords' | 'write' | 'review'>;

export function placeOfProject(config: ProjectConfig): Place {
  const channelId = config.discord?.channelIds[0];
  return { kind: 'project', origin: { ...projectOrigin(config, 'terminal'), ...(config.discord && channelId ? { discord: { guildId: config.discord.guildId, channelId } } : {}) } };
}

export function projectCommitments(projects: { listProjects(): Promise<ProjectConfig[]> }, graph: Graph): CommitmentBook {
  const slugOf = new Map<string, string>();
  return {
    async commitments(now) {
      const out: Commitment[] = [];
      for (const config of await projects.listProjects()) {
        const place = placeOfProject(config);
        if (place.kind === 'project') slugOf.set(place.origin.key, config.slug);
        for (const r of await graph.records(config.slug, now)) {
          if (r.category !== 'commitment' || !r.id || !r.due) continue;
          out.push({ place, id: r.id, entity: r.pageTitle, statement: r.statement, due: r.due, asked: r.asked, status: r.status, sensitive: r.sensitivity === 'sensitive' });
        }
      }
      return out;
    },
    async markAsked(c, date) {
      const slug = c.place.kind === 'project' ? slugOf.get(c.place.origin.key) : undefined;
      if (slug) await graph.markRecords(slug, [c.id], 'asked', date);
    },
    async done(c, date, by) {
      const slug = c.place.kind === 'project' ? slugOf.get(c.place.origin.key) : undefined;
      if (!slug) return;
      await graph.write(slug, doneWrite(c, date, by));
    },
    async drop(c) {
      const slug = c.place.kind === 'project' ? slugOf.get(c.place.origin.key) : undefined;
      if (slug) await graph.review(slug, c.id, 'hold');
    },
  };
}
