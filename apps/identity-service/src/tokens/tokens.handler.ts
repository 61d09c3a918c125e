import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateTokenRequest, DeleteTokenRequest, IdentitySubjects, ListTokensRequest,
  type AccessTokenDto, type Paginated,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { TokensService } from './tokens.service.js';

@Controller()
export class TokensHandler {
  constructor(private readonly tokens: TokensService) {}

  @RpcHandler(IdentitySubjects.tokenCreate)
  create(@Payload() req: CreateTokenRequest): Promise<AccessTokenDto> {
    return this.tokens.create(requireActor(req.actor), req.username, requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.tokenList)
  list(@Payload() req: ListTokensRequest): Promise<Paginated<AccessTokenDto>> {
    return this.tokens.list(requireActor(req.actor), req.username, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.tokenDelete)
  async delete(@Payload() req: DeleteTokenRequest): Promise<{ ok: true }> {
    await this.tokens.delete(requireActor(req.actor), req.username, req.token);
    return { ok: true };
  }
}
