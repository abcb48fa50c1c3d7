/**
 * The service worker: caches the app shell so the app opens offline (and is installable);
 * never caches the API, whose answers are private and live. The shell list comes from the build
 * (the app, every chunk it imports at once, the stylesheet), so the first visit already caches
 * what the shell needs; hashed files never change, so they are served from the cache first.
 */

interface ExtendableEvt extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvt extends ExtendableEvt {
  request: Request;
  respondWith(r: Promise<Response> | Response): void;
}
interface WorkerScope {
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvt) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEvt) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
}

declare const __BUILD_ID__: string;
declare const __SHELL__: string[];
const scope = self as unknown as WorkerScope;
const CACHE = `charlie-shell-${__BUILD_ID__}`;
const SHELL = __SHELL__;

scope.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(SHELL))
      .then(() => scope.skipWaiting()),
  );
});

scope.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('charlie-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== scope.location.origin) return;
  // an invite page holds its single-use token in the address: never kept in the cache
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/login') || url.pathname.startsWith('/invite')) return;
  if (url.pathname.startsWith('/assets/')) {
    e.respondWith(
      caches.match(e.request).then(
        (hit) =>
          hit ??
          fetch(e.request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              void caches.open(CACHE).then((c) => c.put(e.request, copy));
            }
            return res;
          }),
      ),
    );
    return;
  }
  // Network first (the shell changes when Charlie is updated), the cache when offline.
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok) {
          const copy = res.clone();
          void caches.open(CACHE).then((c) => c.put(e.request, copy));
        }
        return res;
      })
      .catch(async () => (await caches.match(e.request)) ?? (e.request.mode === 'navigate' ? await caches.match('/') : undefined) ?? new Response('offline', { status: 503 })),
  );
});
