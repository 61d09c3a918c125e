import { Controller, Get, Res } from '@nestjs/common';
import { RepoSubjects, type SigningKeyFormat } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { PublicRoute, ScopeCategoryOf } from '../../auth/policy.decorators.js';

/** Sends the key as Gitea does: the bare text, `text/plain`. */
async function sendKey(rpc: RpcClient, reply: FastifyReply, format: SigningKeyFormat, ctx?: RepoContext): Promise<void> {
  const { content } = await rpc.send(RepoSubjects.signingKeyGet, { format, ...(ctx ? { repo: ctx.repo, access: ctx.access } : {}) });
  void reply.type('text/plain; charset=utf-8').send(content);
}

/** The public half of the key Cairn signs its commits with (Gitea's `misc/signing.go`): no authentication needed. */
@Controller()
export class SigningKeyController {
  constructor(private readonly rpc: RpcClient) {}

  /** `GET /signing-key.gpg`: the armored OpenPGP key (404 "signing key format is ssh" / "no signing key"). */
  @Get('signing-key.gpg')
  @PublicRoute()
  gpg(@Res() reply: FastifyReply): Promise<void> {
    return sendKey(this.rpc, reply, 'openpgp');
  }

  /** `GET /signing-key.pub`: the OpenSSH public key (404 "signing key format is openpgp" / "no signing key"). */
  @Get('signing-key.pub')
  @PublicRoute()
  ssh(@Res() reply: FastifyReply): Promise<void> {
    return sendKey(this.rpc, reply, 'ssh');
  }
}

/** The same per repository (its own git configuration applies when SIGNING_KEY = default); needs read access. */
@Controller('repos/:owner/:repo')
@ScopeCategoryOf('repository')
export class RepoSigningKeyController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('signing-key.gpg')
  @RepoAccess(RepoSubjects.signingKeyGet)
  gpg(@CurrentRepo() ctx: RepoContext, @Res() reply: FastifyReply): Promise<void> {
    return sendKey(this.rpc, reply, 'openpgp', ctx);
  }

  @Get('signing-key.pub')
  @RepoAccess(RepoSubjects.signingKeyGet)
  ssh(@CurrentRepo() ctx: RepoContext, @Res() reply: FastifyReply): Promise<void> {
    return sendKey(this.rpc, reply, 'ssh', ctx);
  }
}
