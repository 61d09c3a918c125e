import path from 'node:path';
import { Module } from '@nestjs/common';
import { PlatformModule, EventOutbox, openBlobStore } from '@cairn/platform';
import { PackageAccess } from './access/package-access.js';
import { PackageViews } from './api/package-views.js';
import { PackagesApiHandler } from './api/packages-api.handler.js';
import { PackagesApiRepository } from './api/packages-api.repository.js';
import { PackagesApiService } from './api/packages-api.service.js';
import { PACKAGES_SETTINGS, loadPackagesSettings, type PackagesSettings } from './config/packages-settings.js';
import { DeletionsConsumer } from './events/deletions.consumer.js';
import { PackageDeletions } from './events/deletions.js';
import { PackageEventRecorder } from './events/package-event-recorder.js';
import { PrismaService } from './prisma/prisma.service.js';
import { BlobCleanup } from './storage/blob-cleanup.js';
import { BLOB_STORE } from './storage/blob-store.token.js';
import { BlobsRepository } from './storage/blobs.repository.js';
import { PACKAGE_EVENT_SINK } from './store/package-event-sink.js';
import { PackageStore } from './store/package-store.js';
import { PackagesRepository } from './store/packages.repository.js';
import { DeletionsRepository } from './events/deletions.repository.js';

/** packages-service; the registries are served on its internal HTTP port, which the gateway streams to. */
@Module({
  imports: [PlatformModule.forService({ service: 'packages', schema: 'packages' })],
  controllers: [PackagesApiHandler],
  providers: [
    { provide: PACKAGES_SETTINGS, useFactory: () => loadPackagesSettings() },
    {
      provide: BLOB_STORE,
      inject: [PACKAGES_SETTINGS],
      useFactory: (s: PackagesSettings) => openBlobStore('packages', path.resolve(s.storagePath)),
    },
    PrismaService,
    EventOutbox,
    PackageAccess,
    PackageViews,
    PackagesApiRepository,
    PackageEventRecorder,
    { provide: PACKAGE_EVENT_SINK, useExisting: PackageEventRecorder },
    PackagesRepository,
    BlobsRepository,
    DeletionsRepository,
    PackageStore,
    PackagesApiService,
    PackageDeletions,
    DeletionsConsumer,
    BlobCleanup,
  ],
})
export class AppModule {}
