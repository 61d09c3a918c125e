import { Logger } from '@nestjs/common';
import { createSecretBox, type CommonSettings, type SecretBox } from '@cairn/platform';
import type { RunnersSettings } from '../config/runners-settings.js';

export const REGISTRATION_TOKEN_BOX = Symbol('REGISTRATION_TOKEN_BOX');

export function registrationTokenBox(settings: RunnersSettings, common: CommonSettings): SecretBox {
  return createSecretBox(settings.secretKey, 'runner-registration-token', common.runMode, new Logger('SecretBox'));
}
