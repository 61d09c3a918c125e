import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { EmailsBody, IdentitySubjects, type ActorDto, type EmailDto } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentActor, ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';

/** `/user/emails`: the caller's e-mail addresses (Gitea's `userListEmails`, `userAddEmail`, `userDeleteEmail`). */
@Controller('user/emails')
@ScopeCategoryOf('user')
@SignInRequired()
export class EmailsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(@CurrentActor() actor: ActorDto): Promise<EmailDto[]> {
    return this.rpc.send(IdentitySubjects.emailList, { actor });
  }

  @Post()
  add(@CurrentActor() actor: ActorDto, @Body() body: EmailsBody): Promise<EmailDto[]> {
    return this.rpc.send(IdentitySubjects.emailAdd, { actor, body: body ?? {} });
  }

  @Delete()
  @HttpCode(204)
  async remove(@CurrentActor() actor: ActorDto, @Body() body: EmailsBody): Promise<void> {
    await this.rpc.send(IdentitySubjects.emailDelete, { actor, body: body ?? {} });
  }
}
