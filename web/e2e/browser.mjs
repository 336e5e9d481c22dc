// Headless Chromium from the machine's packages (Debian `chromium`), driven by playwright-core:
// no browser download. Each run gets a fresh profile directory, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

export async function launchBrowser() {
  const profile = await mkdtemp(join(tmpdir(), 'chan-web-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHAN_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A page with a test EIP-1193 wallet as window.ethereum: the page's viem calls reach this process,
 * where a viem local account of `privateKey` answers them (accounts, chain id, personal_sign).
 */
export async function pageWithWallet(context, privateKey) {
  const page = await context.newPage();
  if (privateKey) {
    const account = privateKeyToAccount(privateKey);
    await page.exposeFunction('__chanTestWallet', async (method, params) => {
      switch (method) {
        case 'eth_requestAccounts':
        case 'eth_accounts':
          return [account.address];
        case 'eth_chainId':
          return '0x89';
        case 'personal_sign': {
          const [message, address] = params;
          if (address.toLowerCase() !== account.address.toLowerCase()) throw new Error(`unknown account ${address}`);
          return account.signMessage({ message: { raw: message } });
        }
        default:
          throw new Error(`the test wallet does not answer ${method}`);
      }
    });
    await page.addInitScript(() => {
      window.ethereum = {
        isChanTestWallet: true,
        request: ({ method, params }) => window.__chanTestWallet(method, params ?? []),
        on() {},
        removeListener() {},
      };
    });
  }
  return page;
}
