import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { SqlitePrivateStore } from '../../src/storage/private-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'charlie-dm-'));
  dirs.push(dir);
  return join(dir, 'data', 'charlie.db');
}

const entry = (text: string, role: 'user' | 'assistant' = 'user') => ({ time: '2026-11-29T10:00:00.000Z', speaker: role === 'user' ? 'Ann' : 'Charlie', source: 'discord:x', text, role });

describe('SqlitePrivateStore', () => {
  it('searches one user’s whole history by terms, most matches first, with LIKE wildcards taken literally', () => {
    const store = new SqlitePrivateStore(tempDb());
    store.appendMessage('ann', entry('My passport expires in March'));
    store.appendMessage('ann', entry('Book the passport renewal appointment in March'));
    store.appendMessage('ann', entry('100% sure about the dentist'));
    store.appendMessage('bob', entry('my passport is fine'));
    expect(store.searchMessages('ann', ['passport', 'march', 'renewal'], 5).map((e) => e.text)).toEqual(['Book the passport renewal appointment in March', 'My passport expires in March']);
    expect(store.searchMessages('ann', ['0%'], 5).map((e) => e.text)).toEqual(['100% sure about the dentist']);
    expect(store.searchMessages('ann', ['%'], 5).map((e) => e.text)).toEqual(['100% sure about the dentist']);
    expect(store.searchMessages('ann', ['_'], 5)).toEqual([]);
    expect(store.searchMessages('bob', ['dentist'], 5)).toEqual([]);
    store.close();
  });

  it('keeps each user’s history apart, returns recent and since-id slices in order', () => {
    const store = new SqlitePrivateStore(tempDb());
    for (let i = 0; i < 5; i++) store.appendMessage('ann', entry(`a${i}`));
    store.appendMessage('bob', entry('b0'));
    store.appendMessage('ann', entry('reply', 'assistant'));
    expect(store.recentMessages('ann', 3).map((e) => e.text)).toEqual(['a3', 'a4', 'reply']);
    expect(store.recentMessages('ann', 0)).toEqual([]);
    expect(store.recentMessages('bob', 10)).toEqual([entry('b0')]);
    const all = store.messagesSince('ann', 0);
    expect(all.map((m) => m.entry.text)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'reply']);
    expect(store.messagesSince('ann', all[3]!.id).map((m) => m.entry.text)).toEqual(['a4', 'reply']);
    store.close();
  });

  it('stores layers and style per user and survives reopening', () => {
    const path = tempDb();
    const store = new SqlitePrivateStore(path);
    expect(store.readLayers('ann')).toEqual({ summary: '', decisions: [], quotes: [], distilledThrough: 0, style: '' });
    store.setStyle('ann', 'brief');
    store.writeLayers('ann', { summary: 'S', decisions: [{ date: '2026-11-29', text: 'D', source: 'manual' }], quotes: [{ date: '2026-11-29', speaker: 'Ann', text: 'Q', source: 's' }] }, 7);
    store.close();
    const again = new SqlitePrivateStore(path);
    expect(again.readLayers('ann')).toEqual({
      summary: 'S',
      decisions: [{ date: '2026-11-29', text: 'D', source: 'manual' }],
      quotes: [{ date: '2026-11-29', speaker: 'Ann', text: 'Q', source: 's' }],
      distilledThrough: 7,
      style: 'brief',
    });
    expect(again.readLayers('bob').summary).toBe('');
    again.close();
    const db = new DatabaseSync(path, { readOnly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => r.name);
    db.close();
    expect(tables.every((t) => String(t).startsWith('dm_'))).toBe(true);
  });
});
