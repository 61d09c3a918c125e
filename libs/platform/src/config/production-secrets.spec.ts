import { describe, expect, it } from 'vitest';
import { DEV_SECRET_KEY, secretKeySetting } from '../crypto/secret-box.js';
import { ConfigError, commonSettings, requireProductionSecrets } from './settings.js';

const specs = [commonSettings, { secretKey: secretKeySetting }];
const TOKEN = 'CAIRN__SECURITY__INTERNAL_TOKEN';
const KEY = 'CAIRN__SECURITY__SECRET_KEY';

describe('requireProductionSecrets', () => {
  it('production (also the default run mode) refuses unset secrets, naming each', () => {
    for (const env of [{}, { RUN_MODE: 'prod' }]) {
      expect(() => requireProductionSecrets(specs, env)).toThrow(ConfigError);
      expect(() => requireProductionSecrets(specs, env)).toThrow(/INTERNAL_TOKEN[\s\S]*SECRET_KEY/);
    }
  });

  it('refuses the public default values as if unset', () => {
    const env = { [TOKEN]: commonSettings.internalToken.default, [KEY]: DEV_SECRET_KEY };
    expect(() => requireProductionSecrets(specs, env)).toThrow(/INTERNAL_TOKEN[\s\S]*SECRET_KEY/);
  });

  it('accepts real values; dev and test modes accept the defaults', () => {
    expect(() => requireProductionSecrets(specs, { [TOKEN]: 'a'.repeat(32), [KEY]: 'b'.repeat(32) })).not.toThrow();
    expect(() => requireProductionSecrets(specs, { RUN_MODE: 'dev' })).not.toThrow();
    expect(() => requireProductionSecrets(specs, { RUN_MODE: 'test' })).not.toThrow();
  });
});
