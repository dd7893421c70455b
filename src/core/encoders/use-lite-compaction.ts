/**
 * Lays out the USE-lite model's weights in the WASM memory of TF.js's backend so that the memory stays small. Run
 * once, right after the model loads, by the thread that owns the runtime (the encoder worker).
 *
 * Why: the backend hands the weight of every matrix multiply and 1×1 convolution to XNNPACK, which packs it into an
 * operator of its own the first time the node runs; the backend caches that operator by the weight's tensor id and
 * never reads the weight again. Loaded as is, the model then holds each of those weights twice (19 MiB of its
 * 27 MiB), and the packed copies land above the weights, so the WASM memory, which never shrinks, grows from
 * 30 MiB to 52 MiB on the first text and to 63 MiB on the first long one (measured in a worker).
 *
 * What it does instead:
 * 1. every weight leaves the WASM memory for a moment, which frees one block (the weight file as read from disk
 *    still holds its bytes: nothing is copied on this side);
 * 2. the weights other nodes read (the token table, biases, scales, shapes) go back, at the start of that block;
 * 3. the model embeds two probe texts; each packed weight goes back just before its node first runs and is freed
 *    just after, so the packed copies fill the rest of the block.
 * Measured in a worker: 44 MiB of WASM memory after the probes, still 44 MiB after texts of 800 characters and
 * batches of three 400-character texts, with vectors equal to the bit to those of a model loaded as is.
 *
 * How it stays exact:
 * - a weight goes back byte for byte, and the backend's record of where it lives is remade (the C++ side keeps its
 *   own pointer: it is dropped and registered again, checked first on a small tensor of our own);
 * - a freed weight's bytes are overwritten with NaN, so a node that read one again would give NaN, which callers
 *   reject, instead of stale numbers;
 * - the probes run a second time, with every weight settled, and must give the same vectors to the bit. When they do
 *   not, the result says so and the caller loads a fresh copy, kept whole.
 * Anything not shaped as expected (another backend, another model layout) leaves the model untouched.
 */

/** The TF ops whose weight operand the backend packs (see above), by input index in the graph. */
const PACKED_OPERAND: Readonly<Record<string, number>> = { MatMul: 1, Conv2D: 1 };
/** The backend's kernels for those ops, with the name of the weight input. */
const PACKING_KERNELS: readonly (readonly [kernel: string, input: string])[] = [
  ["Conv2D", "filter"],
  ["FusedConv2D", "filter"],
  ["BatchMatMul", "b"],
  ["_FusedMatMul", "b"],
];
/** Smaller weights are not worth the move: the packed ones of this model are 0.5–3 MiB each. */
const PACKED_MIN_BYTES = 64 * 1024;
/** What the model embeds to create its operators, and embeds again to check them: a short text and a longer one. */
const COMPACTION_PROBES = ["weather in paris", "read a file from the workspace and return its contents with line numbers"];
/** Bytes per element of the dtypes the backend keeps in WASM memory. */
const DTYPE_BYTES: Readonly<Record<string, number>> = { float32: 4, int32: 4, bool: 1 };
/** Written over a freed weight: NaN as float32, −1 as int32. */
const POISON_BYTE = 0xff;

/** A node of the model's graph, as its topology lists it. */
export interface GraphNodeDef {
  op: string;
  input?: string[];
}

/** The outcome of {@link compactPackedWeights}. */
export type CompactionResult =
  /** Laid out; `packedBytes` of weights now live only in their packed operators. */
  | { ok: true; compacted: true; packedBytes: number }
  /** Nothing was touched (`reason` says why). */
  | { ok: true; compacted: false; reason: string }
  /** The check failed: the model must not be used. */
  | { ok: false; reason: string };

/**
 * Names of the weights that every consumer in the graph takes as a packed operand ({@link PACKED_OPERAND}). A weight
 * any other node reads (a lookup table, a bias, a scale) is not among them.
 */
export function packedOnlyWeights(nodes: readonly GraphNodeDef[], weightNames: Iterable<string>): Set<string> {
  const packed = new Set<string>();
  const elsewhere = new Set<string>();
  for (const node of nodes)
    (node.input ?? []).forEach((input, i) => {
      const name = input.replace(/^\^/, "").replace(/:\d+$/, "");
      (PACKED_OPERAND[node.op] === i ? packed : elsewhere).add(name);
    });
  return new Set([...weightNames].filter((w) => packed.has(w) && !elsewhere.has(w)));
}

// The parts of TF.js used here. Its own types come from @tensorflow/tfjs-core, which is not installed.
interface TensorView {
  dataId: object;
  size: number;
  dtype: string;
}
interface TensorRecord {
  id: number;
  memoryOffset: number | null;
}
interface WasmModuleView {
  _free(ptr: number): void;
  _malloc(bytes: number): number;
  HEAPU8: Uint8Array;
  tfjs: { disposeData(id: number): void; registerTensor(id: number, size: number, offset: number): void };
}
interface WasmBackendView {
  dataIdMap: { get(dataId: object): TensorRecord | undefined };
  wasm: WasmModuleView;
}
interface KernelConfig {
  kernelFunc: (args: { inputs: Record<string, TensorView | undefined> }) => unknown;
}
interface TfCoreView {
  backend(): unknown;
  getKernel(name: string, backend: string): KernelConfig | undefined;
  tensor(values: number[]): TensorView & { dispose(): void };
  add(a: TensorView, b: TensorView): TensorView & { dataSync(): ArrayLike<number>; dispose(): void };
  scalar(value: number): TensorView & { dispose(): void };
}
interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: unknown;
}
interface GraphModelView {
  weights: Record<string, TensorView[]>;
  artifacts?: { modelTopology?: { node?: GraphNodeDef[] }; weightSpecs?: WeightSpec[]; weightData?: unknown };
}

function isWasmBackend(b: unknown): b is WasmBackendView {
  const v = b as Partial<WasmBackendView> | undefined;
  const wasm = v?.wasm;
  return (
    typeof v?.dataIdMap?.get === "function" &&
    typeof wasm?._free === "function" &&
    typeof wasm._malloc === "function" &&
    typeof wasm.tfjs?.disposeData === "function" &&
    typeof wasm.tfjs.registerTensor === "function"
  );
}

/** A tensor's record in the backend, and its bytes in the weight file. */
interface Placed {
  record: TensorRecord;
  size: number;
  bytes: Uint8Array;
}

/**
 * Each weight's bytes in the weight file, by name: the file is the weights in `specs` order, unquantized ones as
 * their raw little-endian bytes. Undefined when a weight is quantized, of an unknown dtype, or past the file's end.
 */
export function weightFileViews(specs: readonly WeightSpec[], data: ArrayBuffer): Map<string, Uint8Array> | undefined {
  const views = new Map<string, Uint8Array>();
  let at = 0;
  for (const spec of specs) {
    const per = DTYPE_BYTES[spec.dtype];
    if (per === undefined || spec.quantization !== undefined) return undefined;
    const bytes = spec.shape.reduce((n, d) => n * d, 1) * per;
    if (at + bytes > data.byteLength) return undefined;
    views.set(spec.name, new Uint8Array(data, at, bytes));
    at += bytes;
  }
  return views;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // Word by word when both are aligned (every weight of this model is): a quarter of the steps.
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.length % 4 === 0) {
    const x = new Int32Array(a.buffer, a.byteOffset, a.length / 4);
    const y = new Int32Array(b.buffer, b.byteOffset, b.length / 4);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Moves a tensor's bytes to a fresh allocation and tells both sides of the backend where they now are. */
function place(wasm: WasmModuleView, t: Placed): void {
  const at = wasm._malloc(t.bytes.length) >>> 0;
  // HEAPU8 is a new view after every memory growth: read it after the allocation.
  wasm.HEAPU8.set(t.bytes, at);
  wasm.tfjs.disposeData(t.record.id);
  wasm.tfjs.registerTensor(t.record.id, t.size, at);
  t.record.memoryOffset = at;
}

/** Overwrites a tensor's bytes with NaN and frees them; its record then points at a 4-byte block of its own. */
function evict(wasm: WasmModuleView, record: TensorRecord, bytes: number): void {
  const at = record.memoryOffset as number;
  wasm.HEAPU8.fill(POISON_BYTE, at, at + bytes);
  wasm._free(at);
  // A later dispose of the tensor frees this block, not the weight's a second time.
  record.memoryOffset = wasm._malloc(4) >>> 0;
}

/** Whether re-registering a tensor makes the backend's kernels read it at its new place (checked on a tensor of ours). */
function relocationWorks(tf: TfCoreView, backend: WasmBackendView): boolean {
  const values = [1.5, -2.25, 3.125, 1e-3];
  const t = tf.tensor(values);
  const zero = tf.scalar(0);
  try {
    const record = backend.dataIdMap.get(t.dataId);
    if (!record || record.memoryOffset === null) return false;
    const moved: Placed = { record, size: t.size, bytes: backend.wasm.HEAPU8.slice(record.memoryOffset, record.memoryOffset + 16) };
    backend.wasm.HEAPU8.fill(POISON_BYTE, record.memoryOffset, record.memoryOffset + 16);
    const old = record.memoryOffset;
    place(backend.wasm, moved);
    backend.wasm._free(old);
    const sum = tf.add(t, zero);
    const out = Array.from(sum.dataSync());
    sum.dispose();
    return out.length === values.length && out.every((x, i) => Object.is(x, Math.fround(values[i]!)));
  } finally {
    t.dispose();
    zero.dispose();
  }
}

function sameVectors(a: readonly number[][], b: readonly number[][]): boolean {
  return a.length === b.length && a.every((row, r) => row.length === b[r]!.length && row.every((x, d) => Number.isFinite(x) && Object.is(x, b[r]![d])));
}

/**
 * Lays out `model`'s weights as the module comment says. `tf` is the `@energetic-ai/core` module (TF.js) that runs
 * the model; `model` is `@energetic-ai/embeddings`' `EmbeddingsModel`, with its weight file still loaded (release it
 * after this).
 */
export async function compactPackedWeights(
  model: { embed(input: string[]): Promise<number[][]> },
  tf: unknown,
): Promise<CompactionResult> {
  const core = tf as Partial<TfCoreView>;
  const graph = (model as { model?: Partial<GraphModelView> }).model;
  const nodes = graph?.artifacts?.modelTopology?.node;
  const specs = graph?.artifacts?.weightSpecs;
  const data = graph?.artifacts?.weightData;
  if (!graph?.weights || !Array.isArray(nodes) || !Array.isArray(specs)) return { ok: true, compacted: false, reason: "not a graph model" };
  const file = data instanceof ArrayBuffer ? weightFileViews(specs, data) : undefined;
  if (!file) return { ok: true, compacted: false, reason: "no weight file of raw weights" };
  if (typeof core.backend !== "function" || typeof core.getKernel !== "function") return { ok: true, compacted: false, reason: "not TF.js" };
  const backend = core.backend();
  if (!isWasmBackend(backend)) return { ok: true, compacted: false, reason: "not the WASM backend" };
  const kernels = PACKING_KERNELS.flatMap(([name, input]) => {
    const k = core.getKernel!(name, "wasm");
    return k && typeof k.kernelFunc === "function" ? [{ k, input, run: k.kernelFunc }] : [];
  });
  if (kernels.length === 0) return { ok: true, compacted: false, reason: "no packing kernels" };
  if (!relocationWorks(core as TfCoreView, backend)) return { ok: true, compacted: false, reason: "tensors cannot be moved" };

  // 1. Every weight out. Each must be in WASM memory exactly as in the weight file, which gives it back.
  const packedNames = packedOnlyWeights(nodes, Object.keys(graph.weights));
  const held = new Map<object, Placed>();
  const others: Placed[] = [];
  const wasm = backend.wasm;
  const all: { dataId: object; placed: Placed; packed: boolean }[] = [];
  for (const [name, tensors] of Object.entries(graph.weights)) {
    const t = tensors.length === 1 ? tensors[0]! : undefined;
    const record = t && backend.dataIdMap.get(t.dataId);
    const bytes = file.get(name);
    const at = record?.memoryOffset;
    if (!t || !record || at === null || at === undefined || !bytes || !sameBytes(wasm.HEAPU8.subarray(at, at + bytes.length), bytes))
      return { ok: true, compacted: false, reason: `weight "${name}" is not in WASM memory as in the weight file` };
    all.push({ dataId: t.dataId, placed: { record, size: t.size, bytes }, packed: packedNames.has(name) && bytes.length >= PACKED_MIN_BYTES });
  }
  for (const { dataId, placed, packed } of all) {
    const at = placed.record.memoryOffset as number;
    if (packed) held.set(dataId, placed);
    else others.push(placed);
    wasm.HEAPU8.fill(POISON_BYTE, at, at + placed.bytes.length);
    wasm._free(at);
    placed.record.memoryOffset = null;
  }
  // 2. The weights other nodes read go back first, largest first: they take the start of the freed block.
  others.sort((a, b) => b.bytes.length - a.bytes.length);
  for (const t of others) place(wasm, t);
  for (const t of held.values()) t.record.memoryOffset = wasm._malloc(4) >>> 0;

  // 3. Each packed weight goes back just before its node first runs, and leaves just after.
  const packedBytes = [...held.values()].reduce((n, t) => n + t.bytes.length, 0);
  for (const { k, input, run } of kernels)
    k.kernelFunc = (args) => {
      const w = args.inputs[input];
      const t = w && held.get(w.dataId);
      if (!t) return run(args);
      held.delete(w.dataId);
      wasm._free(t.record.memoryOffset as number);
      place(wasm, t);
      try {
        return run(args);
      } finally {
        evict(wasm, t.record, t.bytes.length);
      }
    };
  let first: number[][];
  try {
    first = await model.embed(COMPACTION_PROBES);
  } catch (err) {
    return { ok: false, reason: `the probes failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    for (const { k, run } of kernels) k.kernelFunc = run;
    // A weight whose node did not run through those kernels goes back for good.
    for (const t of held.values()) {
      wasm._free(t.record.memoryOffset as number);
      place(wasm, t);
    }
  }
  if (held.size > 0) return { ok: false, reason: `${held.size} packed weights were not read by a packing kernel` };
  let again: number[][];
  try {
    again = await model.embed(COMPACTION_PROBES);
  } catch (err) {
    return { ok: false, reason: `the probes failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!sameVectors(first, again)) return { ok: false, reason: "the probes' vectors changed once the weights were freed" };
  return { ok: true, compacted: true, packedBytes };
}
