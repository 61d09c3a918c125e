import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  AuthReferenceRequest, IdentitySubjects, ResolveCredentialsRequest, SecondFactorRequest, SessionUserRequest, WebSignInRequest,
  type SecondFactorReply, type WebSignInReply, TwoFactorConfirmRequest, TwoFactorRequest,
  type ResolveCredentialsReply, type TwoFactorConfirmReply, type TwoFactorEnrollReply,
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

  @RpcHandler(IdentitySubjects.authResolve)
  resolve(@Payload() req: ResolveCredentialsRequest): Promise<ResolveCredentialsReply> {
    return this.auth.resolve(req);
  }

  @RpcHandler(IdentitySubjects.authSession)
  session(@Payload() req: SessionUserRequest): Promise<ResolveCredentialsReply> {
    return this.auth.sessionUser(req.userId);
  }

  @RpcHandler(IdentitySubjects.authReference)
  reference(@Payload() req: AuthReferenceRequest): Promise<ResolveCredentialsReply> {
    return this.auth.referencedActor(req.userId, req.tokenId);
  }

  @RpcHandler(IdentitySubjects.authWebSignIn)
  webSignIn(@Payload() req: WebSignInRequest): Promise<WebSignInReply> {
    return this.auth.webSignIn(req);
  }

  @RpcHandler(IdentitySubjects.authWebSecondFactor)
  webSecondFactor(@Payload() req: SecondFactorRequest): Promise<SecondFactorReply> {
    return this.auth.webSecondFactor(req);
  }

  @RpcHandler(IdentitySubjects.userVerifyPassword)
  verifyPassword(@Payload() req: ResolveCredentialsRequest): Promise<ResolveCredentialsReply> {
    return this.auth.resolve({ ...req, kind: 'password' });
  }

  @RpcHandler(IdentitySubjects.twoFactorEnroll)
  enroll(@Payload() req: TwoFactorRequest): Promise<TwoFactorEnrollReply> {
    return this.twoFactor.enroll(requireActor(req.actor), req.username);
  }

  @RpcHandler(IdentitySubjects.twoFactorConfirm)
  confirm(@Payload() req: TwoFactorConfirmRequest): Promise<TwoFactorConfirmReply> {
    return this.twoFactor.confirm(requireActor(req.actor), req.passcode);
  }

  @RpcHandler(IdentitySubjects.twoFactorDisable)
  async disable(@Payload() req: TwoFactorRequest): Promise<{ ok: true }> {
    await this.twoFactor.disable(requireActor(req.actor), req.username, req.passcode);
    return { ok: true };
  }
}
