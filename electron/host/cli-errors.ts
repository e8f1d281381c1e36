// The CLI's usage error: a wrong flag or argument; main prints it with the usage text and exits 2.

export class CliUsageError extends Error {}
