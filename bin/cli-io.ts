/** Where an in-process command writes and reads its settings: the process's own, or a test's. */
export interface CliIo {
  stdout: { write: (text: string) => unknown };
  stderr: { write: (text: string) => unknown };
  env: NodeJS.ProcessEnv;
}
