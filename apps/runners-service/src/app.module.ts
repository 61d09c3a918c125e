import { Module } from '@nestjs/common';
import { COMMON_SETTINGS, PlatformModule, EventOutbox } from '@cairn/platform';
import { ActionsScopeResolver } from './actions/actions-scope.js';
import { RUNNERS_SETTINGS, loadRunnersSettings } from './config/runners-settings.js';
import { EventsConsumer } from './events/events.consumer.js';
import { ScopeCleanup } from './events/scope-cleanup.js';
import { RunnerAuthenticator } from './protocol/runner-auth.js';
import { RunnerLivenessRecorder } from './protocol/runner-liveness.js';
import { RunnerProtocolService } from './protocol/runner-protocol.service.js';
import { PrismaService } from './prisma/prisma.service.js';
import { Transactions } from './prisma/transactions.js';
import { ScopeDataRepository } from './events/scope-data.repository.js';
import { TasksRepository } from './protocol/tasks.repository.js';
import { RegistrationTokensRepository } from './runners/registration-tokens.repository.js';
import { RunnersRepository } from './runners/runners.repository.js';
import { SecretsRepository } from './secrets/secrets.repository.js';
import { VariablesRepository } from './variables/variables.repository.js';
import { REGISTRATION_TOKEN_BOX, registrationTokenBox } from './runners/registration-token-box.js';
import { RegistrationTokensService } from './runners/registration-tokens.service.js';
import { RunnersHandler } from './runners/runners.handler.js';
import { RunnersService } from './runners/runners.service.js';
import { ACTIONS_SECRET_BOX, actionsSecretBox } from './secrets/secret-box.js';
import { SecretsHandler } from './secrets/secrets.handler.js';
import { SecretsService } from './secrets/secrets.service.js';
import { VariablesHandler } from './variables/variables.handler.js';
import { VariablesService } from './variables/variables.service.js';

/** runners-service; the runner protocol is served on its internal HTTP port (`startRunnerProtocol`). */
@Module({
  imports: [PlatformModule.forService({ service: 'runners', schema: 'runners' })],
  controllers: [VariablesHandler, SecretsHandler, RunnersHandler],
  providers: [
    { provide: RUNNERS_SETTINGS, useFactory: () => loadRunnersSettings() },
    { provide: ACTIONS_SECRET_BOX, inject: [RUNNERS_SETTINGS, COMMON_SETTINGS], useFactory: actionsSecretBox },
    { provide: REGISTRATION_TOKEN_BOX, inject: [RUNNERS_SETTINGS, COMMON_SETTINGS], useFactory: registrationTokenBox },
    PrismaService,
    Transactions,
    EventOutbox,
    RunnersRepository,
    RegistrationTokensRepository,
    TasksRepository,
    VariablesRepository,
    SecretsRepository,
    ScopeDataRepository,
    ActionsScopeResolver,
    VariablesService,
    SecretsService,
    RegistrationTokensService,
    RunnersService,
    ScopeCleanup,
    EventsConsumer,
    RunnerLivenessRecorder,
    RunnerAuthenticator,
    RunnerProtocolService,
  ],
})
export class AppModule {}
