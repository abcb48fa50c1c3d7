/**
 * Writes a tiny llama-architecture GGUF model with random F32 weights (~150 KB), so tests can
 * load the real node-llama-cpp without downloading anything. The weights are seeded, so the
 * same file (and, at temperature 0, the same output) comes back every time.
 *
 * GGUF v3 layout (ggml/docs/gguf.md): "GGUF", version, tensor count, KV count; KV pairs
 * (string key, type, value); tensor infos (name, dims fastest-first, ggml type, offset into
 * the data section); padding to `general.alignment`; the tensor data, each tensor aligned.
 * No npm package writes GGUF (the ones that exist only read it), hence this small writer.
 *
 * The vocabulary is SentencePiece-style ("llama" tokenizer): <unk>, <s>, </s>, two ChatML
 * control tokens, 256 byte-fallback tokens, every printable ASCII character, "▁" (space), newline, tab and ~150 words —
 * any ASCII text tokenizes, and a JSON grammar always has a token for each character.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { mulberry32 } from '../../scripts/bench-util.js';

const enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type Value =
  { t: T.U32 | T.I32 | T.F32; v: number } | { t: T.BOOL; v: boolean } | { t: T.STRING; v: string } | { t: T.ARRAY; of: T.STRING; v: string[] } | { t: T.ARRAY; of: T.F32 | T.I32; v: number[] };

export interface TinyModelShape {
  embedding: number;
  heads: number;
  feedForward: number;
  layers: number;
  contextLength: number;
  seed: number;
}

const DEFAULT_SHAPE: TinyModelShape = { embedding: 32, heads: 2, feedForward: 64, layers: 1, contextLength: 8192, seed: 42 };

const CHATML = `{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}`;

const WORDS = (
  'the a is and to of in it that was for on are with as be at by this have from or one had not but what all were we when your can said there use ' +
  'an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more ' +
  'write go see number no way could people my than first water been call who oil its now find long down day did get come made may part over ' +
  'Charlie memory project hello note decision summary quote remember meeting friday design team true false null'
).split(' ');

/** Token list with SentencePiece scores and ggml token types (1 normal, 2 unknown, 3 control, 5 unused). */
export function tinyVocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens: string[] = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types: number[] = [2, 3, 3, 3, 3];
  // Byte-fallback tokens so any text tokenizes, typed "unused": they decode to nothing, so a
  // random model cannot string bytes into invalid UTF-8, and a grammar never picks them.
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(5);
  }
  for (const tok of ['\u2581', '\n', '\t']) {
    tokens.push(tok);
    types.push(1);
  }
  for (let c = 0x21; c <= 0x7e; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  for (const w of WORDS) {
    tokens.push(`\u2581${w}`);
    types.push(1);
  }
  // Longer pieces score higher, so the SentencePiece merge prefers whole words.
  const scores = tokens.map((tok, i) => (types[i] === 1 ? -1000 + tok.length * 10 - i * 0.001 : 0));
  return { tokens, scores, types };
}

/** Deterministic uniform random numbers in [-1, 1) (mulberry32). */
function random(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => uniform() * 2 - 1;
}

class Writer {
  private chunks: Buffer[] = [];
  length = 0;
  private push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  /** A fixed-size little-endian number. */
  private fixed(size: number, write: (b: Buffer) => unknown): void {
    const b = Buffer.alloc(size);
    write(b);
    this.push(b);
  }
  u32(v: number): void {
    this.fixed(4, (b) => b.writeUInt32LE(v));
  }
  i32(v: number): void {
    this.fixed(4, (b) => b.writeInt32LE(v));
  }
  u64(v: number): void {
    this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(v)));
  }
  f32(v: number): void {
    this.fixed(4, (b) => b.writeFloatLE(v));
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  bytes(b: Buffer): void {
    this.push(b);
  }
  pad(alignment: number): void {
    const rest = this.length % alignment;
    if (rest) this.push(Buffer.alloc(alignment - rest));
  }
  value(val: Value): void {
    this.u32(val.t);
    switch (val.t) {
      case T.U32: {
        this.u32(val.v);
        return;
      }
      case T.I32: {
        this.i32(val.v);
        return;
      }
      case T.F32: {
        this.f32(val.v);
        return;
      }
      case T.BOOL: {
        this.bytes(Buffer.from([val.v ? 1 : 0]));
        return;
      }
      case T.STRING: {
        this.str(val.v);
        return;
      }
      case T.ARRAY:
        this.u32(val.of);
        this.u64(val.v.length);
        if (val.of === T.STRING) for (const s of val.v) this.str(s);
        else if (val.of === T.F32) for (const n of val.v) this.f32(n);
        else for (const n of val.v) this.i32(n);
        return;
    }
  }
  result(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

interface Tensor {
  name: string;
  /** ggml order: the fastest-varying dimension first. */
  dims: number[];
  data: Float32Array;
}

/** The GGUF bytes of a tiny random llama model. */
export function tinyGguf(shape: Partial<TinyModelShape> = {}): Buffer {
  const s = { ...DEFAULT_SHAPE, ...shape };
  const vocab = tinyVocabulary();
  const n = vocab.tokens.length;
  const rand = random(s.seed);
  const headDim = s.embedding / s.heads;
  const filled = (dims: number[], scale: number) => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = rand() * scale;
    return data;
  };
  const ones = (len: number) => new Float32Array(len).fill(1);
  const tensors: Tensor[] = [
    { name: 'token_embd.weight', dims: [s.embedding, n], data: filled([s.embedding, n], 1) },
    { name: 'output_norm.weight', dims: [s.embedding], data: ones(s.embedding) },
    { name: 'output.weight', dims: [s.embedding, n], data: filled([s.embedding, n], 1) },
  ];
  for (let l = 0; l < s.layers; l++) {
    const sq = [s.embedding, s.embedding];
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [s.embedding], data: ones(s.embedding) },
      { name: `blk.${l}.attn_q.weight`, dims: sq, data: filled(sq, 0.3) },
      { name: `blk.${l}.attn_k.weight`, dims: sq, data: filled(sq, 0.3) },
      { name: `blk.${l}.attn_v.weight`, dims: sq, data: filled(sq, 0.3) },
      { name: `blk.${l}.attn_output.weight`, dims: sq, data: filled(sq, 0.3) },
      { name: `blk.${l}.ffn_norm.weight`, dims: [s.embedding], data: ones(s.embedding) },
      { name: `blk.${l}.ffn_gate.weight`, dims: [s.embedding, s.feedForward], data: filled([s.embedding, s.feedForward], 0.3) },
      { name: `blk.${l}.ffn_up.weight`, dims: [s.embedding, s.feedForward], data: filled([s.embedding, s.feedForward], 0.3) },
      { name: `blk.${l}.ffn_down.weight`, dims: [s.feedForward, s.embedding], data: filled([s.feedForward, s.embedding], 0.3) },
    );
  }
  // The end-of-generation tokens get a zero output row: with random weights the model keeps
  // talking until a token limit, which is what the tests want to see.
  const output = tensors[2];
  if (output) for (const id of [2, 4]) output.data.fill(0, id * s.embedding, (id + 1) * s.embedding);

  const alignment = 32;
  const kv: [string, Value][] = [
    ['general.architecture', { t: T.STRING, v: 'llama' }],
    ['general.name', { t: T.STRING, v: 'charlie-tiny-test' }],
    ['general.alignment', { t: T.U32, v: alignment }],
    ['general.file_type', { t: T.U32, v: 0 }],
    ['llama.context_length', { t: T.U32, v: s.contextLength }],
    ['llama.embedding_length', { t: T.U32, v: s.embedding }],
    ['llama.block_count', { t: T.U32, v: s.layers }],
    ['llama.feed_forward_length', { t: T.U32, v: s.feedForward }],
    ['llama.attention.head_count', { t: T.U32, v: s.heads }],
    ['llama.attention.head_count_kv', { t: T.U32, v: s.heads }],
    ['llama.rope.dimension_count', { t: T.U32, v: headDim }],
    ['llama.rope.freq_base', { t: T.F32, v: 10000 }],
    ['llama.attention.layer_norm_rms_epsilon', { t: T.F32, v: 1e-5 }],
    ['llama.vocab_size', { t: T.U32, v: n }],
    ['tokenizer.ggml.model', { t: T.STRING, v: 'llama' }],
    ['tokenizer.ggml.tokens', { t: T.ARRAY, of: T.STRING, v: vocab.tokens }],
    ['tokenizer.ggml.scores', { t: T.ARRAY, of: T.F32, v: vocab.scores }],
    ['tokenizer.ggml.token_type', { t: T.ARRAY, of: T.I32, v: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { t: T.U32, v: 0 }],
    ['tokenizer.ggml.bos_token_id', { t: T.U32, v: 1 }],
    ['tokenizer.ggml.eos_token_id', { t: T.U32, v: 4 }],
    ['tokenizer.ggml.add_bos_token', { t: T.BOOL, v: false }],
    ['tokenizer.ggml.add_eos_token', { t: T.BOOL, v: false }],
    ['tokenizer.chat_template', { t: T.STRING, v: CHATML }],
  ];

  const w = new Writer();
  w.bytes(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const [key, value] of kv) {
    w.str(key);
    w.value(value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    offsets.push(offset);
    offset += Math.ceil((t.data.length * 4) / alignment) * alignment;
  }
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offsets[i] ?? 0);
  });
  w.pad(alignment);
  for (const t of tensors) {
    w.bytes(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    w.pad(alignment);
  }
  return w.result();
}

/** Writes the tiny model to `path` and returns the path. */
export function writeTinyGguf(path: string, shape: Partial<TinyModelShape> = {}): string {
  writeFileSync(path, tinyGguf(shape));
  return path;
}

// `npx tsx test/support/tiny-gguf.ts OUT.gguf` writes the model for trying Charlie or the benchmark by hand.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? 'tiny.gguf';
  writeTinyGguf(out);
  process.stdout.write(`wrote ${out}\n`);
}
