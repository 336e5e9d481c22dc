// The pages on a phone (390 px wide): nothing wider than the screen, model names wrapped only after
// a separator, never inside a word, and the sign-up form's streaming label whole beside its box.
import { expect, open, openConsole, shot, state } from './common.mjs';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function assertFits(page, what) {
  const { scroll, client, wide } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // the innermost elements reaching past the screen's edge, to say what is too wide
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 0.5)
      .filter((e) => ![...e.children].some((child) => child.getBoundingClientRect().right > width + 0.5))
      .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).replace(/ /g, '.')}` : ''}`
        + ` (${Math.round(e.getBoundingClientRect().right)} px): ${(e.textContent ?? '').slice(0, 40)}`);
    return { scroll: document.documentElement.scrollWidth, client: width, wide };
  });
  expect(scroll <= client, `${what} is ${scroll} px wide on a screen of ${client} px: ${wide.join('; ')}`);
}

/** The elements' lines that start inside a word: a line may start only after a separator or a space. */
async function assertNoMidWordBreaks(page, selector, what) {
  const breaks = await page.locator(selector).evaluateAll((elements) => elements.flatMap((element) => {
    const found = [];
    let previousTop = null;
    let previous = '';
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (previousTop !== null && rect.top > previousTop + 2 && !/[-/_:\s]/.test(previous)) {
          found.push(`"${element.textContent}" breaks before "${node.data.slice(i)}"`);
        }
        previousTop = rect.top;
        previous = node.data[i];
      }
    }
    return found;
  }));
  expect(breaks.length === 0, `${what}: ${breaks.join('; ')}`);
}

/** The streaming label's text on one line, its checkbox on that line before it. */
async function assertStreamingLabelWhole(page, what) {
  const label = await page.locator('label:has(input[name=supportsStreaming])').evaluate((element) => {
    const box = element.querySelector('input').getBoundingClientRect();
    const tops = new Set();
    let left = Infinity;
    let top = Infinity;
    let bottom = -Infinity;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width === 0) continue;
        tops.add(Math.round(rect.top / 4));
        left = Math.min(left, rect.left);
        top = Math.min(top, rect.top);
        bottom = Math.max(bottom, rect.bottom);
      }
    }
    const middle = (box.top + box.bottom) / 2;
    return { text: element.textContent.trim(), lines: tops.size, besideBox: box.right <= left && middle >= top && middle <= bottom };
  });
  expect(label.text === 'Streams answers (stream: true)' && label.lines === 1 && label.besideBox,
    `${what}: the streaming label "${label.text}" takes ${label.lines} lines, beside its box: ${label.besideBox}`);
}

export const narrowScreen = {
  name: 'every page on a 390 px screen: no sideways scrolling, model names whole',
  async run(context, env) {
    expect(state.providerId && env.providerKey && env.channelId, 'no provider registered by an earlier scenario, or no paid channel');
    const page = await open(context, env, env.providerKey);
    await page.setViewportSize(PHONE);
    const visit = async (path, ready, name) => {
      await page.goto(`${env.baseUrl}${path}`);
      await page.locator(ready).first().waitFor({ timeout: 20_000 });
      await assertFits(page, path);
      await shot(page, env, `narrow-${name}`);
    };

    await visit('/?online=false', 'table.providers tbody tr', 'marketplace');
    await assertNoMidWordBreaks(page, 'table.providers ul.models code', 'the marketplace\'s model names');
    await visit(`/providers/${state.providerId}`, '[data-testid=pricing]', 'provider');
    await assertNoMidWordBreaks(page, '[data-testid=pricing] code', 'the provider\'s model names');
    await visit('/become-a-provider', 'input[name=supportsStreaming]', 'become-a-provider');
    await assertStreamingLabelWhole(page, 'on a phone');
    await page.setViewportSize(DESKTOP);
    await assertStreamingLabelWhole(page, 'on a desktop');
    await page.setViewportSize(PHONE);
    await visit('/skills', 'table tbody tr', 'skills');
    await visit('/skills/compare-sources', '[data-testid=skill-graph]', 'skill');
    await visit('/channels', '[data-testid=explorer-totals]', 'channels');
    await visit(`/channels/${env.channelId}`, '[data-testid=channel-terms]', 'channel');
    await visit('/no/such/page', '[data-testid=not-found]', 'not-found');

    await openConsole(page, env);
    await page.locator('input[type=checkbox]').first().check();
    await page.locator('[data-testid=health] h3').first().waitFor();
    await assertFits(page, '/console');
    await shot(page, env, 'narrow-console');

    await page.goto(`${env.baseUrl}/dashboard`);
    await page.click('button[name=connectWallet]');
    await page.locator('[data-testid=earnings]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=days-chart] canvas').first().waitFor();
    await assertFits(page, '/dashboard');
    await assertNoMidWordBreaks(page, '[data-testid=models] code', 'the dashboard\'s model names');
    await shot(page, env, 'narrow-dashboard');

    await page.goto(`${env.baseUrl}/my-channels`);
    await page.click('button[name=connectWallet]');
    await page.locator('[data-testid=earnings-chart] canvas').first().waitFor({ timeout: 20_000 });
    await assertFits(page, '/my-channels');
    await shot(page, env, 'narrow-my-channels');
    page.assertNoErrors();
    await page.close();
  },
};
