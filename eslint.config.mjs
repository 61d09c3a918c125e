// ESLint flat config: typescript-eslint's recommended rules, type-aware promise rules for the compiled sources, and
// Cairn's module boundaries (ARCHITECTURE.md / STYLE.md §1: apps depend on libs only through their package roots;
// contracts depend on nothing but class-validator/class-transformer). The boundaries are `cairn/module-boundaries`
// (tools/eslint/module-boundaries.mjs): @nx/enforce-module-boundaries' check driven by the Nx projects' tags, written
// here because no @nx/eslint-plugin exists for Nx 24.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import tseslint from 'typescript-eslint';
import { dataAccessRule } from './tools/eslint/data-access.mjs';
import { createModuleBoundariesRule } from './tools/eslint/module-boundaries.mjs';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

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

const moduleBoundaries = createModuleBoundariesRule(ROOT);

/**
 * Module boundaries by Nx tags (`nx show projects`; tags in each project's package.json `nx` key / project.json).
 * Read like `@nx/enforce-module-boundaries`' depConstraints: a project with `sourceTag` may only depend on projects
 * carrying one of `onlyDependOnLibsWithTags`, and never import `bannedExternalImports`.
 */
const boundaryOptions = {
  depConstraints: [
    // Apps talk to each other through @cairn/contracts messages over NATS, never by importing each other.
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
    // Contracts are plain TypeScript + class-validator: no framework, no persistence, no platform.
    {
      sourceTag: 'lib:contracts',
      onlyDependOnLibsWithTags: [],
      bannedExternalImports: ['@nestjs/*', '@prisma/*', 'prisma', 'pg', 'ioredis', 'bullmq', '@nats-io/*'],
    },
    { sourceTag: 'lib:platform', onlyDependOnLibsWithTags: ['lib:contracts'] },
    // git is plain TypeScript over platform's metrics and tracing: no framework of its own.
    { sourceTag: 'lib:git', onlyDependOnLibsWithTags: ['lib:contracts', 'lib:platform'], bannedExternalImports: ['@nestjs/*', '@prisma/*', 'prisma'] },
    // The gateway holds no data: it asks a service over NATS.
    { sourceTag: 'scope:gateway', bannedExternalImports: ['@prisma/*', 'prisma', 'pg'] },
    // Scripts, tools and the e2e harness drive the apps from outside; they may use the libraries.
    { sourceTag: 'type:workspace', onlyDependOnLibsWithTags: ['type:lib'] },
  ],
  // Test support that production code must not reach (the migration tool, the shared test helpers; the suite's app
  // list and the generated NATS accounts, which tests spawn and configure).
  testOnlyPaths: ['tools/migrate', 'test/support', 'scripts/suite.mjs', 'scripts/nats-accounts.mjs'],
  // The workspace project (scripts, benchmarks, the e2e harness) runs the apps from outside and may reach their files.
  relativeImportsFrom: ['type:workspace'],
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

// Browser globals for the web UI's static scripts (apps/<app>/web/static), which run in the page, not in Node.
const browserGlobals = Object.fromEntries(
  [
    'window', 'document', 'location', 'history', 'navigator', 'console', 'fetch', 'URL', 'URLSearchParams', 'FormData',
    'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'DOMParser', 'Event', 'EventTarget', 'AbortController',
    'HTMLElement', 'HTMLFormElement', 'HTMLInputElement', 'HTMLButtonElement', 'HTMLTemplateElement', 'Element', 'Node',
  ].map((name) => [name, 'readonly']),
);

const deepImport = {
  group: ['@cairn/*/*'],
  message: 'Import @cairn packages only from their root (@cairn/contracts, @cairn/platform, @cairn/git): deep paths are private.',
};

/**
 * Only libs/git starts git or reads git objects (issue 24): elsewhere no child_process (the gpg/ssh-keygen runners
 * excepted: they are not git), none of @cairn/git's process functions, no `cat-file`. Tests build fixtures as they like.
 */
const GIT_HOME_FILES = ['apps/*/src/**/*.ts', 'libs/contracts/src/**/*.ts', 'libs/platform/src/**/*.ts'];
const GIT_HOME_IGNORES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/testing/**'];
const SIGNING_TOOL_FILES = ['apps/repo-service/src/git-core/signing/signing-tools.ts', 'apps/repo-service/src/git-core/signing/instance-key.ts'];
const gitHomeMessage = 'Only libs/git starts git or reads git objects: add a function to @cairn/git (issue 24).';
const gitProcessFunctions = ['spawnGit', 'runGit', 'runGitText', 'runGitChecked', 'collectStderr', 'watchGitExit', 'stopGit'];

/**
 * repo-service's layers (apps/repo-service/layers.json, bottom to top): a file may not import a layer above its own;
 * what a low layer needs from above is a port it declares (docs/architecture.md#repo-service-layers).
 */
const REPO_SERVICE = 'apps/repo-service';
const repoLayers = JSON.parse(readFileSync(path.join(ROOT, REPO_SERVICE, 'layers.json'), 'utf8')).layers;

/** The import pattern refusing the layers above `layer`. */
function aboveLayer(layer) {
  const above = repoLayers.slice(repoLayers.indexOf(layer) + 1);
  return {
    regex: `^\\.{1,2}/(?:\\.\\./)*(?:${above.join('|')})/`,
    message: `${layer} is below ${above.join(', ')} (${REPO_SERVICE}/layers.json): declare a port here and bind it in layer-ports.module.ts instead.`,
  };
}

/**
 * `no-restricted-imports` outside libs/git: @cairn/git's process functions never, child_process only when allowed;
 * in a repo-service `layer`, no layer above it either.
 */
function gitHomeImports({ childProcess, layer }) {
  const paths = [{ name: '@cairn/git', importNames: gitProcessFunctions, message: gitHomeMessage }];
  if (!childProcess) {
    for (const name of ['node:child_process', 'child_process']) paths.push({ name, allowTypeImports: true, message: gitHomeMessage });
  }
  return ['error', { patterns: layer ? [deepImport, aboveLayer(layer)] : [deepImport], paths }];
}

const gitHome = [
  {
    files: GIT_HOME_FILES,
    ignores: GIT_HOME_IGNORES,
    rules: {
      'no-restricted-imports': gitHomeImports({ childProcess: false }),
      'no-restricted-syntax': [
        'error',
        { selector: "Literal[value='cat-file']", message: gitHomeMessage },
        { selector: "CallExpression[callee.name=/^(spawn|spawnSync|execFile|execFileSync)$/][arguments.0.value='git']", message: gitHomeMessage },
      ],
    },
  },
  // One block per repo-service layer below the top: a later `no-restricted-imports` replaces the earlier options, so
  // each block carries all of them. Tests may reach across, as in tools/folder-cycles.
  ...repoLayers.slice(0, -1).map((layer) => ({
    files: [`${REPO_SERVICE}/src/${layer}/**/*.ts`],
    ignores: GIT_HOME_IGNORES,
    rules: { 'no-restricted-imports': gitHomeImports({ childProcess: false, layer }) },
  })),
  { files: SIGNING_TOOL_FILES, rules: { 'no-restricted-imports': gitHomeImports({ childProcess: true, layer: 'git-core' }) } },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/generated/**',
      // Code generated from the runner protocol's .proto files (npm run generate:protocol).
      'apps/runners-service/src/protocol/gen/**',
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
    plugins: { cairn: { rules: { 'module-boundaries': moduleBoundaries, 'data-access': dataAccessRule } } },
    rules: {
      'cairn/module-boundaries': ['error', boundaryOptions],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      // Flags `let x = ''; try { x = … } catch { x = … }` and similar; warn until the existing code is cleaned up.
      'no-useless-assignment': 'warn',
      'no-restricted-imports': ['error', { patterns: [deepImport] }],
    },
  },
  // Tables are touched only by repositories (tools/eslint/data-access.mjs); the prisma folder holds the client and the
  // `Transactions` services open their transactions with.
  {
    files: ['apps/*/src/**/*.ts'],
    ignores: [
      '**/*.repository.ts', 'apps/*/src/prisma/**', 'apps/*/src/foundation/prisma/**', '**/*.spec.ts', '**/*.int-spec.ts',
      '**/testing/**',
    ],
    rules: { 'cairn/data-access': 'error' },
  },
  ...gitHome,
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
  {
    files: ['apps/*/web/static/**/*.js'],
    languageOptions: { sourceType: 'script', ecmaVersion: 'latest', globals: browserGlobals },
  },
  // Tests may use `any` for loosely typed HTTP bodies. An integration test that boots another app's module
  // in-process couples to that app's internals: allowed for now, but flagged (prefer a stand-in or an e2e test).
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'apps/*/test/**/*.ts', '**/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'cairn/module-boundaries': ['warn', boundaryOptions] },
  },
);
