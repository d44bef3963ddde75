import { Injectable } from '@nestjs/common';
import { ExecutableAction } from '../actions/actions.service';
import { JsonSchemaCompiler, PreparedSchema } from '../actions/json-schema-compiler';
import { fitsInline } from '../actions/schema/schema-analysis';
import { ParameterCheck, runCheck } from '../actions/schema/schema-compilation';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { TraceParent } from '../tracing/trace-context';
import { Tracing } from '../tracing/tracing';

const MAX_CACHED = 1_000;

/**
 * Parameter checks, with each action version's schema prepared once (compiled, or marked for the worker), so a
 * hot action does not recompile its schema on every call. Least recently used versions go first; an updated
 * action gets a new version. A check runs on the event loop only when its cost is bounded small (fitsInline);
 * any other runs in the worker, under its deadline.
 */
@Injectable()
export class ParameterValidators {
  private readonly cache = new Map<string, PreparedSchema>();

  constructor(
    private readonly compiler: JsonSchemaCompiler,
    private readonly tracing: Tracing,
  ) {}

  /**
   * The problems with `parameters`, or undefined when they are valid; a span "check parameters" under `trace`
   * says where the check ran (inline, worker) and whether they passed.
   */
  check(action: ExecutableAction, parameters: unknown, trace?: TraceParent): Promise<string | undefined> {
    return this.tracing.span(trace, 'check parameters', { [ATTRIBUTE.actionName]: action.name }, async ({ span }) => {
      const prepared = this.preparedFor(action);
      let check: ParameterCheck;
      if (prepared.kind === 'broken') {
        check = { valid: false, problem: "cannot be checked: the action's json_schema no longer compiles" };
      } else if (prepared.kind === 'inline' && fitsInline(prepared.cost, parameters)) {
        span?.setAttribute(ATTRIBUTE.schemaCheck, 'inline');
        check = runCheck(prepared.validate, parameters);
      } else {
        span?.setAttribute(ATTRIBUTE.schemaCheck, 'worker');
        check = await this.compiler.checkIsolated(action.tenantId, prepared.key, action.jsonSchema, parameters);
      }
      span?.setAttribute(ATTRIBUTE.schemaValid, check.valid);
      return problemsOf(check);
    });
  }

  private preparedFor(action: ExecutableAction): PreparedSchema {
    let prepared = this.cache.get(action.version);
    if (prepared) {
      this.cache.delete(action.version);
    } else {
      // Stored schemas were accepted when saved; one that no longer compiles (a dialect change) accepts nothing.
      prepared = this.compiler.prepare(action.jsonSchema);
    }
    this.cache.set(action.version, prepared);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    return prepared;
  }

  get size(): number {
    return this.cache.size;
  }
}

function problemsOf(check: ParameterCheck): string | undefined {
  if (check.valid) return undefined;
  if ('problem' in check) return `parameters: ${check.problem}`;
  return check.errors.map((error) => `parameters${error.instancePath.replace(/\//g, '.')}: ${error.message ?? 'is invalid'}`).join('; ');
}
