/**
 * Offline and back: a banner says the device is offline and that the app reconnects by itself;
 * when the network returns it goes, and `onBack` runs (a view that failed to load is drawn again;
 * the chat picks up its own lost replies, chat.ts).
 */
import { h } from './dom.js';

export function watchConnection(onBack: () => void): void {
  const banner = h('div', { class: 'offline-banner', role: 'status', hidden: navigator.onLine }, 'Offline — reconnecting when the network is back…');
  document.body.prepend(banner);
  window.addEventListener('offline', () => (banner.hidden = false));
  window.addEventListener('online', () => {
    banner.hidden = true;
    onBack();
  });
}
