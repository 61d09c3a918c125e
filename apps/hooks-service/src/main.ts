import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadHooksSettings } from './config/hooks-settings.js';

void bootstrapService({ name: 'hooks', module: AppModule, validateSettings: () => void loadHooksSettings() });
