import type { UserSettingsOptions } from '@cairn/contracts';

/**
 * The profile form as the API's `UserSettingsOptions`. Text fields are trimmed; an unchecked box is absent from a
 * form post, so `hide_email` is false unless it was sent. identity-service validates the values as for the API.
 */
export function profileFromForm(form: Record<string, string>): UserSettingsOptions {
  const text = (name: string): string => (form[name] ?? '').trim();
  return {
    full_name: text('full_name'),
    description: text('description'),
    website: text('website'),
    location: text('location'),
    hide_email: form.hide_email === 'on',
  };
}
