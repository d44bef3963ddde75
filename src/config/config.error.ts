/** A configuration problem the operator must fix; its message is the one line printed at boot. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Configuration error: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}
