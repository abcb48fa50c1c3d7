/**
 * The constellation: a project's entities and their labelled links, drawn with WebGL by sigma.js
 * over a graphology graph, laid out by ForceAtlas2 in a Web Worker, coloured by category,
 * filterable, a click away from each page. Loaded on demand (its own chunk), so chat and inspector
 * do not ship it. Labels are HTML over the canvas, placed so that no two overlap (graph-labels.ts):
 * sigma's own canvas labels collide whenever a label is forced, and these can be read by the
 * browser's find, measured by a test, and styled by the theme.
 */
import Graph from 'graphology';
import Sigma from 'sigma';
import { api, type Graph as GraphData } from './api.js';
import { clear, h, toast } from './dom.js';
import { labelledAtRest, placeLabels, type LabelCandidate } from './graph-labels.js';
import { layoutPositions, type LayoutInput, type LayoutReply, type LayoutRequest } from './graph-layout.js';
import { pageHref } from './words.js';

/** The worker's hashed file, named by the build (client-build.ts). */
declare const __GRAPH_WORKER__: string;
const GRAPH_WORKER = typeof __GRAPH_WORKER__ === 'string' ? __GRAPH_WORKER__ : '/assets/graph-worker.js';

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
  links: number;
}

/** The page's data as the layout's plain input (graph-layout.ts), and the dot size of each page. */
function layoutInput(data: GraphData, categories: string[]): LayoutInput {
  const index = new Map(data.nodes.map((n, i) => [n.id, i]));
  const edges: [number, number][] = [];
  for (const e of data.edges) {
    const a = index.get(e.source);
    const b = index.get(e.target);
    if (a !== undefined && b !== undefined) edges.push([a, b]);
  }
  return {
    categories: categories.length,
    // a big graph draws smaller dots, so its clusters stay apart and the labels readable
    nodes: data.nodes.map((n) => ({
      category: Math.max(categories.indexOf(n.category), 0),
      size: data.nodes.length > 300 ? Math.min(2 + Math.sqrt(n.links), 10) : Math.min(4 + Math.sqrt(n.links) * 2, 16),
    })),
    edges,
  };
}

/** Where the layout ran, how long it took there, and the longest the page went without a turn meanwhile. */
export interface LayoutRun {
  positions: Float32Array;
  by: 'worker' | 'page';
  ms: number;
  /** The longest gap between two ticks of the page's own timer while it waited (worker only). */
  pageGapMs: number;
}

/**
 * Runs the layout in the Web Worker the build made (graph-worker.ts); where a worker cannot start
 * (an old browser, a blocked script), on the page instead.
 */
export function runLayout(input: LayoutInput): Promise<LayoutRun> {
  const onPage = (): LayoutRun => {
    const started = performance.now();
    return { positions: layoutPositions(input), by: 'page', ms: performance.now() - started, pageGapMs: 0 };
  };
  let worker: Worker;
  try {
    worker = new Worker(GRAPH_WORKER, { type: 'module', name: 'graph-layout' });
  } catch {
    return Promise.resolve(onPage());
  }
  return new Promise((resolve) => {
    let last = performance.now();
    let gap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 10);
    const done = (run: LayoutRun) => {
      clearInterval(ticker);
      worker.terminate();
      resolve(run);
    };
    worker.addEventListener('message', (e: MessageEvent<LayoutReply>) => done({ positions: e.data.positions, by: 'worker', ms: e.data.ms, pageGapMs: Math.max(gap, performance.now() - last) }));
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      done(onPage());
    });
    const request: LayoutRequest = { id: 1, ...input };
    worker.postMessage(request);
  });
}

export async function toGraph(data: GraphData): Promise<{ graph: Graph<NodeAttrs>; categories: string[]; run: LayoutRun }> {
  const categories = [...new Set(data.nodes.map((n) => n.category).filter((c) => c !== 'missing'))].sort();
  const graph = new Graph<NodeAttrs>({ multi: false, type: 'directed' });
  const important = labelledAtRest(data.nodes);
  const input = layoutInput(data, categories);
  const run = await runLayout(input);
  data.nodes.forEach((n, i) => {
    graph.addNode(n.id, {
      label: n.title,
      x: run.positions[2 * i] ?? 0,
      y: run.positions[2 * i + 1] ?? 0,
      size: input.nodes[i]?.size ?? 4,
      color: colourOf(n.category, categories),
      category: n.category,
      missing: Boolean(n.missing),
      important: important.has(n.id),
      links: n.links,
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
  return { graph, categories, run };
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
  container.setAttribute('aria-busy', 'true');
  const { graph, categories, run } = await toGraph(data);
  container.removeAttribute('aria-busy');
  // where the layout ran, for the browser test and bench:web
  Object.assign(container.dataset, { layoutBy: run.by, layoutMs: run.ms.toFixed(0), pageGapMs: run.pageGapMs.toFixed(0) });
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
  const muted = getComputedStyle(count).color;
  const renderer = new Sigma(graph, container, {
    // node labels are HTML (drawLabels below); sigma's canvas labels would overlap
    renderLabels: false,
    edgeLabelColor: { color: muted },
    renderEdgeLabels: graph.order < 300,
    // a little room round the outermost dots (their labels may sit left, right, above or below)
    stagePadding: container.clientWidth < 600 ? 24 : 48,
    labelRenderedSizeThreshold: 6,
    defaultEdgeType: big ? 'line' : 'arrow',
    hideEdgesOnMove: big,
    nodeReducer: (node, attrs) => {
      const a = attrs;
      if (hidden.has(a.category)) return { ...a, hidden: true };
      if (focus && !a.label.toLowerCase().includes(focus)) return { ...a, color: '#e9ecef', label: '' };
      if (focus) return { ...a, highlighted: true };
      return a;
    },
    edgeReducer: (edge, attrs) => {
      if (hidden.size === 0) return attrs;
      const [s, t] = graph.extremities(edge);
      if (hidden.has(graph.getNodeAttribute(s, 'category')) || hidden.has(graph.getNodeAttribute(t, 'category'))) return { ...attrs, hidden: true };
      return attrs;
    },
  });
  const labels = h('div', { class: 'graph-labels', 'aria-hidden': 'true' });
  container.append(labels);
  const measure = document.createElement('canvas').getContext('2d');
  const widths = new Map<string, number>();
  let font = '';
  const textWidth = (text: string) => {
    let w = widths.get(text);
    if (w === undefined) {
      w = measure ? measure.measureText(text).width : text.length * 7;
      widths.set(text, w);
    }
    return w;
  };
  let queued = 0;
  /**
   * Labels where they fit, most wanted first: what the search finds, then the pages labelled at
   * rest, then by links. Redrawn after sigma draws (a camera move, a filter), once per frame.
   */
  const drawLabels = () => {
    queued = 0;
    if (!font) {
      const probe = h('span', { class: 'graph-label' }, 'x');
      labels.append(probe);
      const style = getComputedStyle(probe);
      font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      if (measure) measure.font = font;
      probe.remove();
      widths.clear();
    }
    const { width, height } = renderer.getDimensions();
    const lineHeight = 16;
    const candidates: (LabelCandidate & { rank: number })[] = [];
    graph.forEachNode((key, attrs) => {
      const d = renderer.getNodeDisplayData(key);
      if (!d || d.hidden || !d.label) return;
      const { x, y } = renderer.framedGraphToViewport(d);
      if (x < -50 || y < -50 || x > width + 50 || y > height + 50) return;
      const rank = (focus ? 4 : 0) + (attrs.important ? 2 : 0) + (attrs.missing ? -1 : 0);
      candidates.push({ key, x, y, r: renderer.scaleSize(d.size), w: Math.ceil(textWidth(d.label)) + 8, h: lineHeight + 2, rank: rank * 1e6 + attrs.links });
    });
    candidates.sort((a, b) => b.rank - a.rank || a.key.localeCompare(b.key));
    const placed = placeLabels(candidates, { width, height }, { max: big ? 60 : 400, avoidDots: graph.order <= 300 });
    const spans = placed.map((p) => {
      const span = h('span', { class: 'graph-label' }, graph.getNodeAttribute(p.key, 'label'));
      span.style.transform = `translate(${Math.round(p.left)}px, ${Math.round(p.top)}px)`;
      span.style.width = `${p.w}px`;
      return span;
    });
    labels.replaceChildren(...spans);
    labels.dataset.candidates = String(candidates.length);
  };
  renderer.on('afterRender', () => {
    if (!queued) queued = requestAnimationFrame(drawLabels);
  });
  drawLabels();
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
  return () => {
    cancelAnimationFrame(queued);
    renderer.kill();
  };
}
