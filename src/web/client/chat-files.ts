/**
 * Files into memory from the chat: a file dropped on the chat (or picked with the note button) is
 * sent to POST …/files, which reads it into the project's memory as the inbox does. The chat shows
 * it as a line of its own: the upload's progress, then "Reading…" with the inbox's progress for a
 * big file (GET …/ingest), then what was learnt and where it went — or why it was not read, in
 * plain words. Nothing of it is kept in the conversation.
 */
import { api } from './api.js';
import { h, icon } from './dom.js';
import { ingestProgressLine } from '../../core/writing/ingest-status.js';

const ACCEPT = '.md,.markdown,.txt,.ics,.eml,.csv,.pdf,text/plain,text/markdown,text/calendar,text/csv,message/rfc822,application/pdf';
const POLL_MS = 700;
/**
 * The line always reaches an end: a read the server no longer knows (Charlie restarted, or more
 * than 100 files came after it) ends at once, and one still "Reading…" after this long (a reader
 * that hangs, a connection that stays away) ends with where the file is.
 */
const READ_DEADLINE_MS = 20 * 60_000;

interface Done {
  state: 'done';
  ok: boolean;
  said: string;
}

/** Sends the bytes with upload progress (fetch reports none); the server's JSON, or its error's words. */
function upload(project: string, file: File, onProgress: (fraction: number) => void): Promise<{ id: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/projects/${encodeURIComponent(project)}/files?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    });
    xhr.addEventListener('load', () => {
      let data: { id?: string; error?: string } = {};
      try {
        data = JSON.parse(xhr.responseText) as typeof data;
      } catch {
        /* not JSON: the status says enough */
      }
      if (xhr.status === 202 && data.id) resolve({ id: data.id });
      else reject(new Error(data.error ?? `${file.name} could not be sent (the server answered ${xhr.status}).`));
    });
    xhr.addEventListener('error', () => reject(new Error(`${file.name} could not be sent: the connection to Charlie failed. Try again when you are online.`)));
    xhr.send(file);
  });
}

/** How the read stands on the server; 'gone' when it no longer knows it (404), null when it could not be asked (offline…). */
async function readState(project: string, id: string): Promise<{ state: 'reading' } | Done | 'gone' | null> {
  try {
    const r = await fetch(`/api/projects/${encodeURIComponent(project)}/files/${encodeURIComponent(id)}`, { credentials: 'same-origin' });
    if (r.ok) return (await r.json()) as { state: 'reading' } | Done;
    return r.status === 404 ? 'gone' : null;
  } catch {
    return null;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One file's line in the chat, from sending to the end. */
async function readIntoMemory(project: string, file: File, list: HTMLElement, scroll: () => void): Promise<void> {
  const bar = h('progress', { max: '1', value: '0', 'aria-label': `Sending ${file.name}` });
  const words = h('span', { class: 'intake-words' }, `Sending ${file.name}…`);
  const item = h('li', { class: 'msg intake', role: 'status', 'aria-live': 'polite' }, h('div', { class: 'who' }, 'File into memory'), h('div', { class: 'intake-line' }, bar, ' ', words));
  list.append(item);
  scroll();
  const end = (ok: boolean, said: string) => {
    bar.remove();
    item.classList.add(ok ? 'done' : 'failed');
    words.textContent = said;
    scroll();
  };
  let id: string;
  try {
    ({ id } = await upload(project, file, (f) => (bar.value = f)));
  } catch (err) {
    end(false, err instanceof Error ? err.message : String(err));
    return;
  }
  bar.removeAttribute('value');
  bar.setAttribute('aria-label', `Reading ${file.name}`);
  words.textContent = `Reading ${file.name} into memory…`;
  const deadline = Date.now() + READ_DEADLINE_MS;
  for (;;) {
    await wait(POLL_MS);
    if (Date.now() > deadline) {
      end(false, `${file.name} is still being read after ${READ_DEADLINE_MS / 60_000} minutes. It waits in the project's inbox and is read in the background: look under Memory › Pages later.`);
      return;
    }
    const job = await readState(project, id);
    if (job === 'gone') {
      end(false, `Charlie lost track of reading ${file.name} (it may have restarted). If it is not under Memory › Pages, send it again.`);
      return;
    }
    if (!job) continue; // offline, or Charlie not answering for a moment: asked again
    if (job.state === 'done') {
      end(job.ok, job.said);
      return;
    }
    // a big file streams: the inbox's own progress line for it
    const progress = (await api.ingest(project).catch(() => ({ files: [] }))).files.find((f) => f.source.endsWith(file.name.replace(/[^\w.-]+/g, '-')));
    if (progress) {
      const fraction = progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : 0;
      bar.value = fraction;
      words.textContent = `Reading ${file.name} into memory… ${ingestProgressLine(progress)}`;
    }
  }
}

/**
 * The note button (pick files) for the composer, and the chat as a drop target. The private
 * conversation has no inbox: there, the button is disabled with the reason and a drop says it.
 * `listen` makes an element of the chat (the messages, the composer) a drop target.
 */
export function fileIntake(project: string, list: HTMLElement, scroll: () => void): { button: HTMLElement; listen(area: HTMLElement): void } {
  const isPrivate = project === '@me';
  const reason = isPrivate ? 'Your private conversation keeps no files: drop them in a project’s chat' : `Read a file into memory (text, Markdown, CSV, calendar, e-mail)`;
  const picker = h('input', { type: 'file', accept: ACCEPT, class: 'visually-hidden', id: 'memory-file', multiple: true, disabled: isPrivate });
  const button = h(
    'span',
    { class: 'intake-pick' },
    h('label', { for: 'memory-file', class: `icon button${isPrivate ? ' disabled' : ''}`, title: reason }, icon('note'), h('span', { class: 'visually-hidden' }, reason)),
    picker,
  );
  const take = (files: Iterable<File>) => {
    for (const f of [...files].slice(0, 10)) void readIntoMemory(project, f, list, scroll);
  };
  picker.addEventListener('change', () => {
    take(picker.files ?? []);
    picker.value = '';
  });
  const listen = (area: HTMLElement) => {
    const hasFiles = (e: DragEvent) => [...(e.dataTransfer?.types ?? [])].includes('Files');
    area.addEventListener('dragover', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      area.classList.add('dropping');
    });
    area.addEventListener('dragleave', (e) => {
      if (e.target === area) area.classList.remove('dropping');
    });
    area.addEventListener('drop', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      area.classList.remove('dropping');
      const files = [...(e.dataTransfer?.files ?? [])];
      if (isPrivate) {
        list.append(h('li', { class: 'msg intake failed', role: 'status' }, h('div', { class: 'who' }, 'File into memory'), reason + '.'));
        scroll();
        return;
      }
      take(files);
    });
  };
  return { button, listen };
}
