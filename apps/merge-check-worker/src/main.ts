import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { loadWorkerSettings } from './config/worker-settings.js';

void bootstrapService({ name: 'merge-check', module: AppModule, validateSettings: () => void loadWorkerSettings() });
