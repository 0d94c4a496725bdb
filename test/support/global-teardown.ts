import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const stack = (globalThis as { testStack?: { child: ChildProcess; dataDir: string } }).testStack;
  if (!stack) return;
  const exited = new Promise<void>((resolve) => stack.child.once('exit', () => resolve()));
  stack.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
  rmSync(stack.dataDir, { recursive: true, force: true });
}
