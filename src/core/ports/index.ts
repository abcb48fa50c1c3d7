/**
 * Ports owned by the core, one file per port. Adapters (src/llm, src/memory, src/storage,
 * src/speech, …) implement them; tests use scripted fakes of them. Nothing here imports
 * infrastructure.
 */
export * from './chat-model.js';
export * from './clock.js';
export * from './project-store.js';
export * from './recall.js';
export * from './private-store.js';
export * from './speech.js';
export * from './logger.js';
export * from './knowledge-graph.js';
export * from './vault.js';
export * from './machines.js';
export * from './sync.js';
