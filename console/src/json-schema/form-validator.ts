import { Validator } from '@cfworker/json-schema';
import {
  createErrorHandler,
  CustomValidator,
  ErrorTransformer,
  RJSFSchema,
  RJSFValidationError,
  ROOT_SCHEMA_PREFIX,
  toErrorSchema,
  UiSchema,
  unwrapErrorHandler,
  ValidationData,
  validationDataMerge,
  ValidatorType,
  withIdRefPrefix,
} from '@rjsf/utils';
import { Draft } from './meta-schemas';
import { describeProblems } from './problems';

type FormData = Record<string, unknown>;

/**
 * rjsf's validator over @cfworker/json-schema. rjsf's own (@rjsf/validator-ajv8) compiles schemas with
 * `new Function`, which the console's Content-Security-Policy forbids; this one interprets them. Errors are worded
 * as Ajv (and the service) words them, and placed on the field they concern. (@rjsf/validator-ajv8 stays among the
 * devDependencies all the same: @rjsf/core's bundle imports it, in its test registry, so the build must resolve it.)
 */
export class FormValidator implements ValidatorType<FormData, RJSFSchema> {
  constructor(private readonly draft: Draft) {}

  rawValidation<Result = RJSFValidationError>(schema: RJSFSchema, formData?: FormData): { errors?: Result[]; validationError?: Error } {
    try {
      const result = new Validator(schema as Record<string, unknown>, this.draft, false).validate(formData ?? {});
      return { errors: this.toRjsfErrors(result.errors) as Result[] };
    } catch (error) {
      return { validationError: error as Error };
    }
  }

  validateFormData(
    formData: FormData | undefined,
    schema: RJSFSchema,
    customValidate?: CustomValidator<FormData, RJSFSchema>,
    transformErrors?: ErrorTransformer<FormData, RJSFSchema>,
    uiSchema?: UiSchema<FormData, RJSFSchema>,
  ): ValidationData<FormData> {
    const { errors = [], validationError } = this.rawValidation(schema, formData);
    let list: RJSFValidationError[] = validationError ? [...errors, { stack: validationError.message, message: validationError.message }] : errors;
    if (transformErrors) list = transformErrors(list, uiSchema);
    const data: ValidationData<FormData> = { errors: list, errorSchema: toErrorSchema<FormData>(list) };
    if (!customValidate) return data;
    const custom = customValidate(formData, createErrorHandler<FormData>(formData ?? {}), uiSchema);
    return validationDataMerge<FormData>(data, unwrapErrorHandler<FormData>(custom));
  }

  /** Whether `formData` fits `schema`, a part of `rootSchema` (its `#/...` references point into the root). */
  isValid(schema: RJSFSchema, formData: FormData | undefined, rootSchema: RJSFSchema): boolean {
    try {
      const validator = new Validator(withIdRefPrefix(schema) as Record<string, unknown>, this.draft, true);
      validator.addSchema({ ...rootSchema, $id: ROOT_SCHEMA_PREFIX } as Record<string, unknown>, ROOT_SCHEMA_PREFIX);
      return validator.validate(formData).valid;
    } catch {
      return false;
    }
  }

  private toRjsfErrors(units: Parameters<typeof describeProblems>[0]): RJSFValidationError[] {
    return describeProblems(units).map((problem) => {
      const segments = problem.path.split('/').slice(1);
      if (problem.missingProperty !== undefined) segments.push(problem.missingProperty);
      const property = segments.map((segment) => `.${segment}`).join('');
      return {
        name: problem.keyword,
        property,
        message: problem.message,
        params: problem.missingProperty !== undefined ? { missingProperty: problem.missingProperty } : {},
        stack: problem.missingProperty !== undefined ? problem.message : `${property} ${problem.message}`.trim(),
        schemaPath: problem.path,
      };
    });
  }
}
