/**
 * Splits an iCalendar text into what every part needs (the calendar's own lines and its time
 * zones: `head`) and its events grouped by UID (a series with its edited occurrences), so a
 * large file can be parsed a few series at a time. Lines are read as RFC 5545 writes them: a
 * folded line continues with a space or a tab, so a line that is exactly `BEGIN:VEVENT` starts
 * an event. `pause` is awaited every thousand lines (the caller yields to the event loop). Text that does not start as a VCALENDAR gives null: the parser reads it whole and
 * says what is wrong with it.
 */

const UID = /^UID[;:](?:[^:]*:)?(.*)$/i;

export async function icsGroups(text: string, pause: () => Promise<void>): Promise<{ head: string; groups: string[] } | null> {
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) return null;
  const lines = text.split(/\r?\n/);
  const head: string[] = [];
  const byUid = new Map<string, string[]>();
  let event: string[] | null = null;
  let uid = '';
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (i % 1000 === 999) await pause();
    const line = lines[i] ?? '';
    const upper = line.trimEnd().toUpperCase();
    if (event) {
      event.push(line);
      if (upper.startsWith('UID') && !uid) uid = UID.exec(line.trimEnd())?.[1] ?? '';
      if (upper === 'END:VEVENT') {
        const key = uid || `#${seen}`;
        const group = byUid.get(key);
        if (group) group.push(event.join('\r\n'));
        else byUid.set(key, [event.join('\r\n')]);
        event = null;
      }
    } else if (upper === 'BEGIN:VEVENT') {
      event = [line];
      uid = '';
      seen++;
    } else if (upper !== 'BEGIN:VCALENDAR' && upper !== 'END:VCALENDAR' && line !== '') head.push(line);
  }
  return { head: head.map((l) => `${l}\r\n`).join(''), groups: [...byUid.values()].map((events) => events.map((e) => `${e}\r\n`).join('')) };
}
