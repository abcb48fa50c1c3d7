/**
 * The Web Worker that lays the constellation out (graph-layout.ts), so the page stays responsive
 * while ForceAtlas2 runs on a big wiki. Built by client-build.ts as its own hashed file.
 */
import { layoutPositions, type LayoutReply, type LayoutRequest } from './graph-layout.js';

addEventListener('message', (e: MessageEvent<LayoutRequest>) => {
  const started = performance.now();
  const positions = layoutPositions(e.data);
  const reply: LayoutReply = { id: e.data.id, positions, ms: performance.now() - started };
  postMessage(reply, { transfer: [positions.buffer] });
});
