// What a person does on each page, checked on what the page shows. Scenarios run in order and
// share what they create in `state` (the provider registered through the form is then browsed).
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { expect, open, openConsole, shot, state, usdc } from './common.mjs';
import { invalidSkill, replay } from './console.mjs';
import { providerDashboard, strangerOnDashboard } from './dashboard.mjs';
import { alreadyListed, unfilledSkillRoles } from './listing.mjs';
import { narrowScreen } from './narrow.mjs';
import { notFoundPages, providerDocumentsAcrossOrigins } from './origins.mjs';
import { startStubProvider } from './stub-provider.mjs';

/** The local network's relay lease: 0.0001 USDC per minute, 5 to 240 minutes. */
const relayLeasePrice = { kind: 'per-unit', perUnit: '100', unit: 'minutes', minUnits: 5, maxUnits: 240 };
export const RELAY_LEASE_TEXT = '0.0001 per unit of minutes (5–240 minutes)';
function relayLeaseExample(model) {
  return { model, messages: [{ role: 'user', content: JSON.stringify({ minutes: 30, region: 'eu' }) }] };
}

const registerAndApprove = {
  name: 'become a provider: register through the form, approve in the console',
  async run(context, env) {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const token = `e2e${Date.now().toString(36)}`;
    const stub = await startStubProvider(account.address, [
      { id: `${token}-chat`, name: 'E2E Chat', input: '0.00015', output: '0.0006' },
      // flat-priced (output 0): the price of one request
      { id: `${token}-fetch`, name: 'E2E Fetch', input: '0.002', output: '0' },
      // a long id, as real ones are, which a narrow screen must wrap at its separators only
      { id: `${token}-meta-llama/Llama-3.1-70B-Instruct-Turbo`, name: 'E2E Llama', input: '0.00088', output: '0.00088' },
      // priced per minute, 5 to 240: its two numbers for older clients are its highest price (240 minutes) and 0
      { id: `${token}-relay-lease`, name: 'E2E Relay lease', input: '0.024', output: '0', price: relayLeasePrice,
        example: relayLeaseExample(`${token}-relay-lease`) },
    ]);
    state.stub = stub;
    state.modelToken = token;
    state.providerKey = key;
    const page = await open(context, env, key);
    await page.goto(`${env.baseUrl}/become-a-provider`);
    await page.click('button[name=connectWallet]');
    await page.locator('[data-testid=connected-address]').waitFor();
    expect((await page.textContent('[data-testid=connected-address]')) === account.address, 'another address is shown');

    // a field the service refuses comes back next to its field
    await page.fill('input[name=name]', `E2E provider ${token}`);
    await page.fill('textarea[name=description]', 'Registered by the web pages end-to-end test.');
    await page.fill('input[name=apiUrl]', 'ftp://not-http.example');
    await page.selectOption('select[name=category]', 'llm');
    await page.click('button[name=register]');
    await page.locator('[data-field-error=apiUrl]').waitFor();

    // an endpoint that does not answer: the connection test's failure and its reason
    await page.fill('input[name=apiUrl]', 'http://127.0.0.1:9');
    await page.click('button[name=register]');
    const failure = page.locator('[data-testid=registration-failure]');
    await failure.waitFor({ timeout: 20_000 });
    expect((await failure.textContent()).includes('connection test failed'), `unexpected failure: ${await failure.textContent()}`);

    await page.fill('input[name=apiUrl]', stub.url);
    await page.fill('input[name=contact]', 'e2e@example.test');
    await page.fill('input[name=contactEmail]', 'ops@example.test');
    await page.fill('input[name=logoUrl]', `${stub.url}/logo.svg`);
    await page.fill('input[name=website]', 'https://provider.example.test');
    await page.check('input[name=supportsStreaming]');
    await shot(page, env, 'become-a-provider');
    await page.click('button[name=register]');
    await page.locator('[data-testid=registration-result]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid=registration-message]').count() === 0, 'the form is still shown');
    const providerId = (await page.textContent('[data-testid=provider-id]')).trim();
    expect((await page.textContent('[data-testid=approval-state]')).trim() === 'pending', 'a community provider is not pending');
    state.providerId = providerId;
    await shot(page, env, 'become-a-provider-registered');
    page.assertNoErrors();

    const operator = await open(context, env);
    await openConsole(operator, env);
    const row = operator.locator(`tr[data-provider-id="${providerId}"]`);
    await row.waitFor();
    // what a pending provider sells, before the operator approves it
    const sells = await row.locator('[data-testid=provider-models]').textContent();
    expect(sells.includes(`${token}-chat`) && sells.includes('0.00015 in / 0.0006 out per 1k tokens')
      && sells.includes(`${token}-fetch`) && sells.includes('0.002 per request'), `the pending row sells: ${sells}`);
    expect(sells.includes(RELAY_LEASE_TEXT) && !sells.includes('0.024 per request'),
      `the per-unit lease is not sold per unit: ${sells}`);
    await shot(operator, env, 'operator-console');
    await row.locator('button[name=approve]').click();
    await operator.locator('[data-testid=provider-action]', { hasText: 'approved' }).waitFor();
    await row.locator('input[name=score]').fill('0.8');
    await row.locator('button', { hasText: 'Set' }).click();
    await operator.locator('[data-testid=provider-action]', { hasText: 'score set to 0.8' }).waitFor();
    operator.assertNoErrors();
    await operator.close();

    // the provider's own page follows the approval
    await page.locator('[data-testid=approval-state]', { hasText: 'approved' }).waitFor({ timeout: 20_000 });
    await page.close();
  },
};

const sameNameFlagged = {
  name: 'become a provider: a second provider under an existing name waits, flagged in the console',
  async run(context, env) {
    const key = generatePrivateKey();
    const account = privateKeyToAccount(key);
    const stub = await startStubProvider(account.address, [
      { id: `copy${Date.now().toString(36)}`, name: 'E2E Copy', input: '0.0001', output: '0.0002' },
    ]);
    try {
      const page = await open(context, env, key);
      await page.goto(`${env.baseUrl}/become-a-provider`);
      await page.click('button[name=connectWallet]');
      await page.locator('[data-testid=connected-address]').waitFor();
      // the first provider's name, other case and spaces around it
      await page.fill('input[name=name]', `  E2E PROVIDER ${state.modelToken.toUpperCase()} `);
      await page.fill('textarea[name=description]', 'Registered under the name of another provider.');
      await page.fill('input[name=apiUrl]', stub.url);
      await page.selectOption('select[name=category]', 'llm');
      await page.click('button[name=register]');
      await page.locator('[data-testid=registration-result]').waitFor({ timeout: 20_000 });
      const copyId = (await page.textContent('[data-testid=provider-id]')).trim();
      expect((await page.textContent('[data-testid=approval-state]')).trim() === 'pending', 'the copy is not pending');
      page.assertNoErrors();
      await page.close();

      const operator = await open(context, env);
      await openConsole(operator, env);
      const flag = operator.locator(`tr[data-provider-id="${copyId}"] [data-testid=duplicate-name]`);
      await flag.waitFor();
      expect((await flag.textContent()).includes(state.providerId), `the flag names: ${await flag.textContent()}`);
      expect(await operator.locator(`tr[data-provider-id="${state.providerId}"] [data-testid=duplicate-name]`).count() === 0,
        'the first provider is flagged too');
      await shot(operator, env, 'operator-console-duplicate-name');
      operator.assertNoErrors();
      await operator.close();
    } finally {
      await stub.close();
    }
  },
};

const browseAndFilter = {
  name: 'marketplace: browse and filter',
  async run(context, env) {
    const page = await open(context, env);
    await page.goto(`${env.baseUrl}/`);
    const rows = page.locator('table.providers tbody tr');
    await rows.first().waitFor();
    const model = state.modelToken ?? (await rows.first().locator('ul.models code').first().textContent()).trim();

    await page.fill('input[name=model]', model);
    await page.waitForFunction(() => location.search.includes('model='));
    expect(new URL(page.url()).searchParams.get('model') === model, `the model filter is not in the address: ${page.url()}`);
    if (state.providerId) {
      await page.locator(`tr[data-provider-id="${state.providerId}"]`).waitFor({ timeout: 20_000 });
      expect(await rows.count() === 1, 'other providers match the test model');
      const listed = await rows.first().textContent();
      expect(listed.includes('0.00015 in / 0.0006 out per 1k tokens'), 'the token price is not shown');
      expect(listed.includes('0.002 per request'), 'the flat model is not shown at its price per request');
      expect(listed.includes(RELAY_LEASE_TEXT), `the per-unit lease is not shown per unit: ${listed}`);
      expect(!listed.includes('0.024'), 'the per-unit lease is shown at its highest price');
      // the provider's logo, from its own server
      const logo = rows.first().locator('img.provider-logo');
      await logo.waitFor();
      await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await logo.elementHandle());
    }
    await page.fill('input[name=model]', 'no-such-model-anywhere');
    await page.waitForFunction(() => document.querySelectorAll('table.providers tbody tr').length === 0);

    // a shared filtered view opens as it was shared
    await page.goto(`${env.baseUrl}/?model=${encodeURIComponent(model)}&minScore=0.5&category=llm`);
    await rows.first().waitFor();
    expect(await page.inputValue('input[name=model]') === model, 'the shared model filter is not in the form');
    expect(await page.inputValue('select[name=category]') === 'llm', 'the shared category is not in the form');
    await page.fill('input[name=minScore]', '0.9');
    await page.waitForFunction(() => document.querySelectorAll('table.providers tbody tr').length === 0);
    await page.fill('input[name=minScore]', '');
    await page.selectOption('select[name=tier]', 'bittensor');
    await page.waitForFunction(() => location.search.includes('tier=bittensor'));
    await page.selectOption('select[name=tier]', '');
    await page.check('input[name=includeOffline]');
    await page.waitForFunction(() => location.search.includes('online=false'));
    await rows.first().waitFor();
    await shot(page, env, 'marketplace');

    // into a provider's page and back
    await rows.first().locator('a.provider-name').click();
    await page.locator('[data-testid=pricing]').waitFor();
    await page.goBack();
    await rows.first().waitFor();
    expect(page.url().includes('online=false'), 'back did not return to the filtered view');
    page.assertNoErrors();
    await page.close();
  },
};

const twoHundredProviders = {
  name: 'marketplace: 200 providers render and filter quickly',
  async run(context, env) {
    const page = await open(context, env);
    // the directory answer replaced by 200 providers, so the page's own work is what is measured
    const providers = Array.from({ length: 200 }, (_, i) => ({
      id: `prov-load-${i}`, name: `Load provider ${String(i).padStart(3, '0')}`, description: '', apiUrl: `https://p${i}.example`,
      providerAddress: '0x0000000000000000000000000000000000000001', category: i % 2 ? 'llm' : 'search', additionalCategories: [],
      tier: i % 5 ? 'community' : 'bittensor', chainId: 137, registeredAt: '2026-01-01T00:00:00Z',
      approval: { state: 'approved' }, score: (i % 10) / 10,
      status: { online: i % 7 !== 0, latencyMs: 40 + i, consecutiveFailures: 0 },
      models: [{ id: `load-model-${i}`, name: `Load ${i}`, pricing: { inputPer1kTokens: '0.0001', outputPer1kTokens: '0.0004' },
        price: { kind: 'tokens', inputPer1kTokens: '100', outputPer1kTokens: '400' } },
      { id: `shared-model-${i % 3}`, name: 'Shared', pricing: { inputPer1kTokens: '0.001', outputPer1kTokens: '0.002' },
        price: { kind: 'tokens', inputPer1kTokens: '1000', outputPer1kTokens: '2000' } }],
      history: [],
    }));
    await page.route('**/api/directory/providers', (route) => route.fulfill({
      contentType: 'application/json', body: JSON.stringify({ version: '1.0', count: providers.length, providers }),
    }));
    const started = Date.now();
    await page.goto(`${env.baseUrl}/?online=false`);
    await page.waitForFunction(() => document.querySelectorAll('table.providers tbody tr').length === 200);
    const firstRender = Date.now() - started;
    const filterStarted = Date.now();
    await page.fill('input[name=model]', 'load-model-1');
    await page.waitForFunction(() => document.querySelectorAll('table.providers tbody tr').length === 111);
    const filtering = Date.now() - filterStarted;
    expect(firstRender < 5000, `200 providers took ${firstRender} ms to show`);
    expect(filtering < 1000, `filtering 200 providers took ${filtering} ms`);
    await page.fill('input[name=model]', '');
    await shot(page, env, 'marketplace-200-providers');
    console.log(`  200 providers shown in ${firstRender} ms, filtered in ${filtering} ms`);
    page.assertNoErrors();
    await page.close();
  },
};

const providerPage = {
  name: 'provider page: pricing, history, payment snippet',
  async run(context, env) {
    const page = await open(context, env);
    const id = state.providerId;
    expect(id, 'no provider registered by an earlier scenario');
    // three agents report on the provider: two successes, one timeout
    for (const [client, report] of [['198.51.100.21', { outcome: 'success' }], ['198.51.100.22', { outcome: 'success' }],
      ['198.51.100.23', { outcome: 'failure', reason: 'timeout' }]]) {
      const answer = await fetch(`${env.baseUrl}/api/feedback`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        body: JSON.stringify({ providerId: id, protocol: 'chan', ...report }),
      });
      expect(answer.status === 202, `feedback answered ${answer.status}`);
    }
    // four paid requests as the agent client reports them, from four networks (each counts a few): one failed with 502
    for (const [client, latencyMs, httpStatus, costUsdc] of [['198.51.31.1', 120, 200, '0.0042'],
      ['198.51.32.1', 240, 200, 0.0015], ['198.51.33.1', 360, 200, '0.01'], ['198.51.34.1', 900, 502, '0']]) {
      const answer = await fetch(`${env.baseUrl}/api/telemetry`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        body: JSON.stringify({ providerId: id, latencyMs, httpStatus, costUsdc, protocol: 'chan',
          timestamp: new Date().toISOString(), agentId: `e2e-agent-${client}` }),
      });
      expect(answer.status === 202, `telemetry answered ${answer.status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the directory publishes feedback in batches and telemetry
    await page.goto(`${env.baseUrl}/providers/${id}`);
    await page.locator('[data-testid=pricing]').waitFor();
    expect((await page.textContent('[data-testid=pricing]')).includes(`${state.modelToken}-chat`), 'the model is not in the table');
    const history = await page.textContent('[data-testid=status-history]');
    expect(history.includes('registered') && history.includes('approved'), `history lacks registration or approval: ${history}`);
    const snippet = await page.textContent('[data-testid=pay-snippet]');
    expect(snippet.includes('X-CHAN-Voucher') && snippet.includes(state.stub.url), 'the payment snippet is incomplete');
    const pricing = await page.textContent('[data-testid=pricing]');
    expect(pricing.includes(RELAY_LEASE_TEXT) && !pricing.includes('0.024'), `the lease is not priced per unit: ${pricing}`);
    // the payment example of the lease is its own example request, not a chat greeting it would refuse
    const lease = `${state.modelToken}-relay-lease`;
    await page.selectOption('select[name=payModel]', lease);
    await page.locator('[data-testid=pay-snippet]', { hasText: lease }).waitFor();
    const leaseSnippet = await page.textContent('[data-testid=pay-snippet]');
    expect(leaseSnippet.includes(JSON.stringify(relayLeaseExample(lease))) && !leaseSnippet.includes('hello'),
      `the lease's payment example is not its own request: ${leaseSnippet}`);
    await page.locator('[data-testid=provider-docs]').waitFor();
    // unsigned, as the deployed agent client sends them: shown apart as unverified, in no score
    const feedback = await page.textContent('[data-testid=feedback-unverified]');
    expect(feedback.includes('67 %') && feedback.includes('3 reports') && feedback.includes('timeout 1')
      && feedback.includes('no score'), `the feedback card shows ${feedback}`);
    expect((await page.textContent('[data-testid=feedback-verified]')).includes('No reports'), 'verified feedback shown');
    const telemetry = await page.textContent('[data-testid=telemetry-unverified]');
    expect(telemetry.includes('4 requests') && telemetry.includes('p50 240 ms · p95 900 ms') && telemetry.includes('25 %')
      && telemetry.includes('HTTP 502: 1') && telemetry.includes('0.0157 USDC'), `the telemetry card shows ${telemetry}`);
    const quality = (await page.textContent('[data-testid=quality-score]')).trim();
    expect(/^0\.\d\d$|^1\.00$/.test(quality), `the quality score shows ${quality}`);
    expect((await page.textContent('[data-testid=website]')).includes('provider.example.test'), 'the website is not shown');
    // the health checks since the registration, drawn by uPlot
    await page.locator('[data-testid=latency-chart] canvas').waitFor();
    await shot(page, env, 'provider');
    page.assertNoErrors();
    await page.close();
  },
};

const skills = {
  name: 'skills: list and workflow graph',
  async run(context, env) {
    const page = await open(context, env);
    await page.goto(`${env.baseUrl}/`);
    await page.click('header nav a[href="/skills"]');
    const first = page.locator('table tbody tr').first();
    await first.waitFor();
    await shot(page, env, 'skills');
    const slug = await first.getAttribute('data-skill');
    await first.locator('a').click();
    await page.locator('[data-testid=skill-graph]').waitFor();
    const steps = await page.locator('tr[data-step]').count();
    expect(await page.locator('[data-testid=skill-graph] g.node').count() === steps, 'not every step is drawn');
    expect(await page.locator('[data-testid=skill-graph] path.edge').count() >= 1, 'no dependency is drawn');
    expect(page.url().endsWith(`/skills/${slug}`), `the address is not the skill's: ${page.url()}`);
    await shot(page, env, 'skill');
    await page.goBack();
    await first.waitFor();
    await page.reload();
    await first.waitFor();
    page.assertNoErrors();
    await page.close();
  },
};

const channelPage = {
  name: 'channel explorer: the consumer sees the voucher and the charged total',
  async run(context, env) {
    expect(env.channelId && env.consumerKey && env.charged, 'no paid channel given (CHAN_E2E_CHANNEL, …)');
    const page = await open(context, env, env.consumerKey);
    await page.goto(`${env.baseUrl}/channels`);
    await page.fill('input[name=channelId]', env.channelId);
    await page.click('button[type=submit]');
    await page.locator('[data-testid=channel-terms]').waitFor();
    expect(page.url().endsWith(`/channels/${env.channelId}`), `not the channel's address: ${page.url()}`);
    expect(await page.locator('[data-testid=highest-voucher]').count() === 0, 'an anonymous visitor sees the voucher');
    await page.click('button[name=viewAsParty]');
    await page.locator('[data-testid=highest-voucher]').waitFor();
    const charged = await page.textContent('[data-testid=charged-total]');
    expect(charged === `${usdc(env.charged)} USDC`, `charged total ${charged}, expected ${usdc(env.charged)} USDC`);
    expect((await page.textContent('[data-testid=highest-voucher]')).includes('nonce 1'), 'the voucher is not shown');
    await page.locator('[data-testid=channel-events] li[data-event-type=VoucherAccepted]').waitFor();
    const txLink = await page.locator('[data-testid=channel-events] a').first().getAttribute('href');
    expect(/\/tx\/0x[0-9a-f]{64}$/.test(txLink), `no block explorer link: ${txLink}`);
    await shot(page, env, 'channel');

    await page.click('header nav a[href="/my-channels"]');
    await page.locator(`[data-testid=as-consumer] a[href="/channels/${env.channelId}"]`).waitFor();
    await shot(page, env, 'my-channels-consumer');
    page.assertNoErrors();
    await page.close();
  },
};

const explorerAndClaim = {
  name: 'channel explorer: the network summary, and a claim shows its payout, fee and total claimed',
  async run(context, env) {
    const claim = env.claim;
    expect(claim.channelId && claim.payout && claim.fee && claim.totalClaimed, 'no claimed channel given (CHAN_E2E_CLAIM_…)');
    const page = await open(context, env);
    await page.goto(`${env.baseUrl}/channels`);
    await page.locator('[data-testid=explorer-totals]').waitFor();
    const openChannels = Number(await page.textContent('[data-testid=open-channels]'));
    expect(openChannels >= 2, `open channels ${openChannels}: the paid and the claimed channel are open`);
    const claimedTotal = await page.textContent('[data-testid=usdc-claimed]');
    expect(/^\d+(\.\d{1,6})? USDC$/.test(claimedTotal) && claimedTotal !== '0 USDC', `claimed over the network: ${claimedTotal}`);
    expect(await page.locator('[data-testid=busiest-providers] tbody tr').count() >= 1, 'no busiest provider listed');
    const activity = page.locator(`[data-testid=explorer-activity] li[data-activity=claimed][data-channel-id="${claim.channelId}"]`);
    await activity.waitFor();
    const activityText = await activity.textContent();
    // the payout is gross: the provider's wallet received it less the fee
    const received = BigInt(claim.payout) - BigInt(claim.fee);
    const figures = `payout (gross) ${usdc(claim.payout)} · fee ${usdc(claim.fee)} · provider received ${usdc(received)}`
      + ` · total claimed ${usdc(claim.totalClaimed)} USDC`;
    expect(activityText.includes(figures), `the claim in the recent activity shows ${activityText}, expected ${figures}`);
    expect(await page.locator(`[data-testid=explorer-activity] li[data-activity=opened][data-channel-id="${claim.channelId}"]`).count() === 1,
      'the channel\'s opening is not in the recent activity');
    await shot(page, env, 'channel-explorer');

    await activity.locator(`a[href="/channels/${claim.channelId}"]`).click();
    const claimed = page.locator('[data-testid=channel-events] li[data-event-type=ChannelClaimed]');
    await claimed.waitFor();
    const shown = await claimed.locator('[data-testid=event-figures]').textContent();
    expect(shown === figures, `the claim in the history shows "${shown}", expected "${figures}"`);
    const terms = await page.textContent('[data-testid=channel-terms]');
    expect(terms.includes(`Claimed (gross)${usdc(claim.totalClaimed)} USDC`) && terms.includes(`Fees paid${usdc(claim.fee)} USDC`)
      && terms.includes(`Provider received${usdc(received)} USDC`),
      `the terms show ${terms}`);
    await shot(page, env, 'channel-claimed');
    page.assertNoErrors();
    await page.close();
  },
};

const providerClaimables = {
  name: 'my channels: the provider sees the channel among its claimables',
  async run(context, env) {
    expect(env.providerKey && env.channelId, 'no provider key or channel given');
    const page = await open(context, env, env.providerKey);
    await page.goto(`${env.baseUrl}/my-channels`);
    await page.click('button[name=connectWallet]');
    const row = page.locator(`[data-testid=claims] tr[data-channel-id="${env.channelId}"]`);
    await row.waitFor({ timeout: 20_000 });
    const args = await row.locator('pre.claim-args').textContent();
    expect(args.includes(env.channelId) && /0x[0-9a-f]{130}/.test(args), `claim arguments incomplete: ${args}`);
    await page.locator('[data-testid=earnings-chart]').waitFor();
    await shot(page, env, 'my-channels-provider');
    page.assertNoErrors();
    await page.close();
  },
};

const cleanup = {
  name: 'stop the stub provider',
  async run() {
    await state.stub?.close();
  },
};

export const scenarios = [registerAndApprove, alreadyListed, sameNameFlagged, browseAndFilter, twoHundredProviders, providerPage,
  providerDocumentsAcrossOrigins, skills, unfilledSkillRoles, invalidSkill, replay, channelPage, explorerAndClaim,
  providerClaimables, providerDashboard, strangerOnDashboard, notFoundPages, narrowScreen, cleanup];
