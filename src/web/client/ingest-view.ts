/**
 * The Inspector's inbox progress: one bar and one line per big inbox file part-way (rows and bytes
 * done of the total, batches, rate, time left), from GET …/ingest. Nothing is shown when no file
 * is being read.
 */
import { api } from './api.js';
import { h } from './dom.js';
import { ingestProgressLine, type IngestProgress } from '../../core/writing/ingest-status.js';

const fraction = (p: IngestProgress) => (p.mode === 'summary' && p.total ? p.done / p.total : p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0);

/** The panel, or null when nothing is part-way (or the request fails: progress is a nicety). */
export async function ingestPanel(project: string): Promise<HTMLElement | null> {
  const files = await api
    .ingest(project)
    .then((r) => r.files)
    .catch(() => []);
  if (!files.length) return null;
  return h(
    'section',
    { class: 'ingest-progress', 'aria-label': 'Inbox progress' },
    h('h2', {}, 'Reading the inbox'),
    files.map((f) => h('p', { class: 'ingest-file' }, h('progress', { max: '1', value: fraction(f).toFixed(4), 'aria-label': f.source }), ' ', ingestProgressLine(f))),
  );
}
