/**
 * The constellation: a project's entities and their labelled links, drawn with WebGL by sigma.js
 * over a graphology graph, laid out by ForceAtlas2, coloured by category, filterable, a click away
 * from each page. Loaded on demand (its own chunk), so chat and inspector do not ship it.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import { api, type Graph as GraphData } from './api.js';
import { clear, h, toast } from './dom.js';
import { labelledAtRest } from './graph-labels.js';
import { pageHref } from './words.js';

const PALETTE = ['#2f6fde', '#d9480f', '#2b8a3e', '#ae3ec9', '#e67700', '#0c8599', '#c2255c', '#5c940d', '#6741d9', '#495057'];

export function colourOf(category: string, categories: string[]): string {
  if (category === 'missing') return '#adb5bd';
  const i = categories.indexOf(category);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length] ?? '#495057';
}

interface NodeAttrs {
  label: string;
  x: number;
  y: number;
  size: number;
  color: string;
  category: string;
  missing: boolean;
  /** Among the most linked pages: labelled at rest, before any zoom or search. */
  important: boolean;
}

export function toGraph(data: GraphData): { graph: Graph<NodeAttrs>; categories: string[] } {
  const categories = [...new Set(data.nodes.map((n) => n.category).filter((c) => c !== 'missing'))].sort();
  const graph = new Graph<NodeAttrs>({ multi: false, type: 'directed' });
  const slices = Math.max(categories.length, 1);
  const important = labelledAtRest(data.nodes);
  data.nodes.forEach((n, i) => {
    const ci = Math.max(categories.indexOf(n.category), 0);
    const angle = (2 * Math.PI * ci) / slices + (i % 7) * 0.05;
    const r = 1 + ((i * 7919) % 100) / 50;
    graph.addNode(n.id, {
      label: n.title,
      x: Math.cos(angle) * r * 10 + (i % 13) * 0.01,
      y: Math.sin(angle) * r * 10 + (i % 17) * 0.01,
      // a big graph draws smaller dots, so its clusters stay apart and the labels readable
      size: data.nodes.length > 1000 ? Math.min(2 + Math.sqrt(n.links), 10) : Math.min(4 + Math.sqrt(n.links) * 2, 16),
      color: colourOf(n.category, categories),
      category: n.category,
      missing: Boolean(n.missing),
      important: important.has(n.id),
    });
  });
  for (const e of data.edges) {
    if (!graph.hasNode(e.source) || !graph.hasNode(e.target) || graph.hasEdge(e.source, e.target)) continue;
    // a two-way link is one line with both labels (two would draw their labels over each other)
    if (graph.hasEdge(e.target, e.source)) {
      const back = graph.edge(e.target, e.source);
      const label = String(graph.getEdgeAttribute(back, 'label') ?? '');
      if (e.label && e.label !== label) graph.setEdgeAttribute(back, 'label', label ? `${label} · ${e.label}` : e.label);
      continue;
    }
    graph.addEdge(e.source, e.target, { label: e.label ?? '', size: 1, color: '#ced4da' });
  }
  if (graph.order > 1) {
    const settings = forceAtlas2.inferSettings(graph);
    forceAtlas2.assign(graph, { iterations: graph.order > 2000 ? 25 : graph.order > 1000 ? 50 : 150, settings: { ...settings, barnesHutOptimize: graph.order > 300 } });
  }
  return { graph, categories };
}

export async function renderGraph(main: HTMLElement, project: string, title: string): Promise<() => void> {
  const data = await api.graph(project);
  const container = h('div', { class: 'graph-canvas', role: 'img', 'aria-label': `Graph of ${data.nodes.length} pages and ${data.edges.length} links` });
  const legend = h('fieldset', { class: 'legend' }, h('legend', {}, 'Categories'));
  const search = h('input', { type: 'search', id: 'graph-search', placeholder: 'Find a page…', 'aria-label': 'Find a page in the graph' });
  const count = h('p', { class: 'count' }, `${data.nodes.length} pages · ${data.edges.length} links`);
  clear(main, h('header', { class: 'view-head' }, h('h1', {}, `Graph · ${title}`), count), h('div', { class: 'graph-tools' }, search, legend), container);
  if (!data.nodes.length) {
    container.append(h('p', { class: 'empty' }, 'No entity pages yet. They appear here as Charlie writes notes (and their [[links]]).'));
    return () => {};
  }
  const { graph, categories } = toGraph(data);
  const hidden = new Set<string>();
  let focus = '';
  for (const c of [...categories, ...(data.nodes.some((n) => n.missing) ? ['missing'] : [])]) {
    const box = h('input', { type: 'checkbox', checked: true, id: `cat-${c}`, 'data-category': c });
    box.addEventListener('change', () => {
      if (box.checked) hidden.delete(c);
      else hidden.add(c);
      renderer.refresh();
    });
    legend.append(h('label', { class: 'legend-item', for: `cat-${c}` }, box, h('span', { class: 'swatch', 'data-colour': colourOf(c, categories) }), c === 'missing' ? 'not written yet' : c));
  }
  for (const s of legend.querySelectorAll<HTMLElement>('.swatch')) s.style.backgroundColor = s.dataset.colour ?? '';
  // A big graph draws plain lines and hides edges and labels while the camera moves, so zooming
  // and panning stay smooth at a few thousand pages (bench:web measures it).
  const big = graph.order > 1000;
  // labels in the page's own ink (light or dark theme); computed colours, as the canvas needs them
  const ink = getComputedStyle(container).color;
  const muted = getComputedStyle(count).color;
  const renderer = new Sigma(graph, container, {
    labelColor: { color: ink },
    edgeLabelColor: { color: muted },
    renderEdgeLabels: graph.order < 300,
    // room for the labels drawn right of the outermost dots (more of it, in proportion, on a phone)
    stagePadding: container.clientWidth < 600 ? 100 : 72,
    labelRenderedSizeThreshold: 6,
    defaultEdgeType: big ? 'line' : 'arrow',
    hideEdgesOnMove: big,
    hideLabelsOnMove: big,
    nodeReducer: (node, attrs) => {
      const a = attrs;
      if (hidden.has(a.category)) return { ...a, hidden: true };
      if (focus && !a.label.toLowerCase().includes(focus)) return { ...a, color: '#e9ecef', label: '' };
      if (focus) return { ...a, highlighted: true, forceLabel: true };
      return a.important ? { ...a, forceLabel: true } : a;
    },
    edgeReducer: (edge, attrs) => {
      if (hidden.size === 0) return attrs;
      const [s, t] = graph.extremities(edge);
      if (hidden.has(graph.getNodeAttribute(s, 'category')) || hidden.has(graph.getNodeAttribute(t, 'category'))) return { ...attrs, hidden: true };
      return attrs;
    },
  });
  renderer.on('clickNode', ({ node }) => {
    if (graph.getNodeAttribute(node, 'missing')) toast(`No page “${graph.getNodeAttribute(node, 'label')}” yet: a link points to it.`);
    else location.hash = pageHref(project, node);
  });
  renderer.on('enterNode', () => container.classList.add('pointer'));
  renderer.on('leaveNode', () => container.classList.remove('pointer'));
  search.addEventListener('input', () => {
    focus = search.value.trim().toLowerCase();
    renderer.refresh();
  });
  return () => renderer.kill();
}
