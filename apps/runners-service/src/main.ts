import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';

void bootstrapService({ name: 'runners', module: AppModule });
