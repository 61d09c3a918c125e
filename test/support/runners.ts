/**
 * Test helper standing in for the runner protocol's Register: inserts a runner row into runners-service's schema the
 * way registration writes it (credential hashed with the service's own hashRunnerToken), so the management API can
 * be tested before and independently of the protocol.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { hashRunnerToken, newRunnerToken } from '../../apps/runners-service/src/runners/runner-token.js';

export interface TestRunner {
  ownerId?: number;
  repoId?: number;
  name?: string;
  labels?: string[];
  ephemeral?: boolean;
  lastOnline?: Date | null;
  lastActive?: Date | null;
}

/** Inserts one runner; answers its id. */
export async function insertRunner(db: pg.Client | pg.Pool, r: TestRunner = {}): Promise<number> {
  const res = await db.query<{ id: number }>(
    `INSERT INTO runners.runners (uuid, name, owner_id, repo_id, labels, token_hash, ephemeral, last_online, last_active, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now()) RETURNING id`,
    [
      randomUUID(), r.name ?? `runner-${randomUUID().slice(0, 8)}`, r.ownerId ?? 0, r.repoId ?? 0,
      r.labels ?? ['ubuntu-latest', 'linux'], hashRunnerToken(newRunnerToken()), r.ephemeral ?? false,
      r.lastOnline ?? null, r.lastActive ?? null,
    ],
  );
  return res.rows[0].id;
}

/** The active registration token rows of a scope (`token_hash` as the protocol looks it up). */
export async function activeTokenHashes(db: pg.Client | pg.Pool, ownerId: number, repoId: number): Promise<string[]> {
  const res = await db.query<{ token_hash: string }>(
    'SELECT token_hash FROM runners.runner_registration_tokens WHERE owner_id = $1 AND repo_id = $2 AND is_active ORDER BY id',
    [ownerId, repoId],
  );
  return res.rows.map((r) => r.token_hash);
}
