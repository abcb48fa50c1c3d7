/**
 * A record of the Memory Inspector as the API sends it: written once for the server
 * (records.ts builds them) and the browser (the inspector shows them). Types only: no Node or
 * DOM APIs, so the client's type check (no Node types) can read it.
 */

export type RecordKind = 'summary' | 'decision' | 'quote' | 'note' | 'fact';

export interface ProvenanceStep {
  /** What this step is: `said in`, `written by`, `source`… */
  label: string;
  /** A link (Discord message URL) or a plain reference (`manual`, `voice:…`). */
  ref: string;
}

/** The wire shape of a record (typed records, layer items, notes alike); the record itself is the core's MemoryRecord. */
export interface RecordWire {
  /** Stable while the item is unchanged: kind, position and a hash of its text. */
  id: string;
  kind: RecordKind;
  text: string;
  /** The Markdown page it lives in (null in private memory, which is SQLite only). */
  page: string | null;
  title?: string;
  date?: string;
  speaker?: string;
  category: string;
  source: string;
  provenance: ProvenanceStep[];
  confidence?: number;
  /** Confidence after decay, read now (typed records; the inspector's "confidence now" filter). */
  effective?: number;
  sensitivity?: string;
  status: string;
  tags?: string[];
  /** Fields beyond these (a fact's `due`, `blockId`, line…) are shown as they are. */
  [field: string]: unknown;
  editable: boolean;
  forgettable: boolean;
  holdable: boolean;
}
