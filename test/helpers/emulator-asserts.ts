/** Small assertions the emulator tests share: a rejected call, a stream gathered into one chunk, the last request. */
import assert from "node:assert/strict";
import type { AIMessageChunk } from "@langchain/core/messages";
import type { RecordedRequest } from "../../src/emulators/index.js";

/** The error a call was rejected with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & { status?: number }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status?: number };
  }
  assert.fail("expected the call to be rejected");
}

/** A model stream concatenated into one chunk. */
export async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk> {
  let acc: AIMessageChunk | undefined;
  for await (const chunk of stream) acc = acc ? acc.concat(chunk) : chunk;
  assert.ok(acc, "the stream produced no chunks");
  return acc;
}

/** The emulator's most recent request record. */
export const last = (emu: { requests: RecordedRequest[] }): RecordedRequest => {
  const r = emu.requests.at(-1);
  assert.ok(r, "no request was recorded");
  return r;
};
