import { Injectable } from '@nestjs/common';
import { DomainError, type ActorDto, type UserSettingsDto, type UserSettingsOptions } from '@cairn/contracts';
import { PasswordHasher } from '../common/password-hasher.js';
import { Transactions } from '../prisma/transactions.js';
import { toUserSettingsDto } from './user.mapper.js';
import { UsersRepository, type UserChanges, type UserRow } from './users.repository.js';

const SETTINGS_COLUMNS: ReadonlyArray<[keyof UserSettingsOptions, keyof UserChanges]> = [
  ['full_name', 'fullName'], ['website', 'website'], ['description', 'description'], ['location', 'location'],
  ['language', 'language'], ['hide_email', 'hideEmail'], ['hide_activity', 'hideActivity'],
  ['diff_view_style', 'diffViewStyle'], ['theme', 'theme'],
];

/** The caller's own profile settings (`/user/settings`): always the actor's own row, never another user's. */
@Injectable()
export class UserSettingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  async get(actor: ActorDto): Promise<UserSettingsDto> {
    return toUserSettingsDto(await this.ownRow(actor));
  }

  async update(actor: ActorDto, body: UserSettingsOptions): Promise<UserSettingsDto> {
    await this.ownRow(actor);
    const changes: UserChanges = {};
    for (const [from, to] of SETTINGS_COLUMNS) {
      // Gitea's options are Go pointers: `null` leaves a field as it is, like leaving it out.
      if (body[from] !== undefined && body[from] !== null) (changes as Record<string, unknown>)[to] = body[from];
    }
    return toUserSettingsDto(await this.transactions.run((tx) => this.users.update(tx, actor.id, changes)));
  }

  /** Sets the actor's own new password and clears "must change password" (Gitea refuses the old one again). */
  async changePassword(actor: ActorDto, password: string): Promise<void> {
    const row = await this.ownRow(actor);
    if (await this.hasher.verify(password, row.passwordHash)) {
      throw DomainError.unprocessable('the new password must differ from the current one');
    }
    const passwordHash = await this.hasher.hash(password);
    await this.transactions.run((tx) => this.users.update(tx, actor.id, { passwordHash, mustChangePassword: false }));
  }

  private async ownRow(actor: ActorDto): Promise<UserRow> {
    const row = await this.users.findById(actor.id);
    if (!row || row.type !== 'user') throw DomainError.notFound('user does not exist');
    return row;
  }
}
