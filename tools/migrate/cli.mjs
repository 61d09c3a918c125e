#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { MigrateError, check, deploy, dev, diff, generate, listServices, resolve, status } from './index.mjs';

const USAGE = `usage: node tools/migrate/cli.mjs <command> [--service <name>] [--database-url <url>]

commands:
  generate                         prisma generate for each service
  dev --name <name>                write a migration for schema.prisma changes and apply it
      [--accept-data-loss]
  diff                             print the SQL a new migration would contain (empty if none)
  check                            exit 1 if a schema.prisma has changes not covered by migrations
  deploy                           apply pending migrations
  status                           list applied/pending/failed migrations; exit 1 if not up to date
  resolve --rolled-back <name>     mark a failed migration as rolled back (needs --service)
  resolve --applied <name>         mark a migration as applied without running it (needs --service)

Without --service every prisma/<service>/schema.prisma is processed.
--database-url defaults to $DATABASE_URL, then postgresql://postgres@127.0.0.1:5432/cairn.
--prisma-dir defaults to <repo>/prisma (tests point it at fixtures).`;

/** @param {string[]} argv @returns {Promise<number>} exit code */
async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      service: { type: 'string' },
      'database-url': { type: 'string' },
      'prisma-dir': { type: 'string' },
      name: { type: 'string' },
      'rolled-back': { type: 'string' },
      applied: { type: 'string' },
      'accept-data-loss': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...extra] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 1;
  }
  if (extra.length) throw new MigrateError(`unexpected argument(s): ${extra.join(' ')}`);
  const common = {
    service: values.service,
    databaseUrl: values['database-url'],
    prismaDir: values['prisma-dir'],
    log: (/** @type {string} */ l) => console.log(l),
  };
  if (listServices({ prismaDir: common.prismaDir }).length === 0) {
    console.error(`migrate: warning: no services found (no ${common.prismaDir ?? 'prisma'}/<service>/schema.prisma)`);
  }

  switch (command) {
    case 'generate':
      await generate(common);
      return 0;
    case 'dev':
      await dev({ ...common, name: values.name ?? '', acceptDataLoss: values['accept-data-loss'] });
      return 0;
    case 'diff': {
      const diffs = await diff({ ...common, log: undefined });
      const single = diffs.length === 1;
      for (const d of diffs) {
        if (!d.sql) continue;
        process.stdout.write(single ? d.sql : `-- service: ${d.service}\n${d.sql}\n`);
      }
      return 0;
    }
    case 'check': {
      const { ok, message } = await check({ ...common, log: undefined });
      (ok ? console.log : console.error)(`${ok ? 'check: ok' : 'check: FAILED'}: ${message}`);
      return ok ? 0 : 1;
    }
    case 'deploy':
      await deploy(common);
      return 0;
    case 'status': {
      const { ok, services } = await status(common);
      for (const s of services) {
        const counts = [`${s.applied.length} applied`, `${s.pending.length} pending`];
        if (s.failed.length) counts.push(`${s.failed.length} FAILED`);
        if (s.edited.length) counts.push(`${s.edited.length} EDITED`);
        if (s.missing.length) counts.push(`${s.missing.length} MISSING`);
        console.log(`${s.service}: ${counts.join(', ')}`);
        for (const name of s.applied) console.log(`  applied  ${name}${s.edited.includes(name) ? '  (EDITED: migration.sql changed after it was applied)' : ''}`);
        for (const f of s.failed) console.log(`  FAILED   ${f.name}  (started ${f.startedAt.toISOString()}; resolve with: resolve --service ${s.service} --rolled-back ${f.name})`);
        for (const name of s.pending) console.log(`  pending  ${name}`);
        for (const name of s.missing) console.log(`  MISSING  ${name}  (applied to the database, no folder on disk)`);
      }
      return ok ? 0 : 1;
    }
    case 'resolve':
      await resolve({
        ...common,
        service: values.service ?? '',
        rolledBack: values['rolled-back'],
        applied: values.applied,
      });
      return 0;
    default:
      throw new MigrateError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const e = /** @type {any} */ (error);
  const plain = e instanceof MigrateError || e?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE';
  console.error(`migrate: ${plain || !process.env.MIGRATE_DEBUG ? (e?.message ?? e) : e?.stack}`);
  process.exitCode = 1;
}
