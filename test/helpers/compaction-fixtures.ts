/**
 * Hand-made tool lists shaped like real MCP servers, for the compaction tests:
 * - notionLike: every tool carries the same large `$defs` block (rich text, parent) and refers to it;
 * - linearLike: small inputs, a large `outputSchema` repeated on every tool, annotations and titles;
 * - githubLike: plain flat schemas where small properties (owner, repo) repeat across tools.
 */
import type { ToolSpec } from "../../src/core/types.js";

const richText = {
  type: "array",
  description: "Rich text segments.",
  maxItems: 100,
  items: {
    type: "object",
    properties: {
      type: { type: "string", enum: ["text", "mention", "equation"] },
      text: {
        type: "object",
        properties: {
          content: { type: "string", maxLength: 2000, description: "The text." },
          link: { anyOf: [{ type: "object", properties: { url: { type: "string", format: "uri" } }, required: ["url"] }, { type: "null" }] },
        },
        required: ["content"],
        additionalProperties: false,
      },
      annotations: {
        type: "object",
        properties: {
          bold: { type: "boolean", default: false },
          italic: { type: "boolean", default: false },
          color: { type: "string", enum: ["default", "gray", "brown", "orange", "yellow", "green", "blue", "purple", "pink", "red"] },
        },
      },
    },
    required: ["text"],
  },
};

const parentRequest = {
  anyOf: [
    { type: "object", properties: { page_id: { type: "string", format: "uuid" } }, required: ["page_id"] },
    { type: "object", properties: { database_id: { type: "string", format: "uuid" } }, required: ["database_id"] },
  ],
};

export function notionLike(count = 8): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `notion_op_${i}`,
    description: `Notion operation ${i} on a page. Use after searching for the page. Returns an error when the page does not exist.`,
    inputSchema: {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      $defs: { richText, parentRequest },
      properties: {
        parent: { $ref: "#/$defs/parentRequest" },
        title: { $ref: "#/$defs/richText" },
        [`field_${i}`]: { type: "string", description: `Field specific to operation ${i}.` },
      },
      required: ["parent"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false },
  }));
}

const issueShape = {
  type: "object",
  properties: {
    id: { type: "string", description: "Issue id." },
    identifier: { type: "string", description: "Human-readable identifier such as ENG-123." },
    title: { type: "string" },
    description: { type: ["string", "null"] },
    priority: { type: "integer", minimum: 0, maximum: 4, description: "0 none, 1 urgent … 4 low." },
    state: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, type: { type: "string" } } },
    assignee: { type: ["object", "null"], properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string", format: "email" } } },
    labels: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, color: { type: "string" } } } },
    url: { type: "string", format: "uri" },
    createdAt: { type: "string", format: "date-time" },
    updatedAt: { type: "string", format: "date-time" },
  },
  required: ["id", "identifier", "title"],
};

export function linearLike(count = 10): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `linear_op_${i}`,
    title: `Linear operation ${i}`,
    description: `Linear operation ${i} on issues.`,
    inputSchema: {
      type: "object",
      properties: {
        issueId: { type: "string", description: "The issue id.", examples: ["ENG-123"] },
        limit: { type: "integer", minimum: 1, maximum: 250, default: 50, description: "Maximum results." },
        includeArchived: { type: "boolean", default: false, title: "Include archived" },
        query: { type: "string", default: "" },
      },
      required: ["issueId"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { issue: issueShape, related: { type: "array", items: issueShape } }, required: ["issue"] },
    annotations: { title: `Linear operation ${i}`, readOnlyHint: true, openWorldHint: true },
  }));
}

export function githubLike(count = 10): ToolSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `github_op_${i}`,
    description: `GitHub operation ${i}.`,
    inputSchema: {
      type: "object",
      properties: {
        owner: { type: "string", description: "Repository owner" },
        repo: { type: "string", description: "Repository name" },
        [`arg_${i}`]: { type: "number" },
      },
      required: ["owner", "repo"],
    },
  }));
}
