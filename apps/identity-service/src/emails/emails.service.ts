import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { DomainError, ErrorCode, type ActorDto, type EmailDto } from '@cairn/contracts';
import { uniqueViolation } from '@cairn/platform';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { EmailsRepository } from './emails.repository.js';

/** Additional addresses are unique across accounts and activated at once (Gitea without `REGISTER_EMAIL_CONFIRM`). */
@Injectable()
export class EmailsService {
  constructor(
    private readonly emails: EmailsRepository,
    private readonly users: UsersRepository,
  ) {}

  async list(actor: ActorDto | null): Promise<EmailDto[]> {
    const user = await this.user(actor);
    const extra = await this.emails.list(user.id);
    return [
      ...(user.email ? [toEmailDto(user, user.email, true, true)] : []),
      // An additional address that became the primary one is listed once, as the primary.
      ...extra.filter((e) => e.lowerEmail !== user.lowerEmail).map((e) => toEmailDto(user, e.email, e.isActivated, false)),
    ];
  }

  async add(actor: ActorDto | null, emails: string[] | undefined): Promise<EmailDto[]> {
    const user = await this.user(actor);
    const wanted = [...new Map((emails ?? []).map((e) => [e.trim().toLowerCase(), e.trim()])).values()];
    if (wanted.length === 0) throw DomainError.unprocessable('Email list empty');
    for (const email of wanted) {
      if (!isEmail(email)) throw DomainError.unprocessable(`Email address is not valid: ${email}`);
      if (await this.users.emailTaken(email)) throw DomainError.unprocessable(`Email address has been used: ${email}`);
    }
    try {
      const rows = await this.emails.add(user.id, wanted);
      return rows.map((e) => toEmailDto(user, e.email, e.isActivated, false));
    } catch (err) {
      if (uniqueViolation(err)?.includes('lower_email')) throw DomainError.unprocessable('Email address has been used');
      throw err;
    }
  }

  /** Removes additional addresses; the primary one cannot be (422), an unknown one is NOT_FOUND (nothing removed). */
  async delete(actor: ActorDto | null, emails: string[] | undefined): Promise<void> {
    const user = await this.user(actor);
    const wanted = [...new Set((emails ?? []).map((e) => e.trim().toLowerCase()))];
    if (wanted.length === 0) return;
    if (user.lowerEmail && wanted.includes(user.lowerEmail)) throw DomainError.unprocessable('Primary email address cannot be deleted');
    const owned = new Set((await this.emails.owned(user.id, wanted)).map((e) => e.lowerEmail));
    const missing = wanted.find((e) => !owned.has(e));
    if (missing) throw DomainError.notFound(`email address "${missing}" does not exist`);
    await this.emails.delete(user.id, wanted);
  }

  /** The old primary is kept as an additional address, so nothing that knew it (signed commits) loses it. */
  async setPrimary(actor: ActorDto | null, email: string): Promise<EmailDto[]> {
    const user = await this.user(actor);
    const lower = email.trim().toLowerCase();
    if (lower !== user.lowerEmail) {
      const [row] = await this.emails.owned(user.id, [lower]);
      if (!row) throw DomainError.notFound(`email address "${email.trim()}" does not exist`);
      if (!row.isActivated) throw DomainError.unprocessable('Email address is not activated');
      await this.emails.makePrimary(user.id, row.email, user.email);
    }
    return this.list(actor);
  }

  private async user(actor: ActorDto | null): Promise<UserRow> {
    if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    const user = await this.users.findById(actor.id);
    if (!user) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    return user;
  }
}

function toEmailDto(user: UserRow, email: string, verified: boolean, primary: boolean): EmailDto {
  return { email, verified, primary, user_id: user.id, username: user.name };
}
