/** One thing wrong with the configuration: the variable and, in plain words, what is wrong with it. */
export interface ConfigProblem {
  variable: string;
  problem: string;
}

/**
 * Every configuration problem found at boot, so the operator fixes them in one go. Its message is one line
 * per problem, `Configuration error: <VARIABLE> <problem>`, printed as it is (no stack trace).
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map(({ variable, problem }) => `Configuration error: ${variable} ${problem}`).join('\n'));
    this.name = 'ConfigError';
  }
}
