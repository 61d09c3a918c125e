import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { AuthHandler } from './auth/auth.handler.js';
import { IdentityCoreModule } from './identity-core.module.js';
import { EmailsHandler } from './emails/emails.handler.js';
import { GpgKeysHandler } from './gpg/gpg-keys.handler.js';
import { KeysHandler } from './keys/keys.handler.js';
import { OrgsHandler } from './orgs/orgs.handler.js';
import { SigningKeysHandler } from './signing/signing-keys.handler.js';
import { IDENTITY_SCHEMA } from './prisma/prisma.service.js';
import { TokensHandler } from './tokens/tokens.handler.js';
import { UsersHandler } from './users/users.handler.js';

/** identity-service on NATS: the platform (settings, RPC, outbox relay, health) + the domain + its message handlers. */
@Module({
  imports: [PlatformModule.forService({ service: 'identity', schema: IDENTITY_SCHEMA }), IdentityCoreModule],
  controllers: [AuthHandler, UsersHandler, TokensHandler, KeysHandler, GpgKeysHandler, SigningKeysHandler, OrgsHandler, EmailsHandler],
})
export class AppModule {}
