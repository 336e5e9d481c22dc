// What the scenarios share: failing with a message, pages with a test wallet that collect their
// errors, screenshots, USDC text, the console signed in, and the state scenarios pass on.
import { pageWithWallet } from './browser.mjs';

export class Failure extends Error {}
export function expect(condition, message) {
  if (!condition) throw new Failure(message);
}

/** What a scenario creates for the later ones (the provider registered through the form, its key, …). */
export const state = {};

export async function shot(page, env, name) {
  await page.screenshot({ path: `${env.screenshots}/${name}.png`, fullPage: true });
}

export async function open(context, env, key) {
  const page = await pageWithWallet(context, key);
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  // the pages must work under the service's Content-Security-Policy
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) errors.push(message.text());
  });
  page.assertNoErrors = () => expect(errors.length === 0, `errors in the page: ${errors.join('; ')}`);
  return page;
}

/** USDC text of base units, as the pages (and the service) write it: trailing zeros stripped, no grouping. */
export function usdc(units) {
  const value = BigInt(units);
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? `${value / 1_000_000n}` : `${value / 1_000_000n}.${fraction}`;
}

export async function openConsole(page, env) {
  await page.goto(`${env.baseUrl}/console`);
  await page.fill('input[name=adminToken]', env.adminToken);
  await page.click('button[type=submit]');
  await page.locator('[data-testid=replay]').waitFor();
  expect(!page.url().includes(env.adminToken), 'the admin token is in the address');
  const cookies = await page.context().cookies();
  expect(!cookies.some((c) => c.value.includes(env.adminToken)), 'the admin token is in a cookie');
}
