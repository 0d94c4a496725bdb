import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const stack = (globalThis as { testStack?: { child: ChildProcess; dataDir: string } }).testStack;
  if (!stack) return;
  const exited = new Promise<void>((resolve) => stack.child.once('exit', () => resolve()));
  stack.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 15_000)))]);
  clearTimeout(timer);
  if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
  rmSync(stack.dataDir, { recursive: true, force: true });
}
