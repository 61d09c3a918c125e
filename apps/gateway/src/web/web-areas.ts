import { registerAdminPages } from './admin/admin.pages.js';
import { registerAuthPages } from './auth/auth.pages.js';
import { registerCodePages } from './code/code.pages.js';
import { registerConfigPages } from './config/config.pages.js';
import { registerCreatePages } from './create/create.pages.js';
import { registerHomePages } from './home/home.pages.js';
import { registerNotificationPages } from './notifications/notifications.pages.js';
import { registerPullsPages } from './pulls/pulls.pages.js';
import { registerRepoPages } from './repo/repo.pages.js';
import { registerReviewPages } from './review/review.pages.js';
import { registerSettingsPages } from './settings/settings.pages.js';
import type { WebKit } from './core/web-kit.js';

/** One line per area: `src/web/<area>/*.pages.ts` registers routes, templates in `web/templates/<area>/`. */
export const WEB_AREAS: ReadonlyArray<(web: WebKit) => void> = [
  registerHomePages,
  registerAuthPages,
  registerCreatePages,
  registerNotificationPages,
  registerPullsPages,
  registerReviewPages,
  registerRepoPages,
  registerCodePages,
  registerSettingsPages,
  registerConfigPages,
  registerAdminPages,
];
