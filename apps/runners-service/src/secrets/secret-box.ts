import { Logger } from '@nestjs/common';
import { createSecretBox, type CommonSettings, type SecretBox } from '@cairn/platform';
import type { RunnersSettings } from '../config/runners-settings.js';

/** Injection token of the box sealing Actions secret values (purpose `actions-secret`). */
export const ACTIONS_SECRET_BOX = Symbol('ACTIONS_SECRET_BOX');

export function actionsSecretBox(settings: RunnersSettings, common: CommonSettings): SecretBox {
  return createSecretBox(settings.secretKey, 'actions-secret', common.runMode, new Logger('SecretBox'));
}
