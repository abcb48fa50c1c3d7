/** A tool with an origin (MCP or SSH) has its result labelled when it arrives: sensitive output taints the turn and a hosted model does not get it. */
import { describe, expect, it } from 'vitest';
import type { SensitiveRecord } from '../../src/core/privacy/egress.js';
import { framed, SSH_TOOLS } from '../../src/core/tools/ssh-tools.js';
import type { Tool, ToolOrigin } from '../../src/core/tools/tool.js';
import { labelExternalResult } from '../../src/core/turn/external-result.js';

const MCP_ORIGIN: ToolOrigin = { server: 'clinic', tool: 'lookup', locality: 'local', confirm: null };
/** Every SSH tool (from the code's own list) and an MCP tool: each is external by its origin. */
const EXTERNAL: { name: string; tool: Pick<Tool, 'origin'> }[] = [...SSH_TOOLS.map((t) => ({ name: t.name, tool: t })), { name: 'clinic__lookup', tool: { origin: MCP_ORIGIN } }];
const SENSITIVE_FILES = ['Patient: Alice\nDiagnosis: HIV positive\n', 'rent paid from DE89 3704 0044 0532 0130 00 on the 1st\n'];
const ORDINARY_FILE = 'uptime 12 days, load 0.10 0.05 0.01\n';

function run(tool: Pick<Tool, 'origin'>, text: string, modelLocality: 'local' | 'hosted') {
  const seen: SensitiveRecord[] = [];
  const content = framed('/home/alice/notes.txt on NAS', text, false, 16_000);
  const out = labelExternalResult(tool, { content, summary: 'read' }, { modelLocality, sawSensitive: (r) => seen.push(r) });
  return { out, seen, content };
}

describe('an external tool result is labelled when it arrives', () => {
  it('every SSH tool carries an origin, so its output is labelled like an MCP result', () => {
    for (const t of SSH_TOOLS) expect(t.origin, t.name).toMatchObject({ server: 'ssh', tool: t.name });
  });

  for (const { name, tool } of EXTERNAL)
    for (const text of SENSITIVE_FILES) {
      it(`${name}: sensitive output (${text.split('\n')[1] || text.slice(0, 20)}) taints the turn and is withheld from a hosted model`, () => {
        const hosted = run(tool, text, 'hosted');
        expect(hosted.seen).toHaveLength(1);
        expect(hosted.seen[0]!.text).toBe(hosted.content);
        expect(hosted.out.content).not.toContain(text.trim().split('\n').at(-1)!);
        expect(hosted.out.content).toMatch(/^\[withheld: .* is labelled sensitive\]$/);
        const local = run(tool, text, 'local');
        expect(local.seen).toHaveLength(1);
        expect(local.out.content).toBe(local.content);
      });
    }

  it('ordinary output passes untouched and taints nothing; a tool without an origin is not labelled here', () => {
    for (const { tool } of EXTERNAL) {
      const r = run(tool, ORDINARY_FILE, 'hosted');
      expect(r.seen).toEqual([]);
      expect(r.out.content).toBe(r.content);
    }
    const builtin = run({}, SENSITIVE_FILES[0]!, 'hosted');
    expect(builtin.seen).toEqual([]);
    expect(builtin.out.content).toBe(builtin.content);
  });
});
