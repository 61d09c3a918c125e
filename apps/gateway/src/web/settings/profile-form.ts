import type { UserSettingsOptions } from '@cairn/contracts';

/** An unchecked box is absent from a form post, so `hide_email` is false unless sent; identity-service validates. */
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
