// End-to-end tests of the web pages in headless Chromium against a running service:
//
//   node web/e2e/run.mjs <service base URL> [scenario name…]
//
// The JUnit test WebPagesEndToEndTest (ledger-api) starts the service on a devnet, prepares a paid
// channel and runs this. Settings (environment): CHAN_E2E_ADMIN_TOKEN, CHAN_E2E_CHANNEL (a channel
// with a paid request), CHAN_E2E_CHARGED (its charged total, base units), CHAN_E2E_CONSUMER_KEY and
// CHAN_E2E_PROVIDER_KEY (its parties' test keys), CHAN_E2E_SCREENSHOTS (directory for one screenshot
// per page), CHAN_CHROMIUM (the browser, /usr/bin/chromium by default), CHAN_E2E_CLAIM_CHANNEL (a
// channel with one claim on-chain) with its CHAN_E2E_CLAIM_PAYOUT, CHAN_E2E_CLAIM_FEE and
// CHAN_E2E_CLAIM_TOTAL (base units); CHAN_E2E_DASHBOARD (the gateway provider's dashboard as the
// admin reads it) and CHAN_E2E_DASHBOARD_CLAIM_CHANNEL, _PAYOUT and _FEE (a claim of that provider).
// Prints one line per scenario; exits 1 when any failed.
import { mkdir } from 'node:fs/promises';
import { launchBrowser } from './browser.mjs';
import { scenarios } from './scenarios.mjs';

const baseUrl = process.argv[2];
if (!baseUrl) {
  console.error('usage: node web/e2e/run.mjs <service base URL> [scenario…]');
  process.exit(2);
}
const only = process.argv.slice(3);
const screenshots = process.env.CHAN_E2E_SCREENSHOTS ?? 'target/web-screenshots';
await mkdir(screenshots, { recursive: true });

const env = {
  baseUrl: baseUrl.replace(/\/$/, ''),
  adminToken: process.env.CHAN_E2E_ADMIN_TOKEN,
  channelId: process.env.CHAN_E2E_CHANNEL,
  charged: process.env.CHAN_E2E_CHARGED,
  consumerKey: process.env.CHAN_E2E_CONSUMER_KEY,
  providerKey: process.env.CHAN_E2E_PROVIDER_KEY,
  claim: {
    channelId: process.env.CHAN_E2E_CLAIM_CHANNEL,
    payout: process.env.CHAN_E2E_CLAIM_PAYOUT,
    fee: process.env.CHAN_E2E_CLAIM_FEE,
    totalClaimed: process.env.CHAN_E2E_CLAIM_TOTAL,
  },
  dashboard: process.env.CHAN_E2E_DASHBOARD ? JSON.parse(process.env.CHAN_E2E_DASHBOARD) : null,
  dashboardClaim: {
    channelId: process.env.CHAN_E2E_DASHBOARD_CLAIM_CHANNEL,
    payout: process.env.CHAN_E2E_DASHBOARD_CLAIM_PAYOUT,
    fee: process.env.CHAN_E2E_DASHBOARD_CLAIM_FEE,
  },
  screenshots,
};

const browser = await launchBrowser();
let failed = 0;
try {
  for (const scenario of scenarios) {
    if (only.length > 0 && !only.includes(scenario.name)) continue;
    const started = Date.now();
    try {
      await scenario.run(browser.context, env);
      console.log(`ok - ${scenario.name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed++;
      console.log(`not ok - ${scenario.name}: ${error?.stack ?? error}`);
    }
  }
} finally {
  await browser.close();
}
process.exit(failed === 0 ? 0 : 1);
