import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The compiler must report exactly the lines marked `// ✗` (and nothing else) in a small program over the real
 * sources; the fixture lives beside this file so it resolves `@cairn/contracts` like the code does.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../../..');
const FIXTURE = path.join(HERE, 'bus-typing.fixture.ts');

const SOURCE = `
import { Payload } from '@nestjs/microservices';
import {
  HooksSubjects, IdentityEvents, IdentitySubjects, IssueSubjects, PullSubjects, ReleaseEvents, RepoSubjects, healthSubject,
  type AnyDomainEvent, type EventFilter, type ReleaseEventData,
  ActorRequest, HookCreateRequest, HookRequest, OrgRequest, UsernameRequest,
  type HealthReply, type HookDto, type RepositoryDto, type RpcSubject, type UserDto,
} from '@cairn/contracts';
import { Queues } from '@cairn/contracts';
import { createQueue, createWorker, jobNameOf, type TypedQueue } from '../queues/typed-queue.js';
import { addUniqueJob } from '../queues/unique-job.js';
import type { RpcClient } from './rpc-client.js';
import { RpcHandler } from './rpc-handler.js';
import { EventOutbox, type OutboxTx } from '../events/event-outbox.js';
import { newEvent } from '../events/outbox.js';
import { DurableConsumers } from '../events/durable-consumers.js';
import type { NatsConnection } from '@nats-io/transport-node';

declare const rpc: RpcClient;

export async function callers(): Promise<void> {
  const user: UserDto = await rpc.send(IdentitySubjects.userGet, { actor: null, username: 'alice' });
  const health: HealthReply = await rpc.send(healthSubject('repo'), {});
  await rpc.send(IdentitySubjects.userGet, { actor: null, username: 'alice' }, { timeoutMs: 5 });
  await rpc.send(IdentitySubjects.userGet, { actor: null, name: 'alice' }); // ✗ unknown payload field
  await rpc.send(IdentitySubjects.userGet, { actor: null }); // ✗ missing payload field
  await rpc.send(IdentitySubjects.userGet, { actor: null, username: 42 }); // ✗ payload field of the wrong type
  const repo: RepositoryDto = await rpc.send(IdentitySubjects.userGet, { actor: null, username: 'a' }); // ✗ reply
  await rpc.send<UserDto>(IdentitySubjects.userGet, { actor: null, username: 'alice' }); // ✗ hand-written reply type
  await rpc.send('identity.user.frobnicate', {}); // ✗ a subject without a pair
  await rpc.send(healthSubject('repo'), { deep: true }); // ✗ health takes nothing
  void [user, health, repo];
}

export class Handlers {
  @RpcHandler(IdentitySubjects.userGet)
  get(@Payload() req: UsernameRequest): Promise<UserDto> {
    return Promise.resolve(req as never);
  }

  @RpcHandler(IdentitySubjects.userGet) // ✗ payload class of another pair
  getByOrg(@Payload() req: OrgRequest): Promise<UserDto> {
    return Promise.resolve(req as never);
  }

  @RpcHandler(HooksSubjects.webhookCreate) // ✗ payload class of another pair
  createWithoutBody(@Payload() req: HookRequest): Promise<HookDto> {
    return Promise.resolve(req as never);
  }

  @RpcHandler(IdentitySubjects.userGet) // ✗ a wider class: validation would strip \`username\`
  getWider(@Payload() req: ActorRequest): Promise<UserDto> {
    return Promise.resolve(req as never);
  }

  @RpcHandler(HooksSubjects.webhookCreate)
  create(@Payload() req: HookCreateRequest): Promise<HookDto> {
    return Promise.resolve(req as never);
  }

  @RpcHandler(IdentitySubjects.userGet) // ✗ reply of another pair
  getRepo(@Payload() req: UsernameRequest): Promise<RepositoryDto> {
    return Promise.resolve(req as never);
  }
}

declare const checks: TypedQueue<typeof Queues.mergeCheck>;

export async function producers(): Promise<void> {
  const data = { pullId: 1, repoId: 2, baseSha: 'a', headSha: 'b' };
  await checks.add(jobNameOf(Queues.mergeCheck), data);
  await addUniqueJob(checks, jobNameOf(Queues.mergeCheck), data, { jobId: 'pr-1-a-b' });
  await checks.add('deliver', data); // ✗ another queue's job name
  await addUniqueJob(checks, 'deliver', data, { jobId: 'x' }); // ✗ another queue's job name
  await checks.add(jobNameOf(Queues.mergeCheck), { deliveryId: 1 }); // ✗ another queue's job data
  const deliveries = createQueue(Queues.webhookDelivery, { connection: {} });
  await deliveries.add(jobNameOf(Queues.webhookDelivery), { deliveryIds: [1, 2] });
  await deliveries.add(jobNameOf(Queues.webhookDelivery), { pullId: 1 }); // ✗ another queue's job data
  createWorker(Queues.mergeCheck, (job) => Promise.resolve(job.data.headSha), { connection: {} });
  createWorker(Queues.mergeCheck, (job) => Promise.resolve(job.data.deliveryId), { connection: {} }); // ✗ not its data
}

declare const outbox: EventOutbox;
declare const tx: OutboxTx;
declare const release: ReleaseEventData;

export async function events(): Promise<void> {
  const created = newEvent(IdentityEvents.userCreated, { id: 1, login: 'alice' });
  newEvent(IdentityEvents.userCreated, { id: 1 }); // ✗ payload missing a field
  newEvent(IdentityEvents.userCreated, release); // ✗ another subject's payload
  newEvent('identity.evt.user.frobnicated', { id: 1, login: 'alice' }); // ✗ a subject not in the contract
  await outbox.record(tx, ReleaseEvents.published, release);
  await outbox.record(tx, ReleaseEvents.published, { id: 1, login: 'alice' }); // ✗ another subject's payload
  await outbox.record(tx, 'repo.evt.release.frobnicated', release); // ✗ a subject not in the contract
  const any = created as AnyDomainEvent;
  if (any.type === ReleaseEvents.published) void any.data.release.tag_name;
  if (any.type === IdentityEvents.userCreated) void any.data.release; // ✗ narrowed to the subject's payload
}

declare const nc: NatsConnection;

export class Consumers extends DurableConsumers {
  constructor() {
    super(nc, ['hooks-service', 'repo-service-notifications']);
  }
  protected handle(): Promise<void> {
    return Promise.resolve();
  }
}

export class StrayConsumers extends DurableConsumers {
  constructor() {
    super(nc, ['hooks-service-frobnicator']); // ✗ a consumer not declared in EVENT_CONSUMERS
  }
  protected handle(): Promise<void> {
    return Promise.resolve();
  }
}

export const filters: EventFilter[] = ['repo.evt.>', IdentityEvents.userDeleted];
export const unknownFilter: EventFilter = 'repo.evt.release.frobnicated'; // ✗ a subject not in the contract
export const strangerFilter: EventFilter = 'nobody.evt.>'; // ✗ no service publishes it

type ValueOf<T> = T[keyof T];
type DeclaredSubject = ValueOf<typeof IdentitySubjects> | ValueOf<typeof RepoSubjects> | ValueOf<typeof IssueSubjects>
  | ValueOf<typeof PullSubjects> | ValueOf<typeof HooksSubjects>;
/** Fails naming the subject when a subject constant has no request-reply pair. */
export const everySubjectHasAPair: [Exclude<DeclaredSubject, RpcSubject>] extends [never] ? true : Exclude<DeclaredSubject, RpcSubject> = true;
`;

function diagnosticsOfFixture(): { line: number; message: string }[] {
  const configFile = ts.readConfigFile(path.join(ROOT, 'tsconfig.base.json'), (f) => ts.sys.readFile(f));
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  Object.assign(options, {
    noEmit: true,
    composite: false,
    declaration: false,
    incremental: false,
    customConditions: ['cairn-source'],
  } satisfies ts.CompilerOptions);
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, languageVersion, ...rest) =>
    path.resolve(file) === FIXTURE
      ? ts.createSourceFile(file, SOURCE, languageVersion, true)
      : getSourceFile(file, languageVersion, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === FIXTURE || fileExists(file);
  const program = ts.createProgram([FIXTURE], options, host);
  const sf = program.getSourceFile(FIXTURE)!;
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => ({
    line: sf.getLineAndCharacterOfPosition(d.start ?? 0).line + 1,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

/** A decorator's error is reported on the decorator's line. */
function markedLines(): number[] {
  return SOURCE.split('\n')
    .map((text, i) => (text.includes('// ✗') ? i + 1 : 0))
    .filter((n) => n > 0);
}

describe('the typed bus (compile time)', () => {
  it('rejects a wrong subject, payload or reply on both sides and accepts every defined pair', () => {
    const diagnostics = diagnosticsOfFixture();
    const flagged = [...new Set(diagnostics.map((d) => d.line))].sort((a, b) => a - b);
    expect(markedLines().length).toBeGreaterThan(0);
    expect(flagged, JSON.stringify(diagnostics, null, 2)).toEqual(markedLines());
  }, 120_000);
});
