/**
 * "Ask in the moment" (issue 40) in the chat: a turn that would send an item labelled sensitive
 * to a hosted service asks the person first, with a `consent` event. The question is drawn on
 * the turn as a dialog — the service, the items named (never their content), Once / Always for
 * these / No and a visible countdown (no answer in time is No) — and `consent_done` closes it.
 */
import { api } from './api.js';
import type { ConsentAnswerWire, ConsentEventWire } from '../shared/consent.js';
import { clear, h, toast } from './dom.js';

/** What the turn was told, in the closed question's words. */
const SETTLED: Record<ConsentAnswerWire, string> = { once: 'Sent for this answer.', always: 'Sent, now and from now on (Settings › Privacy to revoke).', no: 'Not sent.' };

/** `gpt-4o@api.openai.com` (or `…@https://host/v1`) → the model's name and the host it runs on. */
function serviceName(id: string): { name: string; host: string } {
  const at = id.indexOf('@');
  if (at <= 0) return { name: id, host: '' };
  const where = id.slice(at + 1);
  return { name: id.slice(0, at), host: URL.canParse(where) ? new URL(where).host : where };
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The turn's question, as a dialog in its trace; `turnId` answers it. */
export function consentQuestion(q: ConsentEventWire, turnId: () => string): HTMLElement {
  const { name, host } = serviceName(q.service.id);
  const titleId = `consent-title-${q.id}`;
  // a page reloaded while the question is open counts down from when it was asked, not from now
  const deadline = Math.min(Date.now() + q.timeoutMs, q.askedAt + q.timeoutMs);
  const left = h('span', { class: 'consent-clock', role: 'timer', 'aria-label': 'Time left to answer' }, clock(Math.max(0, deadline - Date.now())));
  const buttons: HTMLButtonElement[] = [];
  const press = (answer: ConsentAnswerWire) => {
    for (const b of buttons) b.disabled = true;
    api.answerConsent(turnId(), q.id, answer).catch((e: unknown) => {
      for (const b of buttons) b.disabled = false;
      toast(e instanceof Error ? e.message : String(e), 'error');
    });
  };
  const button = (answer: ConsentAnswerWire, label: string, cls: string) => {
    const b = h('button', { type: 'button', class: cls, 'data-answer': answer, onclick: () => press(answer) }, label);
    buttons.push(b);
    return b;
  };
  const dialog = h(
    'section',
    { class: 'consent-dialog', role: 'dialog', 'aria-labelledby': titleId, tabindex: -1 },
    h('h2', { id: titleId }, `May I send this to ${q.service.what} ${name} (hosted)?`),
    h('p', { class: 'meta' }, `Labelled sensitive, named here without its content${host ? `; it would leave this machine for ${host}` : ''}:`),
    h(
      'ul',
      { class: 'consent-items' },
      q.items.map((i) => h('li', {}, i.label)),
    ),
    h(
      'div',
      { class: 'consent-actions' },
      button('once', 'Once', 'small primary'),
      button('always', 'Always for these', 'small'),
      button('no', 'No', 'small'),
      h('span', { class: 'meta' }, 'No answer in ', left, ' is No.'),
    ),
  );
  const li = h('li', { class: 'consent', 'data-consent': q.id }, dialog);
  const timer = window.setInterval(() => {
    left.textContent = clock(deadline - Date.now());
    if (!left.isConnected || Date.now() > deadline) window.clearInterval(timer);
  }, 1000);
  li.dataset.timer = String(timer);
  // shown without taking the keyboard from a person still typing: the dialog itself gets the focus
  requestAnimationFrame(() => dialog.focus({ preventScroll: true }));
  return li;
}

/** `consent_done`: the question closes with what was decided. */
export function closeConsent(trace: HTMLElement, id: string, answer: ConsentAnswerWire): void {
  const li = trace.querySelector<HTMLElement>(`[data-consent="${CSS.escape(id)}"]`);
  if (!li) return;
  window.clearInterval(Number(li.dataset.timer));
  const label = li.querySelector('h2')?.textContent ?? '';
  clear(li, h('p', {}, label, ' ', h('strong', {}, SETTLED[answer])));
  li.className = `consent done ${answer === 'no' ? 'failed' : 'ok'}`;
}
