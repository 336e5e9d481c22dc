// What the pages say about a provider's listing: a wallet that is a provider already sees its listing
// where the sign-up form would be, and a skill says which of its roles no listed provider fills.
import { expect, open, shot, state } from './common.mjs';

export const alreadyListed = {
  name: 'become a provider: a wallet that is already a provider sees its listing, not a blank form',
  async run(context, env) {
    expect(state.providerKey && state.providerId, 'no provider registered by an earlier scenario');
    const page = await open(context, env, state.providerKey);
    await page.goto(`${env.baseUrl}/become-a-provider`);
    await page.click('button[name=connectWallet]');
    const listing = page.locator('[data-testid=already-registered]');
    await listing.waitFor({ timeout: 20_000 });
    expect(await page.locator('input[name=name]').count() === 0, 'the sign-up form is still shown');
    const text = await listing.textContent();
    expect(text.includes(`E2E provider ${state.modelToken}`) && text.includes(`${state.modelToken}-chat`)
      && text.includes('0.00015 in / 0.0006 out per 1k tokens'), `the listing shows ${text}`);
    expect((await page.textContent('[data-testid=listed-state]')).trim() === 'approved', 'the listing is not shown as approved');
    const link = await page.getAttribute('[data-testid=listing-link]', 'href');
    expect(link === `/providers/${state.providerId}`, `the listing links to ${link}`);
    await shot(page, env, 'become-a-provider-already-listed');
    page.assertNoErrors();
    await page.close();
  },
};

export const unfilledSkillRoles = {
  name: 'skills: a role no listed provider fills says so, a filled one names its providers',
  async run(context, env) {
    const token = state.modelToken;
    expect(token && state.providerId, 'no provider registered by an earlier scenario');
    // one role the provider registered through the form fills, one that needs a model nobody sells
    const slug = `e2e-roles-${token}`;
    const skill = {
      name: `Roles ${token}`, description: 'Drafted by a listed provider, reviewed by a model no provider sells.',
      providers: [{ role: 'writer', category: 'llm', models: [`${token}-chat`], deposit: '0.10' },
        { role: 'reviewer', category: 'llm', models: [`${token}-absent`], deposit: '0.10' }],
      steps: [{ id: 'draft', role: 'writer', after: [], message: {}, template: 'Write about {{user_prompt}}' },
        { id: 'review', role: 'reviewer', after: ['draft'], message: {}, template: 'Review {{draft}}' }],
      output: 'review',
    };
    const published = await fetch(`${env.baseUrl}/api/skills/${slug}`, {
      method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${env.adminToken}` },
      body: JSON.stringify(skill),
    });
    expect(published.ok, `publishing the skill answered ${published.status}: ${await published.text()}`);

    const page = await open(context, env);
    await page.goto(`${env.baseUrl}/skills/${slug}`);
    const note = page.locator('[data-testid=skill-unfilled]');
    await note.waitFor();
    const text = await note.textContent();
    expect(text.includes(`reviewer: no listed llm provider offers the model ${token}-absent`) && !text.includes('writer'),
      `the skill says: ${text}`);
    const writer = page.locator('tr[data-role=writer] [data-testid=role-providers]');
    expect(await writer.locator(`a[href="/providers/${state.providerId}"]`).count() === 1,
      `the writer's providers: ${await writer.textContent()}`);
    expect(await page.locator('[data-testid=skill-graph] g.node.unfilled[data-node=review]').count() === 1
      && await page.locator('[data-testid=skill-graph] g.node.unfilled').count() === 1, 'the graph does not mark the review alone');
    await shot(page, env, 'skill-unfilled-role');

    await page.goto(`${env.baseUrl}/skills`);
    const listed = page.locator(`tr[data-skill="${slug}"] [data-testid=skill-unfilled]`);
    await listed.waitFor();
    expect((await listed.textContent()).includes('reviewer'), `the list says: ${await listed.textContent()}`);
    page.assertNoErrors();
    await page.close();
  },
};
