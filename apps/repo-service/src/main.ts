import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { startTransport } from './transport/git-transport.js';
import { loadTransportSettings } from './transport/transport-settings.js';
import { loadRepoSettings } from './config/repo-settings.js';
import { loadGitReadSettings } from './git/git-read-settings.js';
import { validateIssueTrackerSettings } from './issue-tracker.module.js';
import { validateInstanceSigningKey } from './signing/instance-key.js';

void bootstrapService({
  name: 'repo',
  module: AppModule,
  // Refuse to start with a clear message on any bad setting, before anything connects.
  validateSettings: () => {
    validateInstanceSigningKey(loadRepoSettings());
    loadGitReadSettings();
    validateIssueTrackerSettings();
    loadTransportSettings();
  },
  afterStart: startTransport,
});
