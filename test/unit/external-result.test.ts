/**
 * A tool with an origin (MCP or SSH) has its result labelled when it arrives — by the rules, and by
 * the precheck (the lane or the judge by meaning) when it applies: sensitive output taints the turn
 * and a hosted model does not get it.
 */
import { describe, expect, it } from 'vitest';
import type { SensitiveRecord } from '../../src/core/privacy/egress.js';
import { framed, SSH_TOOLS } from '../../src/core/tools/ssh-tools.js';
import type { Tool, ToolOrigin } from '../../src/core/tools/tool.js';
import { arrivalJudge, labelExternalResult, resultPieces } from '../../src/core/turn/external-result.js';
import type { SensitivityValue } from '../../src/core/privacy/sensitivity.js';

const MCP_ORIGIN: ToolOrigin = { server: 'clinic', tool: 'lookup', locality: 'local', confirm: null };
/** Every SSH tool (from the code's own list) and an MCP tool: each is external by its origin. */
const EXTERNAL: { name: string; tool: Pick<Tool, 'origin'> }[] = [...SSH_TOOLS.map((t) => ({ name: t.name, tool: t })), { name: 'clinic__lookup', tool: { origin: MCP_ORIGIN } }];
const SENSITIVE_FILES = ['Patient: Alice\nDiagnosis: HIV positive\n', 'rent paid from DE89 3704 0044 0532 0130 00 on the 1st\n'];
const ORDINARY_FILE = 'uptime 12 days, load 0.10 0.05 0.01\n';

type Judge = (text: string) => Promise<SensitivityValue>;

async function run(tool: Pick<Tool, 'origin'>, text: string, modelLocality: 'local' | 'hosted', judgeArrival?: Judge) {
  const seen: SensitiveRecord[] = [];
  const content = framed('/home/alice/notes.txt on NAS', text, false, 16_000);
  const out = await labelExternalResult(tool, { content, summary: 'read' }, { modelLocality, sawSensitive: (r) => seen.push(r), ...(judgeArrival ? { judgeArrival } : {}) });
  return { out, seen, content };
}

describe('an external tool result is labelled when it arrives', () => {
  it('every SSH tool carries an origin, so its output is labelled like an MCP result', () => {
    for (const t of SSH_TOOLS) expect(t.origin, t.name).toMatchObject({ server: 'ssh', tool: t.name });
  });

  for (const { name, tool } of EXTERNAL)
    for (const text of SENSITIVE_FILES) {
      it(`${name}: sensitive output (${text.split('\n')[1] || text.slice(0, 20)}) taints the turn and is withheld from a hosted model`, async () => {
        const hosted = await run(tool, text, 'hosted');
        expect(hosted.seen).toHaveLength(1);
        expect(hosted.seen[0]!.text).toBe(hosted.content);
        expect(hosted.out.content).not.toContain(text.trim().split('\n').at(-1)!);
        expect(hosted.out.content).toMatch(/^\[withheld: .* is labelled sensitive\]$/);
        const local = await run(tool, text, 'local');
        expect(local.seen).toHaveLength(1);
        expect(local.out.content).toBe(local.content);
      });
    }

  it('ordinary output passes untouched and taints nothing; a tool without an origin is not labelled here', async () => {
    for (const { tool } of EXTERNAL) {
      const r = await run(tool, ORDINARY_FILE, 'hosted');
      expect(r.seen).toEqual([]);
      expect(r.out.content).toBe(r.content);
    }
    const builtin = await run({}, SENSITIVE_FILES[0]!, 'hosted');
    expect(builtin.seen).toEqual([]);
    expect(builtin.out.content).toBe(builtin.content);
  });

  // the fifth outside sweep's portal result, reworded where the rules now know its words (eGFR, the renal team): the precheck (here scripted) labels it
  const PORTAL = 'Portal: Everard Quist-Dunmore, creatinine 690, the team is discussing the fistula for haemo.';
  const judge =
    (verdict: (piece: string) => SensitivityValue | null): Judge =>
    async (text) =>
      text.includes('creatinine') ? (verdict(text) ?? { sensitivity: 'personal' }) : { sensitivity: 'personal' };

  for (const { name, tool } of EXTERNAL)
    it(`${name}: output the rules let pass is judged by the precheck; what it labels is withheld from a hosted model, and what it cannot judge too`, async () => {
      const labelled = await run(
        tool,
        PORTAL,
        'hosted',
        judge(() => ({ sensitivity: 'sensitive', kind: 'phi' })),
      );
      expect(labelled.seen).toHaveLength(1);
      expect(labelled.out.content).not.toContain('creatinine');
      expect(labelled.out.content).toMatch(/is labelled sensitive\]$/);
      const unjudged = await run(
        tool,
        PORTAL,
        'hosted',
        judge(() => ({ sensitivity: 'sensitive', unjudged: true })),
      );
      expect(unjudged.out.content).toMatch(/could not be judged in time/);
      const ordinary = await run(
        tool,
        PORTAL,
        'hosted',
        judge(() => null),
      );
      expect(ordinary.seen).toEqual([]);
      expect(ordinary.out.content).toBe(ordinary.content);
      // a local model reads it, but the turn is tainted all the same
      const local = await run(
        tool,
        PORTAL,
        'local',
        judge(() => ({ sensitivity: 'sensitive', kind: 'phi' })),
      );
      expect(local.seen).toHaveLength(1);
      expect(local.out.content).toBe(local.content);
    });

  it('the precheck reads a long result a line at a time, and only while it applies', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `Line ${i} of the clinic newsletter about opening hours and parking.`).join('\n');
    const pieces = resultPieces(`${filler}\n${PORTAL}`);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.length <= 400)).toBe(true);
    expect(pieces.some((p) => p.includes('creatinine 690'))).toBe(true);
    const asked: string[][] = [];
    let applies = true;
    const precheck = {
      judge: 'a scripted lane',
      applies: () => applies,
      labels: async (texts: readonly string[]) => {
        asked.push([...texts]);
        return texts.map((t): SensitivityValue => (t.includes('creatinine') ? { sensitivity: 'sensitive', kind: 'phi' } : { sensitivity: 'personal' }));
      },
    };
    expect(await arrivalJudge(precheck)(`${filler}\n${PORTAL}`)).toMatchObject({ sensitivity: 'sensitive', kind: 'phi' });
    expect(asked[0]).toEqual(pieces);
    applies = false;
    expect(await arrivalJudge(precheck)(PORTAL)).toMatchObject({ sensitivity: 'personal' });
    expect(asked).toHaveLength(1);
  });
});
