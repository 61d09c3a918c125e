// ESLint flat config: typescript-eslint's recommended rules, type-aware promise rules for the compiled sources, and
// Cairn's module boundaries (ARCHITECTURE.md / STYLE.md §1: apps depend on libs only through their package roots;
// contracts depend on nothing but class-validator/class-transformer). Without Nx plugins, the boundaries are
// `no-restricted-imports` for package names plus a small local rule for relative paths that leave their project.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** The project a file belongs to: `apps/<x>`, `libs/<x>`, `tools/<x>`, or the top-level folder (`test`, `scripts`). */
function projectOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep);
  if (rel[0] === '..') return null;
  if (['apps', 'libs', 'tools'].includes(rel[0]) && rel.length > 2) return `${rel[0]}/${rel[1]}`;
  return rel[0];
}

/** Test code: specs and test helpers (`test/`, `testing/` folders). */
function isTestCode(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  return /\.(spec|int-spec|e2e-spec)\.ts$/.test(file) || parts.includes('test') || parts.includes('testing');
}

/**
 * The files each app/library compiles (its tsconfig `include`/`exclude`): type-aware rules run on exactly these,
 * because the TypeScript project service cannot type files that no tsconfig includes (tests, fixtures).
 */
function compiledSources() {
  const files = [];
  const ignores = [];
  for (const group of ['apps', 'libs']) {
    const dir = path.join(ROOT, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const tsconfig = path.join(dir, name, 'tsconfig.json');
      if (!existsSync(tsconfig)) continue;
      let config;
      try {
        config = JSON.parse(readFileSync(tsconfig, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
      } catch {
        continue;
      }
      for (const p of config.include ?? ['src/**/*.ts']) files.push(`${group}/${name}/${p}`);
      for (const p of config.exclude ?? []) ignores.push(`${group}/${name}/${p}`);
    }
  }
  return { files: files.filter((f) => f.endsWith('.ts')), ignores };
}
const compiled = compiledSources();

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'relative imports stay inside their own app or library' },
    schema: [],
    messages: {
      crossProject:
        '{{from}} may not import files of {{to}} by relative path: apps talk through @cairn/contracts messages, ' +
        'libraries are imported by package name (@cairn/contracts, @cairn/platform).',
    },
  },
  create(context) {
    const file = context.filename;
    const from = projectOf(file);
    if (!from || !/^(apps|libs)\//.test(from)) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = projectOf(path.resolve(path.dirname(file), source.value));
      if (to === from) return;
      if (isTestCode(file) && (to === 'tools/migrate' || to === 'test')) return;
      // Test code that boots another app in-process is reported too, but only as a warning (see the test block).
      context.report({ node: source, messageId: 'crossProject', data: { from, to: to ?? 'outside the repository' } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

/** `eslint:recommended` (the `@eslint/js` package is not installed; the rules themselves ship with ESLint). */
const eslintRecommended = Object.fromEntries(
  [...builtinRules].filter(([, rule]) => rule.meta?.docs?.recommended).map(([name]) => [name, 'error']),
);

/** Node.js globals for the plain JavaScript files (the `globals` package is not installed). */
const nodeGlobals = Object.fromEntries(
  [
    'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'fetch', 'Headers', 'Request', 'Response', 'FormData',
    'AbortController', 'AbortSignal', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate',
    'clearImmediate', 'queueMicrotask', 'structuredClone', 'TextEncoder', 'TextDecoder', 'WebAssembly', 'globalThis',
    'performance', 'crypto', 'Blob', 'EventTarget', 'Event',
  ].map((name) => [name, 'readonly']),
);

const deepImport = {
  group: ['@cairn/*/*'],
  message: 'Import @cairn packages only from their root (@cairn/contracts, @cairn/platform): deep paths are private.',
};
const appPackages = {
  group: ['@cairn/gateway', '@cairn/*-service', '@cairn/merge-check-worker'],
  message: 'Apps are not libraries: share code through @cairn/contracts (messages) or @cairn/platform.',
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      '**/coverage/**',
      '.cairn/**',
      '.nx/**',
      'data/**',
      'tmp/**',
      '**/*.d.ts',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'warn' },
    rules: eslintRecommended,
  },
  ...tseslint.configs.recommended,
  {
    plugins: { cairn: { rules: { boundaries } } },
    rules: {
      'cairn/boundaries': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      // Flags `let x = ''; try { x = … } catch { x = … }` and similar; warn until the existing code is cleaned up.
      'no-useless-assignment': 'warn',
      'no-restricted-imports': ['error', { patterns: [deepImport, appPackages] }],
    },
  },
  // Contracts are plain TypeScript + class-validator: no framework, no persistence, no platform.
  {
    files: ['libs/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImport,
            appPackages,
            {
              group: ['@nestjs/*', '@prisma/*', '@cairn/platform', 'pg', 'ioredis', 'bullmq', '@nats-io/*'],
              message: 'libs/contracts depends only on class-validator and class-transformer.',
            },
          ],
        },
      ],
    },
  },
  // The gateway holds no data: no Prisma there.
  {
    files: ['apps/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImport,
            appPackages,
            { group: ['@prisma/*', '**/generated/prisma/**'], message: 'The gateway owns no data: ask a service over NATS.' },
          ],
        },
      ],
    },
  },
  // Type-aware rules for the compiled sources (those in the projects' tsconfig files; tests are not in them). They
  // cost most of the lint time; CAIRN_LINT_NO_TYPES=1 skips them for a quick local run.
  {
    files: process.env.CAIRN_LINT_NO_TYPES ? ['__no_files__'] : compiled.files,
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', ...compiled.ignores],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: ROOT },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  // Plain JavaScript tools and scripts (Node ESM).
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { sourceType: 'module', ecmaVersion: 'latest', globals: nodeGlobals },
  },
  // Tests may use `any` for loosely typed HTTP bodies. An integration test that boots another app's module
  // in-process couples to that app's internals: allowed for now, but flagged (prefer a stand-in or an e2e test).
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'apps/*/test/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'cairn/boundaries': 'warn' },
  },
);
