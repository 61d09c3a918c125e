// Gitea's glob (`modules/glob`) as branch protection uses it, compiled to an anchored RegExp; invalid patterns throw.
export function compileGlob(pattern: string, separators: string[]): RegExp {
  const notSep = separators.length ? `[^${separators.map(escapeClass).join('')}]` : '.';
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      if (i >= pattern.length) throw new Error('dangling escape');
      out += escapeRegExp(pattern[i]);
    } else if (c === '*') {
      if (pattern[i + 1] === '*') {
        out += '.*';
        i++;
      } else {
        out += `${notSep}*`;
      }
    } else if (c === '?') {
      out += notSep;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new Error('unclosed character class');
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) {
      out += '|';
    } else {
      out += escapeRegExp(c);
    }
  }
  if (depth !== 0) throw new Error('unclosed alternatives');
  return new RegExp(`^${out}$`, 's');
}

/** True when a rule name uses glob syntax (Gitea's `IsRuleNameSpecial`); otherwise it names one branch. */
export function isGlobPattern(name: string): boolean {
  return /[*?[\]{}\\]/.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClass(ch: string): string {
  return ch.replace(/[\\\]^-]/g, '\\$&');
}
