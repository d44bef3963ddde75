import { Injectable } from '@nestjs/common';
import { ValidateFunction } from 'ajv';
import { ExecutableAction } from '../actions/actions.service';
import { JsonSchemaCompiler } from '../actions/json-schema-compiler';

const MAX_CACHED = 1_000;

/**
 * Compiled parameter validators, one per action version, so a hot action does not recompile its schema on
 * every call. Least recently used versions go first; an updated action gets a new version.
 */
@Injectable()
export class ParameterValidators {
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly compiler: JsonSchemaCompiler) {}

  /** The problems with `parameters`, or undefined when they are valid. */
  check(action: ExecutableAction, parameters: unknown): string | undefined {
    const validate = this.validatorFor(action);
    try {
      if (validate(parameters)) return undefined;
    } catch {
      // Ajv's generated code recurses with the data; pathological parameters can exhaust the stack.
      return 'parameters: are too complex to check';
    }
    return (validate.errors ?? [])
      .map((error) => `parameters${error.instancePath.replace(/\//g, '.')}: ${error.message ?? 'is invalid'}`)
      .join('; ');
  }

  private validatorFor(action: ExecutableAction): ValidateFunction {
    let validate = this.cache.get(action.version);
    if (validate) {
      this.cache.delete(action.version);
    } else {
      const compiled = this.compiler.compile(action.jsonSchema);
      // Stored schemas compiled when they were saved; one that no longer does (a dialect change) accepts nothing.
      validate = compiled.ok ? compiled.validate : rejectAll;
    }
    this.cache.set(action.version, validate);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    return validate;
  }

  get size(): number {
    return this.cache.size;
  }
}

const rejectAll = Object.assign(() => false, {
  errors: [{ instancePath: '', message: 'cannot be checked: the action\'s json_schema no longer compiles', keyword: 'schema', schemaPath: '#', params: {} }],
}) as unknown as ValidateFunction;
