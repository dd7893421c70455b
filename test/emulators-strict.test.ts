/**
 * The Anthropic emulator is as strict as the documented Messages API: every request the real API refuses in these
 * areas is answered 400 `invalid_request_error` (and recorded with its error), and its valid counterpart is answered.
 * Requests come from the real `ChatAnthropic` client wherever it can produce the shape; raw `fetch` is used where
 * @langchain/anthropic 1.5.11 cannot (a system message first, tool_reference inside a tool result, which it drops,
 * blocks it does not pass through).
 */
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { startAnthropicEmulator, type AnthropicEmulator, type RecordedRequest } from "../src/emulators/index.js";
import { anthropicRequestProblem } from "../src/emulators/anthropic-rules.js";
import { rejection } from "./helpers/emulator-asserts.js";

/** No mid-conversation system messages or tool changes. */
const OLDER = ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-7"];
/** System messages yes, tool changes no. */
const SYSTEM_ONLY = "claude-sonnet-5";
/** Both. */
const BOTH = ["claude-opus-4-8", "claude-opus-5", "claude-fable-5-1"];
const TOOLS_BETA = "mid-conversation-tool-changes-2026-07-01";
const INLINE_BETA = "inline-tools-2026-09-15";
const EPHEMERAL = { type: "ephemeral" } as const;
const HOUR = { type: "ephemeral", ttl: "1h" } as const;
const TTL_ORDER =
  "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.";

type Json = Record<string, unknown>;

/** A raw Anthropic tool definition (passed through unchanged by ChatAnthropic's bindTools). */
const rawTool = (name: string, extra: Json = {}) => ({
  name,
  description: `The ${name.replace(/_/g, " ")} tool`,
  input_schema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  ...extra,
});
const SEARCH = rawTool("search_docs");
const EXPORT = rawTool("export_pdf", { defer_loading: true });
const TOOLS = [SEARCH, EXPORT];

const change = (type: "tool_addition" | "tool_removal", name: string) =>
  new SystemMessage({ content: [{ type, tool: { type: "tool_reference", name } }] as never });
const cachedText = (text: string, cache_control: object = EPHEMERAL) => [{ type: "text", text, cache_control }];
const cachedSystem = (text: string, cache_control?: object) => new SystemMessage({ content: cachedText(text, cache_control) as never });
const cachedHuman = (text: string, cache_control?: object) => new HumanMessage({ content: cachedText(text, cache_control) as never });
const toolCall = (id: string) => new AIMessage({ content: "", tool_calls: [{ id, name: "search_docs", args: { query: "topic 4" } }] });


describe("strict Anthropic emulator", () => {
  let emu: AnthropicEmulator;
  before(async () => {
    emu = await startAnthropicEmulator();
  });
  after(async () => {
    await emu.close();
  });
  beforeEach(() => emu.reset());

  const chat = (model: string, betas?: string[]) =>
    new ChatAnthropic({ model, apiKey: "test", anthropicApiUrl: emu.url, maxRetries: 0, ...(betas ? { betas: betas as never } : {}) });

  const last = (): RecordedRequest => {
    const r = emu.requests.at(-1);
    assert.ok(r, "no request was recorded");
    return r;
  };

  /** The client call fails with the 400 and the emulator recorded exactly this refusal, unbilled. */
  async function refused(call: Promise<unknown>, message: string): Promise<RecordedRequest> {
    const err = await rejection(call);
    assert.equal(err.status, 400, err.message);
    const r = last();
    assert.deepEqual(r.error, { status: 400, type: "invalid_request_error", message });
    assert.ok(err.message.includes(message), `client error ${JSON.stringify(err.message)} carries the API message`);
    assert.equal(r.usage.total, 0);
    return r;
  }

  async function accepted(call: Promise<unknown>): Promise<RecordedRequest> {
    await call;
    const r = last();
    assert.equal(r.error, undefined, JSON.stringify(r.error));
    return r;
  }

  const post = (body: Json, betas: string[] = []) =>
    fetch(`${emu.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "test", ...(betas.length ? { "anthropic-beta": betas.join(",") } : {}) },
      body: JSON.stringify({ max_tokens: 64, ...body }),
    });

  async function postRefused(body: Json, message: string, betas?: string[]): Promise<void> {
    const res = await post(body, betas);
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { type: "error", error: { type: "invalid_request_error", message } });
    assert.deepEqual(last().error, { status: 400, type: "invalid_request_error", message });
  }

  async function postAccepted(body: Json, betas?: string[]): Promise<RecordedRequest> {
    const res = await post(body, betas);
    const json = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(json));
    assert.equal(json.type, "message");
    return last();
  }

  describe("1. role 'system' in messages depends on the model", () => {
    const messages = () => [new HumanMessage("Hi"), new SystemMessage("Answer in French.")];

    test("refused on models without mid-conversation system messages", async () => {
      for (const model of OLDER) {
        const r = await refused(chat(model).invoke(messages()), "messages.1.role: role 'system' is not supported on this model");
        // ChatAnthropic 1.5.11 sends a SystemMessage after the first message in place, as role "system".
        assert.deepEqual((r.body.messages as Json[])[1], { role: "system", content: "Answer in French." });
      }
    });

    test("accepted on models with them; a leading system message is hoisted and accepted everywhere", async () => {
      for (const model of [SYSTEM_ONLY, ...BOTH]) await accepted(chat(model).invoke(messages()));
      for (const model of OLDER) {
        const r = await accepted(chat(model).invoke([new SystemMessage("Answer in French."), new HumanMessage("Hi")]));
        assert.equal(r.body.system, "Answer in French.");
      }
    });
  });

  describe("2. where a system message may sit", () => {
    const model = () => chat(SYSTEM_ONLY);

    test("not as messages[0] (raw: ChatAnthropic hoists a leading one); the top-level system field or an effort-only message is fine", async () => {
      await postRefused(
        { model: SYSTEM_ONLY, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }] },
        "messages.0: a system message cannot be the first message; use the top-level system parameter instead",
      );
      await postAccepted({ model: SYSTEM_ONLY, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
      // A message with empty content that only sets output_config.effort renders nothing and may sit anywhere.
      await postAccepted({ model: "claude-opus-5", messages: [{ role: "system", content: [], output_config: { effort: "low" } }, { role: "user", content: "Hi" }] });
    });

    test("must immediately follow a user turn, not an assistant turn", async () => {
      await refused(
        model().invoke([new HumanMessage("Hi"), new AIMessage("Hello."), new SystemMessage("Be brief."), new HumanMessage("Go on.")]),
        "messages.2: a system message must immediately follow a user turn (or an assistant turn ending in a server tool result)",
      );
      await accepted(model().invoke([new HumanMessage("Hi"), new AIMessage("Hello."), new HumanMessage("Go on."), new SystemMessage("Be brief.")]));
    });

    test("must be followed by an assistant turn or end the array", async () => {
      await refused(
        model().invoke([new HumanMessage("Hi"), new SystemMessage("Be brief."), new HumanMessage("Go on.")]),
        "messages.1: a system message must be followed by an assistant turn or end the messages array",
      );
      await accepted(model().invoke([new HumanMessage("Hi"), new SystemMessage("Be brief."), new AIMessage("Hello."), new HumanMessage("Go on.")]));
    });

    test("never between an assistant tool_use and the tool_result; right after the tool results is fine", async () => {
      const bound = model().bindTools([SEARCH] as never);
      await refused(
        bound.invoke([new HumanMessage("Find topic 4."), toolCall("toolu_1"), new SystemMessage("Be brief."), new ToolMessage({ tool_call_id: "toolu_1", content: "Topic 4 is on page 12." })]),
        "messages.2: a system message cannot sit between a tool_use block and its tool_result",
      );
      const r = await accepted(
        bound.invoke([new HumanMessage("Find topic 4."), toolCall("toolu_1"), new ToolMessage({ tool_call_id: "toolu_1", content: "Topic 4 is on page 12." }), new SystemMessage("The user also asked for a summary.")]),
      );
      assert.deepEqual((r.body.messages as Json[]).map((m) => m.role), ["user", "assistant", "user", "system"]);
    });

    test("consecutive system messages are judged together as one section", async () => {
      await refused(
        model().invoke([new HumanMessage("Hi"), new SystemMessage("Be brief."), new SystemMessage("Answer in French."), new HumanMessage("Go on.")]),
        "messages.2: a system message must be followed by an assistant turn or end the messages array",
      );
      await accepted(
        model().invoke([new HumanMessage("Hi"), new SystemMessage("Be brief."), new SystemMessage("Answer in French."), new AIMessage("Bonjour."), new HumanMessage("Go on.")]),
      );
    });

    test("after a paused assistant turn (ending in a server tool result) text is accepted, tool changes are not (raw)", async () => {
      const paused = {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "srvtoolu_1", name: "tool_search_tool_regex", input: { query: "export" } },
          { type: "tool_search_tool_result", tool_use_id: "srvtoolu_1", content: { type: "tool_search_tool_search_result", tool_references: [] } },
        ],
      };
      const body = (system: Json) => ({
        model: "claude-opus-5",
        tools: [{ type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" }, EXPORT],
        messages: [{ role: "user", content: "Export topic 4." }, paused, system],
      });
      await postRefused(
        body({ role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } }] }),
        "messages.2.content.0: tool_addition is not accepted right after a paused assistant turn (one ending in a server tool result); resume the turn first",
        [TOOLS_BETA],
      );
      await postAccepted(body({ role: "system", content: "The user is in a hurry." }), [TOOLS_BETA]);
    });
  });

  describe("3. tool_addition / tool_removal", () => {
    const ask = new HumanMessage("Export topic 4 as PDF.");

    test("accepted in a system message on models with mid-conversation tools, with the beta header", async () => {
      for (const model of BOTH) {
        const r = await accepted(chat(model, [TOOLS_BETA]).bindTools(TOOLS as never).invoke([ask, change("tool_addition", "export_pdf")]));
        assert.deepEqual(r.added, ["export_pdf"]);
        assert.ok(r.headers["anthropic-beta"]?.includes(TOOLS_BETA), r.headers["anthropic-beta"]);
      }
      // inline-tools-2026-09-15 also covers changes by reference; a removal may name a non-deferred tool.
      await accepted(chat("claude-opus-5", [INLINE_BETA]).bindTools(TOOLS as never).invoke([ask, change("tool_removal", "search_docs")]));
    });

    test("refused on a model with system messages but no tool changes", async () => {
      await refused(
        chat(SYSTEM_ONLY, [TOOLS_BETA]).bindTools(TOOLS as never).invoke([ask, change("tool_addition", "export_pdf")]),
        "messages.1.content.0: tool_addition is not supported on this model (no mid-conversation tool changes)",
      );
      // On older models the system message itself is refused first.
      await refused(
        chat("claude-sonnet-4-5", [TOOLS_BETA]).bindTools(TOOLS as never).invoke([ask, change("tool_addition", "export_pdf")]),
        "messages.1.role: role 'system' is not supported on this model",
      );
    });

    test("refused without the beta header (another beta does not count)", async () => {
      for (const betas of [undefined, ["context-1m-2025-08-07"]]) {
        await refused(
          chat("claude-opus-4-8", betas).bindTools(TOOLS as never).invoke([ask, change("tool_addition", "export_pdf")]),
          `messages.1.content.0: tool_addition requires the anthropic-beta header '${TOOLS_BETA}'`,
        );
        await refused(
          chat("claude-opus-4-8", betas).bindTools(TOOLS as never).invoke([ask, change("tool_removal", "search_docs")]),
          `messages.1.content.0: tool_removal requires the anthropic-beta header '${TOOLS_BETA}'`,
        );
      }
    });

    test("refused outside a system message (raw)", async () => {
      const addition = { type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } };
      await postRefused(
        { model: "claude-opus-5", tools: TOOLS, messages: [{ role: "user", content: [{ type: "text", text: "Export topic 4." }, addition] }] },
        "messages.0.content.1: tool_addition blocks are only accepted in role 'system' messages",
        [TOOLS_BETA],
      );
      await postAccepted(
        { model: "claude-opus-5", tools: TOOLS, messages: [{ role: "user", content: "Export topic 4." }, { role: "system", content: [addition] }] },
        [TOOLS_BETA],
      );
    });

    test("the reference must resolve: declared, and deferred for an addition", async () => {
      const model = chat("claude-opus-5", [TOOLS_BETA]).bindTools(TOOLS as never);
      await refused(
        model.invoke([ask, change("tool_addition", "send_fax")]),
        "messages.1.content.0.tool: Tool reference 'send_fax' has no corresponding tool definition (tool_reference_unresolved)",
      );
      await refused(
        model.invoke([ask, change("tool_removal", "send_fax")]),
        "messages.1.content.0.tool: Tool reference 'send_fax' has no corresponding tool definition (tool_reference_unresolved)",
      );
      await refused(
        model.invoke([ask, change("tool_addition", "search_docs")]),
        "messages.1.content.0.tool: Tool reference 'search_docs' has no corresponding tool definition with defer_loading: true",
      );
      await accepted(model.invoke([ask, change("tool_addition", "export_pdf")]));
    });
  });

  describe("4. deferred tools", () => {
    test("every tool deferred is refused with the API's message; one non-deferred tool is enough", async () => {
      await refused(
        chat("claude-opus-5").bindTools([EXPORT, rawTool("send_fax", { defer_loading: true })] as never).invoke("Hi"),
        "All tools have defer_loading set. At least one tool must be non-deferred.",
      );
      const r = await accepted(chat("claude-opus-5").bindTools(TOOLS as never).invoke("Hi"));
      assert.deepEqual([r.loaded, r.deferred], [["search_docs"], ["export_pdf"]]);
    });

    test("a deferred tool can't carry cache_control; a loaded one can", async () => {
      await refused(
        chat("claude-sonnet-4-5").bindTools([SEARCH, { ...EXPORT, cache_control: EPHEMERAL }] as never).invoke("Hi"),
        "tools.1.cache_control: a deferred tool (defer_loading: true) can't carry cache_control",
      );
      await accepted(chat("claude-sonnet-4-5").bindTools([EXPORT, { ...SEARCH, cache_control: EPHEMERAL }] as never).invoke("Hi"));
    });
  });

  describe("5. tool_reference in a tool_result (raw: @langchain/anthropic 1.5.11 drops it from a ToolMessage)", () => {
    const body = (name: string) => ({
      model: "claude-haiku-4-5",
      tools: [rawTool("search_tools"), EXPORT],
      messages: [
        { role: "user", content: "Export topic 4." },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "search_tools", input: { query: "export pdf" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "tool_reference", tool_name: name }] }] },
      ],
    });

    test("must name a declared tool", async () => {
      await postRefused(body("send_fax"), "messages.2.content.0.content.0: Tool reference 'send_fax' has no corresponding tool definition (tool_reference_unresolved)");
    });

    test("must name a deferred tool", async () => {
      await postRefused(body("search_tools"), "messages.2.content.0.content.0: Tool reference 'search_tools' has no corresponding tool definition with defer_loading: true");
    });

    test("a deferred tool is loaded where the result references it (no beta, any model)", async () => {
      const r = await postAccepted(body("export_pdf"));
      assert.deepEqual(r.added, ["export_pdf"]);
    });
  });

  describe("6. cache breakpoints", () => {
    const turns = (n: number, last: BaseMessage = new HumanMessage("And now?")) => [
      cachedSystem("You are terse."),
      ...Array.from({ length: n }, (_, i) => [cachedHuman(`Question ${i + 1}?`), new AIMessage(`Answer ${i + 1}.`)]).flat(),
      last,
    ];

    test("at most 4 explicit breakpoints", async () => {
      await refused(chat("claude-sonnet-4-5").invoke(turns(4)), "A maximum of 4 blocks with cache_control may be provided. Found 5.");
      await accepted(chat("claude-sonnet-4-5").invoke(turns(3)));
    });

    test("a top-level cache_control takes one of the 4 slots", async () => {
      const err = await refused(
        chat("claude-sonnet-4-5").invoke(turns(3), { cache_control: EPHEMERAL }),
        "A maximum of 4 blocks with cache_control may be provided. Found 5.",
      );
      assert.deepEqual(err.body.cache_control, EPHEMERAL, "ChatAnthropic sends the call option at the top level");
      await accepted(chat("claude-sonnet-4-5").invoke(turns(2), { cache_control: EPHEMERAL }));
    });

    test("ttl must be '5m' or '1h'; type must be 'ephemeral' (raw)", async () => {
      await refused(
        chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse.", { type: "ephemeral", ttl: "10m" }), new HumanMessage("Hi")]),
        "system.0.cache_control.ttl: Input should be '5m' or '1h'",
      );
      await accepted(chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse.", HOUR), new HumanMessage("Hi")]));
      await postRefused(
        { model: "claude-sonnet-4-5", system: [{ type: "text", text: "You are terse.", cache_control: { type: "persistent" } }], messages: [{ role: "user", content: "Hi" }] },
        "system.0.cache_control.type: Input should be 'ephemeral'",
      );
    });

    test("a 1h breakpoint must not come after a 5m one, in the order tools → system → messages", async () => {
      await refused(
        chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse."), cachedHuman("Hi", HOUR)]),
        `messages.0.content.0.cache_control.ttl: ${TTL_ORDER}`,
      );
      await accepted(chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse.", HOUR), cachedHuman("Hi")]));
      // Tools come before system.
      await refused(
        chat("claude-sonnet-4-5").bindTools([{ ...SEARCH, cache_control: EPHEMERAL }] as never).invoke([cachedSystem("You are terse.", HOUR), new HumanMessage("Hi")]),
        `system.0.cache_control.ttl: ${TTL_ORDER}`,
      );
      await accepted(
        chat("claude-sonnet-4-5").bindTools([{ ...SEARCH, cache_control: HOUR }] as never).invoke([cachedSystem("You are terse."), new HumanMessage("Hi")]),
      );
    });

    test("the top-level breakpoint counts as sitting on the last block: 1h after a 5m is refused, and so is a different TTL on that block", async () => {
      await refused(chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse."), new HumanMessage("Hi")], { cache_control: HOUR }), `cache_control.ttl: ${TTL_ORDER}`);
      await accepted(chat("claude-sonnet-4-5").invoke([cachedSystem("You are terse.", HOUR), new HumanMessage("Hi")], { cache_control: EPHEMERAL }));
      await refused(
        chat("claude-sonnet-4-5").invoke([new SystemMessage("You are terse."), cachedHuman("Hi", HOUR)], { cache_control: EPHEMERAL }),
        "cache_control.ttl: the top-level cache_control (ttl '5m') conflicts with the ttl '1h' already set on messages.0.content.0, the last cacheable block",
      );
      await accepted(chat("claude-sonnet-4-5").invoke([new SystemMessage("You are terse."), cachedHuman("Hi", HOUR)], { cache_control: HOUR }));
    });

    test("a tool result's own breakpoint comes after those in its content (raw)", async () => {
      const body = (inner: object, outer: object) => ({
        model: "claude-sonnet-4-5",
        tools: [SEARCH],
        messages: [
          { role: "user", content: "Find topic 4." },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "search_docs", input: { query: "topic 4" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", cache_control: outer, content: [{ type: "text", text: "Page 12.", cache_control: inner }] }] },
        ],
      });
      await postAccepted(body(HOUR, EPHEMERAL));
      await postRefused(body(EPHEMERAL, HOUR), `messages.2.content.0.cache_control.ttl: ${TTL_ORDER}`);
    });

    test("an empty text block can't carry a breakpoint (raw)", async () => {
      const body = (marked: 0 | 1) => ({
        model: "claude-sonnet-4-5",
        messages: [{ role: "user", content: [{ type: "text", text: "" }, { type: "text", text: "Hi" }].map((b, i) => (i === marked ? { ...b, cache_control: EPHEMERAL } : b)) }],
      });
      await postRefused(body(0), "messages.0.content.0.text: cache_control cannot be set for empty text blocks");
      await postAccepted(body(1));
    });
  });

  describe("7. the wire module's checks still apply after the rules", () => {
    test("a malformed tool is refused by anthropicPrompt, as before", async () => {
      const err = await rejection(chat("claude-opus-5").bindTools([rawTool("bad name!")] as never).invoke("Hi"));
      assert.equal(err.status, 400);
      assert.match(last().error?.message ?? "", /bad name!/);
    });
  });

  describe("anthropicRequestProblem (pure)", () => {
    const addition = { type: "tool_addition", tool: { type: "tool_reference", name: "export_pdf" } };
    const body = { model: "anthropic:claude-opus-4-8", max_tokens: 10, tools: TOOLS, messages: [{ role: "user", content: "Hi" }, { role: "system", content: [addition] }] };

    test("reads the beta from a comma-separated or repeated header, and the model with a provider prefix", () => {
      assert.equal(anthropicRequestProblem(body, { "anthropic-beta": `context-1m-2025-08-07, ${TOOLS_BETA}` }), undefined);
      assert.equal(anthropicRequestProblem(body, { "anthropic-beta": ["context-1m-2025-08-07", TOOLS_BETA] }), undefined);
      assert.match(anthropicRequestProblem(body, {}) ?? "", /requires the anthropic-beta header/);
    });

    test("an unknown model gets the conservative row: no system messages", () => {
      assert.equal(
        anthropicRequestProblem({ ...body, model: "claude-someday-9" }, { "anthropic-beta": TOOLS_BETA }),
        "messages.1.role: role 'system' is not supported on this model",
      );
    });
  });
});
