import { DomainError } from '../../common/domain.error';

export class OriginNotAllowedError extends DomainError {
  readonly kind = 'forbidden';
  constructor() {
    super('Origin not allowed', "Origin: must be this service's own or one of MCP_ALLOWED_ORIGINS (or no Origin at all)");
  }
}
