// One home for how times, counts and avatars look, bound as `ui` in every compiled template (see `createViews`).

const UNITS: ReadonlyArray<[name: string, seconds: number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let n = bytes / 1024;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n < 10 ? n.toFixed(1).replace(/\.0$/, '') : Math.round(n)} ${units[i]}`;
}

export function absoluteTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function relativeTime(at: Date, now: Date = new Date()): string {
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  for (const [name, size] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const phrase = plural(n, name);
      return seconds >= 0 ? `${phrase} ago` : `in ${phrase}`;
    }
  }
  return seconds >= 0 ? '1 minute ago' : 'in 1 minute';
}

/** A `<time>` element: relative text, the absolute time on hover, machine-readable `datetime`. Empty for no time. */
export function timeElement(iso: string | Date | null | undefined, now: Date = new Date()): string {
  if (!iso) return '';
  const at = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const absolute = absoluteTime(at);
  return `<time datetime="${escapeHtml(at.toISOString())}" title="${escapeHtml(absolute)}">${escapeHtml(relativeTime(at, now))}</time>`;
}

/** The generated avatar of a user or organization (an identicon served by the gateway; no external service). */
export function avatarUrl(login: string, size = 40): string {
  return `/user/avatar/${encodeURIComponent(login)}/${size}`;
}

/** An `<img>` of a user's avatar, decorative (the name always stands beside it). */
export function avatarImage(login: string, size = 20): string {
  return `<img class="avatar" src="${escapeHtml(avatarUrl(login, size * 2))}" alt="" width="${size}" height="${size}">`;
}

/** An SVG `data:` image: the pages' CSP allows no inline style (and `img-src` allows `data:`). */
export function colorSwatch(color: string, size = 12): string {
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1] ?? '888888';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1" fill="#${hex}"/></svg>`;
  return `<img class="swatch" src="data:image/svg+xml,${encodeURIComponent(svg)}" alt="" width="${size}" height="${size}">`;
}

export const TEMPLATE_HELPERS = {
  escape: escapeHtml,
  time: timeElement,
  plural,
  size: fileSize,
  avatar: avatarImage,
  avatarUrl,
  swatch: colorSwatch,
} as const;
export type TemplateHelpers = typeof TEMPLATE_HELPERS;
