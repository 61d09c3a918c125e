// A PackageStore on real parts for packages-service's integration tests: a scratch database with the packages
// migrations, a temporary blob folder, and the `package` event recorder rendering users through the identity
// stand-in on a private NATS (events go to the outbox table; nothing publishes them).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { DomainErrorFilter, EventOutbox, RpcClient, type CommonSettings } from '@cairn/platform';
import { PackageViews } from '../../apps/packages-service/src/api/package-views.js';
import { PackagesApiRepository } from '../../apps/packages-service/src/api/packages-api.repository.js';
import type { PackagesSettings } from '../../apps/packages-service/src/config/packages-settings.js';
import { PackageEventRecorder } from '../../apps/packages-service/src/events/package-event-recorder.js';
import { PrismaService } from '../../apps/packages-service/src/prisma/prisma.service.js';
import { FsBlobStore } from '@cairn/platform';
import { BlobsRepository } from '../../apps/packages-service/src/storage/blobs.repository.js';
import { PackageStore } from '../../apps/packages-service/src/store/package-store.js';
import { PackagesRepository } from '../../apps/packages-service/src/store/packages.repository.js';
import { createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase } from './integration.js';
import { STAND_IN_ROOT_URL, StandInServicesModule } from './stand-in-services.js';

export interface PackageStoreFixture {
  db: ScratchDatabase;
  root: string;
  prisma: PrismaService;
  blobs: FsBlobStore;
  settings: PackagesSettings;
  events: PackageEventRecorder;
  store: PackageStore;
  /** A store on the same parts with other settings (limits). */
  storeWith(overrides: Partial<PackagesSettings>): PackageStore;
  close(): Promise<void>;
}

export async function startPackageStoreFixture(name: string, overrides: Partial<PackagesSettings> = {}): Promise<PackageStoreFixture> {
  const db = await createScratchDatabase('packages', { services: ['packages'] });
  let nats: PrivateNats | undefined;
  let standIn: INestMicroservice | undefined;
  let rpc: RpcClient | undefined;
  let prisma: PrismaService | undefined;
  const root = await mkdtemp(path.join(tmpdir(), `cairn-${name}-`));
  const close = async () => {
    await rpc?.close();
    await standIn?.close();
    await nats?.stop();
    await prisma?.$disconnect();
    await db.drop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    nats = await startPrivateNats();
    standIn = await NestFactory.createMicroservice<MicroserviceOptions>(StandInServicesModule, {
      transport: Transport.NATS, options: { servers: [nats.url], queue: 'stand-in' }, logger: false,
    });
    standIn.useGlobalFilters(new DomainErrorFilter());
    await standIn.listen();
    rpc = new RpcClient(nats.url, 10_000, `${name}-it`);
    await rpc.connect();
    prisma = new PrismaService({ databaseUrl: db.url } as CommonSettings);
    await prisma.$connect();
    const blobs = new FsBlobStore(root);
    const settings: PackagesSettings = {
      enabled: true, storagePath: root, limitTotalOwnerSize: -1, limitSizeGeneric: -1, limitSizeNpm: -1,
      limitSizeContainer: -1, cleanupGraceMs: 3_600_000, cleanupIntervalMs: 3_600_000, internalHost: '127.0.0.1',
      requireSigninView: false, twoFactorAuth: '', secretKey: `${name}-int-spec`, ...overrides,
    };
    const common = { databaseUrl: db.url, rootUrl: STAND_IN_ROOT_URL } as CommonSettings;
    const events = new PackageEventRecorder(new PackagesApiRepository(prisma), new PackageViews(rpc, common), new EventOutbox(null), rpc);
    const rows = new PackagesRepository(prisma);
    const blobRows = new BlobsRepository(prisma);
    return {
      db, root, prisma, blobs, settings, events,
      store: new PackageStore(rows, blobRows, blobs, settings, events),
      storeWith: (o) => new PackageStore(rows, blobRows, blobs, { ...settings, ...o }, events),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
