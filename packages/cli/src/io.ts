/** Where a command writes: stdout for results, stderr for messages. Replaced in tests. */
export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
}

export const processIo: CliIo = {
  out: (line) => { process.stdout.write(line + '\n') },
  err: (line) => { process.stderr.write(line + '\n') }
}
