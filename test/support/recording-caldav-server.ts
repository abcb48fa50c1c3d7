/**
 * A small CalDAV server on 127.0.0.1 that records every request it receives: a stand-in for a
 * hosted calendar server (declare it hosted with CALENDAR_LOCALITY=hosted, since its address is
 * this machine's). It answers just enough of CalDAV for tsdav (src/calendar/connector.ts): the
 * principal and calendar home of one user, one calendar collection, a PUT of an event, and a
 * calendar query with the events it was given. Nothing is downloaded; it runs wherever node does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingCalDavServer {
  /** The server's root (http://127.0.0.1:PORT/). */
  url: string;
  /** The calendar collection to subscribe (`${url}ann/family/`). */
  collection: string;
  /** Every request: method, path and body, in order. */
  requests: { method: string; path: string; body: string }[];
  /** The events stored by PUT: path → iCalendar text. */
  stored: Map<string, string>;
  close(): Promise<void>;
}

const HOME = '/ann/';
const COLLECTION = '/ann/family/';
const ok = (props: string) => `<d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>`;
const multistatus = (responses: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">${responses.join('')}</d:multistatus>`;
const home = () =>
  `<d:response><d:href>${HOME}</d:href>${ok(`<d:current-user-principal><d:href>${HOME}</d:href></d:current-user-principal><c:calendar-home-set><d:href>${HOME}</d:href></c:calendar-home-set><d:resourcetype><d:collection/><d:principal/></d:resourcetype>`)}</d:response>`;
const collection = (ctag: number) =>
  `<d:response><d:href>${COLLECTION}</d:href>${ok(
    `<d:displayname>Family</d:displayname><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><cs:getctag>ctag-${ctag}</cs:getctag><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set><d:supported-report-set><d:supported-report><d:report><c:calendar-query/></d:report></d:supported-report></d:supported-report-set>`,
  )}</d:response>`;
const object = (path: string, ics: string) =>
  `<d:response><d:href>${path}</d:href>${ok(`<d:getetag>"${ics.length}"</d:getetag><c:calendar-data>${ics.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</c:calendar-data>`)}</d:response>`;

export async function startRecordingCalDavServer(): Promise<RecordingCalDavServer> {
  const requests: RecordingCalDavServer['requests'] = [];
  const stored = new Map<string, string>();
  let ctag = 1;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const method = req.method ?? 'GET';
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method, path, body });
      const xml = (responses: string[]) => res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(multistatus(responses));
      if (path.startsWith('/.well-known/')) return res.writeHead(404).end();
      if (method === 'PUT' && path.startsWith(COLLECTION)) {
        stored.set(path, body);
        ctag++;
        return res.writeHead(201, { etag: `"${body.length}"` }).end();
      }
      if (method === 'REPORT') return xml([...stored].map(([p, ics]) => object(p, ics)));
      if (method !== 'PROPFIND') return res.writeHead(405).end();
      if (path === COLLECTION) return xml([collection(ctag)]);
      return xml(req.headers.depth === '1' ? [home(), collection(ctag)] : [home()]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    collection: `${url}${COLLECTION.slice(1)}`,
    requests,
    stored,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
