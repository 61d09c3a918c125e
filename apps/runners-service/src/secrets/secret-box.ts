import { Logger } from '@nestjs/common';
import { createSecretBox, type CommonSettings, type SecretBox } from '@cairn/platform';
import type { RunnersSettings } from '../config/runners-settings.js';

export const ACTIONS_SECRET_BOX = Symbol('ACTIONS_SECRET_BOX');

export function actionsSecretBox(settings: RunnersSettings, common: CommonSettings): SecretBox {
  return createSecretBox(settings.secretKey, 'actions-secret', common.runMode, new Logger('SecretBox'));
}
