/**
 * Discord's tool confirmation on the real discord.js client against the fake Discord server:
 * the question shows server, tool and exact arguments with Run it / Don't; only the person who
 * asked can answer; the answer reaches the turn and the buttons go away.
 */
import { describe, expect, it } from 'vitest';
import type { ConversationApi, HandleOptions, TurnOutcome } from '../../src/core/assistant-api.js';
import type { IncomingMessage } from '../../src/core/place.js';
import { CONFIRM_PREFIX } from '../../src/discord/tool-confirm.js';
import { FakeAssistant } from '../support/fake-assistant.js';
import { botHarnesses, type BotHarness } from '../support/fake-discord/bot-harness.js';
import type { Json } from '../support/fake-discord/server.js';

const start = botHarnesses();

/** Asks once per turn, as the core does before a writing MCP tool, and says what it was told. */
class AskingAssistant extends FakeAssistant {
  readonly answers: boolean[] = [];
  readonly users: unknown[] = [];
  override readonly conversation: ConversationApi = {
    handle: (message, options) => this.ask(message, options),
    speechMustStayLocal: async () => false,
    withholdSensitive: async (_place, text) => text,
  };
  async ask(message: IncomingMessage, options: HandleOptions = {}): Promise<TurnOutcome> {
    this.handled.push(message);
    this.users.push(options.tools?.user);
    const confirm = options.tools?.confirm;
    const yes = confirm ? await confirm({ server: 'fs', tool: 'write_file', args: { path: '/home/me/list.txt', content: 'tent' }, reason: 'the server marks it destructive' }) : false;
    this.answers.push(yes);
    return { project: 'general', reply: yes ? 'Written.' : 'Not written.', reason: 'done', related: [], notices: [] };
  }
}

const content = (m: Json) => String(m.content ?? '');
const buttons = (m: Json) => ((m.components as Json[] | undefined) ?? []).flatMap((row) => (row.components as Json[] | undefined) ?? []);

async function question(h: BotHarness): Promise<Json> {
  return h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => buttons(m).some((b) => String(b.custom_id).startsWith(`${CONFIRM_PREFIX}:`))), 15_000, 'the confirmation question');
}

describe('Discord: tool confirmation buttons', () => {
  for (const [label, allow] of [
    ['Run it', true],
    ["Don't", false],
  ] as const) {
    it(`${label}: the turn is told ${String(allow)}`, async () => {
      const assistant = new AskingAssistant();
      const h = await start({ assistant });
      h.fake.postMessage(h.general, h.alice, `<@${h.fake.bot.id}> write the list`, { mentions: [h.fake.bot] });
      const asked = await question(h);
      expect(content(asked)).toContain('**write_file** on **fs**');
      expect(content(asked)).toContain('"path": "/home/me/list.txt"');
      expect(content(asked)).toContain('"content": "tent"');
      const button = buttons(asked).find((b) => b.label === label)!;
      // someone else's press is not an answer
      h.fake.pressButton(h.general, h.bob, asked, String(button.custom_id));
      const press = h.fake.pressButton(h.general, h.alice, asked, String(button.custom_id));
      // generous waits: on a loaded 2-core CI machine the two presses and their answers took over 5 s
      await h.fake.waitFor(() => press.callbacks[0], 15_000, 'the press answered');
      await h.fake.waitFor(() => (assistant.answers.length ? true : null), 15_000, 'the turn told');
      expect(assistant.answers).toEqual([allow]);
      expect(assistant.users[0]).toMatchObject({ owner: false, id: h.alice.id });
      await h.fake.waitFor(() => h.fake.botMessagesIn(h.general.id).find((m) => content(m).includes(allow ? 'Written.' : 'Not written.')), 15_000, 'the reply');
    }, 60_000);
  }

  it('a press that comes before Discord has answered the send is still the answer', async () => {
    const assistant = new AskingAssistant();
    const h = await start({ assistant });
    // Discord stores the question and delivers the press before the bot hears back about its send.
    const release = h.fake.holdReplies('POST', new RegExp(`^/channels/${h.general.id}/messages$`));
    h.fake.postMessage(h.general, h.alice, `<@${h.fake.bot.id}> write the list`, { mentions: [h.fake.bot] });
    const asked = await question(h);
    const yes = String(buttons(asked).find((b) => b.label === 'Run it')!.custom_id);
    const other = h.fake.pressButton(h.general, h.bob, asked, yes);
    const press = h.fake.pressButton(h.general, h.alice, asked, yes);
    await h.fake.waitFor(() => other.callbacks[0], 15_000, "the other person's press answered");
    expect(other.callbacks[0]).toMatchObject({ type: 4, data: { content: expect.stringContaining('Only the person who asked') } });
    release();
    await h.fake.waitFor(() => press.callbacks[0], 15_000, 'the press answered');
    await h.fake.waitFor(() => (assistant.answers.length ? true : null), 15_000, 'the turn told');
    expect(assistant.answers).toEqual([true]);
  }, 60_000);
});
