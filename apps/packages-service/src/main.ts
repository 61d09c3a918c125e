import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadPackagesSettings, packagesSettingsSpec } from './config/packages-settings.js';
import { startPackagesHttp } from './http/packages-http-server.js';

void bootstrapService({
  name: 'packages',
  module: AppModule,
  validateSettings: () => void loadPackagesSettings(),
  settingsSpecs: [packagesSettingsSpec],
  afterStart: startPackagesHttp,
});
