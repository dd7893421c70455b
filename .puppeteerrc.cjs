/**
 * The puppeteer MCP server is a devDependency only so `tool-attention audit` can list its tools; listing needs
 * no browser, so installs never download one (installs must work with only the npm registry reachable).
 */
module.exports = { skipDownload: true, chrome: { skipDownload: true }, "chrome-headless-shell": { skipDownload: true }, firefox: { skipDownload: true } };
