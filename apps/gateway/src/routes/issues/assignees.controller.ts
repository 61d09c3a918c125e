import { Controller, Get } from '@nestjs/common';
import { IssueSubjects, type UserDto } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { CurrentRepo, RepoAccess, type RepoContext } from '../../access/repo-access.guard.js';
import { ScopeCategoryOf, SignInRequired } from '../../auth/policy.decorators.js';

/** `GET /repos/{owner}/{repo}/assignees` (Gitea's `repoGetAssignees`: signed in, read access; not paged). */
@Controller('repos/:owner/:repo/assignees')
@ScopeCategoryOf('repository')
export class AssigneesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @SignInRequired()
  @RepoAccess(IssueSubjects.assignees)
  list(@CurrentRepo() ctx: RepoContext): Promise<UserDto[]> {
    return this.rpc.send(IssueSubjects.assignees, { ...ctx });
  }
}
