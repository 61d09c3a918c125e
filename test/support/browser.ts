/**
 * The web UI's browser-test harness: Debian's Chromium (`/usr/bin/chromium`, installed by `.ci/run`) driven by
 * `playwright-core` — no browser download. One browser per test file, a fresh context (cookies, storage) per test;
 * helpers to sign in through the real form, save a screenshot to `test/artifacts/`, and run axe-core on a page
 * (serious and critical violations fail). Pages keep their CSP: axe is evaluated over the DevTools protocol, which
 * CSP does not govern, and any CSP violation the page reports fails {@link expectAccessible}.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { REPO_ROOT } from '../../scripts/suite.mjs';

export type { Browser, BrowserContext, Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test', 'artifacts');

/** Whether Chromium is installed; browser suites skip with a loud message when it is not. */
export function chromiumAvailable(): boolean {
  const found = existsSync(CHROMIUM_PATH);
  if (!found) {
    process.stderr.write(`\n!!! browser tests SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)\n\n`);
  }
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Root in containers/CI cannot use Chromium's sandbox; /dev/shm is small there.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Console messages that report a Content-Security-Policy violation, per page. */
const cspViolations = new WeakMap<Page, string[]>();

/** A fresh context (no cookies) whose relative URLs resolve against the suite, and one page in it (desktop or phone size). */
export async function newPage(
  browser: Browser,
  baseUrl: string,
  options: { phone?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const viewport = options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 };
  const context = await browser.newContext({ baseURL: baseUrl, viewport, isMobile: options.phone === true });
  const page = await context.newPage();
  const seen: string[] = [];
  cspViolations.set(page, seen);
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content[- ]Security[- ]Policy/i.test(msg.text())) seen.push(msg.text());
  });
  return { context, page };
}

/** Saves a full-page screenshot as `test/artifacts/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A computed CSS property of the first element matching `selector` (e.g. to see the stylesheet applied). */
export async function computedStyle(page: Page, selector: string, property: string): Promise<string> {
  return page.locator(selector).first().evaluate(
    (el, prop) => {
      const view = globalThis as unknown as { getComputedStyle: (e: unknown) => Record<string, string> };
      return view.getComputedStyle(el)[prop];
    },
    property,
  );
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs axe-core (WCAG 2 A/AA rules) on the current page; returns the serious and critical violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // These functions run in the page (the tests compile without DOM types: hence globalThis).
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const inPage = globalThis as unknown as { axe: typeof import('axe-core'); document: import('axe-core').ElementContext };
    const result = await inPage.axe.run(inPage.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Fails on serious/critical axe violations and on any CSP violation the page reported. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page), `axe on ${page.url()}`).toEqual([]);
  expect(cspViolations.get(page) ?? [], `CSP violations on ${page.url()}`).toEqual([]);
}

export interface SignInOptions {
  /** A TOTP code (or recovery code) for the second step, when the account has two-factor enrolled. */
  otp?: string;
  /** Where the sign-in page should send the browser afterwards. */
  redirectTo?: string;
}

/** Signs in through the real form (`/user/login`, then `/user/two_factor` when a code is given). */
export async function signIn(
  page: Page,
  account: { username: string; password: string },
  options: SignInOptions = {},
): Promise<void> {
  const query = options.redirectTo ? `?redirect_to=${encodeURIComponent(options.redirectTo)}` : '';
  await page.goto(`/user/login${query}`);
  await page.getByLabel('Username or email').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  if (options.otp !== undefined) {
    await page.locator('input[name=passcode]').fill(options.otp);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Verify' }).click()]);
  }
}

/** The page's horizontal overflow in CSS pixels (0 when nothing sticks out sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
      .document.documentElement;
    return Math.max(0, root.scrollWidth - root.clientWidth);
  });
}

/**
 * The rule for every page: axe clean (serious/critical) at 1280 px and at 390 px, and nothing wider than a
 * 390 px phone. Restores the desktop viewport afterwards. Saves `<name>.png` and `<name>-phone.png` when named.
 */
export async function expectAccessibleAtBothWidths(page: Page, name?: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectAccessible(page);
  if (name) await screenshot(page, name);
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    expect(await horizontalOverflow(page), `horizontal overflow at 390 px on ${page.url()}`).toBe(0);
    await expectAccessible(page);
    if (name) await screenshot(page, `${name}-phone`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

/** Clicks a button (by its accessible name) and waits for the page the form leads to; answers that page's status. */
export async function submitByButton(page: Page, button: string | RegExp): Promise<number | undefined> {
  const [response] = await Promise.all([
    page.waitForNavigation({ waitUntil: 'load' }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return response?.status();
}
