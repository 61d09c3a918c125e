import { Injectable } from '@nestjs/common';
import {
  IdentitySubjects, PackageEvents, type ActorDto, type PackageEventAction, type PackageEventData,
} from '@cairn/contracts';
import { EventOutbox, RpcClient } from '@cairn/platform';
import { PackageViews } from '../api/package-views.js';
import { PackagesApiRepository } from '../api/packages-api.repository.js';
import type { Tx } from '../prisma/prisma.service.js';
import type { PackageEventSink } from '../store/package-event-sink.js';

// Recorded in the transaction of the change: never lost, never published for a rollback. Rendered as the sender
// sees it (Gitea's `ToPackage(pd, sender)`); internal versions (OCI blobs before their manifest) make no event.
@Injectable()
export class PackageEventRecorder implements PackageEventSink {
  constructor(
    private readonly rows: PackagesApiRepository,
    private readonly views: PackageViews,
    private readonly outbox: EventOutbox,
    private readonly rpc: RpcClient,
  ) {}

  /** Call after creating the version (`created`) or before deleting it (`deleted`), in the same transaction. */
  async record(tx: Tx, action: PackageEventAction, versionId: number, senderId: number | null): Promise<void> {
    const version = await this.rows.versionView(versionId, tx);
    if (!version || version.isInternal) return;
    const ids = [...new Set([version.package.ownerId, version.creatorId, senderId ?? 0].filter((id) => id > 0))];
    const { users, adminIds } = await this.rpc.send(IdentitySubjects.userLookup, { ids });
    const sender = users.find((u) => u.id === senderId) ?? null;
    const viewer: ActorDto | null = sender
      ? { id: sender.id, login: sender.login, isAdmin: adminIds.includes(sender.id), scopes: ['all'], hasTwoFactor: false }
      : null;
    const data: PackageEventData = {
      action,
      ownerId: version.package.ownerId,
      repository: version.package.repoId ? { id: version.package.repoId, ownerId: version.package.ownerId } : null,
      package: await this.views.renderOne(version, viewer, users),
      sender,
    };
    await this.outbox.record(tx, action === 'created' ? PackageEvents.versionCreated : PackageEvents.versionDeleted, data);
  }

  kick(): void {
    this.outbox.kick();
  }
}
