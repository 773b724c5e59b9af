/** One CLI command: its name, a one-line summary for `--help`, and its entry point. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** Runs the command with its own arguments; resolves to the exit code. */
  run(argv: readonly string[]): Promise<number>;
}
