import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `apps/repo-service/templates/` (the same from `src/templates/` and `dist/templates/`). */
export const TEMPLATES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../templates');

export interface LicenseTemplate {
  /** SPDX identifier, the file's name. */
  key: string;
  name: string;
  /** The licence's own reference page (spdx-license-list's `url`). */
  url: string;
  text: string;
}

/** The `.gitignore` and licence templates, read once (a few hundred kB); names match exactly, else ignoring case. */
export class TemplateCatalogue {
  private readonly gitignores = new Map<string, string>();
  private readonly licenses = new Map<string, LicenseTemplate>();

  constructor(dir: string = TEMPLATES_DIR) {
    const byName = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });
    for (const name of readdirSync(join(dir, 'gitignore')).sort(byName)) {
      this.gitignores.set(name, readFileSync(join(dir, 'gitignore', name), 'utf8'));
    }
    for (const file of readdirSync(join(dir, 'license')).filter((f) => f.endsWith('.json')).sort(byName)) {
      const key = file.slice(0, -'.json'.length);
      const data = JSON.parse(readFileSync(join(dir, 'license', file), 'utf8')) as {
        name: string; url: string; licenseText: string;
      };
      this.licenses.set(key, { key, name: data.name, url: data.url, text: data.licenseText });
    }
  }

  gitignoreNames(): string[] {
    return [...this.gitignores.keys()];
  }

  licenseList(): LicenseTemplate[] {
    return [...this.licenses.values()];
  }

  gitignore(name: string): { name: string; source: string } | undefined {
    const key = lookup(this.gitignores, name);
    return key === undefined ? undefined : { name: key, source: this.gitignores.get(key)! };
  }

  license(name: string): LicenseTemplate | undefined {
    const key = lookup(this.licenses, name);
    return key === undefined ? undefined : this.licenses.get(key);
  }
}

function lookup(map: Map<string, unknown>, name: string): string | undefined {
  if (map.has(name)) return name;
  const lower = name.toLowerCase();
  return [...map.keys()].find((k) => k.toLowerCase() === lower);
}
