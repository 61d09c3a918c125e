import { Module } from '@nestjs/common';
import { AuthService } from './auth/auth.service.js';
import { PasswordHasher } from './common/password-hasher.js';
import { SignInThrottle } from './common/sign-in-throttle.js';
import { TwoFactorRepository } from './auth/two-factor.repository.js';
import { TwoFactorService } from './auth/two-factor.service.js';
import { CLOCK, systemClock } from './common/clock.js';
import { EventPublisher } from './common/event-publisher.js';
import { OutboxRepository } from './common/outbox.repository.js';
import { IDENTITY_SETTINGS, loadIdentitySettings, type IdentitySettings } from './config/identity-settings.js';
import { EmailsRepository } from './emails/emails.repository.js';
import { EmailsService } from './emails/emails.service.js';
import { GpgKeysRepository } from './gpg/gpg-keys.repository.js';
import { GpgKeysService } from './gpg/gpg-keys.service.js';
import { KeyUsage } from './keys/key-usage.js';
import { KeysRepository } from './keys/keys.repository.js';
import { KeysService } from './keys/keys.service.js';
import { OrgsRepository } from './orgs/orgs.repository.js';
import { OrgsService } from './orgs/orgs.service.js';
import { PrismaService } from './prisma/prisma.service.js';
import { Transactions } from './prisma/transactions.js';
import { SigningKeysRepository } from './signing/signing-keys.repository.js';
import { SigningKeysService } from './signing/signing-keys.service.js';
import { TokenUsage } from './tokens/token-usage.js';
import { TokensRepository } from './tokens/tokens.repository.js';
import { TokensService } from './tokens/tokens.service.js';
import { USER_ORG_LINKS, USER_TOKEN_LINKS } from './users/account-links.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';
import { UserSettingsService } from './users/user-settings.service.js';

const services = [
  PrismaService, Transactions, OutboxRepository, EventPublisher,
  UsersRepository, UsersService, UserSettingsService, OrgsRepository, OrgsService,
  TokensRepository, TokensService, TokenUsage,
  { provide: USER_ORG_LINKS, useExisting: OrgsRepository },
  { provide: USER_TOKEN_LINKS, useExisting: TokensRepository },
  KeysRepository, KeysService, KeyUsage, EmailsRepository, EmailsService,
  GpgKeysRepository, GpgKeysService, SigningKeysRepository, SigningKeysService,
  TwoFactorRepository, TwoFactorService, SignInThrottle, AuthService,
];

/** identity-service without transport: AppModule adds the NATS handlers; the admin CLI uses it directly. */
@Module({
  providers: [
    { provide: IDENTITY_SETTINGS, useFactory: () => loadIdentitySettings() },
    { provide: CLOCK, useValue: systemClock },
    {
      provide: PasswordHasher,
      inject: [IDENTITY_SETTINGS],
      useFactory: (s: IdentitySettings) => new PasswordHasher(s.passwordHashParams),
    },
    ...services,
  ],
  exports: [IDENTITY_SETTINGS, CLOCK, PasswordHasher, ...services],
})
export class IdentityCoreModule {}
