import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import {
  IdentitySubjects, TwoFactorConfirmBody,
  type ActorDto, type TwoFactorConfirmReply, type TwoFactorEnrollReply,
} from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import {
  CurrentActor, PasswordRequired, ScopeCategoryOf, SignInRequired,
} from '../../auth/policy.decorators.js';

/**
 * `/user/2fa` (a Cairn extension): TOTP enrolment, always with the password so a stolen token cannot lock the owner
 * out; open to users who must enrol under `TWO_FACTOR_AUTH = enforced`, as every refusal of theirs points here.
 */
@Controller('user/2fa')
@ScopeCategoryOf('user')
@SignInRequired()
@PasswordRequired({ sudo: false })
export class TwoFactorController {
  constructor(private readonly rpc: RpcClient) {}

  /** Starts (or restarts) enrolment: the secret and `otpauth://` URI, shown once; nothing is active yet. */
  @Post()
  enroll(@CurrentActor() actor: ActorDto): Promise<TwoFactorEnrollReply> {
    return this.rpc.send(IdentitySubjects.twoFactorEnroll, { actor });
  }

  /** Activates the pending enrolment with a current code; answers the recovery code, shown once. */
  @Post('confirm')
  @HttpCode(200)
  confirm(@CurrentActor() actor: ActorDto, @Body() body: TwoFactorConfirmBody): Promise<TwoFactorConfirmReply> {
    return this.rpc.send(IdentitySubjects.twoFactorConfirm, { actor, passcode: body.passcode.trim() });
  }

  /** Removes the enrolment, active (the sign-in itself needed a code) or pending. */
  @Delete()
  @HttpCode(204)
  async remove(@CurrentActor() actor: ActorDto): Promise<void> {
    await this.rpc.send(IdentitySubjects.twoFactorDisable, { actor });
  }
}
