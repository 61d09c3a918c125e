import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import { RunnersEvents, runnerEventData } from '@cairn/contracts';
import { RUNNERS_SETTINGS, type RunnersSettings } from '../config/runners-settings.js';
import type { Runner, Task } from '../generated/prisma/client.js';
import { Transactions } from '../prisma/transactions.js';
import { RegistrationTokensRepository } from '../runners/registration-tokens.repository.js';
import { RunnersRepository } from '../runners/runners.repository.js';
import { hashRunnerToken, newRunnerToken } from '../runners/runner-token.js';
import {
  type DeclareRequest, type DeclareResponse, DeclareResponseSchema, type FetchTaskRequest, type FetchTaskResponse,
  FetchTaskResponseSchema, type LogRow, type RegisterRequest, type RegisterResponse, RegisterResponseSchema, Result,
  type Runner as RunnerMessage, RunnerSchema, type TaskState, TaskStateSchema, type UpdateLogRequest,
  type UpdateLogResponse, UpdateLogResponseSchema, type UpdateTaskRequest, type UpdateTaskResponse,
  UpdateTaskResponseSchema,
} from './gen/runner/v1/messages_pb.js';
import { RunnerAuthenticator } from './runner-auth.js';
import { RunnerLivenessRecorder } from './runner-liveness.js';
import { TasksRepository } from './tasks.repository.js';
import { EventOutbox } from '@cairn/platform';

/** Gitea cuts a runner's name at 255 bytes. */
const RUNNER_NAME_MAX_BYTES = 255;
/** Gitea's limits on one task output: longer keys or values are ignored (the runner resends nothing for them). */
const OUTPUT_KEY_MAX_BYTES = 255;
const OUTPUT_VALUE_MAX_BYTES = 1024 * 1024;
const DONE = new Set(['success', 'failure', 'cancelled', 'skipped']);
const RESULT_STATUS: Partial<Record<Result, string>> = {
  [Result.SUCCESS]: 'success',
  [Result.FAILURE]: 'failure',
  [Result.CANCELLED]: 'cancelled',
  [Result.SKIPPED]: 'skipped',
};
const STATUS_RESULT: Record<string, Result> = {
  success: Result.SUCCESS,
  failure: Result.FAILURE,
  cancelled: Result.CANCELLED,
  skipped: Result.SKIPPED,
};

function cutBytes(text: string, max: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  let end = max;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

function runnerMessage(runner: Runner, token = ''): RunnerMessage {
  return create(RunnerSchema, {
    id: BigInt(runner.id),
    uuid: runner.uuid,
    token,
    name: runner.name,
    version: runner.version,
    labels: runner.labels,
    ephemeral: runner.ephemeral,
  });
}

function date(ts: Timestamp | undefined): Date | null {
  return ts ? timestampDate(ts) : null;
}

function unknownTask(id: bigint): ConnectError {
  return new ConnectError(`task with id ${id} not found`, Code.NotFound);
}

/** Gitea's runner protocol; `FetchTask` only holds the long-poll (a heartbeat) until workflows exist. */
@Injectable()
export class RunnerProtocolService implements OnModuleDestroy {
  private readonly logger = new Logger('RunnerProtocol');
  /** Aborted when the service stops: every waiting long-poll answers at once. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly runners: RunnersRepository,
    private readonly registrationTokens: RegistrationTokensRepository,
    private readonly tasks: TasksRepository,
    private readonly transactions: Transactions,
    private readonly outbox: EventOutbox,
    private readonly auth: RunnerAuthenticator,
    private readonly liveness: RunnerLivenessRecorder,
    @Inject(RUNNERS_SETTINGS) private readonly settings: RunnersSettings,
  ) {}

  onModuleDestroy(): void {
    this.stopping.abort();
  }

  async register(req: RegisterRequest): Promise<RegisterResponse> {
    if (!req.token || !req.name) throw new ConnectError('missing runner token, name', Code.InvalidArgument);
    const registration = await this.registrationTokens.findByHash(hashRunnerToken(req.token));
    if (!registration) throw new ConnectError('runner registration token not found', Code.Unauthenticated);
    if (!registration.isActive) {
      throw new ConnectError('runner registration token has been invalidated, please use the latest one', Code.Unauthenticated);
    }
    // Runners older than Gitea 1.20 send their labels as agent_labels.
    const labels = req.labels.length === 0 && req.agentLabels.length > 0 ? req.agentLabels : req.labels;
    const token = newRunnerToken();
    const runner = await this.transactions.run(async (tx) => {
      const created = await this.runners.create(tx, {
        uuid: randomUUID(),
        name: cutBytes(req.name, RUNNER_NAME_MAX_BYTES),
        ownerId: registration.ownerId,
        repoId: registration.repoId,
        version: req.version,
        labels,
        ephemeral: req.ephemeral,
        tokenHash: hashRunnerToken(token),
        registrationTokenId: registration.id,
      });
      await this.outbox.record(tx, RunnersEvents.runnerRegistered, runnerEventData(created, null));
      return created;
    });
    this.outbox.kick();
    this.logger.log(`runner ${runner.id} (${runner.name}) registered in scope owner=${runner.ownerId} repo=${runner.repoId}`);
    return create(RegisterResponseSchema, { runner: runnerMessage(runner, token) });
  }

  async declare(req: DeclareRequest, ctx: HandlerContext): Promise<DeclareResponse> {
    const runner = await this.auth.authenticate(ctx, 'Declare');
    const updated = await this.runners.declare(runner.id, req.version, req.labels);
    return create(DeclareResponseSchema, { runner: runnerMessage(updated) });
  }

  /** Holds the long-poll, then answers "no task": there are no workflows to pick from yet. */
  async fetchTask(req: FetchTaskRequest, ctx: HandlerContext): Promise<FetchTaskResponse> {
    await this.auth.authenticate(ctx, 'FetchTask');
    const deadline = ctx.timeoutMs();
    const wait = Math.max(0, Math.min(this.settings.fetchTaskWaitMs, deadline === undefined ? Infinity : deadline - 250));
    await this.sleep(wait, ctx.signal);
    return create(FetchTaskResponseSchema, { tasksVersion: req.tasksVersion });
  }

  async updateTask(req: UpdateTaskRequest, ctx: HandlerContext): Promise<UpdateTaskResponse> {
    const runner = await this.auth.authenticate(ctx, 'UpdateTask');
    const state: TaskState | undefined = req.state;
    if (!state) throw new ConnectError('missing task state', Code.InvalidArgument);
    const task = await this.ownTask(runner, state.id);
    this.liveness.working(runner.id);

    const updated = DONE.has(task.status) ? task : await this.applyState(task, state);
    const outputs = Object.entries(req.outputs).filter(([key, value]) => {
      const keep = Buffer.byteLength(key) <= OUTPUT_KEY_MAX_BYTES && Buffer.byteLength(value) <= OUTPUT_VALUE_MAX_BYTES;
      if (!keep) this.logger.warn(`ignored an output of task ${task.id}: key or value too long`);
      return keep;
    });
    if (outputs.length) await this.tasks.addOutputs(task.id, outputs);
    const sent = await this.tasks.outputKeys(task.id);

    if (runner.ephemeral && DONE.has(updated.status) && !runner.deletedAt) await this.retireEphemeral(runner);
    return create(UpdateTaskResponseSchema, {
      state: create(TaskStateSchema, { id: state.id, result: STATUS_RESULT[updated.status] ?? Result.UNSPECIFIED }),
      sentOutputs: sent,
    });
  }

  // Gitea's rule: rows before the task's length are acknowledged again; a gap is answered with the length, and the
  // runner resends from there.
  async updateLog(req: UpdateLogRequest, ctx: HandlerContext): Promise<UpdateLogResponse> {
    const runner = await this.auth.authenticate(ctx, 'UpdateLog');
    const task = await this.ownTask(runner, req.taskId);
    this.liveness.working(runner.id);
    const ack = BigInt(task.logLength);
    const end = req.index + BigInt(req.rows.length);
    if (req.rows.length === 0 || req.index > ack || end <= ack) {
      return create(UpdateLogResponseSchema, { ackIndex: ack });
    }
    const rows: LogRow[] = req.rows.slice(Number(ack - req.index));
    const size = rows.reduce((n, r) => n + Buffer.byteLength(r.content, 'utf8'), 0);
    const stored = rows.map((r) => ({ time: date(r.time) ?? new Date(), content: r.content }));
    const length = (await this.tasks.appendLog(task.id, task.logLength, stored, size)) ?? (await this.tasks.logLength(task.id));
    return create(UpdateLogResponseSchema, { ackIndex: BigInt(length) });
  }

  /** The task, if it exists and is this runner's; anything else is `not_found` (no hint whose task it is). */
  private async ownTask(runner: Runner, id: bigint): Promise<Task> {
    const task = id > 0n && id <= 2_147_483_647n ? await this.tasks.find(Number(id)) : null;
    if (!task || task.runnerId !== runner.id) throw unknownTask(id);
    return task;
  }

  /** Gitea's `UpdateTaskByState`: a result ends the task; without one it is running, started at the reported time. */
  private async applyState(task: Task, state: TaskState): Promise<Task> {
    const status = RESULT_STATUS[state.result];
    const startedAt = task.startedAt ?? date(state.startedAt) ?? new Date();
    return this.tasks.update(
      task.id,
      status ? { status, startedAt, stoppedAt: date(state.stoppedAt) ?? new Date() } : { status: 'running', startedAt },
    );
  }

  /** An ephemeral runner is removed once its one task is done (Gitea 1.24); it may still report for a moment. */
  private async retireEphemeral(runner: Runner): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (await this.runners.markDeleted(tx, runner.id)) await this.outbox.record(tx, RunnersEvents.runnerDeleted, runnerEventData(runner, null));
    });
    this.outbox.kick();
  }

  private sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const signals = [signal, this.stopping.signal];
      const done = () => {
        clearTimeout(timer);
        for (const s of signals) s.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const s of signals) {
        if (s.aborted) return done();
        s.addEventListener('abort', done, { once: true });
      }
    });
  }
}
