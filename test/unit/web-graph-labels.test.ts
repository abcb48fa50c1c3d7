import { describe, expect, it } from 'vitest';
import { labelledAtRest } from '../../src/web/client/graph-labels.js';

const node = (i: number, links: number, missing = false) => ({ id: `notes/P${i}.md`, title: `P${i}`, category: 'Topics', links, ...(missing ? { missing } : {}) });

describe('graph labels at rest', () => {
  it('labels every page of a small graph, never a ghost', () => {
    const nodes = [node(1, 0), node(2, 3), node(3, 1, true)];
    expect([...labelledAtRest(nodes)].sort()).toEqual(['notes/P1.md', 'notes/P2.md']);
  });

  it('labels only the most linked pages of a big graph', () => {
    const nodes = Array.from({ length: 3000 }, (_, i) => node(i, i % 100 === 7 ? 500 + i : i % 5));
    const shown = labelledAtRest(nodes);
    expect(shown.size).toBe(16);
    // the hubs (links 507, 607, …) are the ones labelled
    for (const id of shown) expect(nodes.find((n) => n.id === id)?.links).toBeGreaterThan(500);
  });
});
