import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadHooksSettings, hooksSettingsSpec } from './config/hooks-settings.js';
import { DeliveryAttemptService } from './deliveries/delivery-attempt.service.js';

void bootstrapService({
  name: 'hooks',
  module: AppModule,
  validateSettings: () => void loadHooksSettings(),
  settingsSpecs: [hooksSettingsSpec],
  // A stop (SIGTERM/SIGINT) starts no new delivery attempt from its first moment: the modules' own stop hooks run
  // only after the NATS server side is closed.
  afterStart: async (app) => {
    const attempts = app.get(DeliveryAttemptService);
    return async () => attempts.stopStarting();
  },
});
