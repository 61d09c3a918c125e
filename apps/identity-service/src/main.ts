import 'reflect-metadata';
import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadIdentitySettings, identitySettingsSpec } from './config/identity-settings.js';

await bootstrapService({
  name: 'identity',
  module: AppModule,
  validateSettings: () => void loadIdentitySettings(),
  settingsSpecs: [identitySettingsSpec],
});
