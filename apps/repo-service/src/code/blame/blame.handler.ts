import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { BlameRequest, RepoSubjects, type BlameReply } from '@cairn/contracts';
import { BlameService } from './blame.service.js';

/** Who last changed each line of a file (the web UI's blame page). */
@Controller()
export class BlameHandler {
  constructor(private readonly blames: BlameService) {}

  @RpcHandler(RepoSubjects.blame)
  blame(@Payload() req: BlameRequest): Promise<BlameReply> {
    return this.blames.blame(req);
  }
}
