/**
 * The Reminders view (list in the reader's locale and time zone, set with the same phrases as
 * `/remind`, cancel) and the feed that shows a due reminder while the app is open: in the page
 * (with Snooze and Done) and, once the reader allowed it from the button here, as a system
 * notification. A reminder already shown (a redelivery after a restart) is not shown again.
 */
import { call, readEvents } from './api.js';
import { clear, h, toast } from './dom.js';

export interface ReminderItem {
  id: string;
  text: string;
  /** ISO time of the next occurrence. */
  at: string;
  tz: string;
  repeats: string;
  where: 'here' | 'a DM' | 'another channel';
  /** Its time has come (a one-off): it is not upcoming. */
  fired?: boolean;
}

/** A one-off reminder whose time has come (by the server's clock): delivered, or being delivered, not coming. */
const fired = (r: ReminderItem) => r.fired === true;

interface Delivery {
  key: string;
  jobId: string;
  text: string;
  actions: string[];
}

const ACTION_LABELS: Record<string, string> = { snooze: 'Snooze 10 min', done: 'Done', 'not-yet': 'Not yet', drop: 'Drop' };
const SEEN_KEY = 'charlie-reminders-shown';

const base = (project: string) => `/api/projects/${encodeURIComponent(project)}/reminders`;
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "Fri, 4 Dec 2026, 18:00" in this browser's language and zone. */
export function readerTime(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}

function notificationButton(): HTMLElement | null {
  if (!('Notification' in window)) return h('p', { class: 'meta' }, 'This browser cannot show notifications: due reminders appear in the page.');
  if (Notification.permission === 'granted') return h('p', { class: 'meta notify-state' }, 'Notifications are on while Charlie is open in this browser.');
  if (Notification.permission === 'denied') return h('p', { class: 'meta notify-state' }, 'Notifications are blocked for this site; due reminders appear in the page.');
  const button = h('button', { type: 'button', class: 'small', id: 'notify-button' }, 'Turn on notifications');
  // the permission is asked from this click (browsers refuse it without a user gesture)
  button.addEventListener('click', () => {
    void Notification.requestPermission().then((p) => {
      button.replaceWith(
        h('p', { class: 'meta notify-state' }, p === 'granted' ? 'Notifications are on while Charlie is open in this browser.' : 'Notifications stay off; due reminders appear in the page.'),
      );
    });
  });
  return h('p', {}, button);
}

export async function renderReminders(main: HTMLElement, project: string, title: string): Promise<void> {
  const listBox = h('ul', { class: 'reminders', 'aria-label': 'Reminders' });
  const when = h('input', { type: 'text', id: 'reminder-when', placeholder: 'in 20 minutes, Friday at 6, every first Monday', required: true, maxlength: 200 });
  const what = h('input', { type: 'text', id: 'reminder-what', placeholder: 'call mum', required: true, maxlength: 300 });
  const form = h(
    'form',
    { class: 'reminder-form' },
    h('label', { for: 'reminder-when' }, 'When'),
    when,
    h('label', { for: 'reminder-what' }, 'What'),
    what,
    h('button', { type: 'submit', class: 'primary' }, 'Set reminder'),
  );
  const draw = async () => {
    const { reminders } = await call<{ reminders: ReminderItem[]; zone: string }>('GET', base(project));
    clear(
      listBox,
      reminders.length
        ? reminders.map((r) =>
            h(
              'li',
              // a reminder that has fired (and does not repeat) says so, instead of looking upcoming
              { class: fired(r) ? 'reminder fired' : 'reminder', 'data-id': r.id, 'data-repeats': r.repeats || null },
              fired(r) ? h('span', { class: 'meta reminder-fired' }, 'Reminded ') : null,
              h('time', { datetime: r.at }, readerTime(r.at)),
              ' ',
              h('span', { class: 'reminder-text' }, r.text),
              r.repeats ? h('span', { class: 'meta' }, ` · ${r.repeats}`) : null,
              r.where !== 'here' ? h('span', { class: 'meta' }, ` · in ${r.where}`) : null,
              h('button', { type: 'button', class: 'small', onclick: () => void cancel(r) }, fired(r) ? 'Remove' : 'Cancel'),
            ),
          )
        : [h('li', { class: 'meta empty' }, 'No reminders are set here.')],
    );
  };
  const cancel = async (r: ReminderItem) => {
    try {
      await call('DELETE', `${base(project)}/${encodeURIComponent(r.id)}`);
      toast(`Cancelled: ${r.text}`);
      await draw();
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void call<{ line: string }>('POST', base(project), { when: when.value, what: what.value, zone: browserZone() })
      .then(async (out) => {
        toast(out.line);
        what.value = '';
        when.value = '';
        await draw();
      })
      .catch((err: unknown) => toast(err instanceof Error ? err.message : String(err), 'error'));
  });
  clear(
    main,
    h('header', { class: 'view-head' }, h('h1', {}, `Reminders · ${title}`)),
    h('p', { class: 'meta' }, 'Say when as you would to Charlie. A reminder set here comes to this app while it is open.'),
    form,
    notificationButton(),
    h('h2', {}, 'Set here'),
    listBox,
  );
  await draw();
}

function seenKeys(): string[] {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

function markSeen(key: string): boolean {
  const keys = seenKeys();
  if (keys.includes(key)) return false;
  try {
    sessionStorage.setItem(SEEN_KEY, JSON.stringify([...keys, key].slice(-200)));
  } catch {
    // private mode: this page's memory only
  }
  return true;
}

function feedBox(): HTMLElement {
  const found = document.getElementById('reminder-feed');
  if (found) return found;
  const box = h('section', { id: 'reminder-feed', class: 'reminder-feed', 'aria-label': 'Due reminders', 'aria-live': 'assertive' });
  document.body.append(box);
  return box;
}

/** A one-off reminder in the list on screen that has just come due: it says so, instead of looking upcoming. */
function markFired(jobId: string): void {
  for (const li of document.querySelectorAll<HTMLElement>('.reminders .reminder')) {
    if (li.dataset.id !== jobId || li.dataset.repeats || li.classList.contains('fired')) continue;
    li.classList.add('fired');
    li.prepend(h('span', { class: 'meta reminder-fired' }, 'Reminded '));
  }
}

function show(d: Delivery): void {
  if (!markSeen(d.key)) return;
  const card = h('div', { class: 'reminder-due', role: 'alert' }, h('p', {}, d.text));
  const act = async (action: string) => {
    try {
      const out = await call<{ line: string }>('POST', `/api/reminders/${encodeURIComponent(d.jobId)}/${action}`);
      toast(out.line);
      card.remove();
    } catch (err) {
      toast(err instanceof Error ? err.message : String(err), 'error');
    }
  };
  card.append(
    h(
      'div',
      { class: 'actions' },
      d.actions.map((a) => h('button', { type: 'button', class: 'small', onclick: () => void act(a) }, ACTION_LABELS[a] ?? a)),
    ),
  );
  feedBox().append(card);
  markFired(d.jobId);
  if ('Notification' in window && Notification.permission === 'granted') {
    const n = new Notification('Charlie', { body: d.text, tag: d.key });
    n.addEventListener('click', () => window.focus());
  }
}

/** Listens for due reminders while the app is open; reconnects after a dropped connection. */
export function startReminderFeed(): void {
  let wait = 1000;
  const connect = async () => {
    try {
      const res = await fetch('/api/reminders/events', { credentials: 'same-origin' });
      if (res.status === 501 || res.status === 401) return;
      await readEvents(res, (e) => {
        wait = 1000;
        if (e.event === 'reminder') show(e.data as Delivery);
      });
    } catch {
      // the server restarted or the network dropped: try again below
    }
    wait = Math.min(wait * 2, 30_000);
    window.setTimeout(() => void connect(), wait);
  };
  void connect();
}
