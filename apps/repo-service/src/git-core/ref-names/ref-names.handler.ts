import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { ListRefNamesRequest, RepoSubjects, type RefNamesReply } from '@cairn/contracts';
import { RefNamesService } from './ref-names.service.js';

/** Branch and tag names (the web UI's ref switcher). */
@Controller()
export class RefNamesHandler {
  constructor(private readonly refs: RefNamesService) {}

  @RpcHandler(RepoSubjects.refNames)
  list(@Payload() req: ListRefNamesRequest): Promise<RefNamesReply> {
    return this.refs.list(req);
  }
}
