/**
 * Values that fill the `{slot}` placeholders of task phrasings. Varied on purpose: the same tool is asked for
 * about different repos, tables, channels and topics, so a router cannot key on one memorized wording.
 */
export const ENTITIES: Record<string, readonly string[]> = {
  owner: ["acme", "octo-labs", "northwind", "globex", "initech", "hooli", "umbrella-dev", "contoso"],
  org: ["acme-platform", "northwind-eng", "globex-oss", "hooli-infra"],
  repo: ["payments-api", "web-frontend", "mobile-app", "infra-terraform", "data-pipeline", "auth-service", "docs-site", "billing-worker", "search-indexer", "design-system"],
  branch: ["feature/checkout-v2", "fix/login-timeout", "release/3.2", "chore/bump-deps", "feat/dark-mode", "hotfix/null-cart", "experiment/new-ranker"],
  num: ["42", "118", "907", "1534", "73", "260", "4411", "15"],
  sha: ["a1b2c3d", "9f8e7d6", "4c0ffee", "deadbe1", "7e57a11"],
  run: ["8812345", "9920011", "7700452", "6612093"],
  topic: ["the password reset flow", "flaky integration tests", "CSV export encoding", "rate limiting", "the onboarding emails", "timezone handling in reports", "image upload size limits", "the search autocomplete", "dark mode contrast", "webhook retries", "invoice rounding", "SSO with Okta", "memory leaks in the worker", "cache invalidation"],
  user: ["maria.lopez", "dchen", "priya", "tom.becker", "aisha_k", "jonas", "li.wei", "sam.okafor"],
  user2: ["nina", "rafael", "kenji", "olga.p", "ben_t"],
  path: ["src/server.ts", "README.md", "package.json", "config/settings.yaml", "docs/architecture.md", ".github/workflows/ci.yml", "lib/utils/date.py", "cmd/api/main.go"],
  lang: ["Rust", "Go", "TypeScript", "Python", "Kotlin", "Elixir"],
  label: ["bug", "good first issue", "needs-triage", "performance", "security", "regression"],
  date: ["Monday", "last Friday", "March 3rd", "the first of the month", "yesterday", "June 12", "the start of the quarter"],
  symbol: ["parseInvoice", "retryWithBackoff", "getUserSession", "FeatureFlagClient", "normalizeEmail", "withTimeout"],
  workflow: ["ci.yml", "nightly e2e", "release", "lint"],
  tag: ["v2.4.0", "v1.9.3", "v3.0.0-rc1", "v0.12.1", "2026.11"],
  file: ["/home/dev/notes/todo.md", "/srv/app/config.json", "/var/log/app/error.log", "/home/dev/project/.env.example", "/data/reports/q3-summary.csv", "/etc/nginx/sites-available/app.conf"],
  file2: ["/home/dev/notes/done.md", "/srv/app/config.prod.json", "/var/log/app/access.log", "/data/reports/q2-summary.csv"],
  dir: ["/home/dev/project/src", "/srv/app/uploads", "/data/exports", "/home/dev/photos/2024", "/var/log/app", "/tmp/build-cache"],
  ext: ["markdown", "*.log", "YAML", "*.py", "PNG"],
  glob: ["*-backup.*", "report_*.csv", "*.bak", "docker-compose*.yml"],
  db: ["analytics", "orders_prod", "crm", "inventory", "staging"],
  schema: ["public", "billing", "reporting", "auth"],
  table: ["orders", "customers", "invoices", "page_views", "subscriptions", "shipments", "users", "payments"],
  column: ["last_login_at", "discount_code", "region", "status", "external_id"],
  email: ["ops@acme.io", "jane.doe@example.com", "billing@northwind.com", "k.ito@globex.jp"],
  channel: ["#deploys", "#incidents", "#team-frontend", "#general", "#support-escalations", "#data-eng", "#random"],
  channelName: ["proj-atlas", "launch-q4", "oncall-payments", "guild-rust"],
  url: ["https://example.com/blog/scaling-postgres", "https://docs.acme.io/getting-started", "https://status.northwind.com", "https://news.ycombinator.com/item?id=4213", "https://www.w3.org/TR/WCAG22/", "https://shop.globex.com/pricing"],
  company: ["Nvidia", "Stripe", "the EU Commission", "OpenStreetMap", "Airbus", "Shopify"],
  project: ["PAY", "WEB", "MOB", "OPS", "DATA", "CORE"],
  component: ["checkout", "notifications", "admin console", "mobile sync", "reporting"],
  issueKey: ["PAY-311", "WEB-1207", "MOB-88", "OPS-5120", "DATA-42", "CORE-777"],
  issueKey2: ["PAY-312", "WEB-1190", "OPS-5099", "CORE-790"],
  sprint: ["Sprint 47", "the Nov 18 sprint", "Sprint Falcon", "iteration 12"],
  hours: ["2", "3.5", "6", "1.5"],
};

/** Openers and closers that vary how a request is phrased without changing what is asked. */
export const OPENERS = ["", "", "Can you ", "Please ", "Could you ", "I need you to ", "Help me ", "Quick one: ", "Hey, ", "When you get a sec, ", "Go ahead and "];
/** Openers that fit a question ("Go ahead and what is…" does not). */
export const QUESTION_OPENERS = ["", "", "", "Quick question: ", "Hey, ", "Do you know ", "Tell me ", "I'd like to know "];
export const CLOSERS = ["", "", "", " please", " for me", ", thanks", " asap", " before standup"];
/** Joins between the parts of a multi-step request. */
export const JOINERS = [", then ", " and after that ", ". Once that's done, ", ", and also ", "; next, ", " and then "];
