import { Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, toPaging,
  type ActorDto, type CreateOrgLabelRequest, type EditOrgLabelRequest, type LabelDto, type ListOrgLabelsRequest,
  type OrgLabelIdRequest, type OrgLabelsRequest, type OwnerDto, type Paginated,
} from '@cairn/contracts';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import type { Label } from '../../generated/prisma/client.js';
import { toLabelDto } from '../issue-core/label.mapper.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { labelChanges, newLabelData } from './label-rules.js';
import { LabelsRepository } from './labels.repository.js';

/** Readable by whoever sees the organization; changed by its owners and site admins (Gitea's `reqOrgOwnership`). */
@Injectable()
export class OrgLabelsService {
  constructor(
    private readonly labels: LabelsRepository,
    private readonly identity: IdentityDirectory,
    private readonly views: RepoViews,
  ) {}

  async list(req: ListOrgLabelsRequest): Promise<Paginated<LabelDto>> {
    const org = await this.visible(req);
    const page = await this.labels.list({ orgId: org.id }, toPaging(req.query));
    return { items: page.items.map((l) => this.dto(org, l)), total: page.total };
  }

  async get(req: OrgLabelIdRequest): Promise<LabelDto> {
    const org = await this.visible(req);
    return this.dto(org, await this.load(org, req.id));
  }

  async create(req: CreateOrgLabelRequest): Promise<LabelDto> {
    const org = await this.owned(req);
    const now = new Date();
    return this.dto(org, await this.labels.create({ orgId: org.id }, newLabelData(req.body, now), now));
  }

  async edit(req: EditOrgLabelRequest): Promise<LabelDto> {
    const org = await this.owned(req);
    const current = await this.load(org, req.id);
    const now = new Date();
    return this.dto(org, await this.labels.update(current.id, labelChanges(req.body ?? {}, current, now), now));
  }

  async delete(req: OrgLabelIdRequest): Promise<void> {
    const org = await this.owned(req);
    if (!(await this.labels.delete({ orgId: org.id }, req.id))) throw DomainError.notFound('label not found');
  }

  private dto(org: OwnerDto, row: Label): LabelDto {
    return toLabelDto(row, { rootUrl: this.views.rootUrl, orgName: org.login });
  }

  private async load(org: OwnerDto, id: number): Promise<Label> {
    const row = await this.labels.find({ orgId: org.id }, id);
    if (!row) throw DomainError.notFound('label not found');
    return row;
  }

  /** The organization, when the actor may see it (404 otherwise, as for an organization that does not exist). */
  private async visible(req: OrgLabelsRequest): Promise<OwnerDto> {
    const org = await this.organization(req.org);
    if (org.visibility === 'public' || req.actor?.isAdmin) return org;
    if (req.actor && (org.visibility === 'limited' || (await this.membership(org, req.actor)).isMember)) return org;
    throw DomainError.notFound('organization does not exist');
  }

  /** The organization, when the actor owns it or is a site admin (403 for those who see it, 404 for others). */
  private async owned(req: OrgLabelsRequest): Promise<OwnerDto> {
    const org = await this.organization(req.org);
    if (!req.actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    if (req.actor.isAdmin) return org;
    const m = await this.membership(org, req.actor);
    if (m.isOwner) return org;
    if (!m.isMember && org.visibility === 'private') throw DomainError.notFound('organization does not exist');
    throw DomainError.forbidden('Must be an organization owner');
  }

  private membership(org: OwnerDto, actor: ActorDto) {
    return this.identity.membership(org.id, actor.id);
  }

  private async organization(name: string): Promise<OwnerDto> {
    const owner = await this.identity.resolveOwner(name);
    if (owner.kind !== 'organization') throw DomainError.notFound('organization does not exist');
    return owner;
  }
}
