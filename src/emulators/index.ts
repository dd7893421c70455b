export { startAnthropicEmulator, type AnthropicEmulator, type AnthropicEmulatorOptions } from "./anthropic.js";
export { startOpenAIEmulator, type OpenAIEmulator, type OpenAIEmulatorOptions } from "./openai.js";
export type { Emulator, EmulatorOptions, EmulatorReply, EmulatorScript, EmulatorToolCall, RecordedRequest } from "./common.js";
