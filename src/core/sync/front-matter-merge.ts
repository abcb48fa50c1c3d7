/**
 * Front matter merged key by key: a key one device changed takes that change; both changed it
 * differently: `updated` takes the later day, `created` the earlier, an inline list (`[a, b]`)
 * the union of both, and any other key keeps this device's value with a note for the person
 * (front matter is the page's settings, not a record: records go to review). Pure.
 */

interface Entry {
  key: string;
  lines: string[];
}

function entries(lines: readonly string[]): Entry[] {
  const out: Entry[] = [];
  for (const line of lines) {
    const key = /^([A-Za-z_][\w-]*)\s*:/.exec(line)?.[1];
    const last = out[out.length - 1];
    if (key !== undefined || !last) out.push({ key: key ?? '', lines: [line] });
    else last.lines.push(line);
  }
  return out;
}

const valueOf = (e: Entry | undefined) => (e ? e.lines.join('\n') : undefined);
const scalar = (e: Entry) => (e.lines[0] ?? '').replace(/^[^:]*:\s*/, '').trim();

function listUnion(o: Entry, t: Entry): Entry | null {
  const items = (e: Entry) => {
    const m = /^\[(.*)\]$/.exec(scalar(e));
    return e.lines.length === 1 && m
      ? (m[1] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  };
  const a = items(o);
  const b = items(t);
  if (!a || !b) return null;
  const all = [...a, ...b.filter((x) => !a.includes(x))];
  return { key: o.key, lines: [`${o.key}: [${all.join(', ')}]`] };
}

function bothChanged(o: Entry, t: Entry, notes: string[], path: string): Entry {
  if (o.key === 'updated') return scalar(o) >= scalar(t) ? o : t;
  if (o.key === 'created') return scalar(o) <= scalar(t) ? o : t;
  const union = listUnion(o, t);
  if (union) return union;
  notes.push(`${path}: both devices changed "${o.key}" in the front matter; this device's value was kept (the other was ${JSON.stringify(scalar(t))})`);
  return o;
}

/** The merged front matter lines (between the `---` markers). */
export function mergeFrontMatter(path: string, base: readonly string[], ours: readonly string[], theirs: readonly string[], notes: string[]): string[] {
  const b = new Map(entries(base).map((e) => [e.key, e]));
  const o = entries(ours);
  const t = new Map(entries(theirs).map((e) => [e.key, e]));
  const oKeys = new Set(o.map((e) => e.key));
  const out: Entry[] = [];
  for (const e of o) {
    const be = b.get(e.key);
    const te = t.get(e.key);
    if (!te) {
      // the other device removed it: gone unless this one changed it
      if (be && valueOf(be) === valueOf(e)) continue;
      out.push(e);
    } else if (valueOf(te) === valueOf(e) || valueOf(te) === valueOf(be)) out.push(e);
    else if (valueOf(e) === valueOf(be)) out.push(te);
    else out.push(bothChanged(e, te, notes, path));
  }
  for (const te of t.values()) {
    if (oKeys.has(te.key)) continue;
    const be = b.get(te.key);
    if (be && valueOf(be) === valueOf(te)) continue;
    out.push(te);
  }
  return out.flatMap((e) => e.lines);
}
