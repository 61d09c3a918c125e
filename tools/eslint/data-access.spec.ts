import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The workspace's own ESLint configuration, so the test proves which files the rule covers, not a copy of it.
describe('cairn/data-access (eslint.config.mjs)', () => {
  let eslint: ESLint;
  const saved = process.env.CAIRN_LINT_NO_TYPES;

  beforeAll(() => {
    process.env.CAIRN_LINT_NO_TYPES = '1';
    eslint = new ESLint({ cwd: ROOT, overrideConfigFile: path.join(ROOT, 'eslint.config.mjs') });
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CAIRN_LINT_NO_TYPES;
    else process.env.CAIRN_LINT_NO_TYPES = saved;
  });

  async function findings(rel: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, rel) });
    return result.messages.filter((m) => m.ruleId === 'cairn/data-access' || m.fatal).map((m) => m.message);
  }

  const service = `
    export class Example {
      constructor(private readonly prisma: any) {}
      list() { return this.prisma.runner.findMany({ where: {} }); }
      async write(tx: any) { await tx.secret.create({ data: {} }); }
      locked() { return this.prisma.$transaction(async () => 1); }
      raw(db: any) { return db.$queryRaw\`SELECT 1\`; }
    }
  `;

  it('refuses model calls, raw queries and transactions on the client outside a repository', async () => {
    expect(await findings('apps/runners-service/src/runners/example.service.ts', service)).toEqual([
      expect.stringContaining('`prisma.runner.findMany` touches a table'),
      expect.stringContaining('`tx.secret.create` touches a table'),
      expect.stringContaining('`$transaction` is the Prisma client'),
      expect.stringContaining('`$queryRaw` is the Prisma client'),
    ]);
  });

  it('covers every data-owning service', async () => {
    for (const app of ['packages-service', 'identity-service', 'hooks-service']) {
      expect(await findings(`apps/${app}/src/example/example.ts`, 'export const f = (tx: any) => tx.user.count();\n')).toHaveLength(1);
    }
  });

  it('refuses importing the generated client runtime outside a repository, but not its types', async () => {
    const runtime = "import { Prisma } from '../generated/prisma/client.js';\nexport const raw = Prisma.raw('x');\n";
    const types = "import type { Runner } from '../generated/prisma/client.js';\nexport type R = Runner;\n";
    const typeSpecifiers = "import { type Runner } from '../generated/prisma/client.js';\nexport type R = Runner;\n";
    expect(await findings('apps/runners-service/src/protocol/example.ts', runtime)).toEqual([
      expect.stringContaining("runtime is for repositories"),
    ]);
    expect(await findings('apps/runners-service/src/protocol/example.ts', types)).toEqual([]);
    expect(await findings('apps/runners-service/src/protocol/example.ts', typeSpecifiers)).toEqual([]);
  });

  it('lets repositories, the prisma folder and tests use the client', async () => {
    expect(await findings('apps/runners-service/src/runners/example.repository.ts', service)).toEqual([]);
    expect(await findings('apps/runners-service/src/prisma/transactions.ts', service)).toEqual([]);
    expect(await findings('apps/runners-service/src/runners/example.int-spec.ts', service)).toEqual([]);
  });

  it('leaves calls that only look alike alone (a repository method, an array, a map)', async () => {
    const code = `
      export async function f(rows: any, store: any, tx: any) {
        await rows.variables.delete(1);
        await store.transaction(async () => 1);
        await this_.runners.markDeleted(tx, 1);
        return [1].findLast(() => true);
      }
      const this_: any = {};
    `;
    expect(await findings('apps/runners-service/src/runners/example.service.ts', code)).toEqual([]);
  });
});
