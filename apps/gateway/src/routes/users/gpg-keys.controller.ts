import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  CreateGpgKeyBody, IdentitySubjects, ListQuery, VerifyGpgKeyBody, VerifySshKeyBody,
  type ActorDto, type GpgKeyDto, type Paginated, type PublicKeyDto,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';
import { PositiveIntPipe } from '../../http/params.js';
import { Paged } from '../../http/paged.js';

/**
 * OpenPGP keys (`/user/gpg_keys`, `/users/{username}/gpg_keys`, Gitea's routes) and proving ownership of keys by
 * signing a token: `/user/gpg_key_token` + `/user/gpg_key_verify` (Gitea), `/user/ssh_key_token` +
 * `/user/ssh_key_verify` (Cairn: Gitea verifies SSH keys in its web UI only).
 */
@Controller()
@ScopeCategoryOf('user')
export class GpgKeysController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('user/gpg_keys')
  @SignInRequired()
  @Paged()
  list(@CurrentActor() actor: ActorDto, @Query() query: ListQuery): Promise<Paginated<GpgKeyDto>> {
    return this.rpc.send(IdentitySubjects.gpgKeyList, { actor, query });
  }

  @Post('user/gpg_keys')
  @SignInRequired()
  create(@CurrentActor() actor: ActorDto, @Body() body: CreateGpgKeyBody): Promise<GpgKeyDto> {
    return this.rpc.send(IdentitySubjects.gpgKeyCreate, { actor, body });
  }

  @Get('user/gpg_keys/:id')
  @SignInRequired()
  get(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number): Promise<GpgKeyDto> {
    return this.rpc.send(IdentitySubjects.gpgKeyGet, { actor, id });
  }

  @Delete('user/gpg_keys/:id')
  @SignInRequired()
  @HttpCode(204)
  async remove(@CurrentActor() actor: ActorDto, @Param('id', PositiveIntPipe) id: number): Promise<void> {
    await this.rpc.send(IdentitySubjects.gpgKeyDelete, { actor, id });
  }

  @Get('users/:username/gpg_keys')
  @Paged()
  userKeys(
    @CurrentActor() actor: ActorDto | null,
    @Param('username') username: string,
    @Query() query: ListQuery,
  ): Promise<Paginated<GpgKeyDto>> {
    return this.rpc.send(IdentitySubjects.gpgKeyList, { actor, username, query });
  }

  @Get('user/gpg_key_token')
  @SignInRequired()
  async gpgToken(@CurrentActor() actor: ActorDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.token(actor, reply);
  }

  @Post('user/gpg_key_verify')
  @SignInRequired()
  @HttpCode(200)
  verifyGpg(@CurrentActor() actor: ActorDto, @Body() body: VerifyGpgKeyBody): Promise<GpgKeyDto> {
    return this.rpc.send(IdentitySubjects.gpgKeyVerify, { actor, body });
  }

  /** The same token as `gpg_key_token` (one token proves any key), under a name that matches the SSH route. */
  @Get('user/ssh_key_token')
  @SignInRequired()
  async sshToken(@CurrentActor() actor: ActorDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return this.token(actor, reply);
  }

  @Post('user/ssh_key_verify')
  @SignInRequired()
  @HttpCode(200)
  verifySsh(@CurrentActor() actor: ActorDto, @Body() body: VerifySshKeyBody): Promise<PublicKeyDto> {
    return this.rpc.send(IdentitySubjects.keyVerify, { actor, body });
  }

  /** Plain text, as Gitea answers it. */
  private async token(actor: ActorDto, reply: FastifyReply): Promise<string> {
    const { token } = await this.rpc.send(IdentitySubjects.keyVerificationToken, { actor });
    void reply.type('text/plain; charset=utf-8');
    return token;
  }
}
