/**
 * Which commands may run on a machine without asking: a short allow-list of commands that only
 * read, parsed conservatively. Anything the parser is not sure of — a command not on the list, a
 * subcommand or flag that writes, a redirection, command substitution, `;`, `&&`, a pipe into a
 * command not on the list, `sudo` — is a change, and the person is asked first with the exact
 * command. A wrong "read-only" would run a write unasked, so the list errs towards asking.
 */

interface ReadOnlyRule {
  /** Allowed first arguments (subcommands); absent: any arguments not refused below. */
  sub?: readonly string[];
  /** Arguments that make it write (or set something). */
  refuse?: RegExp;
  /** At most this many arguments (e.g. `hostname` with one sets the name). */
  maxArgs?: number;
}

/** The commands that run on their own. Tests are generated from this list. */
export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlyRule>> = {
  ls: {},
  cat: {},
  head: {},
  tail: {},
  wc: {},
  grep: {},
  stat: {},
  file: {},
  du: {},
  df: {},
  uptime: {},
  uname: {},
  free: {},
  whoami: {},
  id: {},
  pwd: {},
  lsblk: {},
  lscpu: {},
  lsusb: {},
  lspci: {},
  ps: {},
  ss: {},
  sensors: {},
  which: {},
  echo: {},
  hostname: { maxArgs: 1, refuse: /^[^-]/ },
  date: { refuse: /^(?!\+)/ },
  mount: { maxArgs: 0 },
  find: { refuse: /^-(?:delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/ },
  sort: { refuse: /^(?:-o|--output)/ },
  ip: { sub: ['addr', 'a', 'address', 'route', 'r', 'link', 'l'], refuse: /^(?:add|del|delete|set|flush|change|replace|append)$/ },
  systemctl: { sub: ['status', 'list-units', 'list-timers', 'list-unit-files', 'is-active', 'is-enabled', 'is-failed', 'show'] },
  journalctl: { refuse: /^--(?:vacuum|rotate|flush|sync|relinquish)/ },
  docker: { sub: ['ps', 'images', 'inspect', 'logs', 'version', 'info', 'stats'], refuse: /^(?:-f|--follow)$/ },
  zpool: { sub: ['status', 'list', 'iostat'] },
  zfs: { sub: ['list', 'get'] },
  smartctl: { refuse: /^(?!-a$|-H$|-i$|-A$|--all$|--health$|--info$|\/dev\/)/ },
  dpkg: { sub: ['-l', '--list', '-s', '--status'] },
  apt: { sub: ['list', 'show', 'policy'] },
};

/** Characters a read-only command may use: no `;`, `&`, `>`, `<`, `$`, backquote, backslash or newline. */
const SAFE = /^[A-Za-z0-9 _./:=,@%+|'"*~-]+$/;

/** Words of a command segment, with simple quotes ('…' "…") kept together and removed. */
function words(segment: string): string[] | null {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of segment.matchAll(re)) {
    const w = m[1] ?? m[2] ?? m[3] ?? '';
    if (m[3] && /['"]/.test(m[3])) return null; // a quote inside a word: not parsed, so not trusted
    out.push(w);
  }
  return out;
}

function segmentReadOnly(segment: string): boolean {
  const w = words(segment.trim());
  if (!w?.length) return false;
  const [name, ...args] = w;
  const rule = name ? READ_ONLY_COMMANDS[name] : undefined;
  if (!rule) return false;
  if (rule.maxArgs !== undefined && args.length > rule.maxArgs) return false;
  if (rule.sub && !(args[0] !== undefined && rule.sub.includes(args[0]))) return false;
  const checked = rule.sub ? args.slice(1) : args;
  return !(rule.refuse && checked.some((a) => rule.refuse?.test(a)));
}

/** True when the command only reads (every piped segment on the allow-list); false means ask first. */
export function isReadOnly(command: string): boolean {
  const c = command.trim();
  if (!c || c.length > 500 || !SAFE.test(c) || c.includes('||')) return false;
  return c.split('|').every(segmentReadOnly);
}
