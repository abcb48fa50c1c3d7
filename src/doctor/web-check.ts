/** The web app: its port is free (or already served by Charlie), and where its sign-in token lives. */
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { type Config } from '../config.js';
import { dataFiles } from '../data-files.js';
import { fail, ok, skip, type Check, type Part, type Verdict } from './check.js';
import { parseJson, request } from './http.js';

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

function portCheck(config: Config): Check {
  return {
    name: 'web app: port',
    async run(signal): Promise<Verdict> {
      if (config.WEB_PORT === 0) return skip('WEB_PORT=0: the web app is off');
      const where = `${config.WEB_HOST}:${String(config.WEB_PORT)}`;
      if (await portFree(config.WEB_HOST, config.WEB_PORT)) return ok(`${where} is free: npm start serves the web app there`);
      try {
        const answer = await request(`http://${config.WEB_HOST.includes(':') ? `[${config.WEB_HOST}]` : config.WEB_HOST}:${String(config.WEB_PORT)}/api/health`, { timeoutMs: 3000, signal });
        const body = parseJson(answer.text);
        if (answer.status === 200 && typeof body === 'object' && body !== null && 'ok' in body) return ok(`Charlie's web app already answers at ${where}`);
      } catch {
        // something else holds the port
      }
      return fail(`${where} is taken by another program: the web app would not start`, 'set WEB_PORT to a free port (WEB_PORT=0 turns the web app off)');
    },
  };
}

function tokenCheck(config: Config): Check {
  return {
    name: 'web app: sign-in token',
    run(): Promise<Verdict> {
      if (config.WEB_PORT === 0) return Promise.resolve(skip('the web app is off'));
      if (config.WEB_TOKEN) return Promise.resolve(ok('the owner token is WEB_TOKEN (from .env or the environment)'));
      const file = dataFiles(config.dataDir).webToken;
      return Promise.resolve(
        existsSync(file) ? ok(`the owner token is in ${file} (npm start prints a sign-in link)`) : ok(`no token yet: npm start creates one in ${file} and prints a sign-in link (or set WEB_TOKEN)`),
      );
    },
  };
}

export function webPart(config: Config): Part {
  return { name: 'web app', checks: [portCheck(config), tokenCheck(config)] };
}
