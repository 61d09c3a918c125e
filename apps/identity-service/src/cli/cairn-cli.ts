#!/usr/bin/env node
/** Cairn's administration CLI, after Gitea's: works on the database through the service layer, without NATS. */
import 'reflect-metadata';
import path from 'node:path';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  COMMON_SETTINGS, ConfigError, attachmentsLocalRoot, attachmentsStoragePath, commonSettings, flattenValidationErrors,
  loadSettings, migrateBlobs, openBlobStore, packagesStoragePath, type StorageKind,
} from '@cairn/platform';
import { CreateUserBody, DomainError } from '@cairn/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IdentityCoreModule } from '../identity-core.module.js';
import { TokensService } from '../tokens/tokens.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import { parseCliArgs, UsageError } from './cli-args.js';

const USAGE = `usage: cairn admin user create --username <name> --password <password> --email <email>
                         [--full-name <name>] [--admin] [--must-change-password[=true|false]]
                         [--visibility public|limited|private]
                         [--access-token] [--access-token-name <name>] [--access-token-scopes <scope,...>]
       cairn admin storage migrate --from local|minio --to local|minio [--type packages|attachments]`;

/**
 * The kinds of blob `storage migrate` can move (the others do not live in the blob store yet), each with the folder
 * its local storage uses.
 */
const MIGRATABLE: Record<string, { kind: StorageKind; localRoot: () => string }> = {
  packages: { kind: 'packages', localRoot: () => path.resolve(loadSettings({ storagePath: packagesStoragePath }).storagePath) },
  attachments: {
    kind: 'attachments',
    localRoot: () => attachmentsLocalRoot(loadSettings({ attachmentPath: attachmentsStoragePath, repoRoot: commonSettings.repoRoot })),
  },
};

/** Gitea's `migrate-storage`: copies every blob of one kind to the other backend; safe to rerun. */
async function migrateStorage(argv: string[]): Promise<void> {
  const args = parseCliArgs(argv, ['from', 'to', 'type'], []);
  if (args.positionals.length) throw new UsageError(`unexpected argument(s): ${args.positionals.join(' ')}`);
  const backend = (name: string) => {
    const value = args.strings.get(name);
    if (value !== 'local' && value !== 'minio') throw new UsageError(`--${name} must be local or minio`);
    return value;
  };
  const [from, to] = [backend('from'), backend('to')];
  if (from === to) throw new UsageError('--from and --to name the same backend');
  const type = args.strings.get('type') ?? 'packages';
  const migratable = MIGRATABLE[type];
  if (!migratable) throw new UsageError(`--type ${type}: only ${Object.keys(MIGRATABLE).join(', ')} can be migrated`);
  const { kind } = migratable;
  const root = migratable.localRoot();
  const source = await openBlobStore(kind, root, process.env, from);
  const target = await openBlobStore(kind, root, process.env, to);
  const done = await migrateBlobs(source, target, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`Migrated ${type} from ${from} to ${to}: ${done.copied} copied (${done.bytes} bytes), ${done.skipped} already there\n`);
}

@Global()
@Module({
  providers: [{ provide: COMMON_SETTINGS, useFactory: () => loadSettings(commonSettings) }],
  exports: [COMMON_SETTINGS],
})
class CliPlatformModule {}

@Module({ imports: [CliPlatformModule, IdentityCoreModule] })
class CliModule {}

async function createUser(app: INestApplicationContext, argv: string[]): Promise<void> {
  const args = parseCliArgs(
    argv,
    ['username', 'name', 'password', 'email', 'full-name', 'visibility', 'access-token-name', 'access-token-scopes'],
    ['admin', 'must-change-password', 'access-token'],
  );
  if (args.positionals.length) throw new UsageError(`unexpected argument(s): ${args.positionals.join(' ')}`);
  const username = args.strings.get('username') ?? args.strings.get('name');
  const password = args.strings.get('password');
  const email = args.strings.get('email');
  if (!username) throw new UsageError('--username is required');
  if (!password) throw new UsageError('--password is required');
  if (!email) throw new UsageError('--email is required');

  // As Gitea: the very first user is not forced to change the password unless asked to.
  let mustChange = args.booleans.get('must-change-password');
  if (mustChange === undefined) mustChange = (await app.get(UsersRepository).countUsers()) > 0;

  const body = plainToInstance(CreateUserBody, {
    username,
    password,
    email,
    ...(args.strings.has('full-name') ? { full_name: args.strings.get('full-name') } : {}),
    ...(args.strings.has('visibility') ? { visibility: args.strings.get('visibility') } : {}),
    admin: args.booleans.get('admin') ?? false,
    must_change_password: mustChange,
  });
  const problems = flattenValidationErrors(await validate(body, { whitelist: true }));
  if (problems.length) throw new UsageError(problems.join('; '));

  const user = await app.get(UsersService).create(null, body);
  process.stdout.write(`New user '${user.login}' has been successfully created!\n`);

  if (args.booleans.get('access-token')) {
    const scopes = (args.strings.get('access-token-scopes') ?? 'all').split(',');
    const token = await app.get(TokensService).create(
      { id: user.id, login: user.login, isAdmin: user.is_admin, scopes: ['all'], hasTwoFactor: false },
      user.login,
      { name: args.strings.get('access-token-name') ?? 'gitea-admin', scopes },
    );
    process.stdout.write(`Access token was successfully created... ${token.sha1}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [group, resource, action, ...rest] = argv;
  if (argv.includes('--help') || argv.includes('-h') || !group) {
    process.stdout.write(`${USAGE}\n`);
    return group ? 0 : 1;
  }
  if (group === 'admin' && resource === 'storage' && action === 'migrate') {
    await migrateStorage(rest);
    return 0;
  }
  if (group !== 'admin' || resource !== 'user' || action !== 'create') {
    throw new UsageError(`unknown command: ${[group, resource, action].filter(Boolean).join(' ')}`);
  }
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'], abortOnError: false });
  try {
    await createUser(app, rest);
  } finally {
    await app.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) process.stderr.write(`Command error: ${err.message}\n${USAGE}\n`);
    else if (err instanceof DomainError || err instanceof ConfigError) process.stderr.write(`Command error: ${err.message}\n`);
    else process.stderr.write(`Command error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
