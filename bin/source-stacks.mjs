/**
 * Stack traces that name src/*.ts lines, paid for only when a stack is read.
 *
 * Node's own source-map support (`process.setSourceMapsEnabled(true)`) reads and parses each
 * module's map as the module loads: for the terminal chat's 80 chunks that is 40–55 ms of every
 * start (docs/performance.md, "Stack traces read their maps when a stack is read"), for stacks
 * that are seldom read. This hook reads a chunk's map the first time a stack passes through it,
 * with Node's own parser (`SourceMap` of node:module), and keeps it.
 *
 * Only frames in the build's own folder are mapped; any other frame, and any frame whose map is
 * missing or unreadable, is printed as V8 prints it.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Installs the hook (`Error.prepareStackTrace`) for the modules under `buildDir`. */
export function mapStacksOf(buildDir) {
  const prefix = `${pathToFileURL(buildDir).href}/`;
  /** A chunk's file URL → its parsed map, or null when it has none that can be read. */
  const maps = new Map();
  const mapOf = (url) => {
    if (!maps.has(url)) {
      let map = null;
      try {
        const file = fileURLToPath(url);
        map = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))), dir: dirname(file) };
      } catch {
        // no map, or one that cannot be read: the frame stays as V8 wrote it
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  const frame = (site) => {
    const text = String(site);
    const url = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (typeof url !== 'string' || !url.startsWith(prefix) || !line || !column) return text;
    const found = mapOf(url);
    const origin = found?.map.findOrigin(line, column);
    if (!origin?.fileName) return text;
    const at = `${resolve(found.dir, origin.fileName)}:${origin.lineNumber}:${origin.columnNumber}`;
    return text.replace(`${url}:${line}:${column}`, at);
  };
  const prepare = (error, sites) => {
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = '<error>';
    }
    return `${head}${sites.map((site) => `\n    at ${frame(site)}`).join('')}`;
  };
  Error.prepareStackTrace = prepare;
}
