import { loadSettings, secretKeySetting, type SettingsOf } from '@cairn/platform';

/**
 * runners-service's own settings (Gitea's names where Gitea has the setting; environment `CAIRN__SECTION__KEY`
 * overrides `app.ini`). The common ones (DATABASE_URL, NATS_URL, …) come from @cairn/platform.
 */
export const runnersSettingsSpec = {
  /** Key material for sealing Actions secrets and registration tokens (AES-256-GCM, HKDF-derived). */
  secretKey: secretKeySetting,
};

export type RunnersSettings = SettingsOf<typeof runnersSettingsSpec>;

/** Injection token of {@link RunnersSettings}. */
export const RUNNERS_SETTINGS = Symbol('RUNNERS_SETTINGS');

export function loadRunnersSettings(): RunnersSettings {
  return loadSettings(runnersSettingsSpec);
}
