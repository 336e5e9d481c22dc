// The provider's dashboard, on the provider's own server: its figures as the endpoint answers them,
// its chart against its table, its claims gross and net, and a stranger's refusal.
import { readChart } from './chart.mjs';
import { expect, open, shot, usdc } from './common.mjs';

/** The dashboard's API reads of a page: every request it made to the service's /api. */
function apiCalls(page, env) {
  const calls = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === env.baseUrl && url.pathname.startsWith('/api/')) calls.push(url.pathname);
  });
  return calls;
}

export const providerDashboard = {
  name: "provider dashboard: the provider's wallet sees its earnings, claims and revenue per model",
  async run(context, env) {
    expect(env.providerKey && env.dashboard && env.dashboardClaim.channelId, 'no provider key, dashboard or claim given');
    const expected = env.dashboard;
    const page = await open(context, env, env.providerKey);
    const calls = apiCalls(page, env);
    await page.goto(`${env.baseUrl}/dashboard`);
    await page.click('button[name=connectWallet]');
    await page.locator('[data-testid=earnings]').waitFor({ timeout: 20_000 });
    const text = async (selector) => (await page.locator(selector).first().textContent()).trim();
    const address = await text('[data-testid=provider-address]');
    expect(address === expected.provider, `provider ${address}, expected ${expected.provider}`);
    const listener = page.locator('[data-testid=listener-state]');
    const listenerStatus = await listener.getAttribute('data-status');
    const listenerSummary = await text('[data-testid=listener-summary]');
    expect(listenerStatus === expected.listener.status && listenerSummary.startsWith('Following the chain'),
      `the chain listener shown as ${listenerStatus}: ${listenerSummary}, expected ${expected.listener.status}`);
    for (const [id, member] of [['charged', 'charged'], ['claimed', 'claimed'], ['fees', 'fees'],
      ['unclaimed', 'unclaimedCharged'], ['claimable', 'claimable']]) {
      const shown = await text(`[data-testid=earnings-${id}]`);
      expect(shown === `${usdc(expected.earnings[member])} USDC`, `${id}: shown ${shown}, expected ${usdc(expected.earnings[member])}`);
    }
    for (const model of expected.models) {
      const row = page.locator(`[data-testid=models] tr[data-model="${model.model}"]`);
      const charged = (await row.locator('[data-testid=model-charged]').textContent()).trim();
      const requests = (await row.locator('[data-testid=model-requests]').textContent()).trim();
      expect(charged === usdc(model.charged) && requests === String(model.requests),
        `${model.model}: shown ${charged} USDC in ${requests} requests, expected ${usdc(model.charged)} in ${model.requests}`);
      const x402 = (await row.locator('[data-testid=model-x402]').textContent()).trim();
      const payments = (await row.locator('[data-testid=model-x402-payments]').textContent()).trim();
      expect(x402 === usdc(model.x402Settled) && payments === String(model.x402Payments),
        `${model.model}: shown ${x402} USDC of x402 in ${payments} payments, expected ${usdc(model.x402Settled)} in ${model.x402Payments}`);
    }
    expect(expected.models.some((m) => m.model === 'echo-1') && expected.models.some((m) => m.model === 'echo-flat'),
      `the paid models are not both listed: ${JSON.stringify(expected.models)}`);
    const claim = page.locator(`[data-testid=claims] tr[data-channel-id="${env.dashboardClaim.channelId}"]`);
    const cell = async (id) => (await claim.locator(`[data-testid=${id}]`).textContent()).trim();
    const [received, payout, fee, total, tx] = [await cell('claim-received'), await cell('claim-payout'),
      await cell('claim-fee'), await cell('claim-total'), await cell('claim-tx')];
    // the wallet received the payout less the fee; the gross payout and the fee are shown as such
    const net = BigInt(env.dashboardClaim.payout) - BigInt(env.dashboardClaim.fee);
    expect(BigInt(env.dashboardClaim.fee) > 0n, 'the claim paid no fee: nothing tells gross from net');
    expect(received === usdc(net) && payout === usdc(env.dashboardClaim.payout) && fee === usdc(env.dashboardClaim.fee)
      && total === usdc(env.dashboardClaim.payout), `claim shows received ${received}, payout ${payout}, fee ${fee}, total ${total}`);
    const headings = await page.locator('[data-testid=claims] thead th').allTextContents();
    const column = (id) => claim.locator('td').evaluateAll((cells, wanted) => cells.findIndex((c) => c.dataset.testid === wanted), id);
    expect(headings[await column('claim-received')] === 'Wallet received' && headings[await column('claim-payout')] === 'Payout (gross)'
      && headings[await column('claim-fee')] === 'Fee', `the claims' columns are headed ${headings.join(' | ')}`);
    expect(/^0x[0-9a-f]{64}$/.test(tx), `claim transaction ${tx}`);
    const earnedReceived = await text('[data-testid=earnings-received]');
    const expectedReceived = BigInt(expected.earnings.claimed) - BigInt(expected.earnings.fees);
    expect(earnedReceived === `${usdc(expectedReceived)} USDC`, `received in the wallet: ${earnedReceived}`);

    // the chart agrees with the table: the same days, each with the table's charged and claimed
    await page.locator('[data-testid=days-chart] canvas').first().waitFor();
    const drawn = await readChart(page, 'days-chart');
    const table = await page.locator('[data-testid=days] tbody tr').evaluateAll((rows) => rows.map((r) => {
      const cells = [...r.querySelectorAll('td')].map((c) => c.textContent.trim());
      return { day: cells[0], charged: `${cells[1]} USDC`, claimed: `${cells[3]} USDC` };
    }));
    const asText = (points) => points.map((p) => `${p.day}: charged ${p.charged}, claimed ${p.claimed}`).sort().join('; ');
    expect(table.length > 0 && asText(drawn) === asText(table), `the chart shows ${asText(drawn)}, the table ${asText(table)}`);
    await shot(page, env, 'provider-dashboard');
    const unexpected = calls.filter((path) => !['/api/chan/signing', '/api/chan/audience', '/api/provider/dashboard'].includes(path));
    expect(unexpected.length === 0, `the dashboard called more than the provider's API: ${unexpected.join(', ')}`);
    page.assertNoErrors();
    await page.close();
  },
};

export const strangerOnDashboard = {
  name: 'provider dashboard: another wallet is refused and sees nothing',
  async run(context, env) {
    expect(env.consumerKey, 'no consumer key given');
    const page = await open(context, env, env.consumerKey);
    await page.goto(`${env.baseUrl}/dashboard`);
    await page.click('button[name=connectWallet]');
    const error = await page.locator('[data-testid=dashboard-error]').textContent({ timeout: 20_000 });
    expect(error.startsWith('wallet_not_provider'), `the error shown: ${error}`);
    expect(await page.locator('[data-testid=earnings]').count() === 0, 'figures shown to a stranger');
    page.assertNoErrors();
    await page.close();
  },
};
