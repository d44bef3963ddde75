import { DomainError } from '../common/domain.error';

export class ActionNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor() {
    super('Action not found');
  }
}

export class ActionNameTakenError extends DomainError {
  readonly kind = 'conflict';
  constructor(name: string) {
    super(`action with name '${name}' already exists`);
  }
}

export class ActionLimitReachedError extends DomainError {
  readonly kind = 'forbidden';
  constructor(limit: number) {
    super(`action limit reached: a tenant may have at most ${limit} actions`);
  }
}
