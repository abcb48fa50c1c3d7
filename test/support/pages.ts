/**
 * Writing an entity page in a test the way production does: through the knowledge graph (the
 * only writer of notes/*.md, _index.md and _log.md), as the `remember` tool files a note.
 */
import type { GraphWriteReport, KnowledgeGraph } from '../../src/core/ports/index.js';

export interface TestPage {
  title: string;
  /** A category folder of the taxonomy (People, Topics …); the graph picks one when left out. */
  category?: string;
  /** One statement per record. */
  facts: string[];
  source?: string;
  /** YYYY-MM-DD the facts were said. */
  said?: string;
  aliases?: string[];
}

/** Creates or updates the page; returns its path under notes/. Throws when the graph refused all of it. */
export async function writePage(graph: Pick<KnowledgeGraph, 'write'>, project: string, page: TestPage): Promise<string> {
  const report = await writePageReport(graph, project, page);
  const path = report.created[0] ?? report.updated[0];
  if (!path) throw new Error(`the graph wrote nothing for ${page.title}: ${JSON.stringify(report.refused)}`);
  return path;
}

export function writePageReport(graph: Pick<KnowledgeGraph, 'write'>, project: string, page: TestPage): Promise<GraphWriteReport> {
  const said = page.said ?? '2026-11-29';
  const source = page.source ?? 'manual';
  return graph.write(project, {
    origin: 'test',
    entities: [
      {
        name: page.title,
        ...(page.category ? { category: page.category } : {}),
        ...(page.aliases ? { aliases: page.aliases } : {}),
        create: true,
        facts: page.facts.map((text) => ({ text, said, source })),
      },
    ],
    links: [],
  });
}
