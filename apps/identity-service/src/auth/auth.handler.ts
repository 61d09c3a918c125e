import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  IdentitySubjects, ResolveCredentialsRequest, TwoFactorRequest,
  type ResolveCredentialsReply, type TwoFactorEnrollReply,
} from '@cairn/contracts';
import { requireActor } from '../common/require-actor.js';
import { AuthService } from './auth.service.js';
import { TwoFactorService } from './two-factor.service.js';

@Controller()
export class AuthHandler {
  constructor(
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @MessagePattern(IdentitySubjects.authResolve)
  resolve(@Payload() req: ResolveCredentialsRequest): Promise<ResolveCredentialsReply> {
    return this.auth.resolve(req);
  }

  @MessagePattern(IdentitySubjects.userVerifyPassword)
  verifyPassword(@Payload() req: ResolveCredentialsRequest): Promise<ResolveCredentialsReply> {
    return this.auth.resolve({ ...req, kind: 'password' });
  }

  @MessagePattern(IdentitySubjects.twoFactorEnroll)
  enroll(@Payload() req: TwoFactorRequest): Promise<TwoFactorEnrollReply> {
    return this.twoFactor.enroll(requireActor(req.actor), req.username);
  }

  @MessagePattern(IdentitySubjects.twoFactorDisable)
  async disable(@Payload() req: TwoFactorRequest): Promise<{ ok: true }> {
    await this.twoFactor.disable(requireActor(req.actor), req.username);
    return { ok: true };
  }
}
