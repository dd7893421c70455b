/**
 * 200 plain tools over ten topics (`create_invoice`, `list_calendar`, …): enough that routing, not every schema,
 * is what delivery `auto` picks, with names no test request is about.
 */
import { tool } from "@langchain/core/tools";
import { z } from "zod";

export function fillerTools() {
  const topics = ["invoice", "calendar", "ticket", "playlist", "shipment", "forecast", "contact", "bucket", "cluster", "survey"];
  const verbs = ["create", "list", "delete", "update", "archive", "export", "import", "share", "rename", "tag", "search", "count", "copy", "move", "lock", "unlock", "pin", "unpin", "watch", "mute"];
  return topics.flatMap((topic) =>
    verbs.map((verb) =>
      tool(async () => `${verb} ${topic} ok`, {
        name: `${verb}_${topic}`,
        description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${topic} record in the ${topic} service, with its owner, labels and history.`,
        schema: z.object({ id: z.string().describe(`The ${topic} id`), note: z.string().optional() }),
      }),
    ),
  );
}
