// Production refuses the public development secrets, so a local installation gets random ones, kept (owner-only) in
// its data folder: SECRET_KEY seals data at rest, so it must survive restarts.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCAL_SECRETS = Object.freeze([
  { name: 'internalToken', env: 'CAIRN__SECURITY__INTERNAL_TOKEN' },
  { name: 'secretKey', env: 'CAIRN__SECURITY__SECRET_KEY' },
]);

/**
 * Settings the operator configured always win and are never written here.
 * @param {string} dir  the installation's folder
 * @param {Set<string>} configured  names from {@link LOCAL_SECRETS} that are already set
 * @returns {{ env: Record<string, string>, file: string, created: string[] }}
 */
export function localSecrets(dir, configured) {
  const file = path.join(dir, 'secrets.json');
  /** @type {Record<string, string>} */
  let kept = {};
  try {
    kept = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (/** @type {any} */ (err)?.code !== 'ENOENT') {
      throw new Error(`${file} is unreadable (${/** @type {Error} */ (err).message}): fix or delete it`, { cause: err });
    }
  }
  /** @type {string[]} */
  const created = [];
  /** @type {Record<string, string>} */
  const env = {};
  for (const s of LOCAL_SECRETS) {
    if (configured.has(s.name)) continue;
    if (typeof kept[s.name] !== 'string' || kept[s.name].length < 32) {
      kept[s.name] = randomBytes(32).toString('hex');
      created.push(s.name);
    }
    env[s.env] = kept[s.name];
  }
  if (created.length) {
    writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { env, file, created };
}
