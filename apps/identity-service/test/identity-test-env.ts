// identity-service test environment: its own database, a private nats-server and the real AppModule on it.
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import type { INestMicroservice, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DomainErrorFilter, RpcClient, createRpcValidationPipe } from '@cairn/platform';
import type { ActorDto, UserDto } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createScratchDatabase, deleteRedisKeys, startPrivateNats } from '../../../test/support/integration.js';
import { AppModule } from '../src/app.module.js';
import { CLOCK } from '../src/common/clock.js';
import { UsersService } from '../src/users/users.service.js';

export interface TestClock {
  now: number;
  advance(ms: number): void;
}

export interface IdentityTestEnv {
  databaseUrl: string;
  natsUrl: string;
  app: INestMicroservice;
  rpc: RpcClient;
  sql: pg.Client;
  clock: TestClock;
  get<T>(type: Type<T> | symbol): T;
  /** Creates a user through the service layer (password `password123`, must_change_password false). */
  createUser(name: string, opts?: { admin?: boolean; visibility?: 'public' | 'limited' | 'private'; password?: string }): Promise<UserDto>;
  close(): Promise<void>;
}

/** The actor the gateway would send for a user authenticated by password. */
export function actorOf(user: UserDto, extra: Partial<ActorDto> = {}): ActorDto {
  return { id: user.id, login: user.login, isAdmin: user.is_admin, scopes: ['all'], hasTwoFactor: false, via: 'password', ...extra };
}

export async function startIdentityTestEnv(settings: Record<string, string> = {}): Promise<IdentityTestEnv> {
  const db = await createScratchDatabase('identity', { services: ['identity'] });
  const databaseUrl = db.url;
  const nats = await startPrivateNats().catch(async (err: unknown) => {
    await db.drop().catch(() => undefined);
    throw err;
  });
  const natsUrl = nats.url;
  // Its own Redis key prefix (the sign-in throttle's counters), removed afterwards.
  const queuePrefix = settings.CAIRN__QUEUE__PREFIX ?? `cairn-it-identity-${randomUUID().slice(0, 8)}`;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const cleanupInfra = async () => {
    await nats.stop();
    await db.drop();
    await deleteRedisKeys(redisUrl, queuePrefix);
  };

  try {
    // Settings are read from the environment when the module is built; each test file runs in its own process.
    Object.assign(process.env, {
      DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      RUN_MODE: 'test',
      CAIRN__SERVER__ROOT_URL: 'http://cairn.test:3000/',
      // Cheaper scrypt keeps the suite quick; the unit tests cover the production parameters' format.
      CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$4096$8$1',
      CAIRN__QUEUE__PREFIX: queuePrefix,
      ...settings,
    });

    const clock: TestClock = {
      now: Date.now(),
      advance(ms) {
        this.now += ms;
      },
    };
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(CLOCK)
      .useValue(() => clock.now)
      .compile();
    const app = moduleRef.createNestMicroservice<MicroserviceOptions>({
      transport: Transport.NATS,
      options: { servers: [natsUrl], queue: 'identity-service' },
    });
    app.useGlobalPipes(createRpcValidationPipe());
    app.useGlobalFilters(new DomainErrorFilter());
    await app.listen();

    const rpc = new RpcClient(natsUrl, 10_000, 'identity-it');
    await rpc.connect();
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();

    const env: IdentityTestEnv = {
      databaseUrl,
      natsUrl,
      app,
      rpc,
      sql,
      clock,
      get: <T>(type: Type<T> | symbol) => app.get<T>(type as Type<T>),
      createUser: (name, opts = {}) =>
        app.get(UsersService).create(null, {
          username: name,
          email: `${name.toLowerCase()}@example.com`,
          password: opts.password ?? 'password123',
          admin: opts.admin ?? false,
          must_change_password: false,
          ...(opts.visibility ? { visibility: opts.visibility } : {}),
        }),
      async close() {
        await rpc.close().catch(() => undefined);
        await sql.end().catch(() => undefined);
        await app.close();
        await cleanupInfra();
      },
    };
    return env;
  } catch (err) {
    await cleanupInfra().catch(() => undefined);
    throw err;
  }
}
