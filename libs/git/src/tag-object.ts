import { formatGitTime } from './commit-object.js';

export interface ParsedTagObject {
  object: string;
  type: string;
  tag: string;
  tagger: { name: string; email: string; date: string } | null;
  /** The message without its signature. */
  message: string;
}

const SIGNATURE_START = /\n?-----BEGIN (PGP|SSH) SIGNATURE-----[\s\S]*$/;

export function parseTagObject(data: Buffer): ParsedTagObject {
  const text = data.toString('utf8');
  const blank = text.indexOf('\n\n');
  const head = blank < 0 ? text : text.slice(0, blank);
  const body = blank < 0 ? '' : text.slice(blank + 2);
  const out: ParsedTagObject = { object: '', type: '', tag: '', tagger: null, message: body.replace(SIGNATURE_START, '') };
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'object' || key === 'type' || key === 'tag') out[key] = value;
    if (key === 'tagger') {
      const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(value);
      if (m) out.tagger = { name: m[1], email: m[2], date: formatGitTime(Number(m[3]), m[4]) };
    }
  }
  return out;
}

/** `tagger` date: now, UTC. */
export function tagObjectText(object: string, type: string, tag: string, tagger: { name: string; email: string }, message: string): string {
  const now = Math.floor(Date.now() / 1000);
  const text = message.endsWith('\n') ? message : `${message}\n`;
  return `object ${object}\ntype ${type}\ntag ${tag}\ntagger ${tagger.name} <${tagger.email}> ${now} +0000\n\n${text}`;
}
