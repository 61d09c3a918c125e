import { join } from 'node:path';
import { Inject, Injectable, Logger, type INestApplicationContext } from '@nestjs/common';
import { COMMON_SETTINGS, RpcClient, type CommonSettings } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { DeployKeyGate } from '../deploy-keys/deploy-key-gate.js';
import { InternalGitHttpServer } from './internal-http.server.js';
import { AttachmentBlobs } from '../storage/attachment-blobs.js';
import type { GitTransportPaths } from './git-process.js';
import { installHooks } from './push-log.js';
import { PreReceiveChecks } from './pre-receive-checks.js';
import { PushJournals } from './push-journal.js';
import { PUSH_SINK, type PushSink } from './push-sink.js';
import { AttachmentUploads, PushPolicy } from './transport-ports.js';
import { loadOrCreateHostKey } from './ssh-host-key.js';
import { GitSshServer } from './ssh.server.js';
import { hostKeyPath, serviceDataDir, TRANSPORT_SETTINGS, type TransportSettings } from './transport-settings.js';

export interface StartedTransport {
  httpPort: number | null;
  sshPort: number | null;
  stop: () => Promise<void>;
}

export interface TransportListenOverrides {
  httpPort?: number;
  sshPort?: number;
}

/** Internal smart HTTP and the SSH server, both journaling pushes into the push sink; the journals replay crashes. */
@Injectable()
export class GitTransport {
  private readonly logger = new Logger('GitTransport');

  constructor(
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(TRANSPORT_SETTINGS) private readonly settings: TransportSettings,
    @Inject(REPO_SETTINGS) private readonly repoSettings: RepoSettings,
    private readonly rpc: RpcClient,
    @Inject(PUSH_SINK) private readonly onPush: PushSink,
    private readonly protection: PushPolicy,
    private readonly deployKeys: DeployKeyGate,
    private readonly attachments: AttachmentUploads,
    private readonly attachmentBlobs: AttachmentBlobs,
  ) {}

  async start(overrides: TransportListenOverrides = {}): Promise<StartedTransport> {
    const dataDir = serviceDataDir(this.common.repoRoot);
    const journals = new PushJournals(join(dataDir, 'push-journal'), this.onPush);
    // Branch protection, asked by the pre-receive hook of every push before its refs move.
    const preReceive = new PreReceiveChecks(
      ({ context, env, updates }) =>
        this.protection.refusals({
          repoId: context.repoId,
          pusherId: context.pusherId,
          deployKeyId: context.deployKeyId,
          dir: context.dir,
          env,
          updates,
        }),
      (context) => this.protection.hasRules(context.repoId),
    );
    const paths: GitTransportPaths = { hooksDir: join(dataDir, 'git-hooks'), journals, preReceive };
    await installHooks(paths.hooksDir);
    await preReceive.listen();
    // Pushes a previous run (of any instance) left unrecorded are replayed from here on.
    await journals.start();
    const stops: Array<() => Promise<void>> = [() => journals.stop(), () => preReceive.close()];
    let httpPort: number | null = null;
    let sshPort: number | null = null;
    try {
      if (this.settings.startInternalHttp) {
        const http = new InternalGitHttpServer({
          repoRoot: this.common.repoRoot,
          internalToken: this.common.internalToken,
          paths,
          attachments: { service: this.attachments, blobs: this.attachmentBlobs },
        });
        httpPort = await http.listen(overrides.httpPort ?? this.common.repoInternalPort, this.settings.internalHost);
        stops.push(() => http.close());
        this.logger.log(`internal git HTTP listening on ${this.settings.internalHost}:${httpPort}`);
      }
      if (this.settings.startSshServer) {
        const ssh = new GitSshServer({
          hostKey: await loadOrCreateHostKey(hostKeyPath(this.settings, this.common.repoRoot)),
          serverUser: this.settings.sshServerUser,
          repoRoot: this.common.repoRoot,
          paths,
          rpc: this.rpc,
          twoFactorPolicy: this.repoSettings.twoFactorAuth,
          deployKeys: this.deployKeys,
        });
        sshPort = await ssh.listen(overrides.sshPort ?? this.common.sshPort, this.settings.sshListenHost);
        stops.push(() => ssh.close());
        this.logger.log(`SSH server listening on ${this.settings.sshListenHost}:${sshPort}`);
      }
    } catch (err) {
      await Promise.all(stops.map((s) => s().catch(() => undefined)));
      throw err;
    }
    return {
      httpPort,
      sshPort,
      stop: async () => {
        await Promise.all(stops.map((s) => s().catch(() => undefined)));
      },
    };
  }
}

export async function startTransport(app: INestApplicationContext): Promise<() => Promise<void>> {
  const started = await app.get(GitTransport).start();
  return started.stop;
}
