import { createHash } from 'node:crypto';

/** Nothing of the name reaches the SVG (cells and colour come from its hash), so it is safe from the site's origin. */
export function identiconSvg(name: string, size: number): string {
  const hash = createHash('sha256').update(name.toLowerCase()).digest();
  const hue = ((hash[0]! << 8) | hash[1]!) % 360;
  const fill = `hsl(${hue} 55% 48%)`;
  const cells: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if ((hash[2 + row * 3 + col]! & 1) === 0) continue;
      for (const x of col === 2 ? [2] : [col, 4 - col]) cells.push(`<rect x="${x + 1}" y="${row + 1}" width="1" height="1"/>`);
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 7 7" shape-rendering="crispEdges">` +
    `<rect width="7" height="7" fill="#f0f0f0"/><g fill="${fill}">${cells.join('')}</g></svg>`
  );
}

export function avatarSize(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) ? Math.min(Math.max(n, 16), 512) : 80;
}
