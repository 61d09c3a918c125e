import { describe, expect, it } from 'vitest';
import { workspaceEslint } from './workspace-eslint.js';

describe('cairn/module-boundaries (eslint.config.mjs)', () => {
  const eslint = workspaceEslint();

  async function boundaryFindings(rel: string, code: string) {
    return (await eslint.lint(rel, code))
      .filter((m) => m.ruleId === 'cairn/module-boundaries' || m.fatal)
      .map((m) => ({ severity: m.severity, message: m.message }));
  }

  it('lets an app depend on the libraries (type:lib)', async () => {
    const code = "export { Subjects } from '@cairn/contracts';\nexport { RpcClient } from '@cairn/platform';\n";
    expect(await boundaryFindings('apps/gateway/src/example.ts', code)).toEqual([]);
  });

  it('refuses an app importing another app by package name', async () => {
    const findings = await boundaryFindings('apps/gateway/src/example.ts', "export * from '@cairn/repo-service';\n");
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 2 });
    expect(findings[0].message).toContain('may only depend on projects tagged type:lib');
  });

  it('refuses an app reaching into another app by relative path', async () => {
    const findings = await boundaryFindings('apps/repo-service/src/example.ts', "export * from '../../gateway/src/main.js';\n");
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('may not import files of @cairn/gateway by relative path'),
    ]);
  });

  it('keeps contracts free of our other projects and of frameworks; platform may use contracts only', async () => {
    expect(await boundaryFindings('libs/contracts/src/example.ts', "export * from '@cairn/platform';\n")).toHaveLength(1);
    expect(await boundaryFindings('libs/contracts/src/example.ts', "export * from '@nestjs/common';\n")).toHaveLength(1);
    expect(await boundaryFindings('libs/contracts/src/example.ts', "export * from 'class-validator';\n")).toEqual([]);
    expect(await boundaryFindings('libs/platform/src/example.ts', "export * from '@cairn/contracts';\n")).toEqual([]);
    expect(await boundaryFindings('libs/platform/src/example.ts', "export * from '@cairn/gateway';\n")).toHaveLength(1);
  });

  it('keeps Prisma out of the gateway but not out of a data-owning service', async () => {
    const code = "export { PrismaClient } from '@prisma/client';\n";
    expect(await boundaryFindings('apps/gateway/src/example.ts', code)).toEqual([
      { severity: 2, message: expect.stringContaining('may not import @prisma/client') },
    ]);
    expect(await boundaryFindings('apps/repo-service/src/example.ts', code)).toEqual([]);
  });

  it('lets test code, and only test code, import tools/migrate', async () => {
    const code = "export * from '../../../tools/migrate/index.mjs';\n";
    expect(await boundaryFindings('apps/repo-service/src/example.ts', code)).toEqual([
      { severity: 2, message: expect.stringContaining('tools/migrate is for tests only') },
    ]);
    expect(await boundaryFindings('apps/repo-service/src/example.spec.ts', code)).toEqual([]);
  });
});
