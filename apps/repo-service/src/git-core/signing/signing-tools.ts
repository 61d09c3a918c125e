import { spawn } from 'node:child_process';
import { gitEnvironment } from '@cairn/git';

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Argument vector, git's environment (same PATH, HOME, GNUPGHOME as the signing git: the same keyring), time limit. */
export function runSigningTool(command: 'gpg' | 'ssh-keygen', args: readonly string[], input: string | Buffer = '', timeoutMs = 30_000): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: gitEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    timer.unref();
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 8192) err += c.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: err.trim() });
    });
    child.stdin.end(input);
  });
}
