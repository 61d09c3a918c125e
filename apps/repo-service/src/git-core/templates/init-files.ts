import { DomainError } from '@cairn/contracts';
import type { TemplateCatalogue } from './template-catalogue.js';

/** What a licence's placeholders stand for (Gitea's `LicenseValues`). */
export interface LicenseValues {
  owner: string;
  repo: string;
  year: string;
}

/** SPDX's, GitHub's and Gitea's placeholder spellings; every occurrence is replaced, as Gitea does. */
const PLACEHOLDERS: Record<keyof LicenseValues, string[]> = {
  year: ['<year>', '[year]', '[yyyy]', '{year}', '{yyyy}'],
  owner: [
    '<copyright holders>', '<owner>', '<name of author>', '[name of copyright owner]', '{name of copyright owner}',
    '[fullname]', '{fullname}', '[NAME]', '{name}',
  ],
  repo: ['<program>', '{program}'],
};

export function fillLicense(text: string, values: LicenseValues): string {
  let out = text;
  for (const field of Object.keys(PLACEHOLDERS) as (keyof LicenseValues)[]) {
    for (const placeholder of PLACEHOLDERS[field]) out = out.split(placeholder).join(values[field]);
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** Gitea's `.gitignore` of several templates: each under a `# ---> <Name>` line, then an empty line. */
export function assembleGitignore(templates: { name: string; source: string }[]): string {
  return templates.map((t) => `# ---> ${t.name}\n${t.source}${t.source.endsWith('\n') ? '' : '\n'}\n`).join('');
}

/** Gitea's `gitignores`: comma-separated names; blanks and repeats dropped, order kept. */
export function parseGitignoreNames(list: string | undefined): string[] {
  const names = (list ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  return [...new Set(names)];
}

/** What a creation asks `auto_init` to add besides the README (Gitea's `CreateRepoOption`). */
export interface TemplateChoice {
  gitignores?: string;
  license?: string;
}

export interface InitFile {
  path: string;
  content: string;
}

/** UNPROCESSABLE for an unknown name whether or not `auto_init` is set, so a typo is never silently ignored. */
export function templateFiles(catalogue: TemplateCatalogue, choice: TemplateChoice, values: LicenseValues): InitFile[] {
  const files: InitFile[] = [];
  const gitignores = parseGitignoreNames(choice.gitignores).map((name) => {
    const template = catalogue.gitignore(name);
    if (!template) throw DomainError.unprocessable(`unknown gitignore "${name}"`);
    return template;
  });
  if (gitignores.length > 0) files.push({ path: '.gitignore', content: assembleGitignore(gitignores) });
  const licenseName = choice.license?.trim();
  if (licenseName) {
    const license = catalogue.license(licenseName);
    if (!license) throw DomainError.unprocessable(`unknown license "${licenseName}"`);
    files.push({ path: 'LICENSE', content: fillLicense(license.text, values) });
  }
  return files;
}
