// Gitea's `branch_filter`: a gobwas/glob without separators on the short branch name (`*` spans slashes, `{a,b}`,
// `[!…]`); empty or `*` matches every branch.
export class GlobSyntaxError extends Error {}

const cache = new Map<string, RegExp>();

export function compileBranchFilter(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const parser = new GlobParser(pattern);
  const body = parser.sequence(false);
  if (parser.pos < pattern.length) throw new GlobSyntaxError(`unexpected "${pattern[parser.pos]}" at ${parser.pos}`);
  const re = new RegExp(`^${body}$`, 'u');
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

export function validateBranchFilter(pattern: string): void {
  if (pattern === '' || pattern === '*') return;
  compileBranchFilter(pattern);
}

export function branchMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  try {
    return compileBranchFilter(filter).test(branch);
  } catch {
    return false;
  }
}

function esc(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

class GlobParser {
  pos = 0;
  constructor(private readonly p: string) {}

  /** A run of terms up to the end, or (inside braces) up to an unescaped `,` or `}`. */
  sequence(inBraces: boolean): string {
    let out = '';
    while (this.pos < this.p.length) {
      const c = this.p[this.pos];
      if (inBraces && (c === ',' || c === '}')) return out;
      if (c === '\\') {
        if (this.pos + 1 >= this.p.length) throw new GlobSyntaxError('unclosed escape at the end of the pattern');
        out += esc(this.p[this.pos + 1]);
        this.pos += 2;
      } else if (c === '*') {
        while (this.p[this.pos] === '*') this.pos++;
        out += '[\\s\\S]*';
      } else if (c === '?') {
        out += '[\\s\\S]';
        this.pos++;
      } else if (c === '[') {
        out += this.charClass();
      } else if (c === '{') {
        out += this.alternatives();
      } else {
        // Consume a whole code point so that the `u` regex sees characters, not surrogate halves.
        const cp = String.fromCodePoint(this.p.codePointAt(this.pos)!);
        out += esc(cp);
        this.pos += cp.length;
      }
    }
    return out;
  }

  private charClass(): string {
    const start = this.pos;
    this.pos++; // [
    let negate = false;
    if (this.p[this.pos] === '!') {
      negate = true;
      this.pos++;
    }
    const chars: string[] = [];
    const readChar = (): string => {
      if (this.pos >= this.p.length) throw new GlobSyntaxError(`unclosed character class at ${start}`);
      if (this.p[this.pos] === '\\') {
        if (this.pos + 1 >= this.p.length) throw new GlobSyntaxError(`unclosed character class at ${start}`);
        this.pos++;
      }
      const cp = String.fromCodePoint(this.p.codePointAt(this.pos)!);
      this.pos += cp.length;
      return cp;
    };
    if (this.pos < this.p.length && this.p[this.pos] !== ']' && this.p[this.pos + 1] === '-') {
      const lo = readChar();
      this.pos++; // -
      if (this.pos >= this.p.length || this.p[this.pos] === ']') throw new GlobSyntaxError(`incomplete range at ${start}`);
      const hi = readChar();
      if (this.p[this.pos] !== ']') throw new GlobSyntaxError(`expected "]" to close the range at ${start}`);
      this.pos++;
      if (lo.codePointAt(0)! > hi.codePointAt(0)!) throw new GlobSyntaxError(`reversed range ${lo}-${hi}`);
      return `[${negate ? '^' : ''}${escClass(lo)}-${escClass(hi)}]`;
    }
    while (this.pos < this.p.length && this.p[this.pos] !== ']') chars.push(readChar());
    if (this.pos >= this.p.length) throw new GlobSyntaxError(`unclosed character class at ${start}`);
    this.pos++; // ]
    if (chars.length === 0) throw new GlobSyntaxError(`empty character class at ${start}`);
    return `[${negate ? '^' : ''}${chars.map(escClass).join('')}]`;
  }

  private alternatives(): string {
    const start = this.pos;
    this.pos++; // {
    const alts: string[] = [];
    for (;;) {
      alts.push(this.sequence(true));
      if (this.pos >= this.p.length) throw new GlobSyntaxError(`unclosed "{" at ${start}`);
      const c = this.p[this.pos++];
      if (c === '}') break;
    }
    return `(?:${alts.join('|')})`;
  }
}

function escClass(c: string): string {
  return /[\]\\^-]/.test(c) ? `\\${c}` : c;
}
