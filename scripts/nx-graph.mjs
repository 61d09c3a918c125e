// The Nx project graph as Nx computes it (`nx graph --file=…`), as a Mermaid diagram and table in docs/architecture.md.
//   node scripts/nx-graph.mjs            print the section
//   node scripts/nx-graph.mjs --write    update the generated section of docs/architecture.md
//   node scripts/nx-graph.mjs --check    exit 1 when that section is out of date
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';
import { cell, replaceSection } from './lib/docs-sections.mjs';

const DOC = path.join(REPO_ROOT, 'docs/architecture.md');

/** @returns {{ nodes: Record<string, { data: { root: string, tags?: string[], targets?: Record<string, unknown> } }>, dependencies: Record<string, { target: string }[]> }} */
function projectGraph() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-nx-graph-'));
  try {
    const file = path.join(dir, 'graph.json');
    const nx = path.join(REPO_ROOT, 'node_modules', '.bin', 'nx');
    const r = spawnSync(nx, ['graph', `--file=${file}`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
    });
    if (r.status !== 0) throw new Error(`nx graph failed: ${r.stderr || r.stdout || r.error?.message}`);
    return JSON.parse(readFileSync(file, 'utf8')).graph;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {ReturnType<typeof projectGraph>} graph */
function render(graph) {
  const names = Object.keys(graph.nodes).sort();
  const id = (/** @type {string} */ name) => name.replace(/[^A-Za-z0-9]/g, '_');
  const lines = ['```mermaid', 'flowchart LR'];
  for (const name of names) lines.push(`  ${id(name)}["${name}"]`);
  for (const name of names) {
    for (const dep of [...(graph.dependencies[name] ?? [])].sort((a, b) => a.target.localeCompare(b.target))) {
      if (graph.nodes[dep.target]) lines.push(`  ${id(name)} --> ${id(dep.target)}`);
    }
  }
  lines.push('```', '', '| Project | Root | Tags | Depends on | Targets |', '|---|---|---|---|---|');
  for (const name of names) {
    const { root, tags = [], targets = {} } = graph.nodes[name].data;
    const deps = (graph.dependencies[name] ?? []).map((d) => d.target).filter((t) => graph.nodes[t]).sort();
    const ownTags = tags.filter((t) => !t.startsWith('npm:')).map((t) => `\`${t}\``);
    lines.push(
      `| \`${name}\` | \`${root}\` | ${cell(ownTags.join(', '))} | ${cell(deps.map((d) => `\`${d}\``).join(', ') || '—')} | ${cell(Object.keys(targets).sort().join(', '))} |`,
    );
  }
  return lines.join('\n');
}

const content = render(projectGraph());
if (process.argv.includes('--check')) {
  if (!replaceSection(DOC, 'nx-graph', content, { check: true })) {
    process.stderr.write('docs/architecture.md: the Nx project graph is out of date: run `npm run docs`\n');
    process.exit(1);
  }
} else if (process.argv.includes('--write')) {
  replaceSection(DOC, 'nx-graph', content);
} else {
  process.stdout.write(`${content}\n`);
}
