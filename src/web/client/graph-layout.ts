/**
 * The constellation's layout, as plain data so it can run in a Web Worker (graph-worker.ts) and,
 * where a worker cannot start, on the page: seeded positions by category, then ForceAtlas2
 * (graphology's implementation) with Barnes-Hut and the lin-log model above 300 pages, whose dots
 * are then spread evenly over the disc (spreadEvenly). Positions come back as one
 * Float32Array (x0, y0, x1, y1, …) that is transferred, not copied.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { spreadEvenly } from './graph-spread.js';

export interface LayoutInput {
  /** Per node: its category's index (for the seeded start) and its dot size. */
  nodes: { category: number; size: number }[];
  /** Links as pairs of node indexes. */
  edges: [number, number][];
  categories: number;
}

export interface LayoutRequest extends LayoutInput {
  id: number;
}

export interface LayoutReply {
  id: number;
  positions: Float32Array;
  /** How long the layout took where it ran, in milliseconds. */
  ms: number;
}

export function iterationsFor(order: number): number {
  // off the main thread, a layout can afford to settle: a small one settles for longer (500 rounds at 24 pages take ~0.1 s)
  return order > 2000 ? 25 : order > 500 ? 60 : order > 100 ? 200 : 500;
}

/** Seeded start (each category a slice of a disc), then ForceAtlas2; deterministic for one input. */
export function layoutPositions(input: LayoutInput): Float32Array {
  const graph = new Graph({ multi: false, type: 'undirected' });
  const slices = Math.max(input.categories, 1);
  input.nodes.forEach((n, i) => {
    const angle = (2 * Math.PI * n.category) / slices + (i % 7) * 0.05;
    const r = 1 + ((i * 7919) % 100) / 50;
    graph.addNode(i, { x: Math.cos(angle) * r * 10 + (i % 13) * 0.01, y: Math.sin(angle) * r * 10 + (i % 17) * 0.01, size: n.size });
  });
  for (const [a, b] of input.edges) if (a !== b && graph.hasNode(a) && graph.hasNode(b) && !graph.hasEdge(a, b)) graph.addEdge(a, b);
  if (graph.order > 1) {
    const settings = forceAtlas2.inferSettings(graph);
    // a small graph is spread wider (more repulsion, dots kept apart), so its labels have room;
    // a big one uses the lin-log model, which pulls clusters apart instead of round their hubs
    const small = graph.order <= 100;
    const big = graph.order > 300;
    forceAtlas2.assign(graph, {
      iterations: iterationsFor(graph.order),
      settings: { ...settings, barnesHutOptimize: big, ...(small ? { adjustSizes: true, scalingRatio: 20, gravity: 0.5 } : {}), ...(big ? { linLogMode: true } : {}) },
    });
  }
  const out = new Float32Array(input.nodes.length * 2);
  input.nodes.forEach((_, i) => {
    out[2 * i] = graph.getNodeAttribute(i, 'x') as number;
    out[2 * i + 1] = graph.getNodeAttribute(i, 'y') as number;
  });
  if (graph.order > 300) spreadEvenly(out);
  return out;
}
