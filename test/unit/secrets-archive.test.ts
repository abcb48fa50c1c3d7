import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../support/fakes.js';
import { collect, makeAssistant, msg } from '../support/assistant-fixture.js';

const key = ['sk-', 'proj-', 'Zx81Qw'.repeat(7)].join('');
const card = ['4111', '1111', '1111', '1111'].join(' ');

describe('a message with a credential', () => {
  it('is archived and sent with the secret removed, and the author is told once', async () => {
    const model = new ScriptedChatModel([{ text: 'got it' }]);
    const { assistant, store } = makeAssistant({ model });
    const { events, onEvent } = collect();
    const out = await assistant.conversation.handle(msg(`my key is ${key} and my card ${card}, thanks`), { onEvent });
    const log = store.projects.get('general')!.log;
    expect(log[0]!.text).toBe('my key is [secret removed] and my card [secret removed], thanks');
    expect(JSON.stringify(model.requests)).not.toContain(key);
    expect(JSON.stringify(model.requests)).not.toContain(card);
    const notices = events.filter((e) => e.type === 'notice' && e.text.includes('removed'));
    expect(notices).toHaveLength(1);
    expect(out.notices.filter((n) => n.includes('OpenAI key') && n.includes('card number'))).toHaveLength(1);
  });

  it('is archived clean even when Charlie does not answer it, and says so', async () => {
    const model = new ScriptedChatModel([]);
    const { assistant, privateStore } = makeAssistant({ model });
    const dm = { kind: 'private' as const, userId: 'u1', userName: 'Ann' };
    const out = await assistant.conversation.handle(msg(`password: Tr0ub4dor&3`, dm, { reply: false }));
    expect(privateStore.messages.get('u1')![0]!.entry.text).toBe('password: [secret removed]');
    expect(out.notices).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
  });
});
