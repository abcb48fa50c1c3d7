/** The terminal chat on piped input, as a person piping a script into `npm start` would run it. */
import { PassThrough } from 'node:stream';
import type { AssistantApi } from '../../src/core/assistant-api.js';
import { runTerminal, type TerminalOptions } from '../../src/terminal/chat.js';

/** Runs the terminal (project `general`, not interactive, no colour) on `input` and returns what it printed. */
export async function pipeTerminal(
  assistant: AssistantApi,
  input: string,
  options: { modelStatus?: string | null; userName?: string; toolServers?: () => string[]; time?: TerminalOptions['time']; ingest?: TerminalOptions['ingest'] } = {},
): Promise<string> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (d: Buffer) => (text += d.toString()));
  stdin.end(input);
  await runTerminal({
    assistant,
    projectName: 'general',
    assistantName: 'Charlie',
    input: stdin,
    output: stdout,
    interactive: false,
    color: false,
    modelStatus: Promise.resolve(options.modelStatus ?? null),
    userName: options.userName ?? 'dana',
    ...(options.toolServers ? { toolServers: options.toolServers } : {}),
    ...(options.time ? { time: options.time } : {}),
    ...(options.ingest ? { ingest: options.ingest } : {}),
  });
  return text;
}
