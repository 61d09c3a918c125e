import { bootstrapService } from '@cairn/platform';
import { AppModule } from './app.module.js';
import { startTransport } from './git-core/transport/git-transport.js';
import { loadTransportSettings } from './git-core/transport/transport-settings.js';
import { loadRepoSettings } from './foundation/config/repo-settings.js';
import { loadGitReadSettings } from './git-core/git/git-read-settings.js';
import { validateIssueTrackerSettings } from './tracker/issue-tracker.module.js';
import { validateInstanceSigningKey } from './git-core/signing/instance-key.js';

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
