/**
 * A place's settings and its three layers (summary, decisions, quotes), as /memory show and
 * edit, /style and /respond change them. Works the same for a project and a private home.
 */
import type { MemoryView, SettingsApi } from './assistant-api.js';
import type { Place } from './place.js';
import type { Home } from './home.js';
import { decisionsFromText, quotesFromText } from './inspector/memory-edit.js';
import type { Clock, ProjectConfig } from './ports/index.js';

export class PlaceSettings implements SettingsApi {
  constructor(private readonly deps: { clock: Clock; openHome: (place: Place) => Promise<Home> }) {}

  async showMemory(place: Place): Promise<MemoryView> {
    const home = await this.deps.openHome(place);
    const { layers, problems } = await home.layers();
    return { project: home.key, layers, problems: [...home.problems, ...problems], config: home.config ?? undefined, style: home.style };
  }

  async projectConfig(place: Place): Promise<ProjectConfig | null> {
    return (await this.deps.openHome(place)).config;
  }

  async editMemory(place: Place, edit: { summary?: string; decisions?: string; quotes?: string; style?: string }): Promise<MemoryView> {
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const home = await this.deps.openHome(place);
    await home.editLayers((cur) => ({
      summary: edit.summary ?? cur.summary,
      decisions: edit.decisions === undefined ? cur.decisions : decisionsFromText(edit.decisions, cur.decisions, today),
      quotes: edit.quotes === undefined ? cur.quotes : quotesFromText(edit.quotes, cur.quotes, today),
    }));
    if (edit.style !== undefined) await home.setStyle(edit.style);
    return this.showMemory(place);
  }

  async setStyle(place: Place, style: string): Promise<void> {
    await (await this.deps.openHome(place)).setStyle(style);
  }

  async setRespond(place: Place, respond: 'always' | 'mention'): Promise<void> {
    await (await this.deps.openHome(place)).setRespond(respond);
  }
}
