import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { PlatformModule } from '@cairn/platform';
import { AuthGuard } from './auth/auth.guard.js';
import { RepoAccessGuard } from './access/repo-access.guard.js';
import { GATEWAY_SETTINGS, loadGatewaySettings } from './config/gateway-settings.js';
import { ApiErrorFilter } from './http/api-error.filter.js';
import { createEdgeValidationPipe } from './http/validation.js';
import { PageInterceptor } from './http/paged.js';
import { IdempotencyInterceptor } from './http/idempotency.interceptor.js';
import { IdempotencyStore } from './http/idempotency.store.js';
import { API_CONTROLLERS } from './routes/controllers.js';
import { GiteaQueryGuard } from './openapi/gitea-query.guard.js';

/** The HTTP edge; route groups register here, each in `routes/<group>/`. */
@Module({
  imports: [PlatformModule.forService({ service: 'gateway' })],
  controllers: API_CONTROLLERS,
  providers: [
    { provide: GATEWAY_SETTINGS, useFactory: loadGatewaySettings },
    // Order matters: authenticate first, then resolve repository access.
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RepoAccessGuard },
    // Then refuse Gitea query parameters the route does not implement (422, never silently dropped).
    { provide: APP_GUARD, useClass: GiteaQueryGuard },
    { provide: APP_PIPE, useFactory: createEdgeValidationPipe },
    { provide: APP_FILTER, useClass: ApiErrorFilter },
    IdempotencyStore,
    // Outermost: a replayed answer is the final one.
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    { provide: APP_INTERCEPTOR, useClass: PageInterceptor },
  ],
  exports: [GATEWAY_SETTINGS],
})
export class AppModule {}
