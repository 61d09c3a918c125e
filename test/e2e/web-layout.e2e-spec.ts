/**
 * The web UI's foundation (issue 13): an anonymous visit renders the layout (header with sign-in, the stylesheet and
 * script served from `/assets/`), the page carries a CSP without inline scripts, and axe finds no serious violations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import {
  chromiumAvailable, computedStyle, expectAccessible, launchBrowser, newPage, screenshot, type Browser,
} from '../support/browser.js';

describe.skipIf(!chromiumAvailable())('web layout', () => {
  let suite: TestSuite;
  let browser: Browser;

  beforeAll(async () => {
    suite = await sharedTestSuite();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await suite?.stop();
  });

  it('renders the home page for an anonymous visitor in the layout, with a strict CSP', async () => {
    const { context, page } = await newPage(browser, suite.baseUrl);
    try {
      const response = await page.goto('/');
      expect(response?.status()).toBe(200);
      const csp = response?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      await expect.poll(() => page.title()).toBe('Cairn');
      expect(await page.getByRole('link', { name: 'Sign in' }).first().isVisible()).toBe(true);
      expect(await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Explore', exact: true }).isVisible()).toBe(true);
      // The stylesheet applied (served from /assets/, allowed by the CSP): the header has its background.
      expect(await computedStyle(page, 'header.site-header', 'backgroundColor')).toBe('rgb(31, 47, 63)');
      // No session is created for a visitor who only reads.
      expect(await context.cookies()).toEqual([]);
      await screenshot(page, 'web-layout-anonymous-home');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('fits a phone screen: no horizontal scrolling, the sign-in link reachable', async () => {
    const { context, page } = await newPage(browser, suite.baseUrl, { phone: true });
    try {
      await page.goto('/user/login');
      const overflow = await page.evaluate(() => {
        const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } })
          .document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
      await screenshot(page, 'web-layout-phone-sign-in');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('answers an unknown asset with 404 and serves the stylesheet with an ETag', async () => {
    const css = await fetch(`${suite.baseUrl}/assets/cairn.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const etag = css.headers.get('etag')!;
    const again = await fetch(`${suite.baseUrl}/assets/cairn.css`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await fetch(`${suite.baseUrl}/assets/nope.js`)).status).toBe(404);
  });
});
