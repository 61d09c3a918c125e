/** Gitea-style `app.ini`; keys before any section belong to the section `""` (Gitea's DEFAULT). */
export type IniData = Map<string, Map<string, string>>;

export function parseIni(text: string): IniData {
  const data: IniData = new Map([['', new Map()]]);
  let section = data.get('')!;
  for (const [lineNo, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      const name = header[1].trim().toLowerCase();
      section = data.get(name) ?? new Map();
      data.set(name, section);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`app.ini line ${lineNo + 1}: expected "KEY = value", got "${line}"`);
    const key = line.slice(0, eq).trim().toUpperCase();
    let value = line.slice(eq + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === '`') && value.endsWith(value[0])) {
      value = value.slice(1, -1);
    }
    section.set(key, value);
  }
  return data;
}
