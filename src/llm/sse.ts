/**
 * Incremental Server-Sent Events decoder: feed it text as it arrives (lines may be split
 * anywhere across chunks), get back whole events. Comments (`: keepalive`) and fields
 * other than `data` / `event` are ignored; CRLF, CR and LF line endings are accepted.
 */

export interface SseEvent {
  event?: string;
  data: string;
}

export class SseDecoder {
  private partial = '';
  private dataLines: string[] = [];
  private eventName: string | undefined;
  /** A trailing `\r` may be the first half of a CRLF split across chunks. */
  private pendingCr = false;

  push(text: string): SseEvent[] {
    const events: SseEvent[] = [];
    let input = text;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (input.startsWith('\n')) input = input.slice(1);
    }
    let start = 0;
    for (let i = 0; i < input.length; i++) {
      const ch = input[i];
      if (ch !== '\n' && ch !== '\r') continue;
      const line = this.partial + input.slice(start, i);
      this.partial = '';
      if (ch === '\r') {
        if (i + 1 < input.length) {
          if (input[i + 1] === '\n') i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
      this.line(line, events);
    }
    this.partial += input.slice(start);
    return events;
  }

  /** End of stream: dispatch whatever is buffered (servers that omit the final blank line). */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.partial) {
      const line = this.partial;
      this.partial = '';
      this.line(line, events);
    }
    this.dispatch(events);
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(':')) return; // comment / keepalive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventName = value;
  }

  private dispatch(events: SseEvent[]): void {
    if (this.dataLines.length > 0) {
      const event: SseEvent = { data: this.dataLines.join('\n') };
      if (this.eventName !== undefined) event.event = this.eventName;
      events.push(event);
    }
    this.dataLines = [];
    this.eventName = undefined;
  }
}
