import { Injectable } from '@nestjs/common';
import { DomainError, type ActorDto, type UserSettingsDto, type UserSettingsOptions } from '@cairn/contracts';
import { PrismaService } from '../prisma/prisma.service.js';
import { toUserSettingsDto } from './user.mapper.js';
import { UsersRepository, type UserChanges, type UserRow } from './users.repository.js';

/** Gitea's body field → the column it sets. */
const SETTINGS_COLUMNS: ReadonlyArray<[keyof UserSettingsOptions, keyof UserChanges]> = [
  ['full_name', 'fullName'], ['website', 'website'], ['description', 'description'], ['location', 'location'],
  ['language', 'language'], ['hide_email', 'hideEmail'], ['hide_activity', 'hideActivity'],
  ['diff_view_style', 'diffViewStyle'], ['theme', 'theme'],
];

/** The caller's own profile settings (`/user/settings`): always the actor's own row, never another user's. */
@Injectable()
export class UserSettingsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly users: UsersRepository,
  ) {}

  async get(actor: ActorDto): Promise<UserSettingsDto> {
    return toUserSettingsDto(await this.ownRow(actor));
  }

  async update(actor: ActorDto, body: UserSettingsOptions): Promise<UserSettingsDto> {
    await this.ownRow(actor);
    const changes: UserChanges = {};
    for (const [from, to] of SETTINGS_COLUMNS) {
      if (body[from] !== undefined) (changes as Record<string, unknown>)[to] = body[from];
    }
    return toUserSettingsDto(await this.users.update(this.prisma, actor.id, changes));
  }

  private async ownRow(actor: ActorDto): Promise<UserRow> {
    const row = await this.users.findById(actor.id);
    if (!row || row.type !== 'user') throw DomainError.notFound('user does not exist');
    return row;
  }
}
