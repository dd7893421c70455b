/**
 * The hand-built LangGraph loop the README shows for the hooks: route → model (bindActiveTools, withPool) → gate →
 * tools | route | END, with the project's scripted model.
 */
import { END, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { ToolAttentionAnnotation, type createToolAttentionHooks } from "../../src/adapters/langgraph/hooks.js";

export function routedGraph(hooks: ReturnType<typeof createToolAttentionHooks>, model: unknown, tools: readonly unknown[]) {
  return new StateGraph(ToolAttentionAnnotation)
    .addNode("route", hooks.routeNode)
    .addNode("model", async (state) => ({ messages: [await hooks.bindActiveTools(model as BaseChatModel, state).invoke(hooks.withPool(state.messages, state))] }))
    .addNode("gate", hooks.gateNode)
    .addNode("tools", new ToolNode(tools as StructuredToolInterface[]))
    .addEdge(START, "route")
    .addEdge("route", "model")
    .addEdge("model", "gate")
    .addConditionalEdges("gate", hooks.afterGate, { tools: "tools", model: "route", [END]: END })
    .addEdge("tools", "route")
    .compile();
}
