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

/** A label that would like to be drawn: its dot's centre and radius on screen, its text's size. */
export interface LabelCandidate {
  key: string;
  x: number;
  y: number;
  r: number;
  w: number;
  h: number;
}

export interface PlacedLabel {
  key: string;
  left: number;
  top: number;
  w: number;
  h: number;
}

/** Space kept between two labels, in pixels. */
const GAP = 2;
const CELL = 48;

/**
 * Places labels, in the order given (most wanted first), where they overlap no label placed before:
 * right of the dot, else left, above, below or at a corner; a label that fits nowhere in the box is left out
 * (zooming in makes room). A grid of buckets keeps it fast at thousands of candidates.
 */
export function placeLabels(
  candidates: readonly LabelCandidate[],
  box: { width: number; height: number },
  options: { max?: number; /** Keep labels off every other dot too (a small graph has room for that). */ avoidDots?: boolean } = {},
): PlacedLabel[] {
  const max = options.max ?? Infinity;
  const placed: PlacedLabel[] = [];
  const grid = new Map<number, PlacedLabel[]>();
  const cells = (l: PlacedLabel, visit: (k: number) => boolean): boolean => {
    for (let cx = Math.floor(l.left / CELL); cx <= Math.floor((l.left + l.w) / CELL); cx++)
      for (let cy = Math.floor(l.top / CELL); cy <= Math.floor((l.top + l.h) / CELL); cy++) if (visit(cx * 100_003 + cy)) return true;
    return false;
  };
  const add = (l: PlacedLabel) =>
    cells(l, (k) => {
      const bucket = grid.get(k);
      if (bucket) bucket.push(l);
      else grid.set(k, [l]);
      return false;
    });
  const overlaps = (l: PlacedLabel) =>
    cells(l, (k) => (grid.get(k) ?? []).some((o) => o.key !== l.key && l.left < o.left + o.w + GAP && o.left < l.left + l.w + GAP && l.top < o.top + o.h + GAP && o.top < l.top + l.h + GAP));
  if (options.avoidDots) for (const c of candidates) add({ key: c.key, left: c.x - c.r, top: c.y - c.r, w: 2 * c.r, h: 2 * c.r });
  for (const c of candidates) {
    if (placed.length >= max) break;
    const spots: [number, number][] = [
      [c.x + c.r + 3, c.y - c.h / 2],
      [c.x - c.r - 3 - c.w, c.y - c.h / 2],
      [c.x - c.w / 2, c.y - c.r - 2 - c.h],
      [c.x - c.w / 2, c.y + c.r + 2],
      [c.x + c.r * 0.7, c.y - c.r * 0.7 - c.h],
      [c.x + c.r * 0.7, c.y + c.r * 0.7],
      [c.x - c.r * 0.7 - c.w, c.y - c.r * 0.7 - c.h],
      [c.x - c.r * 0.7 - c.w, c.y + c.r * 0.7],
    ];
    for (const [left, top] of spots) {
      const l = { key: c.key, left, top, w: c.w, h: c.h };
      if (left < 0 || top < 0 || left + c.w > box.width || top + c.h > box.height || overlaps(l)) continue;
      placed.push(l);
      add(l);
      break;
    }
  }
  return placed;
}
