import { describe, expect, it } from 'vitest';
import { DomainError } from '@cairn/contracts';
import { assembleGitignore, fillLicense, parseGitignoreNames, templateFiles } from './init-files.js';
import { TemplateCatalogue } from './template-catalogue.js';

const values = { owner: 'acme', repo: 'widget', year: '2031' };

describe('templates of the initial commit', () => {
  const catalogue = new TemplateCatalogue();

  it('reads the committed templates: the gitignores by name and the eight licences with their SPDX texts', () => {
    const names = catalogue.gitignoreNames();
    for (const n of ['Node', 'Go', 'Python', 'Java', 'Rust', 'C', 'C++', 'macOS']) expect(names).toContain(n);
    expect(names.indexOf('C')).toBeLessThan(names.indexOf('macOS'));
    expect(names.indexOf('macOS')).toBeLessThan(names.indexOf('Maven'));
    expect(catalogue.licenseList().map((l) => l.key)).toEqual([
      'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'GPL-2.0-only', 'GPL-3.0-only', 'MIT', 'MPL-2.0', 'Unlicense',
    ]);
    expect(catalogue.license('MIT')).toMatchObject({ name: 'MIT License', url: 'https://opensource.org/license/mit/' });
    expect(catalogue.gitignore('Node')?.source).toContain('node_modules/');
  });

  it('finds names exactly, then ignoring case, and answers the canonical name', () => {
    expect(catalogue.gitignore('node')?.name).toBe('Node');
    expect(catalogue.license('apache-2.0')?.key).toBe('Apache-2.0');
    expect(catalogue.gitignore('Cobol')).toBeUndefined();
    expect(catalogue.license('WTFPL')).toBeUndefined();
  });

  it('splits Gitea\'s comma-separated gitignores, dropping blanks and repeats', () => {
    expect(parseGitignoreNames(' Node, ,Go,Node,')).toEqual(['Node', 'Go']);
    expect(parseGitignoreNames(undefined)).toEqual([]);
  });

  it('joins templates as Gitea does: a "# ---> Name" line, the text, an empty line', () => {
    expect(assembleGitignore([{ name: 'A', source: 'a/\n' }, { name: 'B', source: 'b' }])).toBe('# ---> A\na/\n\n# ---> B\nb\n\n');
  });

  it('fills the copyright line of each licence kind, and leaves texts without one as they are', () => {
    const mit = fillLicense(catalogue.license('MIT')!.text, values);
    expect(mit).toContain('Copyright (c) 2031 acme\n');
    expect(mit).not.toMatch(/<year>|<copyright holders>/);
    expect(fillLicense(catalogue.license('BSD-3-Clause')!.text, values)).toContain('Copyright (c) 2031 acme.');
    expect(fillLicense(catalogue.license('Apache-2.0')!.text, values)).toContain('Copyright 2031 acme');
    const gpl3 = fillLicense(catalogue.license('GPL-3.0-only')!.text, values);
    expect(gpl3).toContain('     Copyright (C) 2031  acme\n');
    expect(gpl3).toContain('     widget  Copyright (C) 2031  acme\n');
    const mpl = catalogue.license('MPL-2.0')!.text;
    expect(fillLicense(mpl, values)).toBe(mpl.endsWith('\n') ? mpl : `${mpl}\n`);
  });

  it('makes .gitignore and LICENSE from a creation\'s choice, nothing without one, and 422 for an unknown name', () => {
    const files = templateFiles(catalogue, { gitignores: 'Go,node', license: 'MIT' }, values);
    expect(files.map((f) => f.path)).toEqual(['.gitignore', 'LICENSE']);
    expect(files[0].content.startsWith(`# ---> Go\n${catalogue.gitignore('Go')!.source}`)).toBe(true);
    expect(files[0].content).toContain('\n# ---> Node\n');
    expect(files[1].content).toContain('Copyright (c) 2031 acme');
    expect(templateFiles(catalogue, { gitignores: '', license: ' ' }, values)).toEqual([]);
    expect(() => templateFiles(catalogue, { gitignores: 'Go,Cobol' }, values)).toThrow(/unknown gitignore "Cobol"/);
    const err = (() => { try { templateFiles(catalogue, { license: 'WTFPL' }, values); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).message).toBe('unknown license "WTFPL"');
  });
});
