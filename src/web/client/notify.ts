/**
 * A notification when a reply finishes while the app's tab is in the background (the Notification
 * API, while the app is open; no push server). Permission is asked once, from the person's own
 * gesture (sending a message), as browsers require; a refusal is kept and never asked again.
 */

/** Asks for permission the first time the person sends something (a user gesture). */
export function askToNotify(): void {
  if (!('Notification' in window) || Notification.permission !== 'default') return;
  void Notification.requestPermission().catch(() => undefined);
}

/** Shows "Charlie replied" with the reply's start, only when the tab is hidden and permission was given. */
export function notifyReply(assistant: string, place: string, text: string, href: string): void {
  if (document.visibilityState !== 'hidden' || !('Notification' in window) || Notification.permission !== 'granted') return;
  const body = text.replace(/\s+/g, ' ').trim().slice(0, 140) || 'The reply is ready.';
  try {
    const n = new Notification(`${assistant} replied in ${place}`, { body, tag: `charlie-reply:${href}` });
    n.addEventListener('click', () => {
      window.focus();
      location.hash = href;
      n.close();
    });
  } catch {
    // some browsers allow notifications only from a service worker: the reply is still in the page
  }
}
