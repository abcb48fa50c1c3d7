/** Which pages of the constellation carry a label before any zoom or search (graph-view.ts). */
import type { Graph as GraphData } from './api.js';

/** At most this many labels at rest (a small graph labels every page). */
const LABELS_AT_REST = 16;
const LABEL_ALL_BELOW = 60;

/** The pages labelled at rest: every page of a small graph, else the most linked ones. */
export function labelledAtRest(nodes: GraphData['nodes']): Set<string> {
  const pages = nodes.filter((n) => !n.missing);
  if (pages.length <= LABEL_ALL_BELOW) return new Set(pages.map((n) => n.id));
  const ranked = [...pages].sort((a, b) => b.links - a.links || a.title.localeCompare(b.title));
  return new Set(ranked.slice(0, LABELS_AT_REST).map((n) => n.id));
}
