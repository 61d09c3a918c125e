/** Rendered as Gitea renders it. */
export interface CommitPerson {
  name: string;
  email: string;
  /** RFC 3339 with the commit's own offset (`Z` for UTC). */
  date: string;
}

/** Bytes; a commit with a larger one is reported unverified, never parsed. */
export const MAX_COMMIT_SIGNATURE_BYTES = 64 * 1024;

export type CommitSignature =
  | {
      tooLarge: false;
      armored: string;
      /** Byte for byte: what was signed. */
      payload: Buffer;
    }
  | { tooLarge: true; armored: ''; payload: Buffer };

export interface ParsedCommitObject {
  tree: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
  signature: CommitSignature | null;
}

/** As Go formats a commit time. */
export function formatGitTime(seconds: number, tz: string): string {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(tz);
  const offsetMin = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const local = new Date((seconds + offsetMin * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMin === 0) return `${local}Z`;
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMin < 0 ? '-' : '+'}${hh}:${mm}`;
}

const NL = 0x0a;
const SP = 0x20;

function startsWith(data: Buffer, at: number, prefix: Buffer): boolean {
  return data.length - at >= prefix.length && data.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

const GPGSIG = Buffer.from('gpgsig');

/** As git's `parse_buffer_signed_by_header`: `gpgsig` for SHA-1, `gpgsig-sha256` for SHA-256; every `gpgsig*` header leaves the payload. */
export function splitCommitSignature(data: Buffer): CommitSignature | null {
  const sha256 = /^tree [0-9a-f]{64}\n/.test(data.subarray(0, 70).toString('latin1'));
  const header = Buffer.from(sha256 ? 'gpgsig-sha256 ' : 'gpgsig ');
  const payload: Buffer[] = [];
  const signature: Buffer[] = [];
  let signatureBytes = 0;
  let inSignature = false;
  let otherSignature = false;
  let saw = false;
  let pos = 0;
  while (pos < data.length) {
    const nl = data.indexOf(NL, pos);
    let next = nl < 0 ? data.length : nl + 1;
    let sigStart = -1;
    if (inSignature && data[pos] === SP) sigStart = pos + 1;
    else if (startsWith(data, pos, header)) {
      sigStart = pos + header.length;
      otherSignature = false;
    } else if (startsWith(data, pos, GPGSIG)) otherSignature = true;
    else if (otherSignature && data[pos] !== SP) otherSignature = false;
    if (sigStart >= 0) {
      signatureBytes += next - sigStart;
      if (signatureBytes <= MAX_COMMIT_SIGNATURE_BYTES) signature.push(data.subarray(sigStart, next));
      saw = true;
      inSignature = true;
    } else {
      if (data[pos] === NL) next = data.length; // the blank line: the rest is the message
      if (!otherSignature) payload.push(data.subarray(pos, next));
      inSignature = false;
    }
    pos = next;
  }
  if (!saw) return null;
  if (signatureBytes > MAX_COMMIT_SIGNATURE_BYTES) return { tooLarge: true, armored: '', payload: Buffer.concat(payload) };
  return { tooLarge: false, armored: Buffer.concat(signature).toString('utf8'), payload: Buffer.concat(payload) };
}

/** Byte for byte whatever its encoding: what a replayed commit keeps. */
export function commitMessageBytes(data: Buffer): Buffer {
  const split = data.indexOf('\n\n');
  return split < 0 ? Buffer.alloc(0) : data.subarray(split + 2);
}

function person(value: string): CommitPerson {
  const m = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(value);
  if (!m) return { name: value, email: '', date: formatGitTime(0, '+0000') };
  return { name: m[1], email: m[2], date: formatGitTime(Number(m[3]), m[4]) };
}

/** Unknown headers and their continuation lines are skipped; the message is kept byte for byte. */
export function parseCommitObject(data: Buffer): ParsedCommitObject {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  const out: ParsedCommitObject = {
    tree: '',
    parents: [],
    author: person(''),
    committer: person(''),
    message,
    signature: null,
  };
  let hasSignatureHeader = false;
  for (const line of head.split('\n')) {
    if (line.startsWith(' ')) continue; // continuation of a multi-line header
    const sp = line.indexOf(' ');
    const key = sp < 0 ? line : line.slice(0, sp);
    const value = sp < 0 ? '' : line.slice(sp + 1);
    if (key === 'tree') out.tree = value;
    else if (key === 'parent') out.parents.push(value);
    else if (key === 'author') out.author = person(value);
    else if (key === 'committer') out.committer = person(value);
    else if (key.startsWith('gpgsig')) hasSignatureHeader = true;
  }
  if (hasSignatureHeader) out.signature = splitCommitSignature(data);
  return out;
}
