import { Logger, Module } from '@nestjs/common';
import { COMMON_SETTINGS, PlatformModule, createSecretBox, type CommonSettings, SecretBox } from '@cairn/platform';
import { HOOKS_SETTINGS, loadHooksSettings, type HooksSettings } from './config/hooks-settings.js';
import { DeliveriesHandler } from './deliveries/deliveries.handler.js';
import { DeliveriesRepository } from './deliveries/deliveries.repository.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliveryAttemptService } from './deliveries/delivery-attempt.service.js';
import { DeliveryProcessor } from './deliveries/delivery.processor.js';
import { DeliveryQueue } from './deliveries/delivery-queue.js';
import { DeliverySweeper } from './deliveries/delivery-sweeper.js';
import { DispatchService } from './deliveries/dispatch.service.js';
import { EventsConsumer } from './events/events.consumer.js';
import { OwnerDeletionsConsumer } from './events/owner-deletions.consumer.js';
import { PrismaService } from './prisma/prisma.service.js';
import { SqlPool } from './prisma/sql-pool.js';
import { HookScopeResolver } from './webhooks/hook-scope.js';
import { WebhooksHandler } from './webhooks/webhooks.handler.js';
import { WebhooksRepository } from './webhooks/webhooks.repository.js';
import { TEST_DELIVERY } from './webhooks/test-delivery.js';
import { WebhooksService } from './webhooks/webhooks.service.js';

function secretBox(settings: HooksSettings, common: CommonSettings): SecretBox {
  return createSecretBox(settings.secretKey, 'webhook', common.runMode, new Logger('SecretBox'));
}

/** hooks-service: webhooks (system, default, organization, repository) and their deliveries. */
@Module({
  imports: [PlatformModule.forService({ service: 'hooks', schema: 'hooks' })],
  controllers: [WebhooksHandler, DeliveriesHandler],
  providers: [
    { provide: HOOKS_SETTINGS, useFactory: () => loadHooksSettings() },
    { provide: SecretBox, inject: [HOOKS_SETTINGS, COMMON_SETTINGS], useFactory: secretBox },
    PrismaService,
    SqlPool,
    WebhooksRepository,
    DeliveriesRepository,
    HookScopeResolver,
    DeliveryQueue,
    DispatchService,
    { provide: TEST_DELIVERY, useExisting: DispatchService },
    WebhooksService,
    DeliveriesService,
    DeliveryAttemptService,
    DeliveryProcessor,
    DeliverySweeper,
    EventsConsumer,
    OwnerDeletionsConsumer,
  ],
})
export class AppModule {}
