/**
 * Where calendar events are recorded: a project's entity pages (the knowledge graph's write, the
 * path promoted facts take) or, for a calendar subscribed in a DM, that person's rows in
 * private.db (never Markdown).
 */
import type { Place } from '../core/place.js';
import type { GraphWrite, GraphWriteReport, KnowledgeGraph, PrivateRecords, ProjectStore } from '../core/ports/index.js';
import type { CalendarRecords } from '../core/time/calendar.js';

export function calendarRecords(store: ProjectStore, graph: Pick<KnowledgeGraph, 'write'>, privateRecords: Pick<PrivateRecords, 'write'>): CalendarRecords {
  return {
    async write(place: Place, write: GraphWrite): Promise<GraphWriteReport> {
      if (place.kind === 'private') return privateRecords.write(place.userId, write);
      const { slug } = await store.ensureProject(place.origin);
      return graph.write(slug, write);
    },
  };
}
