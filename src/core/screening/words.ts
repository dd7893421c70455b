/**
 * How the sentence reader (intent.ts) writes a concept: a word family matched as whole words, case-insensitive.
 * Shared by the concept modules (concepts-parties.ts, concepts-objects.ts) so every concept is built the same way.
 */

/** A case-insensitive pattern from a source string. */
export const rx = (source: string, flags = "i"): RegExp => new RegExp(source, flags);
/** Any of the given alternatives, as whole words. */
export const any = (...parts: string[]): RegExp => rx(String.raw`\b(?:${parts.join("|")})\b`);
