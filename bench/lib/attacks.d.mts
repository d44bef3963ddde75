// Types of attacks.mjs, for test/isolation.e2e-spec.ts.
export interface Attack {
  name: string;
  summary: string;
  /** The action's json_schema; a plain `{type: "object"}` when absent. */
  schema?: Record<string, unknown>;
  /** Parameters of the execution; no execution when neither this nor `executeBody` is given. */
  parameters?: Record<string, unknown>;
  /** The raw execute body, instead of `{"parameters": ...}`. */
  executeBody?: string;
  /** The receiver's answer body to executions (200, JSON); `{"result":"ok","error":""}` when absent. */
  answer?: string;
  /** How many times to execute (1 when absent). */
  executions?: number;
  /** Statuses allowed for the registration (REGISTER_STATUSES when absent). */
  register?: number[];
  /** Statuses allowed for each execution (EXECUTE_STATUSES when absent). */
  execute?: number[];
}
export declare const ATTACKS: Attack[];
export declare const REGISTER_STATUSES: number[];
export declare const EXECUTE_STATUSES: number[];
