import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Every script and stylesheet the web UI serves lives in `apps/gateway/web/static/` (no build step, no CDN). */
const STATIC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/static');

describe('web UI asset budget', () => {
  it('keeps all JavaScript and CSS together under 100 KB', () => {
    const assets = readdirSync(STATIC_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(m?js|css)$/.test(f));
    expect(assets.length).toBeGreaterThan(0);
    const total = assets.reduce((n, f) => n + statSync(path.join(STATIC_DIR, f)).size, 0);
    expect(total, `JS+CSS: ${assets.join(', ')}`).toBeLessThan(100_000);
  });
});
