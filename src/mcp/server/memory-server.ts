/**
 * Charlie's memory as an MCP server for other agents (Claude Desktop, Claude Code, Cursor…),
 * over stdio (`npm run mcp`) or Streamable HTTP (`/api/mcp` on the web app). Read tools over a
 * project's memory, and `propose_fact`, which files an untrusted write request — only when a
 * person of the project said it — for the memory lane and then the promotion gate
 * (src/core/outside-facts.ts); never a page write.
 *
 * The client counts as hosted unless MCP_SERVER_LOCALITY=local: then it is served exactly as the
 * hosted chat model is, by label: a page, record, chain, link or hit labelled sensitive (its
 * page's front matter, its own marker, an archived message's label, or what the rules say of
 * its text) is left out, not matched; every text then also passes the egress line matcher as a
 * second net (`withholdSensitive`). Private (DM) memory is never served.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AssistantApi } from '../../core/assistant-api.js';
import type { Place } from '../../core/place.js';
import type { QuotedLines } from '../../core/privacy/egress.js';
import { whyText } from '../../core/inspector/why.js';
import { projectOrigin } from '../../core/project-origin.js';
import { errorMessage } from '../../util/error-text.js';
import { labelText, parseSensitivity } from '../../core/privacy/sensitivity.js';
import { MACHINES_FOLDER, machineSummary, parseMachinePage, summaryLine } from '../../core/machines/machine-page.js';
import { NOBODY_SAID_IT } from '../../core/writing/outside-facts.js';

export interface MemoryServerOptions {
  assistant: Pick<AssistantApi, 'conversation' | 'memory' | 'projects'>;
  /** `hosted` (default): sensitive content is withheld from the client. */
  locality: 'local' | 'hosted';
  /** The project a call that names none is about. */
  defaultProject: string;
  version: string;
  /** Names the client in provenance (`mcp:<client>`). */
  clientName: string;
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const project = z.string().max(100).optional().describe('project folder name (default: the configured project)');

class NotFound extends Error {}

export function createMemoryServer(o: MemoryServerOptions): McpServer {
  const server = new McpServer(
    { name: 'charlie-memory', version: o.version },
    {
      instructions:
        'The household memory kept by Charlie: plain Markdown pages with typed records and provenance. Read with search, read_page, follow_links, list_pages, list_machines, why and records; propose new facts with propose_fact (a person or the memory gate decides).',
    },
  );
  const hosted = o.locality === 'hosted';

  const placeOf = async (slug: string | undefined): Promise<Place> => {
    const wanted = slug ?? o.defaultProject;
    const found = await o.assistant.projects.getProject(wanted);
    if (!found) {
      const names = (await o.assistant.projects.listProjects()).map((p) => p.slug);
      throw new NotFound(`no project "${wanted}"; projects: ${names.join(', ') || '(none yet)'}`);
    }
    const { config } = found;
    return { kind: 'project', origin: projectOrigin(config, 'web') };
  };
  /** Text for the client: for a hosted one, what is sensitive in the project is withheld. */
  const out = async (place: Place, text: string, structured?: Record<string, unknown>, quoted?: QuotedLines): Promise<CallToolResult> => {
    const safe = hosted ? await o.assistant.conversation.withholdSensitive(place, text, quoted) : text;
    return { content: [{ type: 'text', text: safe }], ...(structured && !hosted ? { structuredContent: structured } : {}) };
  };
  const run = (work: () => Promise<CallToolResult>) => work().catch((error: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: errorMessage(error) }] }));
  /** A tool's handler in the project it names (or the default one), its errors as an error result. */
  const inProject =
    <A extends { project?: string | undefined }>(work: (args: A, place: Place) => Promise<CallToolResult>) =>
    (args: A) =>
      run(async () => work(args, await placeOf(args.project)));
  /** Whether a text with this label (and what the rules say of `text`) may be shown to the client. */
  const visible = (s: string | undefined, text = '') => !hosted || labelText(text, parseSensitivity(s)).sensitivity !== 'sensitive';

  /** Paths of the pages labelled sensitive (for a hosted client). */
  const sensitivePages = async (place: Place): Promise<Set<string>> => {
    if (!hosted) return new Set();
    const graph = await o.assistant.memory.pageLinks(place);
    return new Set((graph?.pages ?? []).filter((p) => !visible(p.sensitivity)).map((p) => p.path));
  };

  server.registerTool(
    'search',
    {
      description: "Search the project's memory (notes, decisions, quotes, past conversation). Returns page-and-line hits, best first.",
      inputSchema: { query: z.string().min(1).max(500), limit: z.number().int().min(1).max(30).optional(), project },
      annotations: READ,
    },
    inProject(async (args, place) => {
      const hits = (await o.assistant.memory.searchMemory(place, args.query, args.limit ?? 8)).filter((h) => visible(h.sensitivity, h.text));
      const text = hits.length
        ? hits.map((h) => `${h.page}:${h.lineStart}-${h.lineEnd}${h.heading ? ` (${h.heading})` : ''} score ${h.score.toFixed(2)}\n${h.text.trim()}`).join('\n\n')
        : `no hits for "${args.query}"`;
      // each hit is one stored message or block, let go by its own label: an ordinary message a labelled reply
      // repeats is served (the line matcher still withholds a line that shows a sensitive record)
      return out(place, text, undefined, 'allowed');
    }),
  );

  server.registerTool(
    'read_page',
    { description: 'Read one note page by its path under notes/ (e.g. People/Sarah-Chen.md), as Markdown.', inputSchema: { path: z.string().min(1).max(300), project }, annotations: READ },
    inProject(async (args, place) => {
      const path = args.path.replace(/^notes\//, '');
      const note = await o.assistant.memory.readNote(place, path, 'view');
      if (!note) throw new NotFound(`no page ${path}`);
      if (!visible(note.sensitivity)) return out(place, `${path} is marked sensitive: it is not shown to a hosted client`);
      // a line labelled sensitive (its marker, or what the rules say of it) is left out by label
      const body = note.body
        .trim()
        .split('\n')
        .map((l) => (visible(undefined, l) ? l : '[withheld: a line marked sensitive]'))
        .join('\n');
      return out(place, `# ${note.title}\n(path notes/${note.path} · updated ${note.updated} · confidence ${note.confidence})\n\n${body}`);
    }),
  );

  server.registerTool(
    'list_pages',
    {
      description: 'List the note pages (path and title), optionally only those under a category folder such as People.',
      inputSchema: { category: z.string().max(100).optional(), project },
      annotations: READ,
    },
    inProject(async (args, place) => {
      const hidden = await sensitivePages(place);
      const notes = (await o.assistant.memory.listNotes(place))
        .filter((n) => !hidden.has(n.path) && visible(undefined, n.title))
        .filter((n) => !args.category || n.path.toLowerCase().startsWith(`${args.category.toLowerCase().replace(/\/$/, '')}/`));
      return out(place, notes.length ? notes.map((n) => `${n.path} — ${n.title}`).join('\n') : 'no pages');
    }),
  );

  server.registerTool(
    'list_machines',
    {
      description:
        'The machines Charlie knows over SSH (its Machines/ pages): name, logins (user@host:port), pinned host-key fingerprint and the day of the last recorded connection. Never a password, key or vault handle.',
      inputSchema: { project },
      annotations: READ,
    },
    inProject(async (_args, place) => {
      const hidden = await sensitivePages(place);
      const pages = (await o.assistant.memory.listNotes(place)).filter((n) => n.path.startsWith(`${MACHINES_FOLDER}/`) && !hidden.has(n.path) && visible(undefined, n.title));
      const records = (await o.assistant.memory.records(place)).filter((r) => visible(r.sensitivity, r.statement));
      const lines: string[] = [];
      for (const p of pages) {
        const note = await o.assistant.memory.readNote(place, p.path, 'view');
        if (!note || !visible(note.sensitivity)) continue;
        // a line labelled sensitive (its marker, or what the rules say of it) is not read, as read_page leaves it out
        const body = note.body
          .split('\n')
          .filter((l) => visible(undefined, l))
          .join('\n');
        const info = parseMachinePage(note.title, note.path, body);
        lines.push(
          summaryLine(
            machineSummary(
              info,
              records.filter((r) => r.page === note.path),
            ),
          ),
        );
      }
      return out(place, lines.length ? lines.join('\n') : 'no machine is known in this project');
    }),
  );

  server.registerTool(
    'follow_links',
    { description: "A page's labelled links: the pages it links to and the pages that link to it.", inputSchema: { page: z.string().min(1).max(300), project }, annotations: READ },
    inProject(async (args, place) => {
      const graph = await o.assistant.memory.pageLinks(place);
      if (!graph) throw new NotFound('this project has no pages yet');
      const want = args.page
        .replace(/^notes\//, '')
        .replace(/\.md$/i, '')
        .toLowerCase();
      const page = graph.pages.find((p) => p.path.replace(/\.md$/i, '').toLowerCase() === want || p.title.toLowerCase() === want);
      if (!page) throw new NotFound(`no page ${args.page}`);
      if (!visible(page.sensitivity)) return out(place, 'this page is marked sensitive: it is not shown to a hosted client');
      const title = (path: string | null) => graph.pages.find((p) => p.path === path)?.title ?? path ?? '';
      // a link to or from a sensitive page is left out whole: its label can say why the page is sensitive
      const shown = (path: string | null) => path === null || visible(graph.pages.find((p) => p.path === path)?.sensitivity);
      const links = graph.links.filter((l) => shown(l.from) && shown(l.to) && visible(undefined, `${l.target} ${l.label}`));
      const from = links.filter((l) => l.from === page.path).map((l) => `→ ${l.to ?? `${l.target} (no page yet)`} (${l.label || 'related'})`);
      const to = links.filter((l) => l.to === page.path).map((l) => `← ${l.from} ${title(l.from)} (${l.label || 'related'})`);
      return out(place, [`${page.path} — ${page.title}`, ...from, ...to].join('\n'));
    }),
  );

  server.registerTool(
    'why',
    {
      description: 'Why Charlie believes something: the records that answer the question, each with its provenance chain.',
      inputSchema: { query: z.string().min(1).max(500), project },
      annotations: READ,
    },
    inProject(async (args, place) => {
      const answer = await o.assistant.memory.why(place, { query: args.query });
      // a sensitive record is left out with its statement, not quoted for the line matcher to miss
      const chains = answer.chains.filter((c) => visible(c.sensitivity, c.statement));
      const left = answer.chains.length - chains.length;
      return out(place, whyText({ ...answer, chains }) + (left ? `\n(${left} record(s) marked sensitive are not shown to a hosted client)` : ''));
    }),
  );

  server.registerTool(
    'records',
    {
      description: 'Typed records (facts) of the entity pages, filtered by page, category (identity, preference, commitment, episode, relationship, rule), status or text.',
      inputSchema: {
        page: z.string().max(300).optional(),
        category: z.string().max(40).optional(),
        status: z.enum(['active', 'review', 'held', 'superseded']).optional(),
        contains: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        project,
      },
      annotations: READ,
    },
    inProject(async (args, place) => {
      const page = args.page?.replace(/^notes\//, '').toLowerCase();
      const list = (await o.assistant.memory.records(place))
        .filter((r) => visible(r.sensitivity, r.statement))
        .filter((r) => !page || r.page.toLowerCase() === page || r.page.toLowerCase() === `${page}.md` || r.pageTitle.toLowerCase() === page)
        .filter((r) => !args.category || r.category === args.category)
        .filter((r) => !args.status || r.status === args.status)
        .filter((r) => !args.contains || r.statement.toLowerCase().includes(args.contains.toLowerCase()))
        .slice(0, args.limit ?? 50);
      const text = list.length
        ? list
            .map(
              (r) =>
                `${r.id || '-'} ${r.pageTitle}: ${r.statement} [${r.category || 'fact'} · ${r.status} · confidence ${r.effective.toFixed(2)} · ${r.provenance.kind} ${r.provenance.source}] (notes/${r.page}:${r.line})`,
            )
            .join('\n')
        : 'no records match';
      return out(place, text);
    }),
  );

  server.registerTool(
    'propose_fact',
    {
      description:
        "Propose a fact for Charlie to remember about an entity. Accepted only when a person in the project's conversation said it; then filed as a candidate that Charlie's memory model reviews and its promotion gate judges. Nothing is written to a page now.",
      inputSchema: { entity: z.string().min(1).max(120).describe('who or what it is about, e.g. "Sarah Chen"'), fact: z.string().min(3).max(2000), category: z.string().max(80).optional(), project },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    inProject(async (args, place) => {
      const result = await o.assistant.memory.proposeFact(place, {
        title: args.entity,
        text: args.fact,
        ...(args.category ? { category: args.category } : {}),
        source: `mcp:${o.clientName}`,
        by: `mcp:${o.clientName}`,
      });
      // a hosted client is not told whether someone said it: the answer would confirm a guessed sentence of a private message
      if (hosted && (result.kind !== 'refused' || result.reason === NOBODY_SAID_IT)) return { content: [{ type: 'text', text: HOSTED_PROPOSAL }] };
      if (result.kind === 'refused') return { isError: true, content: [{ type: 'text', text: result.reason }] };
      const who =
        result.reviewer === 'memory-lane'
          ? "Charlie's memory model reviews it at the next distillation, then the promotion gate judges it against the message that said it"
          : 'it waits until a local memory model is set up';
      return { content: [{ type: 'text', text: `filed as a candidate: ${who}; nothing was written to a page.` }] };
    }),
  );

  return server;
}

/** What a hosted client hears of any proposal a person's message could back, filed or not. */
export const HOSTED_PROPOSAL = 'received: Charlie files it as a candidate only if a person in this project said it, and does not tell a hosted client whether they did; nothing was written to a page.';
