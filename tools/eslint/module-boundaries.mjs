// `cairn/module-boundaries`: `@nx/enforce-module-boundaries`' checks (tags, `depConstraints`,
// `bannedExternalImports`, `testOnlyPaths`), ours because no @nx/* plugin is published for Nx 24.
import path from 'node:path';
import { readProjects } from '../../scripts/lib/nx-projects.mjs';

/**
 * @typedef {import('../../scripts/lib/nx-projects.mjs').Project} Project
 * @typedef {{ sourceTag: string, onlyDependOnLibsWithTags?: string[], bannedExternalImports?: string[] }} DepConstraint
 * @typedef {{ depConstraints: DepConstraint[], testOnlyPaths?: string[], relativeImportsFrom?: string[] }} Options
 */

/** The project holding `rel` (the one with the longest root that contains it). @param {Project[]} projects @param {string} rel */
function projectOfPath(projects, rel) {
  let best = null;
  for (const p of projects) {
    if (p.root === '.' || rel === p.root || rel.startsWith(`${p.root}/`)) {
      if (!best || p.root.length > best.root.length) best = p;
    }
  }
  return best;
}

/** `@scope/name/deep` → `@scope/name`; `name/deep` → `name`. @param {string} spec */
function packageOf(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A glob of `*` / `**` (as in Nx's bannedExternalImports) as a regular expression. @param {string} glob */
function globToRegExp(glob) {
  const re = glob
    .split('**')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('.*');
  return new RegExp(`^${re}$`);
}

/** @param {string} workspaceRoot */
export function createModuleBoundariesRule(workspaceRoot) {
  const projects = readProjects(workspaceRoot);
  const toRel = (/** @type {string} */ abs) => path.relative(workspaceRoot, abs).split(path.sep).join('/');
  const isTestFile = (/** @type {string} */ rel) =>
    /\.(spec|int-spec|e2e-spec)\.ts$/.test(rel) || rel.split('/').some((p) => p === 'test' || p === 'testing');

  return {
    meta: {
      type: 'problem',
      docs: { description: 'imports between Nx projects follow the tags and depConstraints (like @nx/enforce-module-boundaries)' },
      schema: [
        {
          type: 'object',
          properties: {
            depConstraints: { type: 'array' },
            testOnlyPaths: { type: 'array', items: { type: 'string' } },
            relativeImportsFrom: { type: 'array', items: { type: 'string' } },
          },
          additionalProperties: false,
        },
      ],
      messages: {
        relative: '{{from}} may not import files of {{to}} by relative path: import it by its package name, if its tags allow.',
        notAllowed:
          '{{from}} ({{sourceTag}}) may only depend on projects tagged {{allowed}}; {{to}} is tagged {{tags}}.',
        banned: '{{from}} ({{sourceTag}}) may not import {{spec}}.',
        testOnly: '{{path}} is for tests only: production code of {{from}} may not import it.',
        outside: '{{from}} may not import files outside the workspace ({{spec}}).',
      },
    },
    /** @param {import('eslint').Rule.RuleContext} context */
    create(context) {
      /** @type {Options} */
      const options = context.options[0] ?? { depConstraints: [] };
      const file = context.filename;
      const rel = toRel(file);
      if (rel.startsWith('..')) return {};
      const from = projectOfPath(projects, rel);
      if (!from) return {};
      const isTest = isTestFile(rel);
      const mayReachFiles = (options.relativeImportsFrom ?? []).some((t) => from.tags.includes(t));
      const constraints = options.depConstraints.filter((c) => c.sourceTag === '*' || from.tags.includes(c.sourceTag));

      /** @param {any} node @param {string} spec */
      const check = (node, spec) => {
        /** @type {Project | null | undefined} */
        let to;
        if (spec.startsWith('.')) {
          const target = toRel(path.resolve(path.dirname(file), spec));
          if (target.startsWith('..')) {
            context.report({ node, messageId: 'outside', data: { from: from.name, spec } });
            return;
          }
          const testOnly = (options.testOnlyPaths ?? []).find((p) => target === p || target.startsWith(`${p}/`));
          to = projectOfPath(projects, target);
          if (testOnly && to !== from && !isTest) {
            context.report({ node, messageId: 'testOnly', data: { path: testOnly, from: from.name } });
            return;
          }
          if (testOnly) return;
          if (to && to !== from && !mayReachFiles) {
            context.report({ node, messageId: 'relative', data: { from: from.name, to: to.name } });
            return;
          }
          return;
        }
        if (spec.startsWith('node:')) return;
        const pkg = packageOf(spec);
        to = projects.find((p) => p.packageName === pkg);
        if (!to) {
          for (const c of constraints) {
            if ((c.bannedExternalImports ?? []).some((g) => globToRegExp(g).test(spec) || globToRegExp(g).test(pkg))) {
              context.report({ node, messageId: 'banned', data: { from: from.name, sourceTag: c.sourceTag, spec } });
              return;
            }
          }
          return;
        }
        if (to === from) return;
        for (const c of constraints) {
          const allowed = c.onlyDependOnLibsWithTags;
          if (!allowed || allowed.includes('*') || allowed.some((t) => to.tags.includes(t))) continue;
          context.report({
            node,
            messageId: 'notAllowed',
            data: {
              from: from.name,
              sourceTag: c.sourceTag,
              allowed: allowed.length ? allowed.join(' or ') : '(nothing of ours)',
              to: to.name,
              tags: to.tags.join(', ') || '(no tags)',
            },
          });
          return;
        }
      };
      /** @param {any} node */
      const onSource = (node) => {
        const source = node.source;
        if (source && source.type === 'Literal' && typeof source.value === 'string') check(source, source.value);
      };
      return {
        ImportDeclaration: onSource,
        ExportAllDeclaration: onSource,
        ExportNamedDeclaration: onSource,
        ImportExpression: onSource,
      };
    },
  };
}
