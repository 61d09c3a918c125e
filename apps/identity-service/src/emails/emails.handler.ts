import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { ActorRequest, EmailPrimaryRequest, EmailsRequest, IdentitySubjects, type EmailDto } from '@cairn/contracts';
import { EmailsService } from './emails.service.js';

@Controller()
export class EmailsHandler {
  constructor(private readonly emails: EmailsService) {}

  @RpcHandler(IdentitySubjects.emailList)
  list(@Payload() req: ActorRequest): Promise<EmailDto[]> {
    return this.emails.list(req.actor ?? null);
  }

  @RpcHandler(IdentitySubjects.emailAdd)
  add(@Payload() req: EmailsRequest): Promise<EmailDto[]> {
    return this.emails.add(req.actor ?? null, req.body?.emails);
  }

  @RpcHandler(IdentitySubjects.emailSetPrimary)
  setPrimary(@Payload() req: EmailPrimaryRequest): Promise<EmailDto[]> {
    return this.emails.setPrimary(req.actor ?? null, req.email);
  }

  @RpcHandler(IdentitySubjects.emailDelete)
  async delete(@Payload() req: EmailsRequest): Promise<null> {
    await this.emails.delete(req.actor ?? null, req.body?.emails);
    return null;
  }
}
