/**
 * No test builds an assistant production never builds (issue 37): main.ts builds the only
 * production one, test/support/assistant-fixture.ts the only test one, with every part main.ts
 * passes (the promotion gate's candidates, private records and recall, reflection, reminders, the
 * calendar, the tool source, write requests). The sources are parsed, not grepped: a file that
 * says `new Assistant(` anywhere else fails, and so does a `makeAssistant` call that hands the gate
 * `undefined` or `null`. The scanner is tested on counter-examples; the fixture's gate is tested by
 * what it does: a passing mention waits as a candidate, in a project and in a DM.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Place } from '../../src/core/place.js';
import { general, makeAssistant } from '../support/assistant-fixture.js';
import { FixedClock, ScriptedChatModel } from '../support/fakes.js';

/** The two places an Assistant is constructed. */
const BUILDERS = new Set(['src/main.ts', 'test/support/assistant-fixture.ts']);
/** The parts of the promotion gate a test may replace but never take away. */
const GATE = new Set(['candidates', 'privateRecords', 'privateRecall', 'lastReflection']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [relative('.', p).split('\\').join('/')] : [];
  });
}

interface Builds {
  /** `new Assistant(…)` expressions. */
  constructed: number;
  /** `makeAssistant(…)` calls. */
  fixtureCalls: number;
  /** Gate parts handed as `undefined` or `null` to makeAssistant. */
  gateRemoved: string[];
}

function scan(path: string, text: string): Builds {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Builds = { constructed: 0, fixtureCalls: 0, gateRemoved: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Assistant') out.constructed++;
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'makeAssistant') {
      out.fixtureCalls++;
      const [opts] = node.arguments;
      if (opts && ts.isObjectLiteralExpression(opts))
        for (const p of opts.properties) {
          if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name) || !GATE.has(p.name.text)) continue;
          const v = p.initializer;
          if (v.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(v) && v.text === 'undefined')) out.gateRemoved.push(p.name.text);
        }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('every assistant is built the way production builds it', () => {
  it('the scanner finds a construction and a gate taken away, and not a comment or a string', () => {
    expect(scan('a.ts', 'const a = new Assistant({ model });').constructed).toBe(1);
    expect(scan('a.ts', '// new Assistant(\nconst s = "new Assistant(";').constructed).toBe(0);
    expect(scan('a.ts', 'makeAssistant({ model, candidates: undefined, privateRecords: null, tools: undefined });')).toEqual({
      constructed: 0,
      fixtureCalls: 1,
      gateRemoved: ['candidates', 'privateRecords'],
    });
    expect(scan('a.ts', 'makeAssistant({ model, candidates: (p) => store(p) });').gateRemoved).toEqual([]);
  });

  it('only main.ts and the fixture construct an Assistant, and no test takes the gate away', () => {
    const files = ['src', 'test', 'scripts', 'bin', 'commands'].flatMap(sources);
    // only files that spell the name are parsed (a parse of every file takes seconds)
    const texts = files.map((f) => ({ f, text: readFileSync(f, 'utf8') })).filter((t) => t.text.includes('Assistant('));
    const scans = texts.map(({ f, text }) => ({ f, ...scan(f, text) }));
    const elsewhere = scans.filter((s) => s.constructed > 0 && !BUILDERS.has(s.f)).map((s) => s.f);
    const withoutGate = scans.filter((s) => s.gateRemoved.length > 0).map((s) => `${s.f}: ${s.gateRemoved.join(', ')}`);
    expect(elsewhere).toEqual([]);
    expect(withoutGate).toEqual([]);
    expect(scans.filter((s) => BUILDERS.has(s.f)).every((s) => s.constructed === 1)).toBe(true);
    // the files that build an assistant all build it through the fixture: there are many of them
    expect(scans.filter((s) => s.fixtureCalls > 0).length).toBeGreaterThan(20);
  });

  it('the fixture has the gate: a passing mention waits as a candidate, in a project and in a DM', async () => {
    const mention = {
      summary: 'Dana mentioned Sam.',
      decisions: [],
      quotes: [],
      entities: [{ name: 'Sam', category: 'People', new: true }],
      facts: [{ entity: 'Sam', text: 'Plays the cello.', message: 1 }],
      links: [],
    };
    const memory = new ScriptedChatModel(() => ({ text: JSON.stringify(mention) }));
    const { assistant } = makeAssistant({ model: memory, clock: new FixedClock(new Date('2026-06-01T10:00:00Z')) });
    const dm: Place = { kind: 'private', userId: '1001', userName: 'Dana' };
    for (const place of [general, dm]) {
      await assistant.conversation.handle({ place, speaker: 'Dana', speakerId: '1001', text: 'by the way Sam plays the cello', source: `test:${place.kind}`, reply: false });
      expect((await assistant.memory.distillNow(place)).ran).toBe(true);
      expect((await assistant.memory.memoryCandidates(place)).map((c) => c.fact.text)).toEqual(['Plays the cello.']);
      expect(await assistant.memory.records(place)).toEqual([]);
    }
  });
});
