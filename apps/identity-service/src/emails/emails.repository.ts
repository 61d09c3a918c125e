import { Injectable } from '@nestjs/common';
import type { EmailAddress } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export type EmailRow = EmailAddress;

@Injectable()
export class EmailsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(userId: number): Promise<EmailRow[]> {
    return this.prisma.emailAddress.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  }

  /** Adds all of them or none (one transaction). */
  add(userId: number, emails: string[]): Promise<EmailRow[]> {
    return this.prisma.$transaction((tx) =>
      Promise.all(emails.map((email) => tx.emailAddress.create({ data: { userId, email, lowerEmail: email.toLowerCase() } }))),
    );
  }

  owned(userId: number, lowerEmails: string[]): Promise<EmailRow[]> {
    return this.prisma.emailAddress.findMany({ where: { userId, lowerEmail: { in: lowerEmails } } });
  }

  /** `email` (one of the user's rows) becomes `users.email`; the old primary joins the additional addresses. */
  async makePrimary(userId: number, email: string, oldPrimary: string): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: userId }, data: { email, lowerEmail: email.toLowerCase() } });
      if (oldPrimary) {
        const lowerEmail = oldPrimary.toLowerCase();
        await tx.emailAddress.upsert({
          where: { lowerEmail },
          create: { userId, email: oldPrimary, lowerEmail, isActivated: true },
          update: {},
        });
      }
    });
  }

  async delete(userId: number, lowerEmails: string[]): Promise<void> {
    await this.prisma.emailAddress.deleteMany({ where: { userId, lowerEmail: { in: lowerEmails } } });
  }
}
