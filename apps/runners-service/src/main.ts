import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadRunnersSettings, runnersSettingsSpec } from './config/runners-settings.js';
import { startRunnerProtocol } from './protocol/protocol-server.js';

void bootstrapService({
  name: 'runners',
  module: AppModule,
  validateSettings: () => void loadRunnersSettings(),
  settingsSpecs: [runnersSettingsSpec],
  afterStart: startRunnerProtocol,
});
