/**
 * Older messages load as the reader scrolls up: a line at the top of the conversation ("Loading
 * older messages…", or "Start of the conversation" once the first message is shown) is watched by
 * an IntersectionObserver; when it comes near the screen the page before is fetched and drawn
 * above, and the page is scrolled by exactly the height added, so what the reader looks at stays
 * where it was.
 *
 * The page holds at most MAX_DRAWN messages: reading far back, the newest ones beyond that are
 * taken out of the page (a conversation of 10,000 messages read back whole made a page of 60,000
 * elements whose every frame took over half a second), and a line at the bottom brings the newest
 * page back.
 */
import type { ChatEntry, HistoryPage } from './api.js';
import { h } from './dom.js';

/** The most messages the page holds at once. */
const MAX_DRAWN = 600;

export interface OlderMessages {
  /** The line above the conversation (the caller puts it just before `list`). */
  edge: HTMLElement;
  /** Whether newer messages were taken out of the page (`trimmed` was called). */
  readonly trimmed: boolean;
  /** The conversation drawn again from its newest page (after newer messages were taken out). */
  reset(page: HistoryPage): void;
  /** Loads pages until `found()` is true or the conversation's start is shown; whether it was found. */
  until(found: () => boolean): Promise<boolean>;
}

/**
 * `list` holds the messages; `cursor` is the `before` of the page already drawn; `load` fetches the
 * page before a cursor, `draw` makes a message's element, `drawn` runs after each page (buttons
 * that only the newest message has).
 */
export function olderMessages(
  list: HTMLElement,
  cursor: string | null,
  load: (before: string) => Promise<HistoryPage>,
  draw: (m: ChatEntry) => HTMLElement,
  drawn: () => void,
  trimmed: () => void,
): OlderMessages {
  const edge = h('p', { class: 'history-edge', role: 'status' });
  let cut = false;
  /** Takes the newest messages beyond MAX_DRAWN out of the page (never while a reply is being written). */
  const trim = () => {
    if (list.querySelector('.msg.live')) return;
    let extra = list.childElementCount - MAX_DRAWN;
    if (extra <= 0) return;
    while (extra-- > 0) list.lastElementChild?.remove();
    if (!cut) trimmed();
    cut = true;
  };
  let loading: Promise<void> | null = null;
  const label = (failed = false) => {
    edge.textContent = failed ? 'Older messages could not be loaded — scroll up to try again.' : cursor ? 'Loading older messages…' : 'Start of the conversation';
    edge.hidden = !cursor && !failed && !list.firstElementChild;
  };
  label();
  const near = () => {
    const r = edge.getBoundingClientRect();
    return edge.isConnected && !edge.hidden && r.bottom > -400 && r.top < window.innerHeight;
  };
  const one = async () => {
    const before = cursor;
    if (!before) return;
    label();
    let page: HistoryPage;
    try {
      page = await load(before);
    } catch {
      label(true);
      return;
    }
    // keep the first message on screen where it is while the older ones go in above it
    const anchor = list.firstElementChild;
    const top = anchor?.getBoundingClientRect().top ?? 0;
    list.prepend(...page.messages.map(draw));
    cursor = page.before;
    label();
    drawn();
    if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - top);
    trim();
  };
  const more = (): Promise<void> => {
    loading ??= one().finally(() => {
      loading = null;
      // still in view (a short page): the next one
      if (cursor && near()) void more();
    });
    return loading;
  };
  const watch = new IntersectionObserver(
    (entries) => {
      if (!list.isConnected) watch.disconnect();
      else if (entries.some((e) => e.isIntersecting)) void more();
    },
    { rootMargin: '400px 0px 0px 0px' },
  );
  watch.observe(edge);
  // The observer reports changes between two frames: a load drawn and a scroll back to the top in
  // the same frame (a fast fling) leave the line in view with nothing to report, and the reader at
  // "Loading older messages…" with nothing loading. Every scroll asks again.
  const onScroll = () => {
    if (!list.isConnected) window.removeEventListener('scroll', onScroll);
    else if (cursor && !loading && near()) void more();
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  return {
    edge,
    get trimmed() {
      return cut;
    },
    reset(page) {
      list.replaceChildren(...page.messages.map(draw));
      cursor = page.before;
      cut = false;
      label();
      drawn();
    },
    async until(found) {
      while (!found() && cursor) {
        const before = cursor;
        await more();
        if (cursor === before) return false; // the page failed
      }
      return found();
    },
  };
}
