/**
 * A tiny ONNX model written at test time (no binary fixture, no download): protobuf encoded
 * by hand, one ReduceMean over the feature axes and a Sigmoid — the same input and output
 * shape as Smart Turn v3, so the real ONNX Runtime loads and runs the real adapter code.
 */
const varint = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
};
const utf8 = (s: string) => [...new TextEncoder().encode(s)];
/** A length-delimited field (strings, messages). */
const field = (no: number, bytes: number[]) => [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
const int = (no: number, n: number) => [...varint(no << 3), ...varint(n)];
const str = (no: number, s: string) => field(no, utf8(s));

function tensorValue(name: string, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => field(1, typeof d === 'number' ? int(1, d) : str(2, d)));
  const tensor = [...int(1, 1 /* FLOAT */), ...field(2, shape)];
  return [...str(1, name), ...field(2, field(1, tensor))];
}

/** `input_features` [1, 80, 800] float → sigmoid(mean) as `logits` [1]. */
export function meanSigmoidModel(): Uint8Array {
  const axes = [...str(1, 'axes'), ...int(20, 7 /* INTS */), ...int(8, 1), ...int(8, 2)];
  const keepdims = [...str(1, 'keepdims'), ...int(20, 2 /* INT */), ...int(3, 0)];
  const mean = [...str(1, 'input_features'), ...str(2, 'mean'), ...str(4, 'ReduceMean'), ...field(5, axes), ...field(5, keepdims)];
  const sigmoid = [...str(1, 'mean'), ...str(2, 'logits'), ...str(4, 'Sigmoid')];
  const graph = [...field(1, mean), ...field(1, sigmoid), ...str(2, 'tiny-turn'), ...field(11, tensorValue('input_features', [1, 80, 800])), ...field(12, tensorValue('logits', [1]))];
  const model = [...int(1, 7 /* IR version */), ...str(2, 'charlie-test'), ...field(7, graph), ...field(8, [...str(1, ''), ...int(2, 13)])];
  return new Uint8Array(model);
}
