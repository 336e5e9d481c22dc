// Addresses and origins: the marketplace's provider page reads a provider's public documents from
// the provider's own origin, while that origin's paid and wallet-signed endpoints stay unreadable to
// other sites; and a browser at an address that is no page gets a page, API clients the JSON.
import { expect, open, shot, state } from './common.mjs';

/** The same service under the loopback's other name: another origin, as a provider's server is. */
function otherOrigin(baseUrl) {
  const url = new URL(baseUrl);
  url.hostname = url.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return url.origin;
}

export const providerDocumentsAcrossOrigins = {
  name: "provider page: a provider's documents inline from its own origin; its paid and signed endpoints stay closed",
  async run(context, env) {
    const id = state.providerId;
    expect(id, 'no provider registered by an earlier scenario');
    // the provider's directory entry points at this service's own gateway on the other origin: the
    // page reads a real gateway's /v1/docs across origins, as it reads every provider's
    const gateway = otherOrigin(env.baseUrl);
    const page = await open(context, env);
    await page.route(`${env.baseUrl}/api/directory/providers/${id}`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), apiUrl: gateway } });
    });
    await page.goto(`${env.baseUrl}/providers/${id}`);
    const docs = page.locator('[data-testid=provider-docs]');
    await docs.waitFor({ timeout: 20_000 });
    const text = await docs.textContent();
    expect(text.includes('X-CHAN-Voucher') && text.includes(`${gateway}/v1/chat/completions`), `the docs shown: ${text.slice(0, 300)}`);
    await shot(page, env, 'provider-docs-across-origins');

    const reads = await page.evaluate(async (origin) => {
      const attempt = async (path, init) => {
        try {
          const answer = await fetch(origin + path, init);
          await answer.text();
          return `read ${answer.status}`;
        } catch {
          return 'refused';
        }
      };
      const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
      return {
        pricing: await attempt('/v1/pricing'),
        models: await attempt('/v1/models'),
        pricingWithCredentials: await attempt('/v1/pricing', { credentials: 'include' }),
        chat: await attempt('/v1/chat/completions', { ...json, body: '{"model":"echo-1","messages":[]}' }),
        simpleChat: await attempt('/v1/chat/completions', { method: 'POST', body: '{"model":"echo-1","messages":[]}' }),
        close: await attempt('/v1/close-channel', { ...json, body: '{}' }),
        dashboard: await attempt('/api/provider/dashboard'),
      };
    }, gateway);
    expect(reads.pricing === 'read 200' && reads.models === 'read 200', `the public documents: ${JSON.stringify(reads)}`);
    expect(['pricingWithCredentials', 'chat', 'simpleChat', 'close', 'dashboard'].every((k) => reads[k] === 'refused'),
      `another origin read more than the public documents: ${JSON.stringify(reads)}`);
    page.assertNoErrors();
    await page.close();
  },
};

export const notFoundPages = {
  name: 'a browser at an address that is no page gets a page; API clients keep the JSON',
  async run(context, env) {
    const page = await open(context, env);
    const answer = await page.goto(`${env.baseUrl}/no/such/page`);
    expect(answer.status() === 404 && answer.headers()['content-type'].startsWith('text/html'),
      `a browser got ${answer.status()} ${answer.headers()['content-type']}`);
    await page.locator('[data-testid=not-found]').waitFor();
    expect(await page.locator('header nav a[href="/"]').count() === 1, 'the page has no way to the marketplace');
    await shot(page, env, 'not-found');

    // a marketplace answers its pages at /dashboard, as at any address that is no page of its own
    // (MarketplaceRoleTest); this process plays the provider too, whose dashboard is there
    await page.route(`${env.baseUrl}/dashboard`, async (route) =>
      route.fulfill({ response: await route.fetch({ url: `${env.baseUrl}/no-dashboard-on-a-marketplace` }) }));
    const dashboard = await page.goto(`${env.baseUrl}/dashboard`);
    expect(dashboard.status() === 404, `the marketplace's /dashboard answered ${dashboard.status()}`);
    const elsewhere = await page.locator('[data-testid=dashboard-elsewhere]').textContent();
    expect(elsewhere.includes("each provider's own server"), `the page says ${elsewhere}`);
    await shot(page, env, 'marketplace-dashboard-address');
    page.assertNoErrors();
    await page.close();

    for (const accept of [null, 'application/json', '*/*']) {
      const reply = await fetch(`${env.baseUrl}/no/such/page`, { headers: accept ? { accept } : {} });
      const body = await reply.text();
      expect(reply.status === 404 && reply.headers.get('content-type').startsWith('application/problem+json')
        && JSON.parse(body).code === 'not_found', `Accept ${accept}: ${reply.status} ${reply.headers.get('content-type')} ${body}`);
    }
  },
};
