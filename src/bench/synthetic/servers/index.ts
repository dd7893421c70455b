/** The six Table 2 servers, in table order. */
import type { ServerDef } from "../model.js";
import { database } from "./database.js";
import { filesystem } from "./filesystem.js";
import { github } from "./github.js";
import { jira } from "./jira.js";
import { slack } from "./slack.js";
import { web } from "./web.js";

export const SERVERS: readonly ServerDef[] = [github, filesystem, database, slack, web, jira];
