/**
 * Long-horizon workflows: a high-level goal in the user's words and the tools that carry it out, in order.
 * The goal rarely names every step, which is what per-step routing is for.
 */
export interface Scenario {
  name: string;
  /** Goal phrasings with `{slot}` placeholders (entities are shared with the plan steps). */
  goals: string[];
  tools: string[];
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "hotfix",
    goals: ["ship a hotfix for {issueKey} in {repo} and let {channel} know", "get {issueKey} fixed on a branch of {repo}, open a PR and tell the team in {channel}"],
    tools: ["jira_get_issue", "create_branch", "get_file_contents", "push_files", "create_pull_request", "slack_post_message"],
  },
  {
    name: "release",
    goals: ["release {tag} of {repo}: make sure the build is green, land the release PR, publish it, close the version in the tracker and announce it", "do the whole {tag} launch for {repo} end to end, including the tracker and the announcement"],
    tools: ["list_workflow_runs", "get_pull_request", "merge_pull_request", "create_release", "jira_release_version", "slack_post_message"],
  },
  {
    name: "migration",
    goals: ["add {column} to {table} in {db} safely: back up first, index it, check the plan and report on {issueKey}", "roll out the {column} schema change on {table} with a backup and a new index, then update {issueKey}"],
    tools: ["describe_table", "create_backup", "alter_table", "create_index", "explain_query", "jira_add_comment"],
  },
  {
    name: "incident",
    goals: ["there's an outage being discussed in {channel}: find what's hammering {db}, stop it, file a follow-up and reply in the thread", "handle the database incident from {channel} and make sure it gets a ticket"],
    tools: ["slack_get_channel_history", "list_active_queries", "cancel_query", "get_table_stats", "jira_create_issue", "slack_reply_to_thread"],
  },
  {
    name: "research",
    goals: ["research {topic} online, save a write-up to {file} and share it in {channel}", "put together a short brief on {topic} from the web and post it to {channel}"],
    tools: ["web_search", "fetch_url", "summarize_page", "write_file", "slack_upload_file"],
  },
  {
    name: "sprint-planning",
    goals: ["plan and start the next iteration for {project} with the top open bugs, then tell {channel}", "set up {sprint} for {project} from the backlog and get it going"],
    tools: ["jira_list_boards", "jira_list_sprints", "jira_search", "jira_create_sprint", "jira_move_issues_to_sprint", "jira_start_sprint", "slack_post_message"],
  },
  {
    name: "data-export",
    goals: ["figure out where {table} data lives in {db} and send finance a file of last quarter's numbers via {channel}", "build the monthly {table} extract from {db} and drop it in {channel}"],
    tools: ["list_tables", "describe_table", "run_select_query", "export_query_results", "slack_upload_file"],
  },
  {
    name: "onboarding",
    goals: ["onboard {user}: access to {repo}, a seat in {channel} and {issueKey} as a starter ticket", "get new hire {user} set up with the repo, the team room and a first task"],
    tools: ["add_collaborator", "slack_invite_to_channel", "jira_search_users", "jira_assign_issue", "slack_post_message"],
  },
  {
    name: "code-review",
    goals: ["review whatever is waiting in {repo}, leave a verdict and move {issueKey} forward in the tracker", "go through the pending PR for {issueKey} in {repo} and update the ticket's status"],
    tools: ["list_pull_requests", "get_pull_request_diff", "create_pull_request_review", "add_issue_comment", "jira_get_transitions", "jira_transition_issue"],
  },
  {
    name: "config-fix",
    goals: ["our service config under {dir} has the wrong port; fix it locally and propose the same change upstream in {repo}", "track down the bad setting in the local config files and get a PR up in {repo}"],
    tools: ["search_files", "read_file", "edit_file", "create_branch", "create_or_update_file", "create_pull_request"],
  },
  {
    name: "site-audit",
    goals: ["audit {url}: broken pages, missing meta tags and how it looks, and file tickets in {project} for what's wrong", "run a health check over the site at {url} and turn the problems into {project} tickets"],
    tools: ["crawl_site", "check_url_status", "get_page_metadata", "take_screenshot", "jira_batch_create_issues"],
  },
  {
    name: "security-triage",
    goals: ["triage the security findings in {repo}: find the vulnerable code, open tickets on both trackers and warn {channel}", "deal with the new static-analysis alerts on {repo} and make sure the team hears about it"],
    tools: ["list_code_scanning_alerts", "search_code", "get_file_contents", "create_issue", "jira_create_issue", "slack_post_message"],
  },
  {
    name: "restore",
    goals: ["someone wiped rows in {table}; bring {db} back from the latest snapshot, verify the data and report in {channel}", "recover {db} after the bad deploy and confirm {table} looks right"],
    tools: ["list_backups", "restore_backup", "run_select_query", "slack_post_message"],
  },
  {
    name: "market-watch",
    goals: ["compile what the press says about {company} this week with a couple of images into {file}, and remind {channel} to read it on Monday", "prepare a news digest on {company} and schedule a heads-up in {channel}"],
    tools: ["news_search", "fetch_url", "image_search", "write_file", "slack_schedule_message"],
  },
];
