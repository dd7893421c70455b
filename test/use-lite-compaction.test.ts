/**
 * The encoder worker's weight layout (use-lite-compaction.ts): with the real model in worker threads, the same
 * vectors to the bit in less WASM memory; with a small stand-in runtime, the checks that keep it exact (a weight read
 * again after it was freed is caught, a weight file that does not match the memory leaves everything untouched).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { compactPackedWeights, packedOnlyWeights, weightFileViews, type CompactionResult } from "../src/core/encoders/use-lite-compaction.js";
import { freeArrayBufferNow, releaseWeightFile } from "../src/core/encoders/use-lite-model.js";
import { prepareUseLiteText } from "../src/core/encoders/use-lite.js";
import { startModuleWorker } from "../src/core/util/module-worker.js";

interface WorkerReport {
  vectors: number[][];
  compaction?: CompactionResult;
  wasmBytes: number;
}

function runWorker(compact: boolean, calls: string[][]): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const w = startModuleWorker(import.meta.url, "fixtures/use-lite-compaction-worker", "compaction test", { workerData: { compact, calls } });
    w.once("message", (m: WorkerReport) => void w.terminate().then(() => resolve(m)));
    w.once("error", reject);
  });
}

const WORDS = ["reads", "a", "file", "from", "the", "workspace", "and", "returns", "its", "contents", "send", "email", "to", "bob", "query", "database"];
const text = (n: number, shift: number) => prepareUseLiteText(Array.from({ length: n }, (_, i) => WORDS[(i + shift) % WORDS.length]).join(" "));
/** One call per entry: short and long single texts, a batch of three long ones, a batch of eight, one letter, and 800 characters. */
const CALLS: string[][] = [
  ["weather in paris"],
  [text(60, 1)],
  [text(70, 2), text(75, 3), text(80, 4)],
  Array.from({ length: 8 }, (_, i) => text(20 + i, i)),
  ["a"],
  [text(140, 5).slice(0, 800)],
];

describe("compactPackedWeights with the real model, in worker threads", () => {
  it("gives the same vectors to the bit as the model loaded as is, in less WASM memory", async () => {
    const [plain, compact] = await Promise.all([runWorker(false, CALLS), runWorker(true, CALLS)]);
    assert.equal(plain.compaction, undefined);
    assert.deepEqual(compact.compaction && { ok: compact.compaction.ok, compacted: "compacted" in compact.compaction && compact.compaction.compacted }, { ok: true, compacted: true });
    const packed = (compact.compaction as { packedBytes: number }).packedBytes;
    assert.ok(packed > 15 * 2 ** 20 && packed < 27 * 2 ** 20, `packed weights ${packed} bytes`);
    assert.equal(compact.vectors.length, plain.vectors.length);
    compact.vectors.forEach((row, r) => assert.deepEqual(row, plain.vectors[r], `vector ${r} differs`));
    const mib = (b: number) => b / 2 ** 20;
    assert.ok(mib(plain.wasmBytes) - mib(compact.wasmBytes) >= 8, `WASM memory ${mib(compact.wasmBytes)} MiB compacted, ${mib(plain.wasmBytes)} MiB as loaded`);
  });
});

describe("packedOnlyWeights / weightFileViews", () => {
  it("keeps only weights every consumer takes as the packed operand", () => {
    const nodes = [
      { op: "MatMul", input: ["x", "w1"] },
      { op: "Conv2D", input: ["y", "w2:0"] },
      { op: "MatMul", input: ["w3", "x"] }, // w3 is the left operand: read on every run
      { op: "MatMul", input: ["x", "w4"] },
      { op: "Add", input: ["w4", "x"] }, // w4 also read by an Add
      { op: "GatherV2", input: ["table", "ids"] },
    ];
    assert.deepEqual([...packedOnlyWeights(nodes, ["w1", "w2", "w3", "w4", "table", "unused"])].sort(), ["w1", "w2"]);
  });

  it("finds each weight's bytes in the file in spec order, and refuses what it cannot read as raw bytes", () => {
    const data = new ArrayBuffer(4 * 6 + 2);
    const views = weightFileViews(
      [
        { name: "a", shape: [2, 2], dtype: "float32" },
        { name: "b", shape: [2], dtype: "int32" },
        { name: "c", shape: [2], dtype: "bool" },
      ],
      data,
    )!;
    assert.deepEqual([...views].map(([n, v]) => [n, v.byteOffset, v.length]), [["a", 0, 16], ["b", 16, 8], ["c", 24, 2]]);
    assert.equal(weightFileViews([{ name: "q", shape: [2], dtype: "float32", quantization: { dtype: "uint8" } }], data), undefined);
    assert.equal(weightFileViews([{ name: "s", shape: [1], dtype: "string" }], data), undefined);
    assert.equal(weightFileViews([{ name: "big", shape: [100], dtype: "float32" }], data), undefined);
  });
});

describe("releaseWeightFile / freeArrayBufferNow", () => {
  it("detaches the weight file at once", () => {
    const weightData = new ArrayBuffer(1024);
    const model = { model: { artifacts: { weightData } } };
    assert.equal(releaseWeightFile(model), true);
    assert.equal(model.model.artifacts.weightData, undefined);
    assert.equal(weightData.byteLength, 0, "the bytes were handed over, not left to the garbage collector");
    freeArrayBufferNow(new ArrayBuffer(0));
  });
});

// A small stand-in for TF.js's WASM backend: a heap, a malloc that never reuses, a C++ side that keeps the first
// registration of an id (as the real one's emplace does), and a matrix-multiply kernel that packs its weight once
// (or, with `packs: false`, reads it on every run).
function standIn(opts: { packs: boolean; corruptFile?: boolean }) {
  const HEAPU8 = new Uint8Array(1 << 20);
  let top = 64;
  const native = new Map<number, { offset: number; size: number }>();
  const wasm = {
    HEAPU8,
    _malloc: (n: number) => ((top += (n + 7) & ~7), top - ((n + 7) & ~7)),
    _free: () => undefined,
    tfjs: {
      disposeData: (id: number) => void native.delete(id),
      registerTensor: (id: number, size: number, offset: number) => void (native.has(id) || native.set(id, { offset, size })),
    },
  };
  const dataIdMap = new Map<object, { id: number; memoryOffset: number | null }>();
  let nextId = 1;
  const make = (values: Float32Array, dtype = "float32") => {
    const dataId = {};
    const at = wasm._malloc(values.byteLength);
    HEAPU8.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), at);
    const id = nextId++;
    dataIdMap.set(dataId, { id, memoryOffset: at });
    wasm.tfjs.registerTensor(id, values.length, at);
    return { dataId, size: values.length, dtype, dispose: () => void dataIdMap.delete(dataId), dataSync: () => read(dataId) };
  };
  const read = (dataId: object) => {
    const { offset, size } = native.get(dataIdMap.get(dataId)!.id)!;
    return new Float32Array(HEAPU8.slice(offset, offset + size * 4).buffer);
  };
  const sum = (a: Float32Array) => a.reduce((s, x) => s + x, 0);
  const w = Float32Array.from({ length: 20_000 }, (_, i) => (i % 13) / 7);
  const table = Float32Array.from([0.5, 1.5, 2.5]);
  const file = new Uint8Array(w.byteLength + table.byteLength);
  file.set(new Uint8Array(w.buffer), 0);
  file.set(new Uint8Array(table.buffer), w.byteLength);
  if (opts.corruptFile) file[5] ^= 1;
  const wT = make(w);
  const tableT = make(table);
  const packed = new Map<number, number>();
  const kernel = {
    kernelFunc: ({ inputs }: { inputs: Record<string, { dataId: object } | undefined> }) => {
      const id = dataIdMap.get(inputs.b!.dataId)!.id;
      if (!opts.packs) return sum(read(inputs.b!.dataId));
      if (!packed.has(id)) packed.set(id, sum(read(inputs.b!.dataId)));
      return packed.get(id)!;
    },
  };
  const tf = {
    backend: () => ({ dataIdMap, wasm }),
    getKernel: (name: string) => (name === "BatchMatMul" ? kernel : undefined),
    tensor: (values: number[]) => make(Float32Array.from(values)),
    scalar: (v: number) => make(Float32Array.of(v)),
    add: (a: { dataId: object }, b: { dataId: object }) => {
      const x = read(a.dataId);
      const y = read(b.dataId)[0]!;
      return make(x.map((v) => v + y));
    },
  };
  const model = {
    model: {
      weights: { w: [wT], table: [tableT] },
      artifacts: {
        modelTopology: { node: [{ op: "MatMul", input: ["x", "w"] }, { op: "GatherV2", input: ["table", "ids"] }] },
        weightSpecs: [
          { name: "w", shape: [w.length], dtype: "float32" },
          { name: "table", shape: [table.length], dtype: "float32" },
        ],
        weightData: file.buffer,
      },
    },
    embed: async (texts: string[]) => texts.map((t) => [kernel.kernelFunc({ inputs: { b: wT } }) + t.length, sum(read(tableT.dataId))]),
  };
  return { tf, model, native, dataIdMap, wT, HEAPU8, expected: (t: string) => [sum(w) + t.length, sum(table)] };
}

describe("compactPackedWeights' checks (stand-in runtime)", () => {
  it("lays out a packed weight and keeps every vector", async () => {
    const s = standIn({ packs: true });
    const before = s.native.get(s.dataIdMap.get(s.wT.dataId)!.id)!.offset;
    const result = await compactPackedWeights(s.model, s.tf);
    assert.deepEqual(result, { ok: true, compacted: true, packedBytes: 80_000 });
    assert.deepEqual(await s.model.embed(["abc"]), [s.expected("abc")]);
    assert.ok(s.HEAPU8.subarray(before, before + 80_000).every((b) => b === 0xff), "the freed weight's bytes are overwritten");
  });

  it("catches a kernel that reads its weight again after the weight was freed", async () => {
    const s = standIn({ packs: false });
    const result = await compactPackedWeights(s.model, s.tf);
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /vectors changed/);
  });

  it("touches nothing when the memory does not hold the weight file's bytes", async () => {
    const s = standIn({ packs: true, corruptFile: true });
    const offsets = [...s.native.values()].map((n) => n.offset);
    const result = await compactPackedWeights(s.model, s.tf);
    assert.deepEqual(result, { ok: true, compacted: false, reason: 'weight "w" is not in WASM memory as in the weight file' });
    assert.deepEqual([...s.native.values()].map((n) => n.offset).slice(0, 2), offsets.slice(0, 2));
    assert.deepEqual(await s.model.embed(["abc"]), [s.expected("abc")]);
  });

  it("touches nothing on another backend", async () => {
    const s = standIn({ packs: true });
    const result = await compactPackedWeights(s.model, { ...s.tf, backend: () => ({ dataIdMap: new Map() }) });
    assert.deepEqual(result, { ok: true, compacted: false, reason: "not the WASM backend" });
  });
});
