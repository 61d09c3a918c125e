import { Injectable } from '@nestjs/common';
import { Code, ConnectError, type HandlerContext } from '@connectrpc/connect';
import type { Runner } from '../generated/prisma/client.js';
import { RunnersRepository } from '../runners/runners.repository.js';
import { runnerTokenMatches } from '../runners/runner-token.js';
import { RunnerLivenessRecorder } from './runner-liveness.js';

/** Gitea's runner credential headers (`routers/api/actions/runner/interceptor.go`). */
export const RUNNER_UUID_HEADER = 'x-runner-uuid';
export const RUNNER_TOKEN_HEADER = 'x-runner-token';

/** How long after its deletion a runner may still report on its task (Gitea: an ephemeral runner finishing up). */
export const DELETED_RUNNER_GRACE_MS = 10_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type RunnerCall = 'Declare' | 'FetchTask' | 'UpdateTask' | 'UpdateLog';

/** As Gitea's interceptor; a deleted runner may still report on its task within {@link DELETED_RUNNER_GRACE_MS}. */
@Injectable()
export class RunnerAuthenticator {
  constructor(
    private readonly runners: RunnersRepository,
    private readonly liveness: RunnerLivenessRecorder,
  ) {}

  async authenticate(ctx: HandlerContext, call: RunnerCall): Promise<Runner> {
    const uuid = ctx.requestHeader.get(RUNNER_UUID_HEADER) ?? '';
    const token = ctx.requestHeader.get(RUNNER_TOKEN_HEADER) ?? '';
    const runner = UUID.test(uuid) ? await this.runners.findByUuid(uuid) : null;
    if (!runner || !token || !runnerTokenMatches(token, runner.tokenHash)) {
      throw new ConnectError('unregistered runner', Code.Unauthenticated);
    }
    if (runner.deletedAt) {
      const reporting = call === 'UpdateTask' || call === 'UpdateLog';
      if (!reporting || Date.now() - runner.deletedAt.getTime() > DELETED_RUNNER_GRACE_MS) {
        throw new ConnectError('runner is deleted', Code.Unauthenticated);
      }
    }
    this.liveness.seen(runner.id);
    return runner;
  }
}
