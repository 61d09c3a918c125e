import { ConfigError, loadSettings } from '@cairn/platform';
import { describe, expect, it } from 'vitest';
import { gatewaySettingsSpec } from './gateway-settings.js';

const load = (value: string) => loadSettings(gatewaySettingsSpec, { CAIRN__SERVICE__REQUIRE_SIGNIN_VIEW: value });

describe('[service] REQUIRE_SIGNIN_VIEW', () => {
  it('reads booleans as strict or off, and expensive', () => {
    expect(load('true').requireSigninView).toBe('strict');
    expect(load('1').requireSigninView).toBe('strict');
    expect(load('false').requireSigninView).toBe('off');
    expect(load('Expensive').requireSigninView).toBe('expensive');
    expect(loadSettings(gatewaySettingsSpec, {}).requireSigninView).toBe('off');
  });

  it('refuses any other value with a message naming the setting', () => {
    expect(() => load('sometimes')).toThrow(ConfigError);
    expect(() => load('sometimes')).toThrow(/REQUIRE_SIGNIN_VIEW.*expected true, false or expensive/s);
  });
});
