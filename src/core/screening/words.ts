/**
 * How the sentence reader (intent.ts) writes a concept: a word family matched as whole words, case-insensitive.
 * Shared by the concept modules (concepts-parties.ts, concepts-objects.ts) so every concept is built the same way.
 */

/** A case-insensitive pattern from a source string. */
export const rx = (source: string, flags = "i"): RegExp => new RegExp(source, flags);
/** Any of the given alternatives, as whole words. */
export const any = (...parts: string[]): RegExp => rx(String.raw`\b(?:${parts.join("|")})\b`);

/** What "any other …" may be besides tools: a tool's own values and formats ("do not use any other styles"). */
export const NOT_TOOL_NOUNS = "styles?|colou?rs?|fonts?|formats?|units?|values?|options?|fields?|parameters?|properties|attributes?|classes|selectors?|versions?|languages?|syntax|characters?|symbols?|files?|paths?|names?|ids?|keys?|labels?|tags?|variables?|types?|modes?|settings?";

/**
 * Words before "server" that make it a host the tool works on, not an MCP server of the catalog: "an existing server",
 * "the target server", "alias and server".
 */
export const HOST_SERVER_WORDS = "existing|target|given|specified|selected|default|current|configured|named|source|destination|running|already-running|live|local|remote|model|inference|dev|development|staging|production|registered|saved|chosen|new|primary|backup|upstream|jump|bastion|corresponding|appropriate|relevant|specific|respective|particular|associated|matching|desired|requested|intended|actual|underlying|previous|next|first|last|and|or|nor|but|as|than|then|both|either|neither|between";
