import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { toChatHistory, toGrammarSchema } from '../../src/llm/embedded/history.js';
import { embeddedModelFile, localFileName } from '../../src/llm/embedded/model-file.js';
import { chooseProvider } from '../../src/llm/provider.js';

const config = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: '/srv/charlie/data', ...env }, '/nonexistent');
const up = async () => ({ ok: true as const, models: ['m'] });
const down = async () => ({ ok: false as const, message: 'no model server at http://localhost:1234/v1' });

describe('LLM_PROVIDER', () => {
  it('auto: the server when it answers, even with the embedded file present', async () => {
    expect(await chooseProvider(config(), { probe: up, exists: () => true })).toEqual({ provider: 'server', status: null });
  });

  it('auto: the embedded model when no server answers and its file is present', async () => {
    const choice = await chooseProvider(config(), { probe: down, exists: (p) => p === '/srv/charlie/data/models/hf_unsloth_Qwen3-4B-Instruct-2507-Q4_K_M.gguf' });
    expect(choice.provider).toBe('embedded');
  });

  it('auto: one line saying what to do when there is neither', async () => {
    const choice = await chooseProvider(config(), { probe: down, exists: () => false });
    expect(choice.provider).toBe('none');
    if (choice.provider !== 'none') return;
    expect(choice.message).toContain('start LM Studio / Ollama');
    expect(choice.message).toContain('npm run models -- pull');
    expect(choice.message).not.toContain('\n');
  });

  it('server: never the embedded model; embedded: never probes the server', async () => {
    expect(await chooseProvider(config({ LLM_PROVIDER: 'server' }), { probe: down, exists: () => true })).toEqual({ provider: 'server', status: 'no model server at http://localhost:1234/v1' });
    let probed = false;
    const probe = async () => {
      probed = true;
      return up();
    };
    const choice = await chooseProvider(config({ LLM_PROVIDER: 'embedded' }), { probe, exists: () => false });
    expect(probed).toBe(false);
    expect(choice.provider).toBe('none');
  });

  it('EMBEDDED_MODEL_PATH wins and is never downloaded', () => {
    const file = embeddedModelFile(config({ EMBEDDED_MODEL_PATH: '/models/mine.gguf' }));
    expect(file).toEqual({ ref: '/models/mine.gguf', path: '/models/mine.gguf', downloadable: false, url: null });
  });

  it('names local files from hf: references and URLs', () => {
    expect(localFileName('hf:bartowski/Qwen_Qwen3-4B-GGUF/Qwen_Qwen3-4B-Q4_K_M.gguf')).toBe('hf_bartowski_Qwen_Qwen3-4B-Q4_K_M.gguf');
    expect(localFileName('hf:unsloth/Qwen3-4B-Instruct-2507-GGUF:Q4_K_M')).toBe('hf_unsloth_Qwen3-4B-Instruct-2507.Q4_K_M.gguf');
    expect(localFileName('http://127.0.0.1:8000/files/tiny%20model.gguf?x=1')).toBe('tiny_model.gguf');
    expect(embeddedModelFile(config()).url).toBe('https://huggingface.co/unsloth/Qwen3-4B-Instruct-2507-GGUF/resolve/main/Qwen3-4B-Instruct-2507-Q4_K_M.gguf');
  });

  it('rejects a model reference it cannot fetch', () => {
    expect(() => config({ EMBEDDED_MODEL: 'qwen3:4b' })).toThrow(/EMBEDDED_MODEL/);
  });
});

describe('embedded history', () => {
  it('attaches tool results to their calls and ends with a model response to continue', () => {
    const history = toChatHistory([
      { role: 'system', content: 'sys' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:x' } },
        ],
      },
      {
        role: 'assistant',
        content: 'checking',
        toolCalls: [
          { id: 'a', name: 'search', arguments: '{"q":"x"}' },
          { id: 'b', name: 'time', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'b', name: 'time', content: '12:00' },
      { role: 'tool', toolCallId: 'a', name: 'search', content: 'found' },
    ]);
    expect(history).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'look\n[image omitted: this model reads text only]' },
      {
        type: 'model',
        response: ['checking', { type: 'functionCall', name: 'search', params: { q: 'x' }, result: 'found' }, { type: 'functionCall', name: 'time', params: 'not json', result: '12:00' }],
      },
    ]);
    expect(toChatHistory([{ role: 'user', content: 'hi' }]).at(-1)).toEqual({ type: 'model', response: [] });
  });

  it('keeps the grammar-relevant part of a zod-made JSON schema', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, pattern: '^x' },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        kind: { type: 'string', enum: ['a', 'b'] },
        when: { type: ['string', 'null'] },
      },
      required: ['query', 'missing'],
      additionalProperties: false,
    };
    expect(toGrammarSchema(schema)).toEqual({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer' }, kind: { enum: ['a', 'b'] }, when: { type: ['string', 'null'] } },
      required: ['query'],
    });
  });
});
