// The operator console beyond approvals: publishing an invalid skill, a replay, the health in words.
import { expect, open, openConsole, shot } from './common.mjs';

export const invalidSkill = {
  name: 'console: an invalid skill shows its problems',
  async run(context, env) {
    const page = await open(context, env);
    await openConsole(page, env);
    await page.fill('input[name=slug]', 'e2e-invalid-skill');
    await page.fill('textarea[name=skill]', JSON.stringify({
      name: 'Broken', description: 'depends on a step that does not exist',
      providers: [{ role: 'writer', category: 'llm', models: ['x'], deposit: '0.10' }],
      steps: [{ id: 'write', role: 'writer', after: ['missing'], message: {} }],
      output: 'nowhere',
    }, null, 2));
    await page.locator('[data-testid=publish-skill] button[type=submit]').click();
    const problems = page.locator('[data-testid=skill-problems] li');
    await problems.first().waitFor();
    const text = await page.textContent('[data-testid=skill-problems]');
    expect(await problems.count() >= 2, `expected every problem listed: ${text}`);
    expect(text.includes("'missing'") && text.includes('output'), `the problems do not name the faults: ${text}`);
    await shot(page, env, 'console-invalid-skill');
    page.assertNoErrors();
    await page.close();
  },
};

export const replay = {
  name: 'console: replay runs to COMPLETED with matching checksums',
  async run(context, env) {
    const page = await open(context, env);
    await openConsole(page, env);
    await page.click('button[name=startReplay]');
    await page.locator('[data-testid=replay-state]', { hasText: 'COMPLETED' }).waitFor({ timeout: 120_000 });
    await page.locator('[data-testid=replay-verdict]').waitFor();
    const verdict = await page.textContent('[data-testid=replay-verdict]');
    expect(verdict.includes('Checksums match'), `replay verdict: ${verdict}`);
    expect(await page.textContent('[data-testid=checksum-before]') === await page.textContent('[data-testid=checksum-after]'),
      'the checksums shown differ');
    await page.locator('[data-testid=health-chainListener] h3').waitFor();
    await page.locator('[data-testid=listener-lag]').waitFor();
    // the health in words: amounts in POL with the unit, never wei, and no camelCase names
    const balance = (await page.textContent('[data-testid=faucet-balance]')).trim();
    expect(/^\d+(\.\d{1,18})? POL$/.test(balance), `the faucet balance shows ${balance}`);
    const health = await page.textContent('[data-testid=health]');
    expect(!/(^|[^.\d])\d{16,}/.test(health), `the health shows a raw amount: ${health}`);
    const amounts = await page.locator('[data-testid=health] dd[data-detail$=Wei]').allTextContents();
    expect(amounts.length > 0 && amounts.every((amount) => /^\d+(\.\d{1,18})? POL$/.test(amount)), `the health's amounts: ${amounts.join(', ')}`);
    const labels = await page.locator('[data-testid=health] dt').allTextContents();
    expect(labels.length > 0 && labels.every((label) => !/[a-z][A-Z]/.test(label)), `the health's labels: ${labels.join(', ')}`);
    await shot(page, env, 'console-replay');
    page.assertNoErrors();
    await page.close();
  },
};
