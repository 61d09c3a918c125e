import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { Logger } from '@nestjs/common';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ServerChannel } from 'ssh2';
import {
  DomainError, ErrorCode, IdentitySubjects, RepoSubjects, accessAtLeast, archivedPushRefusal, twoFactorDeniesRepoAccess, twoFactorRequiredMessage,
  unitAccessLevel,
  type RepoAccessReply, type ResolveKeyReply, type TwoFactorPolicy,
} from '@cairn/contracts';
import { withCorrelationId, type RpcClient, listenOn } from '@cairn/platform';
import { repoStoragePath } from '@cairn/git';
import { parseSshGitCommand, sanitizeGitProtocol, type ParsedGitCommand } from './git-service-request.js';
import type { DeployKeyGrant } from '../deploy-keys/deploy-key-gate.js';
import { startClientGitService, type GitTransportPaths } from './git-process.js';
import { fingerprintOf } from './ssh-fingerprint.js';

export interface GitSshServerOptions {
  hostKey: Buffer;
  /** The login name clients must use (`git@host`). */
  serverUser: string;
  repoRoot: string;
  paths: GitTransportPaths;
  rpc: RpcClient;
  twoFactorPolicy: TwoFactorPolicy;
  /** Close connections that have not authenticated within this time (ms). */
  authTimeoutMs?: number;
  /** Deploy keys (absent: only users' keys are accepted). */
  deployKeys?: DeployKeys;
}

/** What the SSH server needs of deploy keys (`DeployKeyGate`). */
export interface DeployKeys {
  isDeployKey(fingerprint: string): Promise<boolean>;
  grant(fingerprint: string, owner: string, repo: string): Promise<DeployKeyGrant | null>;
  touch(keyId: number): Promise<void>;
}

/** A deploy key that authenticated: it names no user, and reaches only the repositories it was added to. */
interface DeployKeyIdentity {
  deployKey: true;
  fingerprint: string;
}
type SshIdentity = ResolveKeyReply | DeployKeyIdentity;

interface GitTarget {
  repoId: number;
  dir: string;
  pusherId: number;
  deployKeyId?: number;
  recordUse: () => Promise<unknown>;
}

/** Raised to end an SSH git command with exit status 1 and a message on the client's stderr. */
class SshRefusal extends Error {}

// Public-key authentication only (identity-service's keys, else deploy keys), accepted only once the client's session
// signature verifies. Exec must be exactly `git-upload-pack|git-receive-pack '<owner>/<repo>'`; access as the gateway.
export class GitSshServer {
  private readonly logger = new Logger('GitSshServer');
  private readonly server: ssh2.Server;
  private readonly clients = new Set<Connection>();

  constructor(private readonly options: GitSshServerOptions) {
    this.server = new ssh2.Server({ hostKeys: [options.hostKey], ident: 'Cairn' }, (client) => this.onConnection(client));
    this.server.on('error', (err: Error) => this.logger.warn(`ssh server: ${err.message}`));
  }

  listen(port: number, host: string): Promise<number> {
    return listenOn(this.server, port, host);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const force = setTimeout(() => {
      for (const c of this.clients) c.end();
    }, 10_000);
    force.unref();
    await closed;
    clearTimeout(force);
  }

  private onConnection(client: Connection): void {
    this.clients.add(client);
    let identity: SshIdentity | undefined;
    const resolved = new Map<string, Promise<SshIdentity | null>>();
    const authTimer = setTimeout(() => {
      if (!identity) client.end();
    }, this.options.authTimeoutMs ?? 60_000);
    authTimer.unref();

    client.on('error', (err: Error) => this.logger.debug?.(`ssh client: ${err.message}`));
    client.on('close', () => {
      clearTimeout(authTimer);
      this.clients.delete(client);
    });

    client.on('authentication', (ctx: AuthContext) => {
      if (ctx.method !== 'publickey' || ctx.username !== this.options.serverUser) {
        ctx.reject(['publickey']);
        return;
      }
      const parsed = ssh2.utils.parseKey(ctx.key.data);
      if (parsed instanceof Error) {
        ctx.reject(['publickey']);
        return;
      }
      // The client proves it holds the private key by signing the session; without a signature it only asks
      // whether the key would be acceptable (answered with PK_OK, which authenticates nothing).
      if (ctx.signature && parsed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) !== true) {
        ctx.reject(['publickey']);
        return;
      }
      const blob = ctx.key.data.toString('base64');
      let lookup = resolved.get(blob);
      if (!lookup) {
        lookup = this.resolveKey(ctx.key.data);
        resolved.set(blob, lookup);
      }
      void lookup.then((reply) => {
        if (!reply) return ctx.reject(['publickey']);
        if (ctx.signature) identity = reply;
        ctx.accept();
      });
    });

    client.on('ready', () => {
      clearTimeout(authTimer);
      const who = identity;
      if (!who) {
        client.end();
        return;
      }
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        let gitProtocol: string | undefined;
        session.on('env', (accept, reject, info) => {
          // Only GIT_PROTOCOL (`ssh -o SendEnv`, for protocol v2) is taken, validated; nothing else reaches git.
          if (info.key !== 'GIT_PROTOCOL') return reject?.();
          gitProtocol = sanitizeGitProtocol(info.val);
          accept?.();
        });
        let pty = false;
        session.on('pty', (accept) => {
          pty = true;
          accept?.();
        });
        session.on('window-change', (accept) => accept?.());
        session.on('shell', (accept) => {
          const channel = accept();
          const greeting =
            'actor' in who
              ? `Hi ${who.actor.login}! You've successfully authenticated with the key ${who.fingerprint}, ` +
                `but Cairn does not provide shell access.`
              : `Hi there! You've successfully authenticated with the deploy key ${who.fingerprint}, ` +
                `but Cairn does not provide shell access.`;
          void this.finish(channel, 0, `${greeting}${pty ? '\r\n' : '\n'}`);
        });
        session.on('exec', (accept, _reject, info) => {
          const channel = accept();
          void withCorrelationId(undefined, () => this.exec(channel, who, info.command, gitProtocol));
        });
      });
    });
  }

  /** A user's key (identity-service), else a deploy key (a key is never both); null when neither. */
  private async resolveKey(blob: Buffer): Promise<SshIdentity | null> {
    try {
      return await this.options.rpc.send(IdentitySubjects.keyResolve, { keyBlobBase64: blob.toString('base64') });
    } catch (err) {
      const unknownToIdentity = err instanceof DomainError && err.code === ErrorCode.UNAUTHENTICATED;
      if (!unknownToIdentity && !(err instanceof DomainError && err.code === ErrorCode.NOT_FOUND)) {
        this.logger.warn(`ssh key lookup failed: ${(err as Error).message}`);
      }
      if (!unknownToIdentity || !this.options.deployKeys) return null;
    }
    const fingerprint = fingerprintOf(blob);
    try {
      return (await this.options.deployKeys.isDeployKey(fingerprint)) ? { deployKey: true, fingerprint } : null;
    } catch (err) {
      this.logger.warn(`deploy key lookup failed: ${(err as Error).message}`);
      return null;
    }
  }

  private async exec(channel: ServerChannel, who: SshIdentity, command: string, gitProtocol?: string): Promise<void> {
    try {
      const parsed = parseSshGitCommand(command);
      if ('error' in parsed) throw new SshRefusal(parsed.error);
      const target = 'actor' in who ? await this.authorise(who, parsed) : await this.authoriseDeployKey(who, parsed);
      const code = await this.runGit(channel, target, parsed, gitProtocol);
      if (code === 0) {
        target.recordUse().catch((err: Error) => {
          this.logger.warn(`recording use of an SSH key failed: ${err.message}`);
        });
      }
      await this.finish(channel, code);
    } catch (err) {
      if (err instanceof SshRefusal) return this.finish(channel, 1, `Cairn: ${err.message}\n`);
      this.logger.error(`ssh command failed: ${(err as Error).message}`);
      await this.finish(channel, 1, 'Cairn: internal error\n');
    }
  }

  /** The same rule as the gateway: `repo.access.resolve`, the two-factor policy, read to fetch, write to push. */
  private async authorise(who: ResolveKeyReply, cmd: ParsedGitCommand): Promise<GitTarget> {
    const notFound = `Repository ${cmd.owner}/${cmd.repo} does not exist or you do not have access to it`;
    // Before the lookup: the same answer for every repository, existing or not.
    if (twoFactorDeniesRepoAccess(this.options.twoFactorPolicy, who.actor)) throw new SshRefusal(twoFactorRequiredMessage());
    let reply: RepoAccessReply;
    try {
      reply = await this.options.rpc.send(RepoSubjects.accessResolve, {
        actor: who.actor,
        owner: cmd.owner,
        repo: cmd.repo,
      });
    } catch (err) {
      if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.INVALID_ARGUMENT)) {
        throw new SshRefusal(notFound);
      }
      if (err instanceof DomainError && (err.code === ErrorCode.UNAVAILABLE || err.code === ErrorCode.TIMEOUT)) {
        throw new SshRefusal('the service is temporarily unavailable, please try again');
      }
      throw err;
    }
    const need = cmd.service === 'upload-pack' ? 'read' : 'write';
    // Fetching and pushing are the code unit's (a team's `units_map` may give code less than the repository).
    const code = unitAccessLevel(reply, 'code');
    if (!accessAtLeast(reply.access, 'read')) throw new SshRefusal(notFound);
    if (!accessAtLeast(code, need)) {
      throw new SshRefusal(`User ${who.actor.login} is not allowed to push to ${reply.repo.ownerName}/${reply.repo.name}`);
    }
    const archived = need === 'write' ? archivedPushRefusal(reply.repo) : null;
    if (archived) throw new SshRefusal(archived);
    return {
      repoId: reply.repo.id,
      dir: await this.storageOf(reply.repo, notFound),
      pusherId: who.actor.id,
      recordUse: () => this.options.rpc.send(IdentitySubjects.keyTouch, { keyId: who.keyId }),
    };
  }

  /** A read-only deploy key only fetches; pushes are recorded as the owner's, as Gitea (a deploy key names no user). */
  private async authoriseDeployKey(who: DeployKeyIdentity, cmd: ParsedGitCommand): Promise<GitTarget> {
    const notFound = `Repository ${cmd.owner}/${cmd.repo} does not exist or you do not have access to it`;
    const deployKeys = this.options.deployKeys;
    const grant = deployKeys ? await deployKeys.grant(who.fingerprint, cmd.owner, cmd.repo) : null;
    if (!deployKeys || !grant) throw new SshRefusal(notFound);
    if (cmd.service === 'receive-pack' && grant.readOnly) {
      throw new SshRefusal(
        `Key permission denied: the deploy key is read-only, it cannot push to ${grant.repo.ownerName}/${grant.repo.name}`,
      );
    }
    const archived = cmd.service === 'receive-pack' ? archivedPushRefusal(grant.repo) : null;
    if (archived) throw new SshRefusal(archived);
    return {
      repoId: grant.repo.id,
      dir: await this.storageOf(grant.repo, notFound),
      pusherId: grant.repo.ownerId,
      deployKeyId: grant.keyId,
      recordUse: () => deployKeys.touch(grant.keyId),
    };
  }

  private async storageOf(repo: { ownerName: string; name: string }, notFound: string): Promise<string> {
    let dir: string;
    try {
      dir = repoStoragePath(this.options.repoRoot, repo.ownerName, repo.name);
    } catch {
      throw new SshRefusal(notFound);
    }
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) throw new SshRefusal(notFound);
    return dir;
  }

  private async runGit(
    channel: ServerChannel,
    target: GitTarget,
    cmd: ParsedGitCommand,
    gitProtocol: string | undefined,
  ): Promise<number> {
    const { repoId, dir, pusherId, deployKeyId } = target;
    const { child, finished } = await startClientGitService(
      this.options.paths,
      { service: cmd.service, dir, statelessRpc: false, gitProtocol },
      { repoId, dir, pusherId, via: 'ssh', ...(deployKeyId === undefined ? {} : { deployKeyId }) },
    );
    channel.pipe(child.stdin!);
    child.stdin!.on('error', () => undefined); // git may stop reading first (EPIPE): its exit code tells
    child.stdout!.pipe(channel, { end: false });
    child.stderr!.pipe(channel.stderr, { end: false });
    channel.once('close', () => {
      // A fetch nobody reads any more is stopped; a push is left to finish (refs may already be updated).
      if (child.exitCode === null && cmd.service === 'upload-pack') child.kill();
    });
    // A push is recorded by then (startClientGitService).
    const result = await finished;
    return result.code ?? 1;
  }

  /** Flushes what is queued on the channel, then sends the exit status and closes it. */
  private async finish(channel: ServerChannel, code: number, stderr?: string): Promise<void> {
    if (stderr) channel.stderr.write(stderr);
    await Promise.all([flushed(channel, channel), flushed(channel, channel.stderr)]);
    channel.exit(code);
    channel.end();
  }
}

/** Resolves once everything written so far has gone out (or the channel closed). */
function flushed(channel: ServerChannel, stream: Writable): Promise<void> {
  if (!stream.writable) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      channel.off('close', done);
      resolve();
    };
    channel.once('close', done);
    stream.write(Buffer.alloc(0), done);
  });
}
