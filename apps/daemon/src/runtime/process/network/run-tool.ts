import { spawn } from 'node:child_process';

/** What a system tool (ip, nft, sysctl) said when it failed. */
export class ToolError extends Error {
  override name = 'ToolError';
  constructor(
    readonly tool: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`${tool} failed (exit ${code}): ${stderr.trim().split('\n')[0] ?? ''}`);
  }
}

/**
 * Runs a tool to its end with `input` on stdin (nft -f -, ip -batch -); its stdout, or a ToolError. Asynchronous:
 * a slow netlink answer never holds up the daemon's other servers.
 */
export function runTool(file: string, args: readonly string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.once('error', (error) => reject(new ToolError(file, null, error.message)));
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new ToolError(file, code, stderr))));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
